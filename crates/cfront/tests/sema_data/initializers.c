/* Initializers: braces, elision, designators, strings, unions, statics. */
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

struct in { int a, b; };
struct out { struct in i; int arr[3]; char name[4]; };
union u { int i; char c[4]; };

int garr[] = {1, 2, [9] = 10};
struct out gs = {{1, 2}, {3, 4, 5}, "xy"};
struct out elided = {1, 2, 3, 4, 5, "z"};
int grid[2][3] = {1, 2, 3, 4};
struct in des[] = {[2].b = 7, [0] = {1, 2}};
int ranged[6] = {[1 ... 3] = 9};
char *names[] = {"ab", "cd"};
int *gp = &garr[9];
union u gu = {.c = {1, 0, 0, 0}};

int main(void) {
    CHECK(sizeof garr / sizeof garr[0] == 10);
    CHECK(garr[0] == 1 && garr[1] == 2 && garr[5] == 0 && garr[9] == 10);
    CHECK(gs.i.b == 2 && gs.arr[2] == 5 && gs.name[1] == 'y' && gs.name[2] == 0);
    CHECK(elided.i.a == 1 && elided.arr[0] == 3 && elided.name[0] == 'z');
    CHECK(grid[0][2] == 3 && grid[1][0] == 4 && grid[1][1] == 0);
    CHECK(sizeof des / sizeof des[0] == 3 && des[0].b == 2 && des[2].b == 7 && des[1].a == 0);
    CHECK(ranged[0] == 0 && ranged[1] == 9 && ranged[3] == 9 && ranged[4] == 0);
    CHECK(names[1][1] == 'd');
    CHECK(*gp == 10);
    CHECK(gu.i == 1);
    struct in local = {.b = 5};
    CHECK(local.a == 0 && local.b == 5);
    struct in over = {1, 2, .a = 3};
    CHECK(over.a == 3 && over.b == 2);
    int zeros[10] = {0};
    CHECK(zeros[9] == 0);
    int partial[4] = {[2] = 1, 2};
    CHECK(partial[3] == 2 && partial[0] == 0);
    char s[8] = "hi";
    CHECK(s[0] == 'h' && s[2] == 0 && s[7] == 0);
    int scalar = {4};
    CHECK(scalar == 4);
    struct in *lit = &(struct in){8, 9};
    CHECK(lit->b == 9);
    int *arrlit = (int[]){5, 6, 7};
    CHECK(arrlit[2] == 7);
    static int counter = 3;
    counter++;
    CHECK(counter == 4);
    union u lu = {258};
    CHECK(lu.c[0] == 2 && lu.c[1] == 1);
    struct in copy = local;
    CHECK(copy.b == 5);
    return 0;
}
