/* GCC vector types: element-wise arithmetic, broadcast of scalars,
   comparisons giving -1/0 lanes, subscripts, shuffles. */
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

typedef int v4si __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef unsigned char v4qu __attribute__((vector_size(4)));

v4si global_v = (v4si){1, 2, 3, 4};

static v4si twice(v4si v) { return v + v; }

int main(void) {
    v4si a = {1, 2, 3, 4};
    v4si b = twice(a) - 1;
    CHECK(b[0] == 1 && b[3] == 7);
    v4si c = a * b + global_v;
    CHECK(c[1] == 2 * 3 + 2);
    v4si m = a > 2;
    CHECK(m[0] == 0 && m[2] == -1);
    v4si n = -a;
    CHECK(n[3] == -4);
    a[1] = 10;
    CHECK(a[1] == 10);
    v2df d = {1.5, 2.5};
    d = d * 2;
    CHECK(d[0] == 3.0 && d[1] == 5.0);
    v4qu q = {250, 1, 2, 3};
    q = q + 10;                    /* lanes wrap in their element type */
    CHECK(q[0] == 4 && q[1] == 11);
    v4si s = __builtin_shufflevector(a, b, 0, 4, 3, 7);
    CHECK(s[0] == 1 && s[1] == 1 && s[2] == 4 && s[3] == 7);
    CHECK(sizeof(v4qu) == 4);
    typedef float v4sf __attribute__((vector_size(16)));
    v4sf fl = __builtin_convertvector(a, v4sf);
    CHECK(fl[1] == 10.0f);
    typedef short v2hi __attribute__((vector_size(4)));
    v2hi pair = (v2hi)(v4qu){1, 2, 3, 4};           /* same-size casts reinterpret */
    CHECK(pair[0] == 0x0201 && pair[1] == 0x0403);
    CHECK((unsigned)(v4qu)0x04030201u == 0x04030201u && ((v4qu)0x04030201u)[3] == 4);
    typedef char v8qi __attribute__((vector_size(8)));     /* x86 saturating lanes */
    v8qi sa = {100, -100, 1}, sb = {100, -100, 2};
    v8qi sat = __builtin_ia32_paddsb(sa, sb), usat = __builtin_ia32_paddusb(sa, sb);
    CHECK(sat[0] == 127 && sat[1] == -128 && sat[2] == 3 && sat[3] == 0);
    CHECK((unsigned char)usat[0] == 200 && (unsigned char)usat[1] == 255);
    v8qi floor = __builtin_ia32_psubusb(sa, sb);
    CHECK(floor[0] == 0 && floor[2] == 0);
    return 0;
}
