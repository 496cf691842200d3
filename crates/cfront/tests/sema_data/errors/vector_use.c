// error at 4: unsupported: GCC vector types
typedef int v4si __attribute__((vector_size(16)));
static inline v4si add4(v4si a, v4si b) { return a + b; }
int main(void) { v4si x = {1, 2, 3, 4}; x = add4(x, x); return 0; }
