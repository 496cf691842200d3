//! Evaluation of terms under a model: the test oracle of the solver stack.
//!
//! [`eval_op`] gives every operator its meaning on concrete [`Value`]s; the
//! rewriter folds constants with it too, so there is exactly one definition
//! of each operator's semantics. [`Evaluator`] walks a term DAG iteratively
//! (explicit stack, memoised per term), so arbitrarily deep terms evaluate
//! without recursion. Floating-point arithmetic lives in `fp.rs`.

use std::collections::HashMap;

use rustc_hash::FxHashMap;
use std::fmt;
use std::sync::Arc;

use crate::bv::BvValue;
use crate::op::Op;
use crate::sort::{RoundingMode, Sort, SortTable};
use crate::term::{TermId, TermKind, TermStore, VarId};
use crate::value::{ArrayValue, FpValue, Value};

/// Why a term could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// The model has no value for this variable (and does not fill defaults).
    Unassigned(VarId),
    /// The operator's semantics is not implemented (yet).
    Unsupported(String),
    /// A model value of the wrong sort was given for a variable.
    IllSortedModel(VarId),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::Unassigned(v) => write!(f, "no value for variable {v:?}"),
            EvalError::Unsupported(what) => write!(f, "unsupported: evaluation of {what}"),
            EvalError::IllSortedModel(v) => {
                write!(f, "model value of wrong sort for variable {v:?}")
            }
        }
    }
}

impl std::error::Error for EvalError {}

/// Values of variables. With `fill_unassigned`, a variable without a value
/// takes the default value of its sort (a solver's "don't care").
#[derive(Clone, Debug, Default)]
pub struct Model {
    values: HashMap<VarId, Value>,
    pub fill_unassigned: bool,
}

impl Model {
    pub fn new() -> Model {
        Model::default()
    }

    pub fn set(&mut self, var: VarId, value: Value) {
        self.values.insert(var, value);
    }

    pub fn get(&self, var: VarId) -> Option<&Value> {
        self.values.get(&var)
    }

    pub fn iter(&self) -> impl Iterator<Item = (VarId, &Value)> {
        self.values.iter().map(|(k, v)| (*k, v))
    }
}

/// The value a solver may pick for an unconstrained term of `sort`.
pub fn default_value(sort: Sort, sorts: &SortTable) -> Value {
    match sort {
        Sort::Bool => Value::Bool(false),
        Sort::BitVec(w) => Value::Bv(BvValue::zero(w)),
        Sort::Float { exp, sig } => Value::Fp(FpValue::zero(exp, sig, false)),
        Sort::RoundingMode => Value::Rm(RoundingMode::Rne),
        Sort::Array(_) => {
            let (_, elem) = sorts.array_parts(sort).expect("array sort");
            // Element sorts nest only as deep as array types do.
            Value::Array(Arc::new(ArrayValue::constant(
                sort,
                default_value(elem, sorts),
            )))
        }
    }
}

/// Number of distinct values of `sort` when below 2^127; `Err` for array
/// index sorts (not needed by any client yet).
fn domain_size(sort: Sort) -> Result<Option<u128>, EvalError> {
    let pow2 = |bits: u32| (bits < 127).then(|| 1u128 << bits);
    Ok(match sort {
        Sort::Bool => Some(2),
        Sort::BitVec(w) => pow2(w),
        // Every NaN pattern (2^sig - 2 of them) is one value.
        Sort::Float { exp, sig } => pow2(exp + sig).map(|n| n - (1u128 << sig) + 3),
        Sort::RoundingMode => Some(5),
        Sort::Array(_) => {
            return Err(EvalError::Unsupported(
                "equality of arrays indexed by arrays".into(),
            ))
        }
    })
}

fn values_equal(a: &Value, b: &Value, sorts: &SortTable) -> Result<bool, EvalError> {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            let (index, _) = sorts.array_parts(x.sort).expect("array sort");
            Ok(x.extensionally_equal(y, domain_size(index)?))
        }
        _ => Ok(a == b),
    }
}

fn bools<'a>(args: &'a [&Value]) -> impl Iterator<Item = bool> + 'a {
    args.iter().map(|v| v.as_bool().expect("sort-checked Bool"))
}

fn bv(v: &Value) -> &BvValue {
    v.as_bv().expect("sort-checked bit-vector")
}

fn fp(v: &Value) -> &FpValue {
    v.as_fp().expect("sort-checked float")
}

/// The value of `op` applied to `args` (which are well sorted for `op`).
pub fn eval_op(op: Op, args: &[&Value], sorts: &SortTable) -> Result<Value, EvalError> {
    use Op::*;
    if let Some(b) = eval_bool_op(op, args, sorts)? {
        return Ok(Value::Bool(b));
    }
    let b = |v: BvValue| Ok(Value::Bv(v));
    match op {
        Ite => Ok(if args[0].as_bool().expect("Bool condition") {
            args[1].clone()
        } else {
            args[2].clone()
        }),
        BvNot => b(bv(args[0]).not()),
        BvNeg => b(bv(args[0]).neg()),
        BvAnd => b(bv(args[0]).and(bv(args[1]))),
        BvOr => b(bv(args[0]).or(bv(args[1]))),
        BvXor => b(bv(args[0]).xor(bv(args[1]))),
        BvAdd => b(bv(args[0]).add(bv(args[1]))),
        BvSub => b(bv(args[0]).sub(bv(args[1]))),
        BvMul => b(bv(args[0]).mul(bv(args[1]))),
        BvUdiv => b(bv(args[0]).udiv(bv(args[1]))),
        BvUrem => b(bv(args[0]).urem(bv(args[1]))),
        BvSdiv => b(bv(args[0]).sdiv(bv(args[1]))),
        BvSrem => b(bv(args[0]).srem(bv(args[1]))),
        BvSmod => b(bv(args[0]).smod(bv(args[1]))),
        BvShl => b(bv(args[0]).shl(bv(args[1]))),
        BvLshr => b(bv(args[0]).lshr(bv(args[1]))),
        BvAshr => b(bv(args[0]).ashr(bv(args[1]))),
        Concat => b(bv(args[0]).concat(bv(args[1]))),
        Extract { hi, lo } => b(bv(args[0]).extract(hi, lo)),
        ZeroExtend(n) => b(bv(args[0]).zero_extend(n)),
        SignExtend(n) => b(bv(args[0]).sign_extend(n)),
        RotateLeft(n) => b(bv(args[0]).rotate_left(n)),
        RotateRight(n) => b(bv(args[0]).rotate_right(n)),
        Select => Ok(args[0].as_array().expect("array").select(args[1])),
        Store => {
            let array = args[0].as_array().expect("array");
            Ok(Value::Array(Arc::new(
                array.store(args[1].clone(), args[2].clone()),
            )))
        }
        ConstArray(sort) => Ok(Value::Array(Arc::new(ArrayValue::constant(
            sort,
            args[0].clone(),
        )))),
        FpAbs => Ok(Value::Fp(fp(args[0]).abs())),
        FpNeg => Ok(Value::Fp(fp(args[0]).negate())),
        FpFromBits { exp, sig } => Ok(Value::Fp(FpValue::from_bits(exp, sig, bv(args[0]).clone()))),
        FpToBits => Ok(Value::Bv(fp(args[0]).bits().clone())),
        Forall | Exists => Err(EvalError::Unsupported(format!("a quantifier ({op:?})"))),
        _ => crate::fp::eval_fp_arith(op, args),
    }
}

/// Operators with a Boolean result; `None` for the others.
fn eval_bool_op(op: Op, args: &[&Value], sorts: &SortTable) -> Result<Option<bool>, EvalError> {
    use std::cmp::Ordering::*;
    use Op::*;
    let bin = || (bv(args[0]), bv(args[1]));
    let fp_cmp = || fp(args[0]).ieee_cmp(fp(args[1]));
    Ok(Some(match op {
        Not => !args[0].as_bool().expect("Bool"),
        And => bools(args).all(|b| b),
        Or => bools(args).any(|b| b),
        Xor => bools(args).fold(false, |acc, b| acc ^ b),
        Implies => !args[0].as_bool().expect("Bool") || args[1].as_bool().expect("Bool"),
        Eq => {
            for other in &args[1..] {
                if !values_equal(args[0], other, sorts)? {
                    return Ok(Some(false));
                }
            }
            true
        }
        Distinct => {
            for (i, a) in args.iter().enumerate() {
                for b in &args[i + 1..] {
                    if values_equal(a, b, sorts)? {
                        return Ok(Some(false));
                    }
                }
            }
            true
        }
        BvUlt => bin().0.ucmp(bin().1) == Less,
        BvUle => bin().0.ucmp(bin().1) != Greater,
        BvUgt => bin().0.ucmp(bin().1) == Greater,
        BvUge => bin().0.ucmp(bin().1) != Less,
        BvSlt => bin().0.scmp(bin().1) == Less,
        BvSle => bin().0.scmp(bin().1) != Greater,
        BvSgt => bin().0.scmp(bin().1) == Greater,
        BvSge => bin().0.scmp(bin().1) != Less,
        BvUaddOverflow => bin().0.uadd_overflows(bin().1),
        BvSaddOverflow => bin().0.sadd_overflows(bin().1),
        BvUsubOverflow => bin().0.usub_overflows(bin().1),
        BvSsubOverflow => bin().0.ssub_overflows(bin().1),
        BvUmulOverflow => bin().0.umul_overflows(bin().1),
        BvSmulOverflow => bin().0.smul_overflows(bin().1),
        BvSdivOverflow => bin().0.sdiv_overflows(bin().1),
        FpEq => fp_cmp() == Some(Equal),
        FpLt => fp_cmp() == Some(Less),
        FpLeq => matches!(fp_cmp(), Some(Less | Equal)),
        FpGt => fp_cmp() == Some(Greater),
        FpGeq => matches!(fp_cmp(), Some(Greater | Equal)),
        FpIsNaN => fp(args[0]).is_nan(),
        FpIsInfinite => fp(args[0]).is_infinite(),
        FpIsZero => fp(args[0]).is_zero(),
        FpIsNormal => fp(args[0]).is_normal(),
        FpIsSubnormal => fp(args[0]).is_subnormal(),
        FpIsNegative => fp(args[0]).is_negative(),
        FpIsPositive => fp(args[0]).is_positive(),
        _ => return Ok(None),
    }))
}

/// Evaluates terms of one store under one model, remembering every value it
/// computed (evaluate many terms with one `Evaluator` to share the work).
pub struct Evaluator<'a> {
    store: &'a TermStore,
    model: &'a Model,
    memo: FxHashMap<TermId, Value>,
}

impl<'a> Evaluator<'a> {
    pub fn new(store: &'a TermStore, model: &'a Model) -> Evaluator<'a> {
        Evaluator {
            store,
            model,
            memo: FxHashMap::default(),
        }
    }

    fn var_value(&self, var: VarId) -> Result<Value, EvalError> {
        let sort = self.store.var_sort(var);
        match self.model.get(var) {
            Some(v) if v.sort() == sort => Ok(v.clone()),
            Some(_) => Err(EvalError::IllSortedModel(var)),
            None if self.model.fill_unassigned => Ok(default_value(sort, self.store.sorts())),
            None => Err(EvalError::Unassigned(var)),
        }
    }

    /// The value of `root`. Post-order over the DAG with an explicit stack.
    pub fn eval(&mut self, root: TermId) -> Result<Value, EvalError> {
        let mut stack = vec![(root, false)];
        while let Some((t, children_done)) = stack.pop() {
            if self.memo.contains_key(&t) {
                continue;
            }
            let value = match self.store.kind(t) {
                TermKind::Const(v) => (**v).clone(),
                TermKind::Var(var) => self.var_value(*var)?,
                TermKind::App { args, .. } if !children_done => {
                    stack.push((t, true));
                    stack.extend(
                        args.iter()
                            .filter(|a| !self.memo.contains_key(a))
                            .map(|&a| (a, false)),
                    );
                    continue;
                }
                TermKind::App { op, args } => {
                    let arg_values: Vec<&Value> = args.iter().map(|a| &self.memo[a]).collect();
                    eval_op(*op, &arg_values, self.store.sorts())?
                }
            };
            self.memo.insert(t, value);
        }
        Ok(self.memo[&root].clone())
    }
}

/// The value of `t` under `model` (one-shot; see [`Evaluator`] for many).
pub fn eval(store: &TermStore, t: TermId, model: &Model) -> Result<Value, EvalError> {
    Evaluator::new(store, model).eval(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluates_under_a_model() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::BitVec(8));
        let y = s.var("y", Sort::BitVec(8));
        let sum = s.bv_add(x, y);
        let lt = s.bv_ult(sum, x);
        let mut m = Model::new();
        m.set(s.as_var(x).unwrap(), Value::Bv(BvValue::from_u64(8, 200)));
        m.set(s.as_var(y).unwrap(), Value::Bv(BvValue::from_u64(8, 100)));
        assert_eq!(eval(&s, sum, &m), Ok(Value::Bv(BvValue::from_u64(8, 44))));
        assert_eq!(eval(&s, lt, &m), Ok(Value::Bool(true)));
    }

    #[test]
    fn chained_equality_compares_every_argument() {
        let mut s = TermStore::new();
        let [x, y, z] = ["x", "y", "z"].map(|n| s.var(n, Sort::BitVec(4)));
        let all_equal = s.app(Op::Eq, &[x, y, z]).unwrap();
        let mut m = Model::new();
        for (v, value) in [(x, 3), (y, 3), (z, 5)] {
            m.set(s.as_var(v).unwrap(), Value::Bv(BvValue::from_u64(4, value)));
        }
        assert_eq!(eval(&s, all_equal, &m), Ok(Value::Bool(false)));
        m.set(s.as_var(z).unwrap(), Value::Bv(BvValue::from_u64(4, 3)));
        assert_eq!(eval(&s, all_equal, &m), Ok(Value::Bool(true)));
    }

    #[test]
    fn missing_variables_are_reported_or_defaulted() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::BitVec(4));
        let mut m = Model::new();
        assert_eq!(
            eval(&s, x, &m),
            Err(EvalError::Unassigned(s.as_var(x).unwrap()))
        );
        m.fill_unassigned = true;
        assert_eq!(eval(&s, x, &m), Ok(Value::Bv(BvValue::zero(4))));
        m.set(s.as_var(x).unwrap(), Value::Bool(true));
        assert_eq!(
            eval(&s, x, &m),
            Err(EvalError::IllSortedModel(s.as_var(x).unwrap()))
        );
    }

    #[test]
    fn deep_terms_evaluate_without_recursion() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::BitVec(32));
        let one = s.bv_u64(32, 1);
        let mut t = x;
        for _ in 0..200_000 {
            t = s.bv_add(t, one);
            t = s.bv_xor(t, x);
        }
        let mut m = Model::new();
        m.set(s.as_var(x).unwrap(), Value::Bv(BvValue::from_u64(32, 5)));
        let mut expected = 5u32;
        for _ in 0..200_000 {
            expected = expected.wrapping_add(1) ^ 5;
        }
        assert_eq!(
            eval(&s, t, &m),
            Ok(Value::Bv(BvValue::from_u64(32, expected as u64)))
        );
    }

    #[test]
    fn float_arithmetic_evaluates() {
        let mut s = TermStore::new();
        let rm = s.rm_const(RoundingMode::Rne);
        let x = s.var("x", Sort::float32());
        let sum = s.mk(Op::FpAdd, &[rm, x, x]);
        let mut m = Model::new();
        let three = FpValue::from_bits(8, 24, BvValue::from_u64(32, 3f32.to_bits() as u64));
        m.set(s.as_var(x).unwrap(), Value::Fp(three));
        let six = FpValue::from_bits(8, 24, BvValue::from_u64(32, 6f32.to_bits() as u64));
        assert_eq!(eval(&s, sum, &m), Ok(Value::Fp(six)));
    }
}
