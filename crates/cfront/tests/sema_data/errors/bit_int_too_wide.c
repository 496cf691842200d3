// error at 2: _BitInt(70000) is wider than 65535 bits
int main(void) { unsigned _BitInt(70000) wide = 1; return 0; }
