// error at 2: unsupported: _BitInt(200) wider than 128 bits
int main(void) { unsigned _BitInt(200) wide = 1; return 0; }
