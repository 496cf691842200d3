// error at 2: not assignable
int main(void) { int a = 0; a + 1 = 2; return a; }
