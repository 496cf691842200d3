// error at 3: a scalar value is required
typedef int v4si __attribute__((vector_size(16)));
static inline v4si both(v4si a, v4si b) { return a && b; }
int main(void) { v4si x = {1, 2, 3, 4}; x = both(x, x); return 0; }
