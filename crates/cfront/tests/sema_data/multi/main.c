/* Two translation units: shared externals, separate file statics. */
extern int counter;
int add(int);
int external_only(void);
static int hidden = 1;

int main(void) {
    add(2);
    add(3);
    if (counter != 5) return 1;
    if (hidden != 1) return 2;
    return 0;
}
