// error at 2: unsupported: complex integer types
int main(void) { _Complex int z = 1; return 0; }
