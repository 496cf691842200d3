/* tarsier model of <linux/types.h> (kernel 5.15, x86-64): the kernel's
   integer types, the allocation-flags type and the address-space marker
   (a checker annotation with no effect on code). */
#ifndef TARSIER_MODEL_LINUX_TYPES_H
#define TARSIER_MODEL_LINUX_TYPES_H

#include <stddef.h>
#include <stdint.h>

#define __user
#define __kernel
#define __force

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;

/* The verifier's assertion, for the checks the kernel makes at run time
   (WARN_ON, BUG_ON). */
void __ESBMC_assert(_Bool condition, const char *message);

#endif
