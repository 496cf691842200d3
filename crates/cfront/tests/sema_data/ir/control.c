int g(int);
int main(void) {
    int s = 0;
    for (int i = 0; i < 3; i++) {
        if (i == 1) continue;
        s += i;
    }
    while (s > 0 && g(s)) s--;
    switch (s) {
    case 1: s = 10;
    case 2 ... 4: break;
    default: s = 0;
    }
    return s;
}
