// error: unsupported: complex arithmetic
int main(void) { _Complex double z = 1.0; return z == 1.0; }
