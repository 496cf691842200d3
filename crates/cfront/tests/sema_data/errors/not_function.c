// error at 2: called object is not a function
int main(void) { int x = 0; return x(); }
