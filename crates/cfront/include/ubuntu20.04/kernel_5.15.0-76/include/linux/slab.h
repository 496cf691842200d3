/* tarsier model of <linux/slab.h> (kernel 5.15, x86-64, 4 KiB pages,
   MAX_ORDER 11): kmalloc, kzalloc, kcalloc, kfree.

   kmalloc(size, flags) behaves as the kernel does: a request of 0 bytes
   returns ZERO_SIZE_PTR (not dereferenceable, accepted by kfree); a request
   above KMALLOC_MAX_SIZE (4 MiB) makes the page allocator warn
   (WARN_ON_ONCE, unless __GFP_NOWARN) and return NULL, and the warning is a
   kernel bug report, so it is checked as an assertion; any other request may
   fail (NULL) like malloc. __GFP_ZERO zero-fills. Flags in
   GFP_SLAB_BUG_MASK (__GFP_DMA32, __GFP_HIGHMEM, or bits beyond
   __GFP_BITS_MASK) are a caller's bug the slab allocator reports
   (kmalloc_fix_flags in mm/slab_common.c: "Unexpected gfp ... Fix your
   code!" with a stack dump, whenever the request needs a new slab or the
   page allocator), so they are checked as an assertion too; the kernel
   then clears them and goes on. */
#ifndef TARSIER_MODEL_LINUX_SLAB_H
#define TARSIER_MODEL_LINUX_SLAB_H

#include <stdlib.h>
#include <string.h>
#include "types.h"

#define ___GFP_DMA 0x01u
#define ___GFP_HIGHMEM 0x02u
#define ___GFP_DMA32 0x04u
#define ___GFP_MOVABLE 0x08u
#define ___GFP_RECLAIMABLE 0x10u
#define ___GFP_HIGH 0x20u
#define ___GFP_IO 0x40u
#define ___GFP_FS 0x80u
#define ___GFP_ZERO 0x100u
#define ___GFP_ATOMIC 0x200u
#define ___GFP_DIRECT_RECLAIM 0x400u
#define ___GFP_KSWAPD_RECLAIM 0x800u
#define ___GFP_WRITE 0x1000u
#define ___GFP_NOWARN 0x2000u
#define ___GFP_RETRY_MAYFAIL 0x4000u
#define ___GFP_NOFAIL 0x8000u
#define ___GFP_NORETRY 0x10000u
#define ___GFP_ACCOUNT 0x400000u

#define __GFP_DMA ((gfp_t)___GFP_DMA)
#define __GFP_HIGHMEM ((gfp_t)___GFP_HIGHMEM)
#define __GFP_DMA32 ((gfp_t)___GFP_DMA32)
#define __GFP_MOVABLE ((gfp_t)___GFP_MOVABLE)
#define __GFP_RECLAIMABLE ((gfp_t)___GFP_RECLAIMABLE)
#define __GFP_HIGH ((gfp_t)___GFP_HIGH)
#define __GFP_IO ((gfp_t)___GFP_IO)
#define __GFP_FS ((gfp_t)___GFP_FS)
#define __GFP_ZERO ((gfp_t)___GFP_ZERO)
#define __GFP_ATOMIC ((gfp_t)___GFP_ATOMIC)
#define __GFP_DIRECT_RECLAIM ((gfp_t)___GFP_DIRECT_RECLAIM)
#define __GFP_KSWAPD_RECLAIM ((gfp_t)___GFP_KSWAPD_RECLAIM)
#define __GFP_RECLAIM ((gfp_t)(___GFP_DIRECT_RECLAIM | ___GFP_KSWAPD_RECLAIM))
#define __GFP_WRITE ((gfp_t)___GFP_WRITE)
#define __GFP_NOWARN ((gfp_t)___GFP_NOWARN)
#define __GFP_RETRY_MAYFAIL ((gfp_t)___GFP_RETRY_MAYFAIL)
#define __GFP_NOFAIL ((gfp_t)___GFP_NOFAIL)
#define __GFP_NORETRY ((gfp_t)___GFP_NORETRY)
#define __GFP_ACCOUNT ((gfp_t)___GFP_ACCOUNT)

/* Without CONFIG_LOCKDEP, as Ubuntu builds the kernel. */
#define __GFP_BITS_SHIFT 25
#define __GFP_BITS_MASK ((gfp_t)((1u << __GFP_BITS_SHIFT) - 1))
#define GFP_SLAB_BUG_MASK (__GFP_DMA32 | __GFP_HIGHMEM | ~__GFP_BITS_MASK)

#define GFP_ATOMIC (__GFP_HIGH | __GFP_ATOMIC | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL (__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_KERNEL_ACCOUNT (GFP_KERNEL | __GFP_ACCOUNT)
#define GFP_NOWAIT (__GFP_KSWAPD_RECLAIM)
#define GFP_NOIO (__GFP_RECLAIM)
#define GFP_NOFS (__GFP_RECLAIM | __GFP_IO)
#define GFP_USER (__GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_HARDWALL)
#define GFP_DMA __GFP_DMA
#define GFP_DMA32 __GFP_DMA32
#define __GFP_HARDWALL ((gfp_t)0x100000u)

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define MAX_ORDER 11
#define KMALLOC_SHIFT_MAX (MAX_ORDER + PAGE_SHIFT - 1)
#define KMALLOC_MAX_SIZE (1UL << KMALLOC_SHIFT_MAX)

#define ZERO_SIZE_PTR ((void *)16)

static inline void *kmalloc(size_t size, gfp_t flags)
{
  void *block;
  if (flags & GFP_SLAB_BUG_MASK) {
    __ESBMC_assert(0, "kmalloc: flags in GFP_SLAB_BUG_MASK (__GFP_DMA32, __GFP_HIGHMEM or unknown bits)");
    flags &= ~GFP_SLAB_BUG_MASK;
  }
  if (size == 0)
    return ZERO_SIZE_PTR;
  if (size > KMALLOC_MAX_SIZE) {
    if (!(flags & __GFP_NOWARN))
      __ESBMC_assert(0, "kmalloc: request larger than KMALLOC_MAX_SIZE");
    return NULL;
  }
  block = malloc(size);
  if (block != NULL && (flags & __GFP_ZERO))
    memset(block, 0, size);
  return block;
}

static inline void *kzalloc(size_t size, gfp_t flags)
{
  return kmalloc(size, flags | __GFP_ZERO);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
  if (size != 0 && n > SIZE_MAX / size)
    return NULL;
  return kmalloc(n * size, flags);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
  return kmalloc_array(n, size, flags | __GFP_ZERO);
}

static inline void kfree(const void *block)
{
  if (block == NULL || block == ZERO_SIZE_PTR)
    return;
  free((void *)block);
}

#endif
