/* Every operator, including side effects inside expressions. */
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

static int calls;
static int bump(int x) { calls++; return x; }

int main(void) {
    int a = 5, b = 3;
    CHECK(a + b == 8 && a - b == 2 && a * b == 15 && a / b == 1 && a % b == 2);
    CHECK((a & b) == 1 && (a | b) == 7 && (a ^ b) == 6 && (a << 2) == 20 && (a >> 1) == 2);
    CHECK(!0 == 1 && !a == 0 && -a == -5 && +a == 5 && ~a == -6);
    CHECK((a < b) == 0 && (a > b) == 1 && (a <= 5) == 1 && (a >= 6) == 0 && (a == 5) && (a != 5) == 0);
    int i = 0;
    int j = i++;
    CHECK(j == 0 && i == 1);
    j = ++i;
    CHECK(j == 2 && i == 2);
    j = i--;
    CHECK(j == 2 && i == 1);
    j = --i;
    CHECK(j == 0 && i == 0);
    i = 10;
    i += 5; CHECK(i == 15);
    i -= 3; CHECK(i == 12);
    i *= 2; CHECK(i == 24);
    i /= 5; CHECK(i == 4);
    i %= 3; CHECK(i == 1);
    i <<= 4; CHECK(i == 16);
    i >>= 2; CHECK(i == 4);
    i &= 6; CHECK(i == 4);
    i |= 3; CHECK(i == 7);
    i ^= 5; CHECK(i == 2);
    int x, y;
    x = y = 7;
    CHECK(x == 7 && y == 7);
    CHECK((x = 3) == 3);
    /* short-circuit: the right side must not run */
    calls = 0;
    if (0 && bump(1)) return __LINE__;
    if (1 || bump(1)) { } else return __LINE__;
    CHECK(calls == 0);
    CHECK((bump(1) && bump(0)) == 0 && calls == 2);
    int *p = 0;
    CHECK(!(p && *p));
    CHECK(p == 0 || *p);
    CHECK((p ? *p : 9) == 9);
    /* conditional with side effects in one arm only */
    calls = 0;
    int r = a > b ? bump(10) : bump(20);
    CHECK(r == 10 && calls == 1);
    r = a ?: 4;
    CHECK(r == 5);
    r = (a++, b++, a + b);
    CHECK(r == 10);
    unsigned char uc = 255;
    uc++;
    CHECK(uc == 0);
    _Bool flag = 0;
    flag++;
    flag++;
    CHECK(flag == 1);
    double d = 1.5;
    d++;
    CHECK(d == 2.5);
    /* compound assignment whose right side has a side effect on the index */
    int arr[4] = {0, 0, 0, 0};
    int k = 0;
    arr[k] += (k = 2, 1);
    CHECK(arr[0] == 1 || arr[2] == 1);
    return 0;
}
