// error at 2: use of undeclared identifier `nope`
static inline int broken(void) { return nope; }
int main(void) { return broken(); }
