//! SMT-LIB2 output of a set of assertions.
//!
//! Every application node is printed once, as a `define-fun` in post-order,
//! and referred to by name afterwards: output is linear in the DAG size and
//! never nests deeper than one operator, so deep terms neither blow up the
//! text nor a solver's parser. Variables become `declare-fun`s. All symbols
//! are quoted (`|…|`); variable names keep their hint, made unique and free
//! of the characters `|` and `\` that quoted symbols cannot contain.
//!
//! Operators outside SMT-LIB are expanded: the overflow predicates into
//! their bit-vector definitions (see `op.rs`), and `FpToBits` into a fresh
//! bit-vector constant `b` constrained by
//! `(ite (fp.isNaN x) (= b canonical-NaN) (= ((_ to_fp e s) b) x))`.
//! Where SMT-LIB leaves a result open, tarsier's fixed choice (see `op.rs`)
//! is spelled out, so that a solver decides exactly the formula the
//! evaluator and the bit-blaster see: `fp.min`/`fp.max` of two zeros and
//! `fp.to_sbv`/`fp.to_ubv` of NaN, infinities and out-of-range values.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use crate::op::Op;
use crate::quantifier::{Binder, Quantifier};
use crate::sort::Sort;
use crate::term::{TermId, TermKind, TermStore};
use crate::value::{FpValue, Value};

/// The SMT-LIB2 script asserting every term of `assertions` (Boolean) in
/// `logic` (e.g. `QF_BV`, `QF_ABVFP`, `ALL`), ending in `(check-sat)`.
pub fn to_smtlib2(store: &TermStore, assertions: &[TermId], logic: &str) -> String {
    let mut writer = SmtLibWriter::default();
    let mut out = format!("(set-logic {logic})\n");
    for &t in assertions {
        writer.define_reachable(store, t, &mut out);
    }
    for &t in assertions {
        let _ = writeln!(out, "(assert {})", writer.reference(store, t));
    }
    out.push_str("(check-sat)\n");
    out
}

/// Deepest nesting [`term_to_string`] renders, whatever it is asked: keeps
/// its recursion far from the stack limit.
const MAX_RENDER_DEPTH: u32 = 200;

/// `t` as one SMT-LIB expression for messages and debugging: subterms
/// deeper than `max_depth` (at most 200) are elided as `…`, so the text
/// stays short and the recursion shallow. Not for solvers: shared subterms
/// are repeated and non-SMT-LIB operators keep their tarsier names.
pub fn term_to_string(store: &TermStore, t: TermId, max_depth: u32) -> String {
    let mut out = String::new();
    write_term(store, t, max_depth.min(MAX_RENDER_DEPTH), &mut out);
    out
}

fn write_term(store: &TermStore, t: TermId, depth_left: u32, out: &mut String) {
    match store.kind(t) {
        TermKind::Const(v) => out.push_str(&value_literal(v)),
        TermKind::Var(v) => out.push_str(&quote(store.var_name(*v))),
        TermKind::App { .. } if depth_left == 0 => out.push('…'),
        TermKind::App { op, args } => {
            let _ = write!(out, "({}", operator_text(store, *op));
            for &a in args.iter() {
                out.push(' ');
                write_term(store, a, depth_left - 1, out);
            }
            out.push(')');
        }
    }
}

/// The operator as written in an application head.
fn operator_text(store: &TermStore, op: Op) -> String {
    use Op::*;
    let indexed = |name: &str, indices: &[u32]| {
        let indices: Vec<String> = indices.iter().map(u32::to_string).collect();
        format!("(_ {name} {})", indices.join(" "))
    };
    match op {
        ConstArray(sort) => format!("(as const {})", sort_text(store, sort)),
        Extract { hi, lo } => indexed("extract", &[hi, lo]),
        ZeroExtend(n) => indexed("zero_extend", &[n]),
        SignExtend(n) => indexed("sign_extend", &[n]),
        RotateLeft(n) => indexed("rotate_left", &[n]),
        RotateRight(n) => indexed("rotate_right", &[n]),
        ToFp { exp, sig } | ToFpFromSbv { exp, sig } | FpFromBits { exp, sig } => {
            indexed("to_fp", &[exp, sig])
        }
        ToFpFromUbv { exp, sig } => indexed("to_fp_unsigned", &[exp, sig]),
        FpToSbv(w) => indexed("fp.to_sbv", &[w]),
        FpToUbv(w) => indexed("fp.to_ubv", &[w]),
        FpToBits | BvUaddOverflow | BvSaddOverflow | BvUsubOverflow | BvSsubOverflow
        | BvUmulOverflow | BvSmulOverflow | BvSdivOverflow => format!("{op:?}"),
        Forall => "forall".to_string(),
        Exists => "exists".to_string(),
        _ => plain_name(op).to_string(),
    }
}

/// A literal for a constant value (never an array: arrays are not constants).
pub fn value_literal(value: &Value) -> String {
    match value {
        Value::Bool(b) => b.to_string(),
        Value::Bv(v) => v.to_smtlib(),
        Value::Fp(v) => fp_literal(v),
        Value::Rm(rm) => rm.smtlib_name().to_string(),
        Value::Array(_) => unreachable!("array values are never constant terms"),
    }
}

fn fp_literal(v: &FpValue) -> String {
    if v.is_nan() {
        return format!("(_ NaN {} {})", v.exp, v.sig);
    }
    let bits = v.bits();
    let width = v.exp + v.sig;
    let sign = bits.extract(width - 1, width - 1).to_smtlib();
    format!(
        "(fp {sign} {} {})",
        v.exponent_field().to_smtlib(),
        v.significand_field().to_smtlib()
    )
}

/// Quotes a symbol; `|` and `\` cannot appear inside quotes and become `_`.
fn quote(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| if c == '|' || c == '\\' { '_' } else { c })
        .collect();
    format!("|{cleaned}|")
}

/// Names of defined application nodes: `t!<id>`.
fn node_name(t: TermId) -> String {
    format!("t!{}", t.0)
}

/// Names of the shapes `t!<digits>` (application nodes) and `a!<digits>`
/// (assumption constants of the process back end) are never given to
/// variables.
fn is_reserved_name(name: &str) -> bool {
    let numbered = |prefix| {
        name.strip_prefix(prefix)
            .is_some_and(|rest: &str| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
    };
    numbered("t!") || numbered("a!")
}

/// Incremental SMT-LIB2 output: remembers what it has declared and defined,
/// so that terms of a growing store can be written in several steps (the
/// external-solver back end writes each new assertion this way).
#[derive(Default)]
pub struct SmtLibWriter {
    defined: HashSet<TermId>,
    var_names: HashMap<TermId, String>,
    used_names: HashSet<String>,
}

impl SmtLibWriter {
    /// How `t` is written where it is used; `t` must have been passed to
    /// [`SmtLibWriter::define_reachable`] (or be a constant).
    pub fn reference(&self, store: &TermStore, t: TermId) -> String {
        match store.kind(t) {
            TermKind::Const(v) => value_literal(v),
            TermKind::Var(_) => quote(&self.var_names[&t]),
            TermKind::App { .. } => quote(&node_name(t)),
        }
    }

    /// The declared variables and their quoted names.
    pub fn declared_vars(&self) -> impl Iterator<Item = (TermId, String)> + '_ {
        self.var_names.iter().map(|(&t, name)| (t, quote(name)))
    }

    fn declare_var(&mut self, store: &TermStore, t: TermId, out: &mut String) {
        let hint = store.var_name(store.as_var(t).expect("variable"));
        let hint = quote(hint).trim_matches('|').to_string();
        let mut name = if hint.is_empty() {
            "v".to_string()
        } else {
            hint.clone()
        };
        let mut suffix = 0;
        while is_reserved_name(&name) || self.used_names.contains(&name) {
            suffix += 1;
            name = format!("{hint}#{suffix}");
        }
        let _ = writeln!(
            out,
            "(declare-fun {} () {})",
            quote(&name),
            sort_text(store, store.sort(t))
        );
        self.used_names.insert(name.clone());
        self.var_names.insert(t, name);
    }

    /// Writes to `out` the declarations and definitions of everything `root`
    /// depends on that is not written yet, children first.
    pub fn define_reachable(&mut self, store: &TermStore, root: TermId, out: &mut String) {
        let mut stack = vec![(root, false)];
        while let Some((t, children_done)) = stack.pop() {
            if self.defined.contains(&t) {
                continue;
            }
            match store.kind(t) {
                TermKind::Const(_) => {}
                TermKind::Var(_) => self.declare_var(store, t, out),
                TermKind::App { args, .. } if !children_done => {
                    stack.push((t, true));
                    stack.extend(
                        args.iter()
                            .rev()
                            .filter(|a| !self.defined.contains(a))
                            .map(|&a| (a, false)),
                    );
                    continue;
                }
                TermKind::App { op, args } => self.define_app(store, t, *op, args, out),
            }
            self.defined.insert(t);
        }
    }

    fn define_app(
        &mut self,
        store: &TermStore,
        t: TermId,
        op: Op,
        args: &[TermId],
        out: &mut String,
    ) {
        let name = quote(&node_name(t));
        let sort = sort_text(store, store.sort(t));
        let arg_sorts: Vec<Sort> = args.iter().map(|&a| store.sort(a)).collect();
        let first_arg_sort = arg_sorts[0];
        let args: Vec<String> = args.iter().map(|&a| self.reference(store, a)).collect();
        if op == Op::FpToBits {
            let (exp, sig) = first_arg_sort.float_format().expect("float");
            let nan = value_literal(&Value::Bv(FpValue::nan(exp, sig).bits().clone()));
            let x = &args[0];
            let _ = writeln!(out, "(declare-fun {name} () {sort})");
            let _ = writeln!(out, "(assert (ite (fp.isNaN {x}) (= {name} {nan}) (= ((_ to_fp {exp} {sig}) {name}) {x})))");
            return;
        }
        let body = match store.binder(t) {
            Some(binder) => self.quantified_text(store, &binder),
            None => application(store, op, &args, &arg_sorts),
        };
        let _ = writeln!(out, "(define-fun {name} () {sort} {body})");
    }

    /// `(forall ((x S)) body)`: the body's nodes that depend on `x` are
    /// bound by `let` inside the binder, under the names their global
    /// definitions have (which the `let` shadows); the others are
    /// referenced.
    fn quantified_text(&self, store: &TermStore, binder: &Binder) -> String {
        let mut dependent = HashSet::from([binder.var]);
        let mut lets = Vec::new();
        for node in crate::traverse::post_order(store, &[binder.body]) {
            let TermKind::App { op, args } = store.kind(node) else { continue };
            if !args.iter().any(|a| dependent.contains(a)) {
                continue;
            }
            dependent.insert(node);
            let arg_texts: Vec<String> = args.iter().map(|&a| self.reference(store, a)).collect();
            let arg_sorts: Vec<Sort> = args.iter().map(|&a| store.sort(a)).collect();
            let text = match store.binder(node) {
                Some(inner) => self.quantified_text(store, &inner),
                None if *op == Op::FpToBits => format!("(FpToBits {})", arg_texts[0]),
                None => application(store, *op, &arg_texts, &arg_sorts),
            };
            lets.push(format!("(let (({} {text})) ", quote(&node_name(node))));
        }
        let keyword = match binder.quantifier {
            Quantifier::Forall => "forall",
            Quantifier::Exists => "exists",
        };
        let var = self.reference(store, binder.var);
        let sort = sort_text(store, store.sort(binder.var));
        let body = self.reference(store, binder.body);
        format!("({keyword} (({var} {sort})) {}{body}{})", lets.concat(), ")".repeat(lets.len()))
    }
}

fn sort_text(store: &TermStore, sort: Sort) -> String {
    store.sorts().display(sort).to_string()
}

/// The text of `op` applied to the argument texts `a` of sorts `arg_sorts`.
pub(crate) fn application(store: &TermStore, op: Op, a: &[String], arg_sorts: &[Sort]) -> String {
    use Op::*;
    let width = arg_sorts[0].bv_width().unwrap_or(0);
    let msb = |x: &str| format!("((_ extract {0} {0}) {x})", width.saturating_sub(1));
    let head = match op {
        BvUaddOverflow => return format!("(bvult (bvadd {0} {1}) {0})", a[0], a[1]),
        BvUsubOverflow => return format!("(bvult {} {})", a[0], a[1]),
        BvSaddOverflow | BvSsubOverflow => {
            let (same, result) = match op {
                BvSaddOverflow => ("=", format!("(bvadd {} {})", a[0], a[1])),
                _ => ("distinct", format!("(bvsub {} {})", a[0], a[1])),
            };
            let (m0, m1, mr) = (msb(&a[0]), msb(&a[1]), msb(&result));
            return format!("(and ({same} {m0} {m1}) (distinct {mr} {m0}))");
        }
        BvUmulOverflow => {
            let product = format!(
                "(bvmul ((_ zero_extend {width}) {}) ((_ zero_extend {width}) {}))",
                a[0], a[1]
            );
            return format!(
                "(distinct ((_ extract {} {width}) {product}) (_ bv0 {width}))",
                2 * width - 1
            );
        }
        BvSmulOverflow => {
            let product = format!(
                "(bvmul ((_ sign_extend {width}) {}) ((_ sign_extend {width}) {}))",
                a[0], a[1]
            );
            let low = format!("((_ extract {} 0) {product})", width - 1);
            return format!("(distinct {product} ((_ sign_extend {width}) {low}))");
        }
        BvSdivOverflow => {
            let min = crate::bv::BvValue::signed_min(width).to_smtlib();
            let ones = crate::bv::BvValue::ones(width).to_smtlib();
            return format!("(and (= {} {min}) (= {} {ones}))", a[0], a[1]);
        }
        FpMin | FpMax => {
            // Zeros of both signs: tarsier's fixed choice (see `op.rs`), which
            // SMT-LIB leaves open.
            let (exp, sig) = arg_sorts[0].float_format().expect("float");
            let (a0, a1) = (&a[0], &a[1]);
            let (sign_test, if_sign, otherwise) = match op {
                FpMin => ("fp.isNegative", "-zero", "+zero"),
                _ => ("fp.isPositive", "+zero", "-zero"),
            };
            return format!(
                "(ite (and (fp.isZero {a0}) (fp.isZero {a1})) \
                 (ite (or ({sign_test} {a0}) ({sign_test} {a1})) (_ {if_sign} {exp} {sig}) (_ {otherwise} {exp} {sig})) \
                 ({} {a0} {a1}))",
                plain_name(op)
            );
        }
        FpToSbv(w) | FpToUbv(w) => return float_to_integer(op, w, a, arg_sorts[1]),
        _ => operator_text(store, op),
    };
    format!("({head} {})", a.join(" "))
}

/// `fp.to_sbv`/`fp.to_ubv` with tarsier's fixed result `10…0` (see `op.rs`)
/// where SMT-LIB leaves it open: NaN, infinities, and values whose rounded
/// integer lies outside the width's range.
fn float_to_integer(op: Op, width: u32, a: &[String], float_sort: Sort) -> String {
    let (exp, sig) = float_sort.float_format().expect("float");
    let (rm, x) = (&a[0], &a[1]);
    let rounded = format!("(fp.roundToIntegral {rm} {x})");
    // ±2^k as a literal of the float format, or `None` when it overflows
    // the format (then every finite value is within that bound).
    let power_of_two = |k: u32, negative: bool| {
        let emax = (1u64 << (exp - 1)) - 1;
        (k as u64 <= emax).then(|| {
            let biased = crate::bv::BvValue::from_u64(exp, k as u64 + emax);
            let sign = if negative { "#b1" } else { "#b0" };
            format!(
                "(fp {sign} {} {})",
                biased.to_smtlib(),
                crate::bv::BvValue::zero(sig - 1).to_smtlib()
            )
        })
    };
    let (low, high) = match op {
        Op::FpToSbv(_) => (
            power_of_two(width - 1, true),
            power_of_two(width - 1, false),
        ),
        _ => (
            Some(format!("(_ +zero {exp} {sig})")),
            power_of_two(width, false),
        ),
    };
    let mut in_range = vec![
        format!("(not (fp.isNaN {x}))"),
        format!("(not (fp.isInfinite {x}))"),
    ];
    in_range.extend(low.map(|l| format!("(fp.geq {rounded} {l})")));
    in_range.extend(high.map(|h| format!("(fp.lt {rounded} {h})")));
    let name = if matches!(op, Op::FpToSbv(_)) {
        "fp.to_sbv"
    } else {
        "fp.to_ubv"
    };
    let invalid = crate::bv::BvValue::signed_min(width).to_smtlib();
    format!(
        "(ite (and {}) ((_ {name} {width}) {rm} {x}) {invalid})",
        in_range.join(" ")
    )
}

/// SMT-LIB names of the non-indexed operators.
fn plain_name(op: Op) -> &'static str {
    use Op::*;
    match op {
        Not => "not",
        And => "and",
        Or => "or",
        Xor => "xor",
        Implies => "=>",
        Ite => "ite",
        Eq => "=",
        Distinct => "distinct",
        BvNot => "bvnot",
        BvNeg => "bvneg",
        BvAnd => "bvand",
        BvOr => "bvor",
        BvXor => "bvxor",
        BvAdd => "bvadd",
        BvSub => "bvsub",
        BvMul => "bvmul",
        BvUdiv => "bvudiv",
        BvUrem => "bvurem",
        BvSdiv => "bvsdiv",
        BvSrem => "bvsrem",
        BvSmod => "bvsmod",
        BvShl => "bvshl",
        BvLshr => "bvlshr",
        BvAshr => "bvashr",
        BvUlt => "bvult",
        BvUle => "bvule",
        BvUgt => "bvugt",
        BvUge => "bvuge",
        BvSlt => "bvslt",
        BvSle => "bvsle",
        BvSgt => "bvsgt",
        BvSge => "bvsge",
        Concat => "concat",
        Select => "select",
        Store => "store",
        FpAbs => "fp.abs",
        FpNeg => "fp.neg",
        FpAdd => "fp.add",
        FpSub => "fp.sub",
        FpMul => "fp.mul",
        FpDiv => "fp.div",
        FpFma => "fp.fma",
        FpSqrt => "fp.sqrt",
        FpRem => "fp.rem",
        FpRoundToIntegral => "fp.roundToIntegral",
        FpMin => "fp.min",
        FpMax => "fp.max",
        FpEq => "fp.eq",
        FpLt => "fp.lt",
        FpLeq => "fp.leq",
        FpGt => "fp.gt",
        FpGeq => "fp.geq",
        FpIsNaN => "fp.isNaN",
        FpIsInfinite => "fp.isInfinite",
        FpIsZero => "fp.isZero",
        FpIsNormal => "fp.isNormal",
        FpIsSubnormal => "fp.isSubnormal",
        FpIsNegative => "fp.isNegative",
        FpIsPositive => "fp.isPositive",
        Extract { .. }
        | ZeroExtend(_)
        | SignExtend(_)
        | RotateLeft(_)
        | RotateRight(_)
        | ConstArray(_)
        | ToFp { .. }
        | ToFpFromSbv { .. }
        | ToFpFromUbv { .. }
        | FpToSbv(_)
        | FpToUbv(_)
        | FpFromBits { .. }
        | FpToBits
        | BvUaddOverflow
        | BvSaddOverflow
        | BvUsubOverflow
        | BvSsubOverflow
        | BvUmulOverflow
        | BvSmulOverflow
        | BvSdivOverflow
        | Forall
        | Exists => unreachable!("{op:?} is printed with indices or expanded"),
    }
}

#[cfg(test)]
mod tests;
