//! The intrinsics whose meaning the IR fixes for every stage: the pointer
//! primitives of ESBMC and CPROVER (`__ESBMC_POINTER_OFFSET`,
//! `__CPROVER_same_object`, `__ESBMC_r_ok`, object sizes, ...), GCC's
//! `__builtin_object_size`, GCC's bit built-ins (`clz`, `ctz`, `popcount`,
//! `parity`, `ffs`, `bswap`) and clang's `bitreverse`, with the C library's `ffs`, `ffsl` and
//! `ffsll`, the uninterpreted functions, and the math.h functions with an
//! exact IEEE result. They are calls of body-less functions in the IR;
//! this module names them, so symex and the
//! interpreter recognise the same set and give it the same semantics.
//! It also names the globals through which the C library models tell
//! symex what they have done.

/// The message of the user-assertion property that `__builtin_unreachable()`
/// is reached (undefined behaviour); the harness shows it with UBSan.
pub const UNREACHABLE_REACHED: &str = "unreachable code reached";

/// `__tarsier_aligned_malloc(alignment, size)`: `malloc`'s block at an
/// address that is a multiple of `alignment` (a power of two, which the
/// `aligned_alloc` model that calls it has checked).
pub const ALIGNED_MALLOC: &str = "__tarsier_aligned_malloc";

/// `__tarsier_environment_string()`: a fresh string of the environment
/// (`getenv`'s result), a new object per call.
pub const ENVIRONMENT_STRING: &str = "__tarsier_environment_string";

/// The global of the `stdlib.c` model that becomes 1 once the program has
/// registered an `atexit` handler.
pub const ATEXIT_REGISTERED: &str = "__tarsier_atexit_registered";

/// The math.h functions with an exact IEEE result (`sqrt`, `fma`,
/// `remainder`, `fmod`, and the roundings to an integral value `trunc`,
/// `floor`, `ceil`, `round`, `rint`, `nearbyint`), with their `f` and `l`
/// forms, also as `__builtin_` functions: the base name and the arity of
/// `name`, `None` for other names.
pub fn exact_math_function(name: &str) -> Option<(&'static str, usize)> {
    const FUNCTIONS: [(&str, usize); 10] = [
        ("sqrt", 1),
        ("fma", 3),
        ("remainder", 2),
        ("fmod", 2),
        ("trunc", 1),
        ("floor", 1),
        ("ceil", 1),
        ("round", 1),
        ("rint", 1),
        ("nearbyint", 1),
    ];
    let name = name.strip_prefix("__builtin_").unwrap_or(name);
    let find = |base: &str| FUNCTIONS.into_iter().find(|(known, _)| *known == base);
    // The plain name first: `ceil` ends in the `l` of a suffix.
    find(name).or_else(|| find(name.strip_suffix('f').or_else(|| name.strip_suffix('l'))?))
}

/// The fixed rounding of the exact math functions `trunc`, `floor`,
/// `ceil` and `round` (by base name); `rint` and `nearbyint` round in the
/// program's current mode.
pub fn fixed_integral_rounding(base: &str) -> Option<crate::rounding::RoundingMode> {
    use crate::rounding::RoundingMode;
    match base {
        "trunc" => Some(RoundingMode::TowardZero),
        "floor" => Some(RoundingMode::Downward),
        "ceil" => Some(RoundingMode::Upward),
        "round" => Some(RoundingMode::NearestAway),
        _ => None,
    }
}

/// A pointer intrinsic, whatever its tool's prefix.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PointerIntrinsic {
    /// Byte offset of a pointer in its object (signed; 0 for NULL).
    Offset,
    /// The object number of a pointer: only comparisons are meaningful,
    /// the numbering is each stage's own.
    Object,
    /// Whether two pointers point into the same object.
    SameObject,
    /// Size in bytes of the pointed object (0 for NULL).
    ObjectSize,
    /// Whether the pointed object was allocated by `malloc` and friends.
    IsDynamic,
    /// Whether the pointed object is alive (not freed, in scope).
    IsLive,
    /// `r_ok`/`w_ok`/`rw_ok(p, n)`: whether the `n` bytes at `p` lie in one
    /// live object (always for `n == 0`), for `write` one that is not
    /// read-only (a string literal, a `const` object).
    Accessible { write: bool },
    /// GCC's `__builtin_object_size(p, type)`: the bytes from `p` to the
    /// end of its object (0 past the end); for a pointer to no object
    /// `(size_t)-1` for types 0 and 1, 0 for types 2 and 3.
    GccObjectSize,
    /// [`ALLOC_SIZE_CLAIM`]`(p, n)`: a write of `n` to ESBMC's
    /// `__ESBMC_alloc_size` entry of `p`'s object; its value is `n`.
    /// Objects keep their size, so a claim of another size is not modelled.
    AllocSizeClaim,
}

/// The intrinsic the front end makes of `__ESBMC_alloc_size[__ESBMC_POINTER_OBJECT(p)] = n`.
pub const ALLOC_SIZE_CLAIM: &str = "__tarsier_alloc_size_claim";

/// The pointer intrinsic called `name`, if it is one.
pub fn pointer_intrinsic(name: &str) -> Option<PointerIntrinsic> {
    match name {
        "__builtin_object_size" => return Some(PointerIntrinsic::GccObjectSize),
        ALLOC_SIZE_CLAIM => return Some(PointerIntrinsic::AllocSizeClaim),
        _ => {}
    }
    let bare = name.strip_prefix("__ESBMC_").or_else(|| name.strip_prefix("__CPROVER_"))?;
    Some(match bare {
        "POINTER_OFFSET" => PointerIntrinsic::Offset,
        "POINTER_OBJECT" => PointerIntrinsic::Object,
        "same_object" => PointerIntrinsic::SameObject,
        "OBJECT_SIZE" | "get_object_size" => PointerIntrinsic::ObjectSize,
        "DYNAMIC_OBJECT" | "is_dynamic" => PointerIntrinsic::IsDynamic,
        "LIVE_OBJECT" => PointerIntrinsic::IsLive,
        "r_ok" => PointerIntrinsic::Accessible { write: false },
        "w_ok" | "rw_ok" => PointerIntrinsic::Accessible { write: true },
        _ => return None,
    })
}

/// Whether `name` is an uninterpreted function of ESBMC or CPROVER
/// (`__CPROVER_uninterpreted_f`): a body-less function that is a
/// mathematical function of its arguments. Each call's result is free,
/// except that equal arguments give equal results; it has no side effects.
pub fn is_uninterpreted(name: &str) -> bool {
    ["__CPROVER_uninterpreted_", "__ESBMC_uninterpreted_"].iter().any(|p| name.starts_with(p))
}

/// A GCC bit built-in's operation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BitOp {
    /// Leading zeros; undefined for 0.
    Clz,
    /// Trailing zeros; undefined for 0.
    Ctz,
    Popcount,
    Parity,
    /// One plus the index of the lowest set bit; 0 for 0.
    Ffs,
    /// The bytes in reverse order.
    Bswap,
    /// The bits in reverse order (clang's `__builtin_bitreverse8` to 64).
    Bitreverse,
}

/// The GCC bit built-in `name` and its operand width when `long` has
/// `long_bits` bits. The width comes from the name (`clz` on `unsigned
/// int`, `clzl` on `unsigned long`, `clzll`, `bswap16`): an implicitly
/// declared built-in receives promoted arguments, so the argument's type
/// does not tell.
pub fn bit_builtin(name: &str, long_bits: u32) -> Option<(BitOp, u32)> {
    // The C library's `ffs` family (strings.h) is GCC's built-in.
    let bare = match name {
        "ffs" | "ffsl" | "ffsll" => name,
        _ => name.strip_prefix("__builtin_")?,
    };
    if let Some(width) = bare.strip_prefix("bswap") {
        return match width {
            "16" | "32" | "64" => Some((BitOp::Bswap, width.parse().ok()?)),
            _ => None,
        };
    }
    if let Some(width) = bare.strip_prefix("bitreverse") {
        return match width {
            "8" | "16" | "32" | "64" => Some((BitOp::Bitreverse, width.parse().ok()?)),
            _ => None,
        };
    }
    let (op, width) = match (bare.strip_suffix("ll"), bare.strip_suffix('l')) {
        (Some(op), _) => (op, 64),
        (None, Some(op)) => (op, long_bits),
        (None, None) => (bare, 32),
    };
    let op = match op {
        "clz" => BitOp::Clz,
        "ctz" => BitOp::Ctz,
        "popcount" => BitOp::Popcount,
        "parity" => BitOp::Parity,
        "ffs" => BitOp::Ffs,
        _ => return None,
    };
    Some((op, width))
}

/// GCC's type-generic bit built-in `name` (`__builtin_clzg`, `ctzg`,
/// `popcountg`, `parityg`, `ffsg`), whose operand keeps its own unsigned
/// type and width; `clzg` and `ctzg` take an optional second argument, the
/// result for 0.
pub fn generic_bit_builtin(name: &str) -> Option<BitOp> {
    Some(match name.strip_prefix("__builtin_")?.strip_suffix('g')? {
        "clz" => BitOp::Clz,
        "ctz" => BitOp::Ctz,
        "popcount" => BitOp::Popcount,
        "parity" => BitOp::Parity,
        "ffs" => BitOp::Ffs,
        _ => return None,
    })
}

/// Whether a call of the bit built-in `name` with `arguments` arguments is
/// undefined for an operand of 0: `clz` and `ctz` in every form but the
/// type-generic ones given a result for 0.
pub fn undefined_at_zero(name: &str, arguments: usize, long_bits: u32) -> bool {
    match (bit_builtin(name, long_bits), generic_bit_builtin(name)) {
        (Some((op, _)), _) => matches!(op, BitOp::Clz | BitOp::Ctz),
        (None, Some(op)) => matches!(op, BitOp::Clz | BitOp::Ctz) && arguments == 1,
        (None, None) => false,
    }
}

/// `op` on the `width`-bit operand `bits`; `None` where GCC leaves the
/// result undefined.
pub fn bit_value(op: BitOp, bits: u128, width: u32) -> Option<u128> {
    let ones = bits.count_ones();
    Some(u128::from(match op {
        BitOp::Clz | BitOp::Ctz if bits == 0 => return None,
        BitOp::Clz => bits.leading_zeros() - (128 - width),
        BitOp::Ctz => bits.trailing_zeros(),
        BitOp::Popcount => ones,
        BitOp::Parity => ones % 2,
        BitOp::Ffs if bits == 0 => 0,
        BitOp::Ffs => bits.trailing_zeros() + 1,
        BitOp::Bswap => return Some(bits.swap_bytes() >> (128 - width)),
        BitOp::Bitreverse => return Some(bits.reverse_bits() >> (128 - width)),
    }))
}

/// CBMC's `__CPROVER_allocate(size, zero)`: the allocator under CBMC's
/// `malloc`, whose block is never NULL, zero-filled when `zero` holds.
pub const CPROVER_ALLOCATE: &str = "__CPROVER_allocate";

/// `__tarsier_thread_create(run, start, arg)`: starts a thread that runs
/// `run(start, arg)` and gives its id (`pthread_create`'s model calls it). The
/// main thread is [`MAIN_THREAD_ID`], each started thread the next number.
pub const THREAD_CREATE: &str = "__tarsier_thread_create";

/// `__tarsier_thread_join(id)`: waits until thread `id` has ended and gives
/// the value it ended with (its start function's result or
/// `pthread_exit`'s argument).
pub const THREAD_JOIN: &str = "__tarsier_thread_join";

/// `__tarsier_thread_wait(condition)`: the calling thread waits until
/// `condition` (an int) holds, for ever if it never does: a blocking
/// synchronisation (a lock held by another), which the deadlock check
/// looks at. Elsewhere it is `__VERIFIER_assume`.
pub const THREAD_WAIT: &str = "__tarsier_thread_wait";

/// `__tarsier_thread_exit(value)`: ends the calling thread with `value`.
pub const THREAD_EXIT: &str = "__tarsier_thread_exit";

/// `__tarsier_thread_self()`: the calling thread's id.
pub const THREAD_SELF: &str = "__tarsier_thread_self";

/// The id of the thread that runs the entry function.
pub const MAIN_THREAD_ID: u64 = 1;

/// The atomic sections of `func` as inclusive instruction ranges: matched
/// `AtomicBegin`/`AtomicEnd` pairs, or the whole body of a
/// `__VERIFIER_atomic_*` function. An unmatched begin or end makes no
/// section (more interleavings, never fewer). A thread's step is one
/// instruction, or, from an instruction in a section no enclosing one
/// contains, everything up to the section's end ([`continues_step`]).
pub fn atomic_sections(program: &crate::Program, func: crate::FuncId) -> Vec<(usize, usize)> {
    let function = &program.functions[func];
    let Some(body) = function.body.as_deref() else { return Vec::new() };
    if function.name.starts_with("__VERIFIER_atomic_") && !body.is_empty() {
        return vec![(0, body.len())];
    }
    matched_pairs(body, |instr| match instr.kind {
        crate::InstrKind::AtomicBegin => Some(true),
        crate::InstrKind::AtomicEnd => Some(false),
        _ => None,
    })
}

/// The inclusive ranges between an instruction `side` says begins a pair
/// (`Some(true)`) and the next unmatched one it says ends one
/// (`Some(false)`), innermost pairs first; an unmatched end is ignored.
fn matched_pairs(body: &[crate::Instr], side: impl Fn(&crate::Instr) -> Option<bool>) -> Vec<(usize, usize)> {
    let mut open = Vec::new();
    let mut pairs = Vec::new();
    for (i, instr) in body.iter().enumerate() {
        match side(instr) {
            Some(true) => open.push(i),
            Some(false) => {
                if let Some(begin) = open.pop() {
                    pairs.push((begin, i));
                }
            }
            None => {}
        }
    }
    pairs
}

/// glibc's `pthread_cleanup_push` registers a cleanup handler with a call
/// of this function, and the matching `pthread_cleanup_pop`, in the same
/// function and block, removes it with [`CLEANUP_UNREGISTER`].
pub const CLEANUP_REGISTER: &str = "__pthread_register_cancel";
/// See [`CLEANUP_REGISTER`].
pub const CLEANUP_UNREGISTER: &str = "__pthread_unregister_cancel";

/// The ranges of `func` where a cleanup handler is registered: from a call
/// of [`CLEANUP_REGISTER`] to the matching [`CLEANUP_UNREGISTER`] (or of
/// the library models' definitions of them, which calls are redirected to).
pub fn cleanup_regions(program: &crate::Program, func: crate::FuncId) -> Vec<(usize, usize)> {
    let Some(body) = program.functions[func].body.as_deref() else { return Vec::new() };
    matched_pairs(body, |instr| {
        let crate::InstrKind::Call { callee, .. } = &instr.kind else { return None };
        let called = &program.functions[program.called_function(callee)?].name;
        match called.strip_prefix("__tarsier_opaque_").unwrap_or(called) {
            CLEANUP_REGISTER => Some(true),
            CLEANUP_UNREGISTER => Some(false),
            _ => None,
        }
    })
}

/// Whether a thread whose frames are at `positions` (outermost first, each
/// frame's function and instruction) has a cleanup handler registered.
pub fn cleanup_registered(program: &crate::Program, positions: &[(crate::FuncId, usize)]) -> bool {
    positions.iter().any(|&(func, at)| cleanup_regions(program, func).iter().any(|&(begin, end)| begin < at && at < end))
}

/// Whether a thread whose frames are at `positions` (outermost first, each
/// frame's function and instruction, the innermost about to execute) is
/// inside an atomic section: `strictly` one that began before the
/// innermost instruction, else also one that begins there (a caller's
/// frame is at its call).
pub fn inside_atomic(positions: &[(crate::FuncId, usize)], strictly: bool, sections: &mut impl FnMut(crate::FuncId) -> std::rc::Rc<Vec<(usize, usize)>>) -> bool {
    let innermost = positions.len().saturating_sub(1);
    positions.iter().enumerate().any(|(i, &(func, at))| {
        // A caller's call is inside its section, wherever it is.
        let inclusive = !strictly || i != innermost;
        sections(func).iter().any(|&(begin, end)| (begin < at || (inclusive && begin == at)) && at <= end)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_precision_and_the_builtin_forms_are_recognised() {
        for name in ["sqrt", "sqrtf", "sqrtl", "__builtin_sqrtl"] {
            assert_eq!(exact_math_function(name), Some(("sqrt", 1)), "{name}");
        }
        assert_eq!(exact_math_function("fmal"), Some(("fma", 3)));
        assert_eq!(exact_math_function("fmodf"), Some(("fmod", 2)));
        assert_eq!(exact_math_function("remainderl"), Some(("remainder", 2)));
        assert_eq!(exact_math_function("sqrtff"), None);
        assert_eq!(exact_math_function("cbrt"), None);
        assert_eq!(exact_math_function("ceil"), Some(("ceil", 1)));
        assert_eq!(exact_math_function("ceill"), Some(("ceil", 1)));
        assert_eq!(exact_math_function("__builtin_floorf"), Some(("floor", 1)));
        assert_eq!(exact_math_function("nearbyintl"), Some(("nearbyint", 1)));
        assert_eq!(exact_math_function("roundeven"), None);
        assert_eq!(fixed_integral_rounding("round"), Some(crate::rounding::RoundingMode::NearestAway));
        assert_eq!(fixed_integral_rounding("rint"), None);
    }

    #[test]
    fn generic_bit_builtins_are_told_from_the_fixed_width_ones() {
        assert_eq!(generic_bit_builtin("__builtin_clzg"), Some(BitOp::Clz));
        assert_eq!(generic_bit_builtin("__builtin_ffsg"), Some(BitOp::Ffs));
        assert_eq!(generic_bit_builtin("__builtin_clz"), None);
        assert_eq!(generic_bit_builtin("__builtin_bswapg"), None);
        assert!(undefined_at_zero("__builtin_ctzll", 1, 64) && undefined_at_zero("__builtin_clzg", 1, 64));
        assert!(!undefined_at_zero("__builtin_clzg", 2, 64) && !undefined_at_zero("__builtin_ffs", 1, 64));
        assert!(!undefined_at_zero("__builtin_popcountg", 1, 64) && !undefined_at_zero("clz", 1, 64));
    }

    #[test]
    fn bit_builtins_follow_gcc() {
        assert_eq!(bit_value(BitOp::Clz, 1, 32), Some(31));
        assert_eq!(bit_value(BitOp::Clz, 1, 64), Some(63));
        assert_eq!(bit_value(BitOp::Clz, 0, 32), None);
        assert_eq!(bit_value(BitOp::Ctz, 8, 32), Some(3));
        assert_eq!(bit_value(BitOp::Popcount, 0xff, 32), Some(8));
        assert_eq!(bit_value(BitOp::Parity, 0x7, 32), Some(1));
        assert_eq!(bit_value(BitOp::Ffs, 0, 32), Some(0));
        assert_eq!(bit_value(BitOp::Ffs, 0x10, 32), Some(5));
        assert_eq!(bit_value(BitOp::Bswap, 0x1122_3344, 32), Some(0x4433_2211));
        assert_eq!(bit_value(BitOp::Bswap, 0x1122, 16), Some(0x2211));
    }

    #[test]
    fn names_give_operation_and_width() {
        assert_eq!(bit_builtin("__builtin_clzll", 32), Some((BitOp::Clz, 64)));
        assert_eq!(bit_builtin("__builtin_popcountl", 32), Some((BitOp::Popcount, 32)));
        assert_eq!(bit_builtin("__builtin_parityl", 64), Some((BitOp::Parity, 64)));
        assert_eq!(bit_builtin("__builtin_ffs", 64), Some((BitOp::Ffs, 32)));
        assert_eq!(bit_builtin("__builtin_bswap16", 64), Some((BitOp::Bswap, 16)));
        assert_eq!(bit_builtin("__builtin_bswap8", 64), None);
        assert_eq!(bit_builtin("__builtin_bitreverse8", 64), Some((BitOp::Bitreverse, 8)));
        assert_eq!(bit_builtin("__builtin_bitreverse128", 64), None);
        assert_eq!(bit_value(BitOp::Bitreverse, 0x01, 8), Some(0x80));
        assert_eq!(bit_value(BitOp::Bitreverse, 0x1234, 16), Some(0x2c48));
        assert_eq!(bit_builtin("clz", 64), None);
        assert_eq!(bit_builtin("ffsl", 64), Some((BitOp::Ffs, 64)));
        assert_eq!(bit_builtin("ffsll", 32), Some((BitOp::Ffs, 64)));
        assert_eq!(pointer_intrinsic("__CPROVER_rw_ok"), Some(PointerIntrinsic::Accessible { write: true }));
        assert_eq!(pointer_intrinsic("__ESBMC_get_object_size"), Some(PointerIntrinsic::ObjectSize));
        assert_eq!(pointer_intrinsic(ALLOC_SIZE_CLAIM), Some(PointerIntrinsic::AllocSizeClaim));
        assert_eq!(pointer_intrinsic("__ESBMC_assume"), None);
        assert!(is_uninterpreted("__CPROVER_uninterpreted_hash") && is_uninterpreted("__ESBMC_uninterpreted_f"));
        assert!(!is_uninterpreted("__CPROVER_assume"));
    }
}
