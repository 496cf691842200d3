int f(unsigned char a, signed char b, unsigned u, long l) {
    int r = a + b;
    r += u < -1;
    l = l + u;
    return r + (short)l;
}
int main(void) { return f(1, 2, 3, 4); }
