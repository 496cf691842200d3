// error at 2: `_Complex` needs a floating or integer type
int main(void) { _Complex _Bool z = 1; return 0; }
