int s(int n) {
    int i, total = 0;
    for (i = 0; i < n; i++) total += i;
    for (int j = 0, k = 1; j < k; ++j) continue;
    for (;;) break;
    while (n) n--;
    do { n++; } while (n < 10);
    if (n) total = 1; else if (total) total = 2; else total = 3;
    switch (n) {
    case 0: total = 0; break;
    case 1 ... 5: total = 1;
    case 'a':
    default: total = -1;
    }
    goto end;
    {
        ;
        int inner;
    }
end:
    return total;
}
void empty_return(void) { return; }
void label_at_end(void) { lbl: }
void fallthrough(int x) {
    switch (x) { case 1: x++; __attribute__((fallthrough)); case 2: break; }
}
