// error at 3: conflicting types for `f`
int f(int);
double f(int x) { return x; }
int main(void) { return 0; }
