// error at 2: static assertion failed: sizes
_Static_assert(sizeof(int) == 8, "sizes");
int main(void) { return 0; }
