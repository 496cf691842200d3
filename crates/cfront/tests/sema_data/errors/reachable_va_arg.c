// error at 7: unsupported: `va_arg` of a type that default argument promotions change
#include <stdarg.h>

int first(int n, ...) {
    va_list ap;
    va_start(ap, n);
    float v = va_arg(ap, float);
    va_end(ap);
    return v;
}

int main(void) { return first(1, 5.0f); }
