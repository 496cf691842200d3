/* Loops, switch, goto, break/continue, statement expressions. */
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

static int classify(int x) {
    switch (x) {
    case 0:
        return 10;
    case 1:
    case 2:
        x += 100;          /* falls through */
    case 3:
        return x;
    case 5 ... 7:
        return 57;
    default:
        return -1;
    case 'z':
        return 26;
    }
}

static int char_switch(unsigned char c) {
    switch (c) {
    case 255: return 1;
    case -1: return 2;     /* the controlling value is an int: -1 never equals 255 */
    }
    return 0;
}

int main(void) {
    int s = 0;
    for (int i = 0; i < 10; i++) {
        if (i == 3) continue;
        if (i == 8) break;
        s += i;
    }
    CHECK(s == 0 + 1 + 2 + 4 + 5 + 6 + 7);
    int n = 0;
    while (n < 5) n++;
    CHECK(n == 5);
    do { n--; } while (n > 2);
    CHECK(n == 2);
    CHECK(classify(0) == 10 && classify(1) == 101 && classify(3) == 3 && classify(6) == 57);
    CHECK(classify(4) == -1 && classify('z') == 26);
    CHECK(char_switch(255) == 1);
    int k = 0;
again:
    k++;
    if (k < 3) goto again;
    CHECK(k == 3);
    goto forward;
    return 99;
forward:
    k = ({ int t = k * 2; t + 1; });
    CHECK(k == 7);
    int total = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            if (b == 2) break;
            total++;
        }
    CHECK(total == 6);
    switch (k) {
        int hidden;
    case 7:
        hidden = 1;
        total = hidden;
        break;
    }
    CHECK(total == 1);
    goto skip;
    int late;
skip:
    late = 4;            /* the jump skipped the declaration, not the lifetime */
    CHECK(late == 4);
    return 0;
}
