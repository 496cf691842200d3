//! The math.h functions without an exact IEEE definition (`exp`, `log`,
//! the trigonometric and hyperbolic functions, `pow`, `atan2`, `hypot`, …)
//! in `float`, `double` and x87 `long double`: which names they are, and
//! their values in the host C library. The interpreter answers calls with
//! these values (the host library is the oracle a counterexample is
//! replayed against), and symex bounds a call with a constant argument by
//! them, widened by [`CONSTANT_ARGUMENT_ULPS`] (see `symex::libm`).
//!
//! Only functions whose error glibc documents as at most 2 ulp (in
//! rounding to nearest) are listed, so that any two such libraries agree
//! within the margin.

use crate::types::FloatFormat;

/// How far (in steps of the float's bit pattern, that is in ulps) a C
/// library's result for a constant argument may lie from the host
/// library's.
pub const CONSTANT_ARGUMENT_ULPS: u128 = 4;

/// Declares [`Inexact`], [`ALL`] and the host library's functions from one
/// line per function: its variant, its `double`, `float` and `long double`
/// names, and its parameters.
macro_rules! inexact_functions {
    ($($variant:ident: $double:ident, $single:ident, $long:ident ($($param:ident),+);)+) => {
        /// A math.h function without an exact IEEE definition, by its `double` name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Inexact {
            $($variant),+
        }

        /// Every inexact function with its `double` name.
        pub const ALL: [(Inexact, &str); [$(stringify!($variant)),+].len()] = [$((Inexact::$variant, stringify!($double))),+];

        impl Inexact {
            pub fn arity(self) -> usize {
                match self {
                    $(Inexact::$variant => [$(stringify!($param)),+].len()),+
                }
            }
        }

        /// The C library's own functions: Rust's float methods do not call
        /// it for all of them (`atanh`, `asinh`, `acosh` are computed in
        /// Rust), and the replay must see what a C program linked with it
        /// sees. Each is looked up in the math library by name first: the
        /// Rust runtime links its own `cbrt` and `cbrtf`, which shadow the
        /// library's at link time and differ from glibc's in the last bit.
        mod host {
            use super::Inexact;
            use std::ffi::c_void;

            extern "C" {
                $(
                    fn $double($($param: f64),+) -> f64;
                    fn $single($($param: f32),+) -> f32;
                )+
            }

            /// `f` on `args`; `None` if they are not as many as its arity.
            pub(super) fn double(f: Inexact, args: &[f64]) -> Option<f64> {
                match f {
                    $(Inexact::$variant => {
                        let &[$($param),+] = args else { return None };
                        let linked: unsafe extern "C" fn($($param: f64),+) -> f64 = $double;
                        // SAFETY: the library's symbol of this name is this
                        // function, of this type.
                        let function = super::library::symbol(concat!(stringify!($double), "\0"))
                            .map_or(linked, |address| unsafe { std::mem::transmute::<*mut c_void, unsafe extern "C" fn($($param: f64),+) -> f64>(address) });
                        // SAFETY: the C library's math functions take and
                        // return plain values and have no preconditions.
                        Some(unsafe { function($($param),+) })
                    })+
                }
            }

            /// `f`'s `float` form on `args`, as [`double`].
            pub(super) fn single(f: Inexact, args: &[f32]) -> Option<f32> {
                match f {
                    $(Inexact::$variant => {
                        let &[$($param),+] = args else { return None };
                        let linked: unsafe extern "C" fn($($param: f32),+) -> f32 = $single;
                        // SAFETY: as in `double`.
                        let function = super::library::symbol(concat!(stringify!($single), "\0"))
                            .map_or(linked, |address| unsafe { std::mem::transmute::<*mut c_void, unsafe extern "C" fn($($param: f32),+) -> f32>(address) });
                        // SAFETY: as in `double`.
                        Some(unsafe { function($($param),+) })
                    })+
                }
            }

            /// The address of `f`'s `long double` form, which the caller
            /// calls in assembly (Rust has no type for the x87 format).
            #[cfg(target_arch = "x86_64")]
            pub(super) fn long_double(f: Inexact) -> unsafe extern "C" fn() {
                extern "C" {
                    $(fn $long();)+
                }
                let (linked, name): (unsafe extern "C" fn(), &str) = match f {
                    $(Inexact::$variant => ($long, concat!(stringify!($long), "\0"))),+
                };
                // SAFETY: the caller calls it by the `long double` convention.
                super::library::symbol(name).map_or(linked, |address| unsafe { std::mem::transmute::<*mut c_void, unsafe extern "C" fn()>(address) })
            }
        }
    };
}

inexact_functions! {
    Exp: exp, expf, expl (x);
    Exp2: exp2, exp2f, exp2l (x);
    Expm1: expm1, expm1f, expm1l (x);
    Log: log, logf, logl (x);
    Log2: log2, log2f, log2l (x);
    Log10: log10, log10f, log10l (x);
    Log1p: log1p, log1pf, log1pl (x);
    Sin: sin, sinf, sinl (x);
    Cos: cos, cosf, cosl (x);
    Tan: tan, tanf, tanl (x);
    Asin: asin, asinf, asinl (x);
    Acos: acos, acosf, acosl (x);
    Atan: atan, atanf, atanl (x);
    Sinh: sinh, sinhf, sinhl (x);
    Cosh: cosh, coshf, coshl (x);
    Tanh: tanh, tanhf, tanhl (x);
    Asinh: asinh, asinhf, asinhl (x);
    Acosh: acosh, acoshf, acoshl (x);
    Atanh: atanh, atanhf, atanhl (x);
    Cbrt: cbrt, cbrtf, cbrtl (x);
    Erf: erf, erff, erfl (x);
    Pow: pow, powf, powl (x, y);
    Atan2: atan2, atan2f, atan2l (y, x);
    Hypot: hypot, hypotf, hypotl (x, y);
}

impl Inexact {
    /// The function and its format that `name` (possibly `__builtin_`
    /// prefixed) names: the `double` name, or it with an `f` for `float`
    /// or an `l` for `long double`.
    pub fn of_name(name: &str) -> Option<(Inexact, FloatFormat)> {
        let name = name.strip_prefix("__builtin_").unwrap_or(name);
        let find = |base: &str| ALL.iter().find(|(_, n)| *n == base).map(|(f, _)| *f);
        if let Some(f) = find(name) {
            return Some((f, FloatFormat::Double));
        }
        if let Some(f) = name.strip_suffix('f').and_then(find) {
            return Some((f, FloatFormat::Single));
        }
        find(name.strip_suffix('l')?).map(|f| (f, FloatFormat::X87Extended))
    }

    /// The `double` function's name.
    pub fn name(self) -> &'static str {
        ALL.iter().find(|(f, _)| *f == self).map(|(_, n)| *n).expect("every function is listed")
    }

    /// The name of the function for `format` (`sinf` for `float`, `sinl`
    /// for `long double`), the inverse of [`Inexact::of_name`].
    pub fn name_for(self, format: FloatFormat) -> String {
        match format {
            FloatFormat::Single => format!("{}f", self.name()),
            FloatFormat::X87Extended => format!("{}l", self.name()),
            _ => self.name().to_string(),
        }
    }
}

/// The host library's result for `f` on the float bits `args` of
/// `format` (x87: 80-bit images), rounding to nearest; `None` for another
/// format, a wrong number of arguments, or `long double` on a host
/// without x87.
pub fn host_value(f: Inexact, format: FloatFormat, args: &[u128]) -> Option<u128> {
    match format {
        FloatFormat::Double => {
            let x: Vec<f64> = args.iter().map(|&bits| f64::from_bits(bits as u64)).collect();
            host::double(f, &x).map(|y| u128::from(y.to_bits()))
        }
        FloatFormat::Single => {
            let x: Vec<f32> = args.iter().map(|&bits| f32::from_bits(bits as u32)).collect();
            host::single(f, &x).map(|y| u128::from(y.to_bits()))
        }
        #[cfg(target_arch = "x86_64")]
        FloatFormat::X87Extended if args.len() == f.arity() => Some(x87::long_double(host::long_double(f), args)),
        _ => None,
    }
}

/// How far (in its own ulps) the host's `long double` result may lie from
/// the real value: glibc documents at most a few for each listed function.
const LONG_DOUBLE_ERROR_ULPS: u128 = 64;

/// The values a compiler that computes the call itself may give for `f`
/// on the constant float bits `args` of `format`, in rounding to nearest:
/// gcc folds such a call to the correctly rounded value (with MPFR, even
/// at -O0), which the host library's result may miss by an ulp. The real
/// value lies within [`LONG_DOUBLE_ERROR_ULPS`] of the host's `long
/// double` result, 2^11 times finer than `double`: the correctly rounded
/// value is the one both ends of that interval round to, or else one of
/// the two values around it. `None` for `long double` (no wider host type)
/// and on hosts without x87; empty for a NaN (not folded).
pub fn folded_values(f: Inexact, format: FloatFormat, args: &[u128]) -> Option<Vec<u128>> {
    use ieee::{Format, Fp, RoundingMode};
    let narrow = match format {
        FloatFormat::Single => Format::SINGLE,
        FloatFormat::Double => Format::DOUBLE,
        _ => return None,
    };
    let wide: Vec<u128> = args.iter().map(|&bits| Fp::from_bits(narrow, bits).convert(Format::X87, RoundingMode::NearestEven).to_x87_bits()).collect();
    let exact = Fp::from_x87_bits(host_value(f, FloatFormat::X87Extended, &wide)?);
    if exact.is_nan() {
        return Some(Vec::new());
    }
    let encoding = exact.to_bits();
    let magnitude = encoding & !(1u128 << (Format::X87.width() - 1));
    let infinity = Fp::infinity(Format::X87, false).to_bits();
    if magnitude >= LONG_DOUBLE_ERROR_ULPS && magnitude + LONG_DOUBLE_ERROR_ULPS < infinity {
        let nearest = |bits: u128| Fp::from_bits(Format::X87, bits).convert(narrow, RoundingMode::NearestEven).to_bits();
        let (low, high) = (nearest(encoding - LONG_DOUBLE_ERROR_ULPS), nearest(encoding + LONG_DOUBLE_ERROR_ULPS));
        if low == high {
            return Some(vec![low]);
        }
    }
    let mut values: Vec<u128> =
        [RoundingMode::TowardNegative, RoundingMode::TowardPositive].iter().map(|&mode| exact.convert(narrow, mode).to_bits()).collect();
    values.dedup();
    Some(values)
}

/// The host's math library, opened by name so that its functions are the
/// ones called, whatever the executable links under the same names.
mod library {
    use std::ffi::{c_char, c_int, c_void, CStr};
    use std::sync::OnceLock;

    extern "C" {
        fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
        fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    }

    /// `dlopen`'s mode: resolve every symbol now.
    const RTLD_NOW: c_int = 2;

    /// The address of the library's function `name` (NUL-terminated);
    /// `None` without a library of that name (not glibc) or symbol.
    pub(super) fn symbol(name: &str) -> Option<*mut c_void> {
        static HANDLE: OnceLock<usize> = OnceLock::new();
        // SAFETY: dlopen takes a NUL-terminated name; the handle is kept open.
        let handle = *HANDLE.get_or_init(|| unsafe { dlopen(c"libm.so.6".as_ptr(), RTLD_NOW) } as usize);
        let name = CStr::from_bytes_with_nul(name.as_bytes()).ok()?;
        // SAFETY: a live handle and a NUL-terminated name.
        let address = (handle != 0).then(|| unsafe { dlsym(handle as *mut c_void, name.as_ptr()) })?;
        (!address.is_null()).then_some(address)
    }
}

/// The C library's `long double` functions. Rust has no type for the x87
/// format, so they are called by hand in the x86-64 System V convention:
/// each argument in a 16-byte stack slot, the result popped from the x87
/// register stack.
#[cfg(target_arch = "x86_64")]
mod x87 {
    /// `function`, a `long double` function of the C library, on the
    /// 80-bit images `args` (as many as its arity); the result's 80-bit
    /// image.
    pub(super) fn long_double(function: unsafe extern "C" fn(), args: &[u128]) -> u128 {
        let image_mask = (1u128 << 80) - 1;
        let mut slots = [0u128; 2];
        for (slot, &arg) in slots.iter_mut().zip(args) {
            *slot = arg & image_mask;
        }
        let mut result = [0u8; 16];
        // SAFETY: the math functions take one or two `long double`s by
        // value and return one in st(0), touching nothing else; both slots
        // are written (an unused one is ignored by a unary function). The
        // stack is realigned to 16 bytes for the call and restored from
        // r12, which the callee preserves, as it preserves r13, which
        // holds the result's address; the x87 stack is empty before and
        // after.
        unsafe {
            std::arch::asm!(
                "mov r12, rsp",
                "and rsp, -16",
                "sub rsp, 32",
                "movups xmm0, [{slots}]",
                "movups [rsp], xmm0",
                "movups xmm0, [{slots} + 16]",
                "movups [rsp + 16], xmm0",
                "call {function}",
                "fstp tbyte ptr [r13]",
                "mov rsp, r12",
                slots = in(reg) slots.as_ptr(),
                function = in(reg) function,
                in("r13") result.as_mut_ptr(),
                out("r12") _,
                clobber_abi("C"),
            );
        }
        u128::from_le_bytes(result) & image_mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_select_the_function_and_format() {
        assert_eq!(Inexact::of_name("log1p"), Some((Inexact::Log1p, FloatFormat::Double)));
        assert_eq!(Inexact::of_name("tanhf"), Some((Inexact::Tanh, FloatFormat::Single)));
        assert_eq!(Inexact::of_name("erf"), Some((Inexact::Erf, FloatFormat::Double)));
        assert_eq!(Inexact::of_name("erff"), Some((Inexact::Erf, FloatFormat::Single)));
        assert_eq!(Inexact::of_name("__builtin_pow"), Some((Inexact::Pow, FloatFormat::Double)));
        assert_eq!(Inexact::of_name("sqrt"), None);
        assert_eq!(Inexact::of_name("logl"), Some((Inexact::Log, FloatFormat::X87Extended)));
        assert_eq!(Inexact::of_name("sqrtl"), None);
        assert_eq!(Inexact::Atan2.arity(), 2);
        assert_eq!(Inexact::Cbrt.name(), "cbrt");
        assert_eq!(Inexact::Cbrt.name_for(FloatFormat::Single), "cbrtf");
        assert_eq!(Inexact::of_name(&Inexact::Cbrt.name_for(FloatFormat::Single)), Some((Inexact::Cbrt, FloatFormat::Single)));
        assert_eq!(Inexact::of_name(&Inexact::Sinh.name_for(FloatFormat::X87Extended)), Some((Inexact::Sinh, FloatFormat::X87Extended)));
    }

    #[test]
    fn host_values_are_the_c_library_results() {
        let double = |f, args: &[f64]| {
            let bits: Vec<u128> = args.iter().map(|x| u128::from(x.to_bits())).collect();
            f64::from_bits(host_value(f, FloatFormat::Double, &bits).expect("double") as u64)
        };
        assert_eq!(double(Inexact::Pow, &[4.0, 0.5]), 2.0);
        assert_eq!(double(Inexact::Log, &[1.0]), 0.0);
        assert!(double(Inexact::Log, &[-1.0]).is_nan());
        assert_eq!(double(Inexact::Atan2, &[0.0, 1.0]), 0.0);
        assert_eq!(double(Inexact::Hypot, &[3.0, 4.0]), 5.0);
        let tanh = host_value(Inexact::Tanh, FloatFormat::Single, &[u128::from(1.0f32.to_bits())]).expect("float");
        assert_eq!(f32::from_bits(tanh as u32), 1.0f32.tanh());
        assert_eq!(host_value(Inexact::Pow, FloatFormat::Double, &[0]), None);
        assert_eq!(host_value(Inexact::Exp, FloatFormat::Quad, &[0]), None);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn folded_values_surround_the_correctly_rounded_result() {
        let double = |x: f64| u128::from(x.to_bits());
        // Exact results fold to themselves.
        assert_eq!(folded_values(Inexact::Pow, FloatFormat::Double, &[double(4.0), double(0.5)]), Some(vec![double(2.0)]));
        assert_eq!(folded_values(Inexact::Cos, FloatFormat::Double, &[double(0.0)]), Some(vec![double(1.0)]));
        // Inexact results far from a midpoint: the correctly rounded one.
        assert_eq!(folded_values(Inexact::Exp, FloatFormat::Double, &[double(1.0)]), Some(vec![double(std::f64::consts::E)]));
        let single = folded_values(Inexact::Sin, FloatFormat::Single, &[u128::from(0.5f32.to_bits())]);
        assert_eq!(single, Some(vec![u128::from(0.479_425_55_f32.to_bits())]));
        assert_eq!(folded_values(Inexact::Log, FloatFormat::Double, &[double(-1.0)]), Some(Vec::new()));
        assert_eq!(folded_values(Inexact::Log, FloatFormat::X87Extended, &[0]), None);
    }

    /// x87 images of small integers: sign, 15-bit exponent, explicit integer bit.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn long_double_host_values_come_through_the_x87_convention() {
        let image = |n: u64| (0x3FFFu128 + 63 - u128::from(n.leading_zeros())) << 64 | u128::from(n << n.leading_zeros());
        let long_double = |f, args: &[u128]| host_value(f, FloatFormat::X87Extended, args).expect("x87");
        assert_eq!(long_double(Inexact::Pow, &[image(2), image(10)]), image(1024));
        assert_eq!(long_double(Inexact::Hypot, &[image(3), image(4)]), image(5));
        assert_eq!(long_double(Inexact::Cbrt, &[image(27)]), image(3));
        assert_eq!(long_double(Inexact::Log2, &[image(8)]), image(3));
        assert_eq!(long_double(Inexact::Exp, &[0]), image(1));
        assert_eq!(long_double(Inexact::Atan2, &[0, image(1)]), 0);
        // log(-1) is a quiet NaN: all-ones exponent, integer and quiet bits.
        assert_eq!(long_double(Inexact::Log, &[1 << 79 | image(1)]), 0x7FFF_C000_0000_0000_0000);
    }
}
