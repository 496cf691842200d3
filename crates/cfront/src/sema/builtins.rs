//! Prototypes of compiler builtins and common C library functions, used
//! when a program calls one without declaring it. C would give such a call
//! the type `int f()`, which truncates pointers (`malloc` on LP64) and
//! misreads floating results; like gcc, the known prototype is used
//! instead. Type-generic builtins (`__builtin_isnan`, overflow checks)
//! are variadic: their arguments keep their promoted types.

use super::ctype::{CType, FloatKind, FnType, IntKind, Kind};
use std::rc::Rc;

/// (name, return type, parameter types) in a compact code: `v` void, `c`
/// char, `C` unsigned char, `h` short, `H` unsigned short, `i` int, `u` unsigned, `l` long, `L` unsigned long, `w` long long, `W`
/// unsigned long long, `z` size_t, `p` void *, `s` char *, `d` double, `f`
/// float, `e` long double, `b` _Bool; a trailing `.` means variadic.
const PROTOTYPES: &[(&str, &str, &str)] = &[
    ("malloc", "p", "z"),
    ("calloc", "p", "zz"),
    ("realloc", "p", "pz"),
    ("free", "v", "p"),
    ("alloca", "p", "z"),
    ("__builtin_alloca", "p", "z"),
    ("memcpy", "p", "ppz"),
    ("memmove", "p", "ppz"),
    ("memset", "p", "piz"),
    ("memcmp", "i", "ppz"),
    ("__builtin_memcpy", "p", "ppz"),
    ("__builtin_memmove", "p", "ppz"),
    ("__builtin_memset", "p", "piz"),
    ("__builtin_memcmp", "i", "ppz"),
    ("strlen", "z", "s"),
    ("__builtin_strlen", "z", "s"),
    ("strcpy", "s", "ss"),
    ("strncpy", "s", "ssz"),
    ("strcmp", "i", "ss"),
    ("strncmp", "i", "ssz"),
    ("strcat", "s", "ss"),
    ("strchr", "s", "si"),
    ("strdup", "s", "s"),
    ("printf", "i", "s."),
    ("puts", "i", "s"),
    ("putchar", "i", "i"),
    ("abort", "v", ""),
    ("exit", "v", "i"),
    ("__builtin_abort", "v", ""),
    ("__builtin_trap", "v", ""),
    ("__builtin_unreachable", "v", ""),
    ("__assert_fail", "v", "ssus"),
    ("abs", "i", "i"),
    ("labs", "l", "l"),
    ("llabs", "w", "w"),
    ("__builtin_abs", "i", "i"),
    ("__builtin_labs", "l", "l"),
    ("fabs", "d", "d"),
    ("fabsf", "f", "f"),
    ("fabsl", "e", "e"),
    ("__builtin_fabs", "d", "d"),
    ("__builtin_fabsf", "f", "f"),
    ("__builtin_fabsl", "e", "e"),
    ("sqrt", "d", "d"),
    ("sqrtf", "f", "f"),
    ("__builtin_sqrt", "d", "d"),
    ("__builtin_sqrtf", "f", "f"),
    ("floor", "d", "d"),
    ("ceil", "d", "d"),
    ("round", "d", "d"),
    ("trunc", "d", "d"),
    ("fmod", "d", "dd"),
    ("pow", "d", "dd"),
    ("exp", "d", "d"),
    ("log", "d", "d"),
    ("sin", "d", "d"),
    ("cos", "d", "d"),
    ("fmin", "d", "dd"),
    ("fmax", "d", "dd"),
    ("__builtin_inf", "d", ""),
    ("__builtin_inff", "f", ""),
    ("__builtin_infl", "e", ""),
    ("__builtin_huge_val", "d", ""),
    ("__builtin_huge_valf", "f", ""),
    ("__builtin_huge_vall", "e", ""),
    ("__builtin_nan", "d", "s"),
    ("__builtin_nanf", "f", "s"),
    ("__builtin_nanl", "e", "s"),
    ("__builtin_isnan", "i", "."),
    ("__builtin_isinf", "i", "."),
    ("__builtin_isinf_sign", "i", "."),
    ("__builtin_isfinite", "i", "."),
    ("__builtin_isnormal", "i", "."),
    ("__builtin_signbit", "i", "."),
    ("__builtin_fpclassify", "i", "."),
    ("__builtin_copysign", "d", "dd"),
    ("__builtin_clz", "i", "u"),
    ("__builtin_ctz", "i", "u"),
    ("__builtin_popcount", "i", "u"),
    ("__builtin_parity", "i", "u"),
    ("__builtin_clzl", "i", "L"),
    ("__builtin_ctzl", "i", "L"),
    ("__builtin_popcountl", "i", "L"),
    ("__builtin_clzll", "i", "W"),
    ("__builtin_ctzll", "i", "W"),
    ("__builtin_popcountll", "i", "W"),
    ("__builtin_bswap16", "u", "u"),
    ("__builtin_bswap32", "u", "u"),
    ("__builtin_bswap64", "W", "W"),
    ("__builtin_add_overflow", "b", "."),
    ("__builtin_sub_overflow", "b", "."),
    ("__builtin_mul_overflow", "b", "."),
    // SV-COMP's input functions: their names fix their types.
    ("__VERIFIER_nondet_bool", "b", ""),
    ("__VERIFIER_nondet__Bool", "b", ""),
    ("__VERIFIER_nondet_char", "c", ""),
    ("__VERIFIER_nondet_uchar", "C", ""),
    ("__VERIFIER_nondet_u8", "C", ""),
    ("__VERIFIER_nondet_short", "h", ""),
    ("__VERIFIER_nondet_ushort", "H", ""),
    ("__VERIFIER_nondet_u16", "H", ""),
    ("__VERIFIER_nondet_int", "i", ""),
    ("__VERIFIER_nondet_uint", "u", ""),
    ("__VERIFIER_nondet_unsigned", "u", ""),
    ("__VERIFIER_nondet_u32", "u", ""),
    ("__VERIFIER_nondet_long", "l", ""),
    ("__VERIFIER_nondet_ulong", "L", ""),
    ("__VERIFIER_nondet_longlong", "w", ""),
    ("__VERIFIER_nondet_ulonglong", "W", ""),
    ("__VERIFIER_nondet_size_t", "z", ""),
    ("__VERIFIER_nondet_float", "f", ""),
    ("__VERIFIER_nondet_double", "d", ""),
    ("__VERIFIER_nondet_pointer", "p", ""),
    ("__VERIFIER_nondet_pchar", "s", ""),
];

fn code_type(c: char, size_t: &CType) -> CType {
    match c {
        'v' => CType::void(),
        'c' => CType::new(Kind::Int(IntKind::Char)),
        'C' => CType::new(Kind::Int(IntKind::UChar)),
        'h' => CType::new(Kind::Int(IntKind::Short)),
        'H' => CType::new(Kind::Int(IntKind::UShort)),
        'u' => CType::new(Kind::Int(IntKind::UInt)),
        'l' => CType::new(Kind::Int(IntKind::Long)),
        'L' => CType::new(Kind::Int(IntKind::ULong)),
        'w' => CType::new(Kind::Int(IntKind::LongLong)),
        'W' => CType::new(Kind::Int(IntKind::ULongLong)),
        'z' => size_t.clone(),
        'p' => CType::pointer_to(CType::void()),
        's' => CType::pointer_to(CType::new(Kind::Int(IntKind::Char))),
        'd' => CType::new(Kind::Float(FloatKind::Double)),
        'f' => CType::new(Kind::Float(FloatKind::Float)),
        'e' => CType::new(Kind::Float(FloatKind::LongDouble)),
        'b' => CType::new(Kind::Bool),
        _ => CType::int(),
    }
}

/// The known prototype of `name`, if it is a builtin or library function.
pub fn prototype(name: &str, size_t: &CType) -> Option<CType> {
    let (_, ret, params) = PROTOTYPES.iter().find(|p| p.0 == name)?;
    let variadic = params.ends_with('.');
    let fnty = FnType {
        ret: code_type(ret.chars().next()?, size_t),
        params: params.trim_end_matches('.').chars().map(|c| code_type(c, size_t)).collect(),
        variadic,
        unprototyped: false,
    };
    Some(CType::new(Kind::Function(Rc::new(fnty))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malloc_returns_a_pointer_and_isnan_is_variadic() {
        let size_t = CType::new(Kind::Int(IntKind::ULong));
        let malloc = prototype("malloc", &size_t).expect("known");
        let f = malloc.fn_type().expect("function");
        assert!(f.ret.is_void_pointer() && f.params == vec![size_t.clone()] && !f.variadic);
        let isnan = prototype("__builtin_isnan", &size_t).expect("known");
        let f = isnan.fn_type().expect("function");
        assert!(f.params.is_empty() && f.variadic);
        assert!(prototype("nondet_int", &size_t).is_none());
        let uint = prototype("__VERIFIER_nondet_uint", &size_t).expect("known");
        assert_eq!(uint.fn_type().expect("function").ret, CType::new(Kind::Int(IntKind::UInt)));
    }
}
