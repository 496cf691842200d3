typedef int T;
typedef struct node node;
T global;
void f(T T2) {
    T * x;
    T (y);
    node *n;
    {
        int T = 3;
        T * 2;
        T = T + 1;
    }
    T z = (T)1 + sizeof(T);
}
int T2(int T) { return T * 2; }
void g(void) {
    typedef char T;
    T c;
    for (T i = 0;;) { int T; T = 1; }
    T after;
}
enum { node_count = 3 };
void h(int node) { node = node * node_count; }
typedef int bool_like;
void k(void) { bool b; int bool_ = (bool)1; }
