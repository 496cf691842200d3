/* tarsier model of <linux/spinlock.h> (kernel 5.15): spinlock_t with
   spin_lock_init, spin_lock, spin_trylock and spin_unlock.

   A spin lock is mutual exclusion that blocks until the lock is free; it is
   modelled by a POSIX mutex, whose semantics the verifier already has.
   spin_lock has no failure path; it returns 1 so that programs written for
   an earlier model, which tested its result, still compile (the kernel's
   spin_lock returns void). SPIN_LIMIT is that earlier model's retry bound,
   kept only as a constant those programs refer to. */
#ifndef TARSIER_MODEL_LINUX_SPINLOCK_H
#define TARSIER_MODEL_LINUX_SPINLOCK_H

#include <pthread.h>
#include "types.h"

#define SPIN_LIMIT 100

typedef struct {
  pthread_mutex_t mutex;
} spinlock_t;

#define DEFINE_SPINLOCK(name) spinlock_t name = {PTHREAD_MUTEX_INITIALIZER}

static inline void spin_lock_init(spinlock_t *lock)
{
  pthread_mutex_init(&lock->mutex, NULL);
}

static inline int spin_lock(spinlock_t *lock)
{
  pthread_mutex_lock(&lock->mutex);
  return 1;
}

static inline int spin_trylock(spinlock_t *lock)
{
  return pthread_mutex_trylock(&lock->mutex) == 0;
}

static inline void spin_unlock(spinlock_t *lock)
{
  pthread_mutex_unlock(&lock->mutex);
}

#endif
