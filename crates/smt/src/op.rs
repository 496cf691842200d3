//! Operators (SMT-LIB names) and their sort rules.
//!
//! [`result_sort`] is the single place that knows each operator's signature;
//! the store calls it before building an application, so an ill-sorted term
//! can never exist.
//!
//! Overflow predicates (not SMT-LIB core, but what C checks need), all on two
//! bit-vectors of equal width `w`, true exactly when the mathematical result
//! of the operation on the operands read as unbounded integers (unsigned for
//! `U…`, two's complement for `S…`) is outside the range of `w` bits:
//! - `BvUaddOverflow(a, b)`: `a + b ≥ 2^w`;
//! - `BvSaddOverflow(a, b)`: `a + b ∉ [-2^(w-1), 2^(w-1))`;
//! - `BvUsubOverflow(a, b)`: `a - b < 0`, i.e. `a <u b`;
//! - `BvSsubOverflow(a, b)`: `a - b ∉ [-2^(w-1), 2^(w-1))`;
//! - `BvUmulOverflow(a, b)`: `a · b ≥ 2^w`;
//! - `BvSmulOverflow(a, b)`: `a · b ∉ [-2^(w-1), 2^(w-1))`;
//! - `BvSdivOverflow(a, b)`: `a = -2^(w-1) ∧ b = -1` (division by zero is a
//!   separate check and is *not* included).
//!
//! Floating point follows the SMT-LIB FP theory; rounding-mode arguments come
//! first. Two operators are not SMT-LIB:
//! - `FpFromBits(e, s)` is SMT-LIB's one-argument `(_ to_fp e s)` applied to a
//!   bit-vector of width `e + s`: reinterpretation of the IEEE encoding;
//! - `FpToBits` maps a float of format `(e, s)` to its IEEE encoding (width
//!   `e + s`). On NaN it yields the canonical NaN pattern (sign 0, exponent
//!   all ones, top significand bit 1, rest 0). So `FpToBits(FpFromBits(b))`
//!   differs from `b` for non-canonical NaN patterns: code that depends on
//!   NaN payloads must keep the bits, not the float.
//!
//! Where SMT-LIB leaves an FP result unspecified, tarsier fixes it (the
//! evaluator and the bit-blaster must agree): `FpMin` of `-0` and `+0` (either
//! order) is `-0` and `FpMax` is `+0`; `FpToSbv`/`FpToUbv` of NaN, an infinity
//! or a value whose rounded integer does not fit give `10…0` (the signed
//! minimum pattern).

use std::fmt;

use crate::sort::{Sort, SortTable};

/// An operator; indexed operators carry their indices.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Op {
    // Core.
    Not,
    /// n-ary (n ≥ 0; the empty conjunction is true).
    And,
    /// n-ary (n ≥ 0; the empty disjunction is false).
    Or,
    Xor,
    Implies,
    Ite,
    Eq,
    /// n-ary, n ≥ 2: pairwise different.
    Distinct,

    // Bit-vectors (all binary operators take equal widths).
    BvNot,
    BvNeg,
    BvAnd,
    BvOr,
    BvXor,
    BvAdd,
    BvSub,
    BvMul,
    BvUdiv,
    BvUrem,
    BvSdiv,
    BvSrem,
    BvSmod,
    BvShl,
    BvLshr,
    BvAshr,
    BvUlt,
    BvUle,
    BvUgt,
    BvUge,
    BvSlt,
    BvSle,
    BvSgt,
    BvSge,
    /// First argument is the high part.
    Concat,
    Extract {
        hi: u32,
        lo: u32,
    },
    ZeroExtend(u32),
    SignExtend(u32),
    RotateLeft(u32),
    RotateRight(u32),
    BvUaddOverflow,
    BvSaddOverflow,
    BvUsubOverflow,
    BvSsubOverflow,
    BvUmulOverflow,
    BvSmulOverflow,
    BvSdivOverflow,

    // Arrays.
    Select,
    Store,
    /// The constant array of the given array sort; one argument: the element.
    ConstArray(Sort),

    // Floating point.
    FpAbs,
    FpNeg,
    FpAdd,
    FpSub,
    FpMul,
    FpDiv,
    FpFma,
    FpSqrt,
    FpRem,
    FpRoundToIntegral,
    FpMin,
    FpMax,
    FpEq,
    FpLt,
    FpLeq,
    FpGt,
    FpGeq,
    FpIsNaN,
    FpIsInfinite,
    FpIsZero,
    FpIsNormal,
    FpIsSubnormal,
    FpIsNegative,
    FpIsPositive,
    /// `(rm, float)` → float of format `(exp, sig)`.
    ToFp {
        exp: u32,
        sig: u32,
    },
    /// `(rm, signed bv)` → float.
    ToFpFromSbv {
        exp: u32,
        sig: u32,
    },
    /// `(rm, unsigned bv)` → float.
    ToFpFromUbv {
        exp: u32,
        sig: u32,
    },
    /// `(rm, float)` → signed bv of the given width (unspecified when out of range or NaN).
    FpToSbv(u32),
    /// `(rm, float)` → unsigned bv of the given width (unspecified when out of range or NaN).
    FpToUbv(u32),
    /// bv of width `exp + sig` → float (reinterpretation).
    FpFromBits {
        exp: u32,
        sig: u32,
    },
    /// float → its IEEE encoding (canonical pattern for NaN).
    FpToBits,

    // Quantifiers: `(x, body)` with `x` a variable term, bound in the
    // Boolean `body` (the same variable occurring outside is another one).
    // Only [`crate::TermStore::forall`]/[`crate::TermStore::exists`] build
    // them; solvers that cannot decide them must refuse them.
    Forall,
    Exists,
}

/// An ill-sorted application.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortError {
    pub op: Op,
    pub message: String,
}

impl fmt::Display for SortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ill-sorted application of {:?}: {}",
            self.op, self.message
        )
    }
}

impl std::error::Error for SortError {}

impl Op {
    /// Commutative binary operators (operands may be put in canonical order).
    pub fn is_commutative(self) -> bool {
        use Op::*;
        matches!(
            self,
            And | Or
                | Xor
                | Eq
                | BvAnd
                | BvOr
                | BvXor
                | BvAdd
                | BvMul
                | BvUaddOverflow
                | BvSaddOverflow
                | BvUmulOverflow
                | BvSmulOverflow
        )
    }

    /// The first argument is a rounding mode.
    pub fn takes_rounding_mode(self) -> bool {
        use Op::*;
        matches!(
            self,
            FpAdd
                | FpSub
                | FpMul
                | FpDiv
                | FpFma
                | FpSqrt
                | FpRoundToIntegral
                | ToFp { .. }
                | ToFpFromSbv { .. }
                | ToFpFromUbv { .. }
                | FpToSbv(_)
                | FpToUbv(_)
        )
    }
}

fn error(op: Op, message: impl Into<String>) -> SortError {
    SortError {
        op,
        message: message.into(),
    }
}

fn expect_arity(op: Op, args: &[Sort], arity: usize) -> Result<(), SortError> {
    if args.len() == arity {
        Ok(())
    } else {
        Err(error(
            op,
            format!("expects {arity} arguments, got {}", args.len()),
        ))
    }
}

fn all_bool(op: Op, args: &[Sort]) -> Result<Sort, SortError> {
    match args.iter().all(|s| s.is_bool()) {
        true => Ok(Sort::Bool),
        false => Err(error(op, format!("expects Bool arguments, got {args:?}"))),
    }
}

/// Width of the single bit-vector argument.
fn unary_bv(op: Op, args: &[Sort]) -> Result<u32, SortError> {
    expect_arity(op, args, 1)?;
    args[0]
        .bv_width()
        .ok_or_else(|| error(op, format!("expects a bit-vector, got {:?}", args[0])))
}

/// Width of two equally wide bit-vector arguments.
fn binary_bv(op: Op, args: &[Sort]) -> Result<u32, SortError> {
    expect_arity(op, args, 2)?;
    match (args[0], args[1]) {
        (Sort::BitVec(a), Sort::BitVec(b)) if a == b => Ok(a),
        _ => Err(error(
            op,
            format!("expects two bit-vectors of equal width, got {args:?}"),
        )),
    }
}

fn checked_width(op: Op, width: u64) -> Result<Sort, SortError> {
    match u32::try_from(width) {
        Ok(w) => Ok(Sort::BitVec(w)),
        Err(_) => Err(error(op, format!("result width {width} too large"))),
    }
}

/// Format of a single float argument (after an optional rounding mode).
fn float_arg(op: Op, sort: Sort) -> Result<(u32, u32), SortError> {
    sort.float_format()
        .ok_or_else(|| error(op, format!("expects a float, got {sort:?}")))
}

fn valid_float_format(op: Op, exp: u32, sig: u32) -> Result<Sort, SortError> {
    if exp >= 2 && sig >= 2 && exp.checked_add(sig).is_some() {
        Ok(Sort::Float { exp, sig })
    } else {
        Err(error(op, format!("invalid float format ({exp}, {sig})")))
    }
}

/// Checks the rounding mode (if any) and that all remaining arguments are
/// floats of one format; returns that format.
fn float_operands(op: Op, args: &[Sort], float_count: usize) -> Result<Sort, SortError> {
    let rm_count = op.takes_rounding_mode() as usize;
    expect_arity(op, args, rm_count + float_count)?;
    if rm_count == 1 && args[0] != Sort::RoundingMode {
        return Err(error(
            op,
            format!("first argument must be a RoundingMode, got {:?}", args[0]),
        ));
    }
    let floats = &args[rm_count..];
    float_arg(op, floats[0])?;
    match floats.iter().all(|&s| s == floats[0]) {
        true => Ok(floats[0]),
        false => Err(error(
            op,
            format!("expects floats of one format, got {floats:?}"),
        )),
    }
}

/// The sort of `op` applied to arguments of sorts `args`.
pub fn result_sort(op: Op, args: &[Sort], sorts: &SortTable) -> Result<Sort, SortError> {
    use Op::*;
    match op {
        Not => {
            expect_arity(op, args, 1)?;
            all_bool(op, args)
        }
        And | Or => all_bool(op, args),
        Xor | Implies => {
            expect_arity(op, args, 2)?;
            all_bool(op, args)
        }
        Ite => {
            expect_arity(op, args, 3)?;
            if !args[0].is_bool() || args[1] != args[2] {
                return Err(error(op, format!("expects (Bool, S, S), got {args:?}")));
            }
            Ok(args[1])
        }
        Eq | Distinct => {
            if args.len() < 2 || args.iter().any(|&s| s != args[0]) {
                return Err(error(
                    op,
                    format!("expects at least two arguments of one sort, got {args:?}"),
                ));
            }
            Ok(Sort::Bool)
        }
        BvNot | BvNeg => unary_bv(op, args).map(Sort::BitVec),
        BvAnd | BvOr | BvXor | BvAdd | BvSub | BvMul | BvUdiv | BvUrem | BvSdiv | BvSrem
        | BvSmod | BvShl | BvLshr | BvAshr => binary_bv(op, args).map(Sort::BitVec),
        BvUlt | BvUle | BvUgt | BvUge | BvSlt | BvSle | BvSgt | BvSge | BvUaddOverflow
        | BvSaddOverflow | BvUsubOverflow | BvSsubOverflow | BvUmulOverflow | BvSmulOverflow
        | BvSdivOverflow => binary_bv(op, args).map(|_| Sort::Bool),
        Concat => {
            expect_arity(op, args, 2)?;
            match (args[0], args[1]) {
                (Sort::BitVec(a), Sort::BitVec(b)) => checked_width(op, a as u64 + b as u64),
                _ => Err(error(op, format!("expects two bit-vectors, got {args:?}"))),
            }
        }
        Extract { hi, lo } => {
            let w = unary_bv(op, args)?;
            if lo <= hi && hi < w {
                Ok(Sort::BitVec(hi - lo + 1))
            } else {
                Err(error(op, format!("extract [{hi}:{lo}] out of width {w}")))
            }
        }
        ZeroExtend(n) | SignExtend(n) => {
            let w = unary_bv(op, args)?;
            checked_width(op, w as u64 + n as u64)
        }
        RotateLeft(_) | RotateRight(_) => unary_bv(op, args).map(Sort::BitVec),
        Select => {
            expect_arity(op, args, 2)?;
            match sorts.array_parts(args[0]) {
                Some((index, elem)) if index == args[1] => Ok(elem),
                _ => Err(error(op, format!("expects (Array I E, I), got {args:?}"))),
            }
        }
        Store => {
            expect_arity(op, args, 3)?;
            match sorts.array_parts(args[0]) {
                Some((index, elem)) if index == args[1] && elem == args[2] => Ok(args[0]),
                _ => Err(error(
                    op,
                    format!("expects (Array I E, I, E), got {args:?}"),
                )),
            }
        }
        ConstArray(sort) => {
            expect_arity(op, args, 1)?;
            match sorts.array_parts(sort) {
                Some((_, elem)) if elem == args[0] => Ok(sort),
                _ => Err(error(
                    op,
                    format!("element {:?} does not fit array sort {sort:?}", args[0]),
                )),
            }
        }
        FpAbs | FpNeg | FpSqrt | FpRoundToIntegral => float_operands(op, args, 1),
        FpAdd | FpSub | FpMul | FpDiv | FpRem | FpMin | FpMax => float_operands(op, args, 2),
        FpFma => float_operands(op, args, 3),
        FpEq | FpLt | FpLeq | FpGt | FpGeq => float_operands(op, args, 2).map(|_| Sort::Bool),
        FpIsNaN | FpIsInfinite | FpIsZero | FpIsNormal | FpIsSubnormal | FpIsNegative
        | FpIsPositive => float_operands(op, args, 1).map(|_| Sort::Bool),
        ToFp { exp, sig } => {
            float_operands(op, args, 1)?;
            valid_float_format(op, exp, sig)
        }
        ToFpFromSbv { exp, sig } | ToFpFromUbv { exp, sig } => {
            expect_arity(op, args, 2)?;
            if args[0] != Sort::RoundingMode || args[1].bv_width().is_none() {
                return Err(error(
                    op,
                    format!("expects (RoundingMode, BitVec), got {args:?}"),
                ));
            }
            valid_float_format(op, exp, sig)
        }
        FpToSbv(w) | FpToUbv(w) => {
            float_operands(op, args, 1)?;
            match w {
                0 => Err(error(op, "result width 0")),
                _ => Ok(Sort::BitVec(w)),
            }
        }
        FpFromBits { exp, sig } => {
            let w = unary_bv(op, args)?;
            let sort = valid_float_format(op, exp, sig)?;
            match exp as u64 + sig as u64 == w as u64 {
                true => Ok(sort),
                false => Err(error(
                    op,
                    format!("bit-vector of width {w} is not a ({exp}, {sig}) float"),
                )),
            }
        }
        FpToBits => {
            expect_arity(op, args, 1)?;
            let (exp, sig) = float_arg(op, args[0])?;
            Ok(Sort::BitVec(exp + sig))
        }
        Forall | Exists => {
            expect_arity(op, args, 2)?;
            match args[1].is_bool() {
                true => Ok(Sort::Bool),
                false => Err(error(op, format!("expects a Bool body, got {:?}", args[1]))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_vector_signatures() {
        let t = SortTable::default();
        let bv8 = Sort::BitVec(8);
        assert_eq!(result_sort(Op::BvAdd, &[bv8, bv8], &t), Ok(bv8));
        assert!(result_sort(Op::BvAdd, &[bv8, Sort::BitVec(4)], &t).is_err());
        assert_eq!(result_sort(Op::BvUlt, &[bv8, bv8], &t), Ok(Sort::Bool));
        assert_eq!(
            result_sort(Op::Concat, &[bv8, Sort::BitVec(4)], &t),
            Ok(Sort::BitVec(12))
        );
        assert_eq!(
            result_sort(Op::Extract { hi: 7, lo: 4 }, &[bv8], &t),
            Ok(Sort::BitVec(4))
        );
        assert!(result_sort(Op::Extract { hi: 8, lo: 4 }, &[bv8], &t).is_err());
        assert!(result_sort(Op::Extract { hi: 3, lo: 4 }, &[bv8], &t).is_err());
        assert!(result_sort(Op::ZeroExtend(u32::MAX), &[bv8], &t).is_err());
    }

    #[test]
    fn array_and_float_signatures() {
        let mut t = SortTable::default();
        let arr = t.array(Sort::BitVec(4), Sort::Bool);
        assert_eq!(
            result_sort(Op::Select, &[arr, Sort::BitVec(4)], &t),
            Ok(Sort::Bool)
        );
        assert!(result_sort(Op::Select, &[arr, Sort::BitVec(5)], &t).is_err());
        assert_eq!(
            result_sort(Op::Store, &[arr, Sort::BitVec(4), Sort::Bool], &t),
            Ok(arr)
        );
        assert_eq!(result_sort(Op::ConstArray(arr), &[Sort::Bool], &t), Ok(arr));
        let f32 = Sort::float32();
        let rm = Sort::RoundingMode;
        assert_eq!(result_sort(Op::FpAdd, &[rm, f32, f32], &t), Ok(f32));
        assert!(result_sort(Op::FpAdd, &[f32, f32], &t).is_err());
        assert_eq!(result_sort(Op::FpRem, &[f32, f32], &t), Ok(f32));
        assert_eq!(result_sort(Op::FpToBits, &[f32], &t), Ok(Sort::BitVec(32)));
        assert_eq!(
            result_sort(Op::FpFromBits { exp: 8, sig: 24 }, &[Sort::BitVec(32)], &t),
            Ok(f32)
        );
        assert_eq!(
            result_sort(Op::ToFp { exp: 11, sig: 53 }, &[rm, f32], &t),
            Ok(Sort::float64())
        );
        assert_eq!(
            result_sort(Op::FpToSbv(32), &[rm, f32], &t),
            Ok(Sort::BitVec(32))
        );
        assert_eq!(result_sort(Op::FpIsNaN, &[f32], &t), Ok(Sort::Bool));
    }
}
