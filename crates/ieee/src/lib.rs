//! Exact software IEEE-754 binary floating-point arithmetic for any format
//! up to 128 bits (binary16/32/64/128, x87 extended, or custom widths), in
//! all five rounding modes, following IEEE 754-2008 and the SMT-LIB FP
//! theory. It is the constant folder and evaluator of FP terms and the
//! interpreter's arithmetic for formats the host lacks.
//!
//! NaN results are `Fp::nan` (positive, quiet, quiet bit only); operations
//! never depend on NaN payloads. The x86 rules for which NaN hardware
//! produces are in the `x86` module (`Fp::x86_nan`, `Fp::x86_default_nan`).

mod arith;
mod bignum;
mod compare;
mod convert;
mod format;
mod parse;
mod print;
mod round;
mod value;
mod x86;

pub use format::{Format, MAX_EXP_BITS};
pub use parse::ParseFloatError;
pub use round::RoundingMode;
pub use value::Fp;
