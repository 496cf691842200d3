/* tarsier's Linux kernel model headers: kmalloc's size limit and zero-size
   result, kzalloc's zero fill, and copies between the address spaces
   (copies that mix them fail an assertion, which this program avoids). */
#include <ubuntu20.04/kernel_5.15.0-76/include/linux/slab.h>
#include <ubuntu20.04/kernel_5.15.0-76/include/asm/uaccess.h>
#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

int main(void) {
    CHECK(KMALLOC_MAX_SIZE == 4ul << 20);
    CHECK(GFP_KERNEL == 0xcc0u && GFP_ATOMIC == 0xa20u);
    CHECK(kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR);
    kfree(ZERO_SIZE_PTR);
    kfree(NULL);
    CHECK(kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL | __GFP_NOWARN) == NULL);
    unsigned char *zeroed = kzalloc(8, GFP_KERNEL);
    if (zeroed) {
        for (int i = 0; i < 8; i++)
            CHECK(zeroed[i] == 0);
        kfree(zeroed);
    }
    CHECK(kcalloc((size_t)-1, 2, GFP_KERNEL) == NULL);

    kernel_memory[0] = 'k';
    CHECK(copy_to_user(user_memory + 10, kernel_memory, 1) == 0 && user_memory[10] == 'k');
    CHECK(access_ok(user_memory, USER_MEMORY_SPACE) && !access_ok(user_memory + 1, USER_MEMORY_SPACE));
    CHECK(!access_ok(kernel_memory, 1) && !access_ok(NULL, 1) && !is_user_pointer(kernel_memory));
    user_memory[20] = 'u';
    CHECK(copy_from_user(kernel_memory + 1, user_memory + 20, 1) == 0 && kernel_memory[1] == 'u');
    return 0;
}
