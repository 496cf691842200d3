/* Pointer arithmetic, decay, comparisons, casts. */
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

struct pt { int x, y; };

static int sum(const int *v, int n) { int s = 0; for (int i = 0; i < n; i++) s += v[i]; return s; }
static int twice(int x) { return 2 * x; }

int main(void) {
    int a[5] = {1, 2, 3, 4, 5};
    int *p = a;
    CHECK(*p == 1 && *(p + 2) == 3 && p[4] == 5 && 2[a] == 3);
    int *q = &a[4];
    CHECK(q - p == 4 && p < q && q >= p && p != q);
    q -= 2;
    CHECK(*q == 3);
    q--;
    CHECK(*q == 2);
    CHECK(sum(a, 5) == 15);
    CHECK(sizeof a == 5 * sizeof(int) && sizeof p == sizeof(void *));
    struct pt s = {3, 4};
    struct pt *ps = &s;
    CHECK(ps->x == 3 && (*ps).y == 4);
    ps->y = 10;
    CHECK(s.y == 10);
    int (*fp)(int) = twice;
    CHECK(fp(4) == 8 && (*fp)(5) == 10 && twice(1) == 2);
    fp = &twice;
    CHECK(fp(6) == 12);
    void *v = a;
    int *back = v;
    CHECK(back[1] == 2);
    char *c = (char *)a;
    CHECK(c + sizeof(int) == (char *)&a[1]);
    int m[2][3] = {{1, 2, 3}, {4, 5, 6}};
    CHECK(m[1][2] == 6 && *(*(m + 1) + 1) == 5);
    int (*row)[3] = m;
    CHECK(row[1][0] == 4);
    CHECK((p = 0) == 0 && !p);
    const char *str = "hello";
    CHECK(str[1] == 'e' && str[5] == 0 && sizeof("hello") == 6);
    char buf[] = "abc";
    CHECK(sizeof buf == 4 && buf[2] == 'c');
    return 0;
}
