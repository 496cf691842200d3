/* libatomic: __atomic_is_lock_free where gcc does not fold the call (the
   front end folds every case gcc folds, see cfront's sema::atomics). On
   x86-64 libatomic's answer (libatomic/glfree.c) depends on the address:
   an object that lies within one aligned 8-byte word is lock-free; one
   that lies within an aligned 16-byte word is lock-free only on the
   processors and libatomic versions with fast 16-byte atomics, which the
   program's environment decides (a marker: either answer, and no FALSE
   rests on it); any other, and every object of more than 16 bytes, is
   not. On ILP32 libatomic's rules differ: every such call is the
   marker's. */

_Bool __tarsier_unmodelled_lock_free(void);

_Bool
__tarsier_atomic_is_lock_free(size_t size, void *object)
{
    size_t offset = (size_t)object;
    if (size == 0)
        return 1;
    if (size > 16)
        return 0;
    if (sizeof(void *) == 4)
        return __tarsier_unmodelled_lock_free();
    if (size <= 8 && (offset & 7) + size <= 8)
        return 1;
    if ((offset & 15) + size <= 16)
        return __tarsier_unmodelled_lock_free();
    return 0;
}
