// An off-by-one loop: the last iteration writes a[10]. tarsier reports an
// array-bounds violation with a trace of the loop.
int main(void) {
    int a[10];
    for (int i = 0; i <= 10; i++)
        a[i] = i;
    return a[0];
}
