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
    ("__builtin_alloca_with_align", "p", "zz"),
    ("__builtin_alloca_with_align_and_max", "p", "zzz"),
    ("memcpy", "p", "ppz"),
    ("memmove", "p", "ppz"),
    ("memset", "p", "piz"),
    ("memcmp", "i", "ppz"),
    ("__builtin_memcpy", "p", "ppz"),
    ("__builtin_memmove", "p", "ppz"),
    ("__builtin_memset", "p", "piz"),
    ("__builtin_memcmp", "i", "ppz"),
    ("__ESBMC_memcpy", "p", "ppz"),
    ("__ESBMC_memset", "p", "piz"),
    ("__ESBMC_init_object", "v", "p"),
    ("__CPROVER_allocate", "p", "zb"),
    ("__CPROVER_havoc_object", "v", "p"),
    ("__CPROVER_havoc_slice", "v", "pz"),
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
    ("sqrt", "d", "d"),
    ("sqrtf", "f", "f"),
    ("sqrtl", "e", "e"),
    ("floor", "d", "d"),
    ("floorf", "f", "f"),
    ("floorl", "e", "e"),
    ("ceil", "d", "d"),
    ("ceilf", "f", "f"),
    ("ceill", "e", "e"),
    ("round", "d", "d"),
    ("roundf", "f", "f"),
    ("roundl", "e", "e"),
    ("trunc", "d", "d"),
    ("truncf", "f", "f"),
    ("truncl", "e", "e"),
    ("rint", "d", "d"),
    ("rintf", "f", "f"),
    ("rintl", "e", "e"),
    ("nearbyint", "d", "d"),
    ("nearbyintf", "f", "f"),
    ("nearbyintl", "e", "e"),
    ("exp", "d", "d"),
    ("expf", "f", "f"),
    ("expl", "e", "e"),
    ("exp2", "d", "d"),
    ("exp2f", "f", "f"),
    ("exp2l", "e", "e"),
    ("expm1", "d", "d"),
    ("expm1f", "f", "f"),
    ("expm1l", "e", "e"),
    ("log", "d", "d"),
    ("logf", "f", "f"),
    ("logl", "e", "e"),
    ("log2", "d", "d"),
    ("log2f", "f", "f"),
    ("log2l", "e", "e"),
    ("log10", "d", "d"),
    ("log10f", "f", "f"),
    ("log10l", "e", "e"),
    ("log1p", "d", "d"),
    ("log1pf", "f", "f"),
    ("log1pl", "e", "e"),
    ("sin", "d", "d"),
    ("sinf", "f", "f"),
    ("sinl", "e", "e"),
    ("cos", "d", "d"),
    ("cosf", "f", "f"),
    ("cosl", "e", "e"),
    ("tan", "d", "d"),
    ("tanf", "f", "f"),
    ("tanl", "e", "e"),
    ("asin", "d", "d"),
    ("asinf", "f", "f"),
    ("asinl", "e", "e"),
    ("acos", "d", "d"),
    ("acosf", "f", "f"),
    ("acosl", "e", "e"),
    ("atan", "d", "d"),
    ("atanf", "f", "f"),
    ("atanl", "e", "e"),
    ("sinh", "d", "d"),
    ("sinhf", "f", "f"),
    ("sinhl", "e", "e"),
    ("cosh", "d", "d"),
    ("coshf", "f", "f"),
    ("coshl", "e", "e"),
    ("tanh", "d", "d"),
    ("tanhf", "f", "f"),
    ("tanhl", "e", "e"),
    ("asinh", "d", "d"),
    ("asinhf", "f", "f"),
    ("asinhl", "e", "e"),
    ("acosh", "d", "d"),
    ("acoshf", "f", "f"),
    ("acoshl", "e", "e"),
    ("atanh", "d", "d"),
    ("atanhf", "f", "f"),
    ("atanhl", "e", "e"),
    ("cbrt", "d", "d"),
    ("cbrtf", "f", "f"),
    ("cbrtl", "e", "e"),
    ("erf", "d", "d"),
    ("erff", "f", "f"),
    ("erfl", "e", "e"),
    ("erfc", "d", "d"),
    ("erfcf", "f", "f"),
    ("erfcl", "e", "e"),
    ("tgamma", "d", "d"),
    ("tgammaf", "f", "f"),
    ("tgammal", "e", "e"),
    ("lgamma", "d", "d"),
    ("lgammaf", "f", "f"),
    ("lgammal", "e", "e"),
    ("logb", "d", "d"),
    ("logbf", "f", "f"),
    ("logbl", "e", "e"),
    ("fmod", "d", "dd"),
    ("fmodf", "f", "ff"),
    ("fmodl", "e", "ee"),
    ("remainder", "d", "dd"),
    ("remainderf", "f", "ff"),
    ("remainderl", "e", "ee"),
    ("pow", "d", "dd"),
    ("powf", "f", "ff"),
    ("powl", "e", "ee"),
    ("atan2", "d", "dd"),
    ("atan2f", "f", "ff"),
    ("atan2l", "e", "ee"),
    ("fmin", "d", "dd"),
    ("fminf", "f", "ff"),
    ("fminl", "e", "ee"),
    ("fmax", "d", "dd"),
    ("fmaxf", "f", "ff"),
    ("fmaxl", "e", "ee"),
    ("fdim", "d", "dd"),
    ("fdimf", "f", "ff"),
    ("fdiml", "e", "ee"),
    ("hypot", "d", "dd"),
    ("hypotf", "f", "ff"),
    ("hypotl", "e", "ee"),
    ("nextafter", "d", "dd"),
    ("nextafterf", "f", "ff"),
    ("nextafterl", "e", "ee"),
    ("copysign", "d", "dd"),
    ("copysignf", "f", "ff"),
    ("copysignl", "e", "ee"),
    ("fma", "d", "ddd"),
    ("fmaf", "f", "fff"),
    ("fmal", "e", "eee"),
    ("lrint", "l", "d"),
    ("lrintf", "l", "f"),
    ("lrintl", "l", "e"),
    ("llrint", "w", "d"),
    ("llrintf", "w", "f"),
    ("llrintl", "w", "e"),
    ("lround", "l", "d"),
    ("lroundf", "l", "f"),
    ("lroundl", "l", "e"),
    ("llround", "w", "d"),
    ("llroundf", "w", "f"),
    ("llroundl", "w", "e"),
    ("ilogb", "i", "d"),
    ("ilogbf", "i", "f"),
    ("ilogbl", "i", "e"),
    ("ldexp", "d", "di"),
    ("ldexpf", "f", "fi"),
    ("ldexpl", "e", "ei"),
    ("scalbn", "d", "di"),
    ("scalbnf", "f", "fi"),
    ("scalbnl", "e", "ei"),
    ("frexp", "d", "dp"),
    ("frexpf", "f", "fp"),
    ("frexpl", "e", "ep"),
    ("modf", "d", "dp"),
    ("modff", "f", "fp"),
    ("modfl", "e", "ep"),
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
    ("__builtin_parityl", "i", "L"),
    ("__builtin_parityll", "i", "W"),
    ("__builtin_ffs", "i", "i"),
    ("__builtin_ffsl", "i", "l"),
    ("__builtin_ffsll", "i", "w"),
    ("__builtin_bswap16", "u", "u"),
    ("__builtin_bswap32", "u", "u"),
    ("__builtin_bswap64", "W", "W"),
    ("__builtin_bitreverse8", "C", "C"),
    ("__builtin_bitreverse16", "H", "H"),
    ("__builtin_bitreverse32", "u", "u"),
    ("__builtin_bitreverse64", "W", "W"),
    ("__builtin_add_overflow", "b", "."),
    ("__builtin_sub_overflow", "b", "."),
    ("__builtin_mul_overflow", "b", "."),
    // Pointer intrinsics (see `ir::intrinsics`).
    ("__builtin_object_size", "z", "pi"),
    ("__ESBMC_POINTER_OFFSET", "l", "p"),
    ("__CPROVER_POINTER_OFFSET", "l", "p"),
    ("__ESBMC_POINTER_OBJECT", "z", "p"),
    ("__CPROVER_POINTER_OBJECT", "z", "p"),
    ("__ESBMC_same_object", "b", "pp"),
    ("__CPROVER_same_object", "b", "pp"),
    ("__ESBMC_get_object_size", "z", "p"),
    (ir::intrinsics::ALLOC_SIZE_CLAIM, "z", "pz"),
    ("__ESBMC_OBJECT_SIZE", "z", "p"),
    ("__CPROVER_OBJECT_SIZE", "z", "p"),
    ("__ESBMC_is_dynamic", "b", "p"),
    ("__ESBMC_DYNAMIC_OBJECT", "b", "p"),
    ("__CPROVER_DYNAMIC_OBJECT", "b", "p"),
    ("__ESBMC_LIVE_OBJECT", "b", "p"),
    ("__CPROVER_LIVE_OBJECT", "b", "p"),
    ("__ESBMC_r_ok", "b", "pz"),
    ("__ESBMC_w_ok", "b", "pz"),
    ("__ESBMC_rw_ok", "b", "pz"),
    ("__CPROVER_r_ok", "b", "pz"),
    ("__CPROVER_w_ok", "b", "pz"),
    ("__CPROVER_rw_ok", "b", "pz"),
    // SV-COMP's functions: their names fix their types (the library
    // models declare `__VERIFIER_assume` so, and an implicit `int f()`
    // would conflict with them).
    ("__VERIFIER_assume", "v", "i"),
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

/// The library function a `__builtin_` spelling stands for when it has no
/// meaning of its own (`__builtin_floor` is `floor`), else `name`.
pub fn library_name(name: &str) -> &str {
    match name.strip_prefix("__builtin_") {
        Some(library) if PROTOTYPES.iter().any(|p| p.0 == library) => library,
        _ => name,
    }
}

/// The known prototype of `name`, if it is a builtin or library function.
/// An undeclared `nondet_<type>` is the input function of that type, as
/// `__VERIFIER_nondet_<type>` (the verifiers' convention: programs call
/// `nondet_double()` undeclared and mean a double).
pub fn prototype(name: &str, size_t: &CType) -> Option<CType> {
    let verifier_name = name.strip_prefix("nondet_").map(|ty| format!("__VERIFIER_nondet_{ty}"));
    let name = verifier_name.as_deref().unwrap_or(name);
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

/// The prototype of the library model `name` (crates/models), for a
/// program that calls it undeclared: the model's parameter and result
/// types, pointers to integers and floats kept as such and other pointers
/// as `void *`. `None` when no model defines `name` or its type has a
/// part no prototype here can spell (a struct passed by value).
pub fn model_prototype(name: &str, model: ir::DataModel) -> Option<CType> {
    let (types, ty) = crate::library_models::model_function_type(model, name)?;
    let ir::Type::Function(sig) = types.get(ty) else { return None };
    let fnty = FnType {
        ret: model_part(types, sig.ret, model)?,
        params: sig.params.iter().map(|&p| model_part(types, p, model)).collect::<Option<_>>()?,
        variadic: sig.variadic,
        unprototyped: sig.unprototyped,
    };
    Some(CType::new(Kind::Function(Rc::new(fnty))))
}

/// The C type of a model's parameter or result type `ty`.
fn model_part(types: &ir::TypeTable, ty: ir::TypeId, model: ir::DataModel) -> Option<CType> {
    let scalar = |ty: ir::TypeId| -> Option<CType> {
        let kind = match *types.get(ty) {
            ir::Type::Void => return Some(CType::void()),
            ir::Type::Bool => Kind::Bool,
            ir::Type::Int { bits, signed } => Kind::Int(int_kind(bits, signed, model)?),
            ir::Type::Float(format) => Kind::Float(float_kind(format)?),
            _ => return None,
        };
        Some(CType::new(kind))
    };
    match types.get(ty) {
        &ir::Type::Pointer(pointee) => Some(CType::pointer_to(scalar(pointee).unwrap_or_else(CType::void))),
        _ => scalar(ty),
    }
}

fn int_kind(bits: u32, signed: bool, model: ir::DataModel) -> Option<IntKind> {
    let long = if model == ir::DataModel::LP64 { (IntKind::Long, IntKind::ULong) } else { (IntKind::LongLong, IntKind::ULongLong) };
    let (s, u) = match bits {
        8 => (IntKind::Char, IntKind::UChar),
        16 => (IntKind::Short, IntKind::UShort),
        32 => (IntKind::Int, IntKind::UInt),
        64 => long,
        128 => (IntKind::Int128, IntKind::UInt128),
        _ => return None,
    };
    Some(if signed { s } else { u })
}

fn float_kind(format: ir::FloatFormat) -> Option<FloatKind> {
    match format {
        ir::FloatFormat::Half => Some(FloatKind::Float16),
        ir::FloatFormat::Single => Some(FloatKind::Float),
        ir::FloatFormat::Double => Some(FloatKind::Double),
        ir::FloatFormat::X87Extended => Some(FloatKind::LongDouble),
        ir::FloatFormat::Quad => Some(FloatKind::Float128),
    }
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
        let double = prototype("nondet_double", &size_t).expect("named like __VERIFIER_nondet_double");
        assert_eq!(double.fn_type().expect("function").ret, CType::new(Kind::Float(FloatKind::Double)));
        assert!(prototype("nondet_widget", &size_t).is_none());
        assert_eq!(library_name("__builtin_floorf"), "floorf");
        assert_eq!(library_name("__builtin_isnan"), "__builtin_isnan");
        let uint = prototype("__VERIFIER_nondet_uint", &size_t).expect("known");
        assert_eq!(uint.fn_type().expect("function").ret, CType::new(Kind::Int(IntKind::UInt)));
    }
}
