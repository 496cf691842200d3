int a[5] = { 1, 2, 3, };
int b[10] = { [2] = 1, [5 ... 7] = 2, [0] = 3 };
struct pt { int x, y; } p = { .y = 2, .x = 1 };
struct pt q = { y: 2, x: 1 };
struct nest { struct pt a[2]; int z; } n = { .a[1].y = 5, .a[0] = { 1, 2 }, 7 };
char str[] = "text";
char strs[][4] = { "ab", { 'c', 'd' } };
int empty[2] = {};
int nested[2][2] = { { 1, 2 }, { 3, 4 } };
int old_index[3] = { [1] 5 };
void f(void) { int local = { 3 }; struct pt r = { .x = local }; }
