// error at 2: not a struct or union
int main(void) { int x = 0; return x.field; }
