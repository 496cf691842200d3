/* tarsier model of <asm/uaccess.h> (kernel 5.15, x86-64): copy_to_user,
   copy_from_user, clear_user and access_ok.

   The two address spaces are modelled as two arrays, user_memory and
   kernel_memory, of USER_MEMORY_SPACE and KERNEL_MEMORY_SPACE bytes: a
   pointer is a valid user address when it points into user_memory.
   Programs take their buffers from these arrays. As in the kernel,
   access_ok(addr, n) says whether [addr, addr + n) is user memory, and the
   copy functions return the number of bytes NOT copied: everything when the
   user range fails access_ok (nothing is copied), 0 after a full copy.
   Mixing the address spaces is a kernel bug (the kernel's __user checker
   rejects it), so each copy also asserts that its user range lies in user
   memory and its kernel pointer does not point into user memory. The kernel
   side is an ordinary pointer: copying from or to an invalid kernel buffer
   is a memory error the verifier reports. */
#ifndef TARSIER_MODEL_ASM_UACCESS_H
#define TARSIER_MODEL_ASM_UACCESS_H

#include <string.h>
#include "../linux/types.h"

#define USER_MEMORY_SPACE 10000
#define KERNEL_MEMORY_SPACE 10000

char user_memory[USER_MEMORY_SPACE];
char kernel_memory[KERNEL_MEMORY_SPACE];

/* Whether p points into user_memory, and where: by its object and offset,
   not by comparing addresses of different objects (which C leaves
   undefined, and the verifier may place anywhere). */
_Bool __ESBMC_same_object(const void *a, const void *b);
long __ESBMC_POINTER_OFFSET(const void *p);

static inline long user_offset(const void *p)
{
  if (p == NULL || !__ESBMC_same_object(p, user_memory))
    return -1;
  return __ESBMC_POINTER_OFFSET(p);
}

static inline int access_ok(const void __user *addr, unsigned long size)
{
  long offset = user_offset(addr);
  return offset >= 0 && offset <= USER_MEMORY_SPACE && size <= (unsigned long)(USER_MEMORY_SPACE - offset);
}

static inline int is_user_pointer(const void *p)
{
  long offset = user_offset(p);
  return offset >= 0 && offset < USER_MEMORY_SPACE;
}

static inline unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
  __ESBMC_assert(access_ok(to, n), "copy_to_user: destination is not user memory");
  __ESBMC_assert(!is_user_pointer(from), "copy_to_user: source is user memory");
  if (!access_ok(to, n))
    return n;
  memcpy(to, from, n);
  return 0;
}

static inline unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
  __ESBMC_assert(access_ok(from, n), "copy_from_user: source is not user memory");
  __ESBMC_assert(!is_user_pointer(to), "copy_from_user: destination is user memory");
  if (!access_ok(from, n)) {
    /* The kernel zero-fills the destination of a failed copy. */
    memset(to, 0, n);
    return n;
  }
  memcpy(to, from, n);
  return 0;
}

static inline unsigned long clear_user(void __user *to, unsigned long n)
{
  if (!access_ok(to, n))
    return n;
  memset(to, 0, n);
  return 0;
}

#endif
