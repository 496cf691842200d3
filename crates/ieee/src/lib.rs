//! Exact software IEEE-754 binary floating-point arithmetic for any format
//! up to 128 bits (binary16/32/64/128, x87 extended, or custom widths), in
//! all five rounding modes, following IEEE 754-2008 and the SMT-LIB FP
//! theory. It is the constant folder and evaluator of FP terms, the oracle
//! of the FP bit-blaster, and the interpreter's arithmetic for formats the
//! host lacks.
//!
//! How: every operation computes its exact result (or an exact prefix and a
//! sticky bit) with a small big-integer type and rounds once (`round`), so
//! fma rounds once and subnormals, overflow and zero signs fall out of one
//! routine. `tests/reference.rs` and `examples/fp_reference.rs` check every
//! operation against an independent implementation.
//!
//! Decisions a user must know:
//! - `Fp` equality (`==`, `Hash`) is bitwise; IEEE comparisons are
//!   `fp_eq`/`fp_lt`/`fp_leq`/`fp_gt`/`fp_geq` (NaN unordered, -0 == +0).
//! - NaN results are `Fp::nan` (positive, quiet, quiet bit only: 0x7FC00000
//!   for binary32); no operation depends on NaN payloads or the signaling
//!   bit. The NaNs x86 hardware produces (default NaN 0xFFC00000, first NaN
//!   operand propagated; x87: the larger significand) are `Fp::x86_nan` /
//!   `Fp::x87_nan` / `Fp::x86_default_nan`: the IR
//!   interpreter must apply them to agree with real executions.
//! - `min`/`max`: a NaN operand yields the other; `min(-0, +0) = -0`,
//!   `max(-0, +0) = +0` whatever the operand order (SMT-LIB allows either).
//! - `to_i128`/`to_u128` round by the given mode (C casts use `TowardZero`)
//!   and return `None` for NaN, infinities and out-of-range results
//!   (undefined in C, unspecified in SMT-LIB).
//! - x87: `Format::X87` is the (15,64) value set; `Fp::from_x87_bits` reads
//!   80-bit images as a 387 does (pseudo-denormals by value; unnormals,
//!   pseudo-infinities and pseudo-NaNs as the default NaN).
//! - `round_to_integral` in a custom format whose largest values are not
//!   integral (emax < sig_bits - 1; no standard format) can round up past
//!   the largest value and then gives infinity.
//! - Caller bugs panic with a message, bad data never does: operands of
//!   different formats, bit patterns wider than the format, integer widths
//!   outside 1..=128. Text input gets a `ParseFloatError` with its offset.
//! - Decimal output (`Display`) is the shortest text that reads back to the
//!   same value, in Rust's `{:e}` style; `to_decimal_exact` is the full
//!   expansion.

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
