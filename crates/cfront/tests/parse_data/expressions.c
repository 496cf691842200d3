void e(int a, int b, int c, int *p, struct s *sp, double d) {
    a = b + c * 2 - 4 / c % 3;
    a = b << 1 >> 2 < 3 <= 4 > 5 >= 6 == 7 != 8;
    a = b & c ^ a | b && c || a;
    a += b -= c *= 2; a /= 2; a %= 3; a <<= 1; a >>= 1; a &= 1; a ^= 1; a |= 1;
    a = b ? c : a ? 1 : 2;
    a = b ?: c;
    a = -b + +c - ~a + !b;
    a = *p++ + ++*p - p[2] + (*p)--;
    a = sp->x.y[3]->z;
    a = sizeof a + sizeof(int) + sizeof(int[3]) + sizeof (a) + _Alignof(double) + __alignof__(a);
    a = (int)d + (unsigned char)(long)a;
    p = (int *)0;
    p = &(int){3};
    a = ((struct s){.x = 1}).x;
    a = f(1, g(), (2, 3));
    a = (a, b, c);
    a = _Generic(a, int: 1, char *: 2, default: 3);
    d = __builtin_va_arg(ap, double);
    a = __builtin_offsetof(struct s, x.y[2].z);
    a = __builtin_types_compatible_p(int, long);
    a = __builtin_choose_expr(1, a, b);
    a = __builtin_expect(a, 0);
    a = __real__ z + __imag__ z;
    a = __extension__ (b + 1);
    a = sizeof(int){0};
    a = - - - a;
    a = a++ + ++a;
}
