int counter;
static int hidden = 7;
int external_only(void);

int add(int n) {
    hidden++;
    counter += n;
    return counter;
}
