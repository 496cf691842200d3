// error at 7: unsupported: va_arg
#include <stdarg.h>

int first(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int v = va_arg(ap, int);
    va_end(ap);
    return v;
}

int main(void) { return first(1, 5); }
