// error at 2: use of undeclared identifier `missing`
int main(void) { return missing; }
