struct p { int x; char name[4]; };
struct p g = {1, "ab"};
int main(void) {
    struct p l = {.name = "z"};
    int a[3] = {[2] = 5};
    static int calls = 7;
    return l.x + a[2] + calls + g.x;
}
