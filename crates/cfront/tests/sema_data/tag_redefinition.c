/* C23 tag compatibility: a struct or union defined again in the same scope
   with the same content is the same type (code that copies a system
   header's definition next to the header relies on it). */
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

struct pair { int a; char *name; union { int i; float f; } u; };
struct pair { int a; char *name; union { int i; float f; } u; };

static int first(struct pair *p) { return p->a; }

int main(void) {
    struct pair p = { 7, 0, { 1 } };
    CHECK(first(&p) == 7 && p.u.i == 1);
    return 0;
}
