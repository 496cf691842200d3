/* Scopes, typedefs, enums, statics, tentative definitions, K&R, VLAs. */
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

typedef struct node { int v; struct node *next; } node_t;
enum color { RED, GREEN = 5, BLUE };
int tentative;
int tentative;
extern int later;
int later = 4;
static int hidden = 1;

int old_style(a, b)
    int a;
    char b;
{
    return a + b;
}

static int count_calls(void) {
    static int n;
    return ++n;
}

static const char *name(void) { return __func__; }

int fwd(int);
int fwd(int x) { return x * 3; }
int check_vla_param(void);

int main(void) {
    node_t n2 = {2, 0};
    node_t n1 = {1, &n2};
    CHECK(n1.next->v == 2);
    CHECK(RED == 0 && GREEN == 5 && BLUE == 6);
    enum color c = BLUE;
    CHECK(c == 6);
    CHECK(tentative == 0 && later == 4 && hidden == 1);
    int x = 1;
    {
        int x = 2;
        CHECK(x == 2);
        {
            extern int later;
            CHECK(later == 4);
        }
    }
    CHECK(x == 1);
    CHECK(old_style(1, 2) == 3);
    count_calls();
    CHECK(count_calls() == 2);
    CHECK(name()[0] == 'n' && name()[4] == 0);
    CHECK(fwd(2) == 6);
    int len = 4;
    int vla[len];
    CHECK(sizeof vla == 4 * sizeof(int));
    for (int i = 0; i < len; i++) vla[i] = i;
    CHECK(vla[3] == 3);
    int matrix[len][2];
    CHECK(sizeof matrix == 8 * sizeof(int));
    __auto_type inferred = 2.5;
    CHECK(sizeof inferred == sizeof(double));
    typeof(x) y = 9;
    CHECK(y == 9);
    CHECK(_Generic(1.0f, float: 1, double: 2, default: 3) == 1);
    CHECK(_Generic(x, char: 1, default: 3) == 3);
    CHECK(__builtin_choose_expr(1, 4, 5.0) == 4);
    CHECK(__builtin_constant_p(3 + 4) && !__builtin_constant_p(x));
    CHECK(__builtin_expect(x == 1, 1));
    CHECK(check_vla_param());
    return 0;
}

/* A variably modified parameter: its sizes are evaluated at entry. */
static unsigned dim = 3;
static int trace(int m[dim][dim]) {
    int s = 0;
    for (unsigned i = 0; i < dim; i++) s += m[i][i];
    return s;
}

int check_vla_param(void) {
    int m[3][3] = {{1, 0, 0}, {0, 2, 0}, {0, 0, 3}};
    return trace(m) == 6;
}
