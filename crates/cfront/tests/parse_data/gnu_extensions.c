int fa __attribute__((aligned(8)));
__attribute__((noreturn)) void ab(void);
void nr(void) __attribute__((__noreturn__, format(printf, 1, 2)));
struct __attribute__((packed)) packed_s { char c; int i; } __attribute__((aligned(4)));
int *__attribute__((unused)) ptr_attr;
int (__attribute__((stdcall)) *fp)(int);
typedef int v4si __attribute__((vector_size(16)));
[[nodiscard]] int c23_attr(void);
[[gnu::always_inline, deprecated("old")]] int c23_attrs(void);
void params(int a __attribute__((unused)), __attribute__((unused)) int b);
int renamed(int) __asm__("real_name");
int var_renamed asm("other");
__extension__ typedef long long ext_ll;
__typeof__(fa) t1; typeof(int *) t2; __typeof(1 + 2) t3;
__builtin_va_list vl;
enum __attribute__((packed)) packed_e { PE };
#pragma pack(push, 2)
struct packed_by_pragma { char c; int i; };
#pragma pack(pop)
struct after_pop { char c; };
__asm__(".globl top");
int kr(a, b)
    int a;
    char *b;
{
    return a;
}
main() { return 0; }
void locals(void) {
    __label__ done;
    __auto_type inferred = 3;
    int v = ({ int t = 2; t * 2; });
    void *target = &&done;
    goto *target;
done:
    __attribute__((unused)) int unused_local;
    asm volatile ("nop");
    __asm__ __volatile__ ("mov %1, %0" : "=r"(v) : "r"(inferred) : "memory");
    asm ("" :: "r"(v));
    __asm ("" : [out] "=r"(v) : [in] "0"(v));
}

// GNU nested function
int outer_with_nested(int k) { int add(int v) { return v + k; } return add(1); }
