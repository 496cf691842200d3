/* Declarations completed later: arrays sized by a later definition and
   functions first declared without a prototype. */
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

extern int arr[];
static int get(int i) { return arr[i]; }
int arr[3] = {1, 2, 3};

int twice();
static int call_twice(void) { return twice(21); }
int twice(int x) { return x * 2; }

int main(void) {
    CHECK(get(2) == 3);
    CHECK(sizeof arr == 3 * sizeof(int));
    CHECK(call_twice() == 42);
    return 0;
}
