//! The rewriter that runs inside [`TermStore::app`].
//!
//! Every rule is local (it looks at the operator, its arguments and at most
//! their direct children) and never duplicates a subterm, so the output is
//! never larger than the input DAG. Rules that build new terms call back into
//! `app`; that nesting is bounded by [`MAX_REWRITE_DEPTH`] (deeper, terms are
//! interned as they are), so rewriting can never recurse on term depth.
//! Chains that can be long (array stores, concatenations) are walked with
//! loops. Soundness is checked by the randomized tests in `rewrite/tests.rs`,
//! which compare every rewritten term with a direct evaluation.
//!
//! Normal forms chosen here (the bit-blaster need not handle the others
//! specially, but must still accept them since deep nesting skips rewriting):
//! `Implies` becomes `Or`; `Eq` of more than two becomes a conjunction of
//! binary `Eq`s; `Distinct` of two becomes `Not(Eq)`; `BvUgt`,
//! `BvUge`, `BvUle` (and signed) become `BvUlt`/`BvSlt` (under `Not`);
//! `ZeroExtend` becomes `Concat` with zeros; subtraction of a constant
//! becomes addition; a sum's constant addend moves to its top and a
//! product by a constant distributes over it (`3 * (i + 1)` is
//! `3 * i + 3`), and two sums that differ by constants compare their
//! cores; shifts and rotations by constants become
//! `Extract`/`Concat`; `Select` skips stores to indices that differ
//! (constants, or one term plus different constants) and, over a bounded
//! number of choices, `Select` of an `Ite` of arrays becomes an `Ite` of
//! selects (so reads reach stores, constant arrays and variables);
//! multiplication and unsigned division by `2^k` become shifts, the
//! remainder a slice; a bit-vector operator applied to constants and a
//! choice (`Ite`) of constants becomes the choice of the folded results.

use crate::bv::BvValue;
use std::sync::Arc;

use crate::eval::eval_op;
use crate::op::Op;
use crate::sort::Sort;
use crate::term::{TermId, TermStore};
use crate::value::{ArrayValue, Value};

/// How many rewriter calls may be nested before terms are interned as built.
const MAX_REWRITE_DEPTH: u32 = 24;

/// `And`/`Or` children are inlined only if the result stays this small, so
/// that long chains built one step at a time stay linear in size.
const MAX_FLATTENED_ARGS: usize = 8;

/// Largest ite DAG an extraction is pushed into (pushing builds new slices
/// of every leaf, which pays only for small choices).
const MAX_ITE_PUSH_NODES: usize = 64;

/// Most choices visited plus stores skipped when a read is distributed over
/// a choice of arrays (each visited choice builds one new `Ite`).
const MAX_READ_PUSH_STEPS: usize = 512;

/// A simplified term for `op(args)` (well sorted, of sort `sort`), or `None`
/// to intern the application unchanged.
pub(crate) fn simplify(
    store: &mut TermStore,
    op: Op,
    args: &[TermId],
    sort: Sort,
) -> Option<TermId> {
    // Empty and singleton conjunctions never reach the store, at any depth:
    // every application then has arguments, and printing stays valid.
    if matches!(op, Op::And | Op::Or) && args.len() <= 1 {
        return Some(
            args.first()
                .copied()
                .unwrap_or_else(|| store.bool_const(op == Op::And)),
        );
    }
    if store.rewrite_depth >= MAX_REWRITE_DEPTH {
        return None;
    }
    store.rewrite_depth += 1;
    let result = fold_constants(store, op, args).or_else(|| simplify_by_op(store, op, args, sort));
    store.rewrite_depth -= 1;
    result
}

/// Evaluates applications whose arguments are all constants. Operators
/// without an implemented semantics (FP arithmetic) are left alone.
fn fold_constants(store: &mut TermStore, op: Op, args: &[TermId]) -> Option<TermId> {
    let result = match args
        .iter()
        .map(|&a| store.const_value(a))
        .collect::<Option<Vec<&Value>>>()
    {
        Some(values) => eval_op(op, &values, store.sorts()),
        // Arrays are never constants, but (dis)equalities of arrays built
        // from constants fold too.
        None if matches!(op, Op::Eq | Op::Distinct) => {
            let arrays: Vec<Value> = args
                .iter()
                .map(|&a| constant_array(store, a).map(|v| Value::Array(Arc::new(v))))
                .collect::<Option<_>>()?;
            eval_op(op, &arrays.iter().collect::<Vec<_>>(), store.sorts())
        }
        None => return None,
    };
    match result {
        Ok(Value::Array(_)) | Err(_) => None,
        Ok(value) => Some(store.constant(value)),
    }
}

fn simplify_by_op(store: &mut TermStore, op: Op, args: &[TermId], sort: Sort) -> Option<TermId> {
    use Op::*;
    if let Some(lifted) = lift_over_constant_ite(store, op, args, sort) {
        return Some(lifted);
    }
    match op {
        Not => simplify_not(store, args[0]),
        And | Or => simplify_and_or(store, op == And, args),
        Xor => simplify_xor(store, args[0], args[1]),
        Implies => {
            let not_a = store.not(args[0]);
            Some(store.or2(not_a, args[1]))
        }
        Ite => simplify_ite(store, args[0], args[1], args[2]),
        // Chained equality (SMT-LIB `(= a b c)`) is a conjunction of links.
        Eq if args.len() > 2 => {
            let links: Vec<TermId> = args
                .windows(2)
                .map(|pair| store.eq(pair[0], pair[1]))
                .collect();
            Some(store.and(&links))
        }
        Eq => simplify_eq(store, args[0], args[1]),
        Distinct if args.len() == 2 => {
            let eq = store.eq(args[0], args[1]);
            Some(store.not(eq))
        }
        BvNot | BvNeg => (store.op(args[0]) == Some(op)).then(|| store.args(args[0])[0]),
        BvAnd | BvOr | BvXor => simplify_bitwise(store, op, args[0], args[1]),
        BvAdd | BvSub | BvMul => simplify_arith(store, op, args[0], args[1]),
        BvUdiv | BvUrem | BvSdiv | BvSrem => simplify_division(store, op, args[0], args[1]),
        BvShl | BvLshr | BvAshr => simplify_shift(store, op, args[0], args[1]),
        BvUlt | BvUle | BvUgt | BvUge | BvSlt | BvSle | BvSgt | BvSge => {
            simplify_comparison(store, op, args[0], args[1])
        }
        Concat => simplify_concat(store, args[0], args[1]),
        Extract { hi, lo } => simplify_extract(store, hi, lo, args[0]),
        ZeroExtend(n) => simplify_zero_extend(store, n, args[0]),
        SignExtend(n) => simplify_sign_extend(store, n, args[0]),
        RotateLeft(k) => simplify_rotate_left(store, k, args[0]),
        RotateRight(k) => {
            let w = sort.bv_width().expect("bit-vector");
            simplify_rotate_left(store, w - k % w, args[0])
        }
        BvUaddOverflow | BvSaddOverflow | BvUsubOverflow | BvSsubOverflow | BvUmulOverflow
        | BvSmulOverflow | BvSdivOverflow => simplify_overflow(store, op, args[0], args[1]),
        Select => simplify_select(store, args[0], args[1], sort),
        Store => simplify_store(store, args[0], args[1], args[2]),
        FpNeg => (store.op(args[0]) == Some(FpNeg)).then(|| store.args(args[0])[0]),
        _ => None,
    }
}

/// Bit-vector operators whose application to constants folds (so that
/// pushing them into a choice of constants builds no new operator node).
fn folds_on_constants(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        Eq | Distinct | BvNot | BvNeg | BvAnd | BvOr | BvXor | BvAdd | BvSub | BvMul | BvUdiv | BvUrem
            | BvSdiv | BvSrem | BvSmod | BvShl | BvLshr | BvAshr | BvUlt | BvUle | BvUgt | BvUge
            | BvSlt | BvSle | BvSgt | BvSge | Concat | ZeroExtend(_) | SignExtend(_)
            | BvUaddOverflow | BvSaddOverflow | BvUsubOverflow | BvSsubOverflow | BvUmulOverflow
            | BvSmulOverflow | BvSdivOverflow
    )
}

/// `op(…, ite(c, k1, k2), …)` with every other argument constant becomes
/// `ite(c, op(…, k1, …), op(…, k2, …))`, which folds: over a whole (small)
/// tree of `ite`s with constant leaves, or, when the result is Boolean,
/// over one `ite` with one constant branch (`ite(c, 3, x) = 3` is
/// `c ∨ x = 3`). Merged values in symbolic execution (flags, return codes,
/// offsets) are such choices of constants, and their comparisons then
/// become the conditions themselves.
fn lift_over_constant_ite(store: &mut TermStore, op: Op, args: &[TermId], sort: Sort) -> Option<TermId> {
    if !folds_on_constants(op) {
        return None;
    }
    let position = args.iter().position(|&a| store.op(a) == Some(Op::Ite))?;
    let others_constant = args.iter().enumerate().all(|(i, &a)| i == position || store.const_value(a).is_some());
    if !others_constant || store.sort(args[position]).bv_width().is_none() {
        return None;
    }
    let apply = |store: &mut TermStore, leaf: TermId| {
        let mut applied = args.to_vec();
        applied[position] = leaf;
        store.mk(op, &applied)
    };
    let is_constant = |store: &TermStore, t: TermId| store.const_value(t).is_some();
    if let Some(lifted) = push_into_ite_tree(store, args[position], MAX_ITE_PUSH_NODES, is_constant, apply) {
        return Some(lifted);
    }
    let [c, then, els] = [0, 1, 2].map(|i| store.args(args[position])[i]);
    if !sort.is_bool() || !(is_constant(store, then) || is_constant(store, els)) {
        return None;
    }
    let (then, els) = (apply(store, then), apply(store, els));
    Some(store.ite(c, then, els))
}

/// `a` is syntactically `not b` or `b` is `not a` (Bool or bit-vector).
fn are_complements(store: &TermStore, a: TermId, b: TermId) -> bool {
    let negates = |x: TermId, y: TermId| {
        matches!(store.op(x), Some(Op::Not | Op::BvNot)) && store.args(x)[0] == y
    };
    negates(a, b) || negates(b, a)
}

fn simplify_not(store: &mut TermStore, a: TermId) -> Option<TermId> {
    (store.op(a) == Some(Op::Not)).then(|| store.args(a)[0])
}

/// Removes neutral elements and duplicates, detects absorbing elements and
/// complementary pairs, and inlines small children of the same operator.
fn simplify_and_or(store: &mut TermStore, is_and: bool, args: &[TermId]) -> Option<TermId> {
    let op = if is_and { Op::And } else { Op::Or };
    let absorbing = !is_and;
    let mut flat: Vec<TermId> = Vec::with_capacity(args.len());
    for &a in args {
        let children = store.args(a);
        if store.op(a) == Some(op) && args.len() - 1 + children.len() <= MAX_FLATTENED_ARGS {
            flat.extend_from_slice(children);
        } else {
            flat.push(a);
        }
    }
    if flat
        .iter()
        .any(|&a| store.as_bool_const(a) == Some(absorbing))
    {
        return Some(store.bool_const(absorbing));
    }
    flat.retain(|&a| store.as_bool_const(a) != Some(!absorbing));
    flat.sort_unstable();
    flat.dedup();
    let has_complement = flat
        .iter()
        .any(|&a| store.op(a) == Some(Op::Not) && flat.binary_search(&store.args(a)[0]).is_ok());
    if has_complement {
        return Some(store.bool_const(absorbing));
    }
    match flat.len() {
        0 => Some(store.bool_const(!absorbing)),
        1 => Some(flat[0]),
        _ if flat == args => None,
        _ => Some(store.intern_app(op, &flat, Sort::Bool)),
    }
}

fn simplify_xor(store: &mut TermStore, a: TermId, b: TermId) -> Option<TermId> {
    if a == b {
        return Some(store.false_term());
    }
    if are_complements(store, a, b) {
        return Some(store.true_term());
    }
    for (x, y) in [(a, b), (b, a)] {
        match store.as_bool_const(y) {
            Some(false) => return Some(x),
            Some(true) => return Some(store.not(x)),
            None => {}
        }
    }
    None
}

fn simplify_ite(store: &mut TermStore, c: TermId, a: TermId, b: TermId) -> Option<TermId> {
    if let Some(cond) = store.as_bool_const(c) {
        return Some(if cond { a } else { b });
    }
    if a == b {
        return Some(a);
    }
    if store.op(c) == Some(Op::Not) {
        let inner = store.args(c)[0];
        return Some(store.ite(inner, b, a));
    }
    // ite(c, ite(c, x, _), y) = ite(c, x, y) and symmetrically.
    let branch_under = |store: &TermStore, t: TermId, take_then: bool| {
        (store.op(t) == Some(Op::Ite) && store.args(t)[0] == c)
            .then(|| store.args(t)[if take_then { 1 } else { 2 }])
    };
    if let Some(x) = branch_under(store, a, true) {
        return Some(store.ite(c, x, b));
    }
    if let Some(y) = branch_under(store, b, false) {
        return Some(store.ite(c, a, y));
    }
    if store.sort(a).is_bool() {
        return simplify_bool_ite(store, c, a, b);
    }
    None
}

/// A Boolean `ite` with a constant branch is a conjunction or disjunction.
fn simplify_bool_ite(store: &mut TermStore, c: TermId, a: TermId, b: TermId) -> Option<TermId> {
    match (store.as_bool_const(a), store.as_bool_const(b)) {
        (Some(true), _) => Some(store.or2(c, b)),
        (Some(false), _) => {
            let not_c = store.not(c);
            Some(store.and2(not_c, b))
        }
        (_, Some(true)) => {
            let not_c = store.not(c);
            Some(store.or2(not_c, a))
        }
        (_, Some(false)) => Some(store.and2(c, a)),
        _ => None,
    }
}

fn simplify_eq(store: &mut TermStore, a: TermId, b: TermId) -> Option<TermId> {
    if a == b {
        return Some(store.true_term());
    }
    if store.sort(a).is_bool() {
        if are_complements(store, a, b) {
            return Some(store.false_term());
        }
        for (x, y) in [(a, b), (b, a)] {
            match store.as_bool_const(y) {
                Some(true) => return Some(x),
                Some(false) => return Some(store.not(x)),
                None => {}
            }
        }
        return None;
    }
    if let Some(t) = split_concat_equality(store, a, b) {
        return Some(t);
    }
    // x + c1 = y + c2  ⇔  x = y + (c2 - c1).
    if let (Some((x, c1)), Some((y, c2))) = (split_constant_addend(store, a), split_constant_addend(store, b)) {
        let difference = store.bv_const(c2.sub(&c1));
        let rhs = store.bv_add(y, difference);
        return Some(store.eq(x, rhs));
    }
    for (x, y) in [(a, b), (b, a)] {
        if store.const_value(y).is_none() {
            continue;
        }
        // x + c1 = c2  ⇔  x = c2 - c1.
        let Some(c2) = store.as_bv_const(y).cloned() else {
            continue;
        };
        if let Some((term, c1)) = split_constant_addend(store, x) {
            let rhs = store.bv_const(c2.sub(&c1));
            return Some(store.eq(term, rhs));
        }
    }
    None
}

/// `h ++ l = k` (constant) and `h1 ++ l1 = h2 ++ l2` (same split) become
/// conjunctions of equalities of the parts.
fn split_concat_equality(store: &mut TermStore, a: TermId, b: TermId) -> Option<TermId> {
    for (x, y) in [(a, b), (b, a)] {
        if store.op(x) != Some(Op::Concat) {
            continue;
        }
        let (high, low) = (store.args(x)[0], store.args(x)[1]);
        let low_width = store.sort(low).bv_width().expect("bit-vector");
        let parts = if let Some(k) = store.as_bv_const(y).cloned() {
            let k_high = store.bv_const(k.extract(k.width() - 1, low_width));
            let k_low = store.bv_const(k.extract(low_width - 1, 0));
            (k_high, k_low)
        } else if store.op(y) == Some(Op::Concat) && store.sort(store.args(y)[1]) == store.sort(low)
        {
            (store.args(y)[0], store.args(y)[1])
        } else {
            continue;
        };
        let high_eq = store.eq(high, parts.0);
        let low_eq = store.eq(low, parts.1);
        return Some(store.and2(high_eq, low_eq));
    }
    None
}

/// The value of an array term built only from `ConstArray` and `Store` of
/// constants (walked as a loop: store chains can be long).
fn constant_array(store: &TermStore, t: TermId) -> Option<ArrayValue> {
    let mut writes = Vec::new();
    let mut a = t;
    loop {
        match store.op(a)? {
            Op::Store => {
                let args = store.args(a);
                writes.push((store.const_value(args[1])?, store.const_value(args[2])?));
                a = args[0];
            }
            Op::ConstArray(sort) => {
                let mut value =
                    ArrayValue::constant(sort, store.const_value(store.args(a)[0])?.clone());
                for (index, elem) in writes.into_iter().rev() {
                    value = value.store(index.clone(), elem.clone());
                }
                return Some(value);
            }
            _ => return None,
        }
    }
}

/// `t` as `x + c` with a constant `c`.
fn split_constant_addend(store: &TermStore, t: TermId) -> Option<(TermId, BvValue)> {
    if store.op(t) != Some(Op::BvAdd) {
        return None;
    }
    let args = store.args(t);
    for (x, y) in [(args[0], args[1]), (args[1], args[0])] {
        if let Some(c) = store.as_bv_const(y) {
            return Some((x, c.clone()));
        }
    }
    None
}

fn simplify_bitwise(store: &mut TermStore, op: Op, a: TermId, b: TermId) -> Option<TermId> {
    let w = store.sort(a).bv_width().expect("bit-vector");
    if a == b {
        return Some(if op == Op::BvXor {
            store.bv_const(BvValue::zero(w))
        } else {
            a
        });
    }
    if are_complements(store, a, b) {
        return Some(store.bv_const(if op == Op::BvAnd {
            BvValue::zero(w)
        } else {
            BvValue::ones(w)
        }));
    }
    for (x, y) in [(a, b), (b, a)] {
        let Some(c) = store.as_bv_const(y) else {
            continue;
        };
        let (zero, ones) = (c.is_zero(), c.is_ones());
        match op {
            Op::BvAnd if zero => return Some(y),
            Op::BvAnd if ones => return Some(x),
            Op::BvOr if zero => return Some(x),
            Op::BvOr if ones => return Some(y),
            Op::BvXor if zero => return Some(x),
            Op::BvXor if ones => return Some(store.bv_not(x)),
            _ => {}
        }
    }
    None
}

fn simplify_arith(store: &mut TermStore, op: Op, a: TermId, b: TermId) -> Option<TermId> {
    let w = store.sort(a).bv_width().expect("bit-vector");
    if op == Op::BvSub {
        if a == b {
            return Some(store.bv_const(BvValue::zero(w)));
        }
        if store.as_bv_const(a).is_some_and(BvValue::is_zero) {
            return Some(store.bv_neg(b));
        }
        let minus_c = store.as_bv_const(b)?.neg();
        let minus_c = store.bv_const(minus_c);
        return Some(store.bv_add(a, minus_c));
    }
    for (x, y) in [(a, b), (b, a)] {
        let Some(c) = store.as_bv_const(y).cloned() else {
            continue;
        };
        // c * (z + k) = c * z + c * k: constants move out of products.
        if op == Op::BvMul {
            if let Some((z, k)) = split_constant_addend(store, x) {
                let product = store.bv_mul(z, y);
                let offset = store.bv_const(k.mul(&c));
                return Some(store.bv_add(product, offset));
            }
        }
        // x * 2^k = x << k: no multiplier circuit.
        if let Some(k) = c.exact_log2().filter(|&k| k > 0 && op == Op::BvMul) {
            let amount = store.bv_u64(w, u64::from(k));
            return Some(store.mk(Op::BvShl, &[x, amount]));
        }
        match op {
            Op::BvAdd if c.is_zero() => return Some(x),
            Op::BvMul if c.is_zero() => return Some(y),
            Op::BvMul if c.is_one() => return Some(x),
            // x * c = -(x * -c) for negative c: `x * -1 == -x` folds, and a
            // small magnitude is a much smaller multiplier circuit.
            Op::BvMul if c.msb() && c != BvValue::signed_min(w) => {
                let magnitude = store.bv_const(c.neg());
                let product = store.bv_mul(x, magnitude);
                return Some(store.bv_neg(product));
            }
            _ => {}
        }
        // (z op c0) op c = z op (c0 op c) for op in {+, *}.
        if store.op(x) == Some(op) {
            let inner = store.args(x);
            for (z, k) in [(inner[0], inner[1]), (inner[1], inner[0])] {
                if let Some(c0) = store.as_bv_const(k) {
                    let combined = if op == Op::BvAdd {
                        c0.add(&c)
                    } else {
                        c0.mul(&c)
                    };
                    let combined = store.bv_const(combined);
                    return Some(store.mk(op, &[z, combined]));
                }
            }
        }
    }
    if op == Op::BvAdd {
        return simplify_sum(store, a, b);
    }
    None
}

/// Sums of non-constants: the constant addend of either side moves to the
/// top (`(x + k) + y = (x + y) + k`), so a sum is `core + constant` and
/// sums that differ by a constant compare by their cores; and a sum of two
/// choices on one condition is the choice of the sums (the merges of
/// symbolic execution add up branch by branch).
fn simplify_sum(store: &mut TermStore, a: TermId, b: TermId) -> Option<TermId> {
    for (x, y) in [(a, b), (b, a)] {
        if let Some((z, k)) = split_constant_addend(store, x) {
            let core = store.bv_add(z, y);
            let k = store.bv_const(k);
            return Some(store.bv_add(core, k));
        }
    }
    if let (Some(Op::Ite), Some(Op::Ite)) = (store.op(a), store.op(b)) {
        let (p, q) = (store.args(a).to_vec(), store.args(b).to_vec());
        if p[0] == q[0] {
            let then = store.bv_add(p[1], q[1]);
            let els = store.bv_add(p[2], q[2]);
            return Some(store.ite(p[0], then, els));
        }
    }
    None
}

fn simplify_division(store: &mut TermStore, op: Op, a: TermId, b: TermId) -> Option<TermId> {
    let w = store.sort(a).bv_width().expect("bit-vector");
    // x / 1 = x and x % 1 = 0, signed too: at width 1 the constant 1 is -1,
    // and x / -1 = -x = x, x % -1 = 0 there.
    if store.as_bv_const(b).is_some_and(BvValue::is_one) {
        return Some(match op {
            Op::BvUdiv | Op::BvSdiv => a,
            _ => store.bv_const(BvValue::zero(w)),
        });
    }
    // Unsigned division by 2^k is a shift, the remainder the low k bits:
    // no divider circuit (array indices of halves and quarters are common).
    let k = store.as_bv_const(b).and_then(BvValue::exact_log2)?;
    match op {
        Op::BvUdiv => {
            let amount = store.bv_u64(w, u64::from(k));
            Some(store.mk(Op::BvLshr, &[a, amount]))
        }
        Op::BvUrem => {
            let low = store.extract(k - 1, 0, a);
            Some(store.zero_extend(w - k, low))
        }
        _ => None,
    }
}

fn simplify_shift(store: &mut TermStore, op: Op, a: TermId, b: TermId) -> Option<TermId> {
    let w = store.sort(a).bv_width().expect("bit-vector");
    let amount = store.as_bv_const(b)?;
    let k = match amount.to_u64() {
        Some(k) if k < w as u64 => k as u32,
        _ if op == Op::BvAshr => w - 1,
        _ => return Some(store.bv_const(BvValue::zero(w))),
    };
    if k == 0 {
        return Some(a);
    }
    Some(match op {
        Op::BvShl => {
            let kept = store.extract(w - 1 - k, 0, a);
            let zeros = store.bv_const(BvValue::zero(k));
            store.concat(kept, zeros)
        }
        Op::BvLshr => {
            let kept = store.extract(w - 1, k, a);
            store.zero_extend(k, kept)
        }
        _ => {
            let kept = store.extract(w - 1, k, a);
            store.sign_extend(k, kept)
        }
    })
}

fn simplify_comparison(store: &mut TermStore, op: Op, a: TermId, b: TermId) -> Option<TermId> {
    use Op::*;
    match op {
        BvUgt => return Some(store.mk(BvUlt, &[b, a])),
        BvSgt => return Some(store.mk(BvSlt, &[b, a])),
        BvUge | BvSge | BvUle | BvSle => {
            let strict = if matches!(op, BvUge | BvUle) {
                BvUlt
            } else {
                BvSlt
            };
            let (x, y) = if matches!(op, BvUge | BvSge) {
                (a, b)
            } else {
                (b, a)
            };
            // a >= b ⇔ ¬(a < b);  a <= b ⇔ ¬(b < a).
            let lt = store.mk(strict, &[x, y]);
            return Some(store.not(lt));
        }
        _ => {}
    }
    if a == b {
        return Some(store.false_term());
    }
    let w = store.sort(a).bv_width().expect("bit-vector");
    let (min, max) = match op {
        BvUlt => (BvValue::zero(w), BvValue::ones(w)),
        _ => (BvValue::signed_min(w), BvValue::signed_max(w)),
    };
    // Nothing is below the minimum or above the maximum.
    if store.as_bv_const(b) == Some(&min) || store.as_bv_const(a) == Some(&max) {
        return Some(store.false_term());
    }
    // a < max ⇔ a ≠ max;  min < b ⇔ b ≠ min.
    if store.as_bv_const(b) == Some(&max) || store.as_bv_const(a) == Some(&min) {
        let eq = store.eq(a, b);
        return Some(store.not(eq));
    }
    None
}

/// `(hi, lo, x)` if `t` is `extract(hi, lo, x)`.
fn as_extract(store: &TermStore, t: TermId) -> Option<(u32, u32, TermId)> {
    match store.op(t) {
        Some(Op::Extract { hi, lo }) => Some((hi, lo, store.args(t)[0])),
        _ => None,
    }
}

fn simplify_concat(store: &mut TermStore, high: TermId, low: TermId) -> Option<TermId> {
    // Adjacent slices of one term merge back.
    if let (Some((h1, l1, x)), Some((h2, l2, y))) =
        (as_extract(store, high), as_extract(store, low))
    {
        if x == y && l1 == h2 + 1 {
            return Some(store.extract(h1, l2, x));
        }
    }
    // Neighbouring constants merge: c1 ++ (c2 ++ y) = (c1 ++ c2) ++ y.
    let c1 = store.as_bv_const(high)?.clone();
    if store.op(low) == Some(Op::Concat) {
        let (c2, rest) = (store.args(low)[0], store.args(low)[1]);
        if let Some(c2) = store.as_bv_const(c2) {
            let merged = store.bv_const(c1.concat(c2));
            return Some(store.concat(merged, rest));
        }
    }
    None
}

fn simplify_extract(
    store: &mut TermStore,
    mut hi: u32,
    mut lo: u32,
    arg: TermId,
) -> Option<TermId> {
    // Descend through slices and concatenations that contain the whole range.
    let mut x = arg;
    loop {
        let w = store.sort(x).bv_width().expect("bit-vector");
        if lo == 0 && hi == w - 1 {
            return Some(x);
        }
        match store.op(x) {
            Some(Op::Extract { lo: inner_lo, .. }) => {
                (hi, lo) = (hi + inner_lo, lo + inner_lo);
                x = store.args(x)[0];
            }
            Some(Op::Concat) => {
                let (high, low) = (store.args(x)[0], store.args(x)[1]);
                let low_width = store.sort(low).bv_width().expect("bit-vector");
                if hi < low_width {
                    x = low;
                } else if lo >= low_width {
                    (hi, lo) = (hi - low_width, lo - low_width);
                    x = high;
                } else {
                    break;
                }
            }
            Some(Op::SignExtend(_)) => {
                let inner = store.args(x)[0];
                let inner_width = store.sort(inner).bv_width().expect("bit-vector");
                if hi < inner_width {
                    x = inner;
                } else {
                    break;
                }
            }
            _ => break,
        }
    }
    // A slice of a choice between values that slice cheaply (pointers built
    // as object ++ offset, constants) is a choice between the slices.
    if store.op(x) == Some(Op::Ite) {
        let sliceable = |store: &TermStore, t: TermId| {
            store.const_value(t).is_some()
                || matches!(store.op(t), Some(Op::Concat | Op::Extract { .. }))
        };
        let pushed = push_into_ite_tree(store, x, MAX_ITE_PUSH_NODES, sliceable, |store, leaf| {
            store.extract(hi, lo, leaf)
        });
        if pushed.is_some() {
            return pushed;
        }
    }
    if x == arg {
        return None;
    }
    Some(store.extract(hi, lo, x))
}

fn simplify_zero_extend(store: &mut TermStore, extra: u32, a: TermId) -> Option<TermId> {
    if extra == 0 {
        return Some(a);
    }
    let zeros = store.bv_const(BvValue::zero(extra));
    Some(store.concat(zeros, a))
}

fn simplify_sign_extend(store: &mut TermStore, extra: u32, a: TermId) -> Option<TermId> {
    if extra == 0 {
        return Some(a);
    }
    if let Some(Op::SignExtend(inner)) = store.op(a) {
        let x = store.args(a)[0];
        return Some(store.sign_extend(extra + inner, x));
    }
    None
}

fn simplify_rotate_left(store: &mut TermStore, amount: u32, a: TermId) -> Option<TermId> {
    let w = store.sort(a).bv_width().expect("bit-vector");
    let k = amount % w;
    if k == 0 {
        return Some(a);
    }
    let high = store.extract(w - 1 - k, 0, a);
    let low = store.extract(w - 1, w - k, a);
    Some(store.concat(high, low))
}

fn simplify_overflow(store: &mut TermStore, op: Op, a: TermId, b: TermId) -> Option<TermId> {
    use Op::*;
    let w = store.sort(a).bv_width().expect("bit-vector");
    let is_const = |store: &TermStore, t: TermId, pred: fn(&BvValue) -> bool| {
        store.as_bv_const(t).is_some_and(pred)
    };
    let either = |store: &TermStore, pred: fn(&BvValue) -> bool| {
        is_const(store, a, pred) || is_const(store, b, pred)
    };
    let never = match op {
        BvUaddOverflow | BvSaddOverflow | BvUmulOverflow | BvSmulOverflow => {
            either(store, BvValue::is_zero)
        }
        BvUsubOverflow | BvSsubOverflow => is_const(store, b, BvValue::is_zero),
        BvSdivOverflow => store.as_bv_const(b).is_some_and(|c| !c.is_ones()),
        _ => false,
    };
    // Multiplying by 1 cannot overflow, except signed at width 1 where 1 is -1.
    let times_one = matches!(op, BvUmulOverflow) || (op == BvSmulOverflow && w > 1);
    if never || (times_one && either(store, BvValue::is_one)) {
        return Some(store.false_term());
    }
    None
}

/// Read over write: skips stores to indices that differ from `index` (a
/// loop, so long store chains cost no recursion), then distributes the
/// read over a choice of arrays (see [`push_read_into_choices`]).
fn simplify_select(store: &mut TermStore, array: TermId, index: TermId, sort: Sort) -> Option<TermId> {
    let (a, _) = match read_over_stores(store, array, index) {
        Read::Element(v) => return Some(v),
        Read::Array(a, steps) => (a, steps),
    };
    if store.op(a) == Some(Op::Ite) {
        if let Some(pushed) = push_read_into_choices(store, a, index) {
            return Some(pushed);
        }
    }
    (a != array).then(|| store.intern_app(Op::Select, &[a, index], sort))
}

/// What a read reaches below the stores it can skip.
#[derive(Clone, Copy)]
enum Read {
    /// The element read: a stored value or a constant array's value.
    Element(TermId),
    /// The array read, reached after skipping this many stores.
    Array(TermId, usize),
}

/// Walks down from `array` through stores to indices that differ from
/// `index`, to a store at `index`, a constant array or another array.
fn read_over_stores(store: &TermStore, array: TermId, index: TermId) -> Read {
    let mut a = array;
    let mut steps = 0;
    loop {
        match store.op(a) {
            Some(Op::Store) => {
                let (inner, i, v) = (store.args(a)[0], store.args(a)[1], store.args(a)[2]);
                if i == index {
                    return Read::Element(v);
                }
                if !indices_differ(store, i, index) {
                    return Read::Array(a, steps);
                }
                a = inner;
                steps += 1;
            }
            Some(Op::ConstArray(_)) => return Read::Element(store.args(a)[0]),
            _ => return Read::Array(a, steps),
        }
    }
}

/// `i` and `j` are different constants, or the same term plus different
/// constants (`p + 1` and `p + 2`, `p` and `p + 4`): never equal.
fn indices_differ(store: &TermStore, i: TermId, j: TermId) -> bool {
    if i == j {
        return false;
    }
    if store.const_value(i).is_some() && store.const_value(j).is_some() {
        return true;
    }
    let as_sum = |t: TermId| split_constant_addend(store, t).map_or((t, None), |(core, c)| (core, Some(c)));
    let ((x, c), (y, d)) = (as_sum(i), as_sum(j));
    let nonzero = |c: &Option<BvValue>| c.as_ref().is_some_and(|c| !c.is_zero());
    x == y && match (&c, &d) {
        (Some(c), Some(d)) => c != d,
        _ => nonzero(&c) || nonzero(&d),
    }
}

/// `select(ite(c, a, b), i) = ite(c, select(a, i), select(b, i))` over
/// the choices below `root` and the stores their branches skip, so that
/// reads of merged arrays reach stores and variables. Memoised per choice
/// and bounded by [`MAX_READ_PUSH_STEPS`] (choices visited plus stores
/// skipped), so one read costs bounded work and new terms even when each
/// branch of a choice stores into the next choice (merges of conditional
/// writes, nested). `None` (nothing built) beyond the bound: the read of
/// the choice stays, which the bit-blaster resolves the same way.
fn push_read_into_choices(store: &mut TermStore, root: TermId, index: TermId) -> Option<TermId> {
    let mut branches: rustc_hash::FxHashMap<TermId, [Read; 2]> = rustc_hash::FxHashMap::default();
    let mut image: rustc_hash::FxHashMap<TermId, TermId> = rustc_hash::FxHashMap::default();
    let mut stack = vec![(root, false)];
    let mut steps = 0;
    while let Some((t, children_done)) = stack.pop() {
        if children_done {
            let [then, els] = branches.remove(&t).expect("visited choice");
            let then = read_image(store, then, index, &image);
            let els = read_image(store, els, index, &image);
            let c = store.args(t)[0];
            let read = store.ite(c, then, els);
            image.insert(t, read);
            continue;
        }
        if branches.contains_key(&t) || image.contains_key(&t) {
            continue;
        }
        steps += 1;
        stack.push((t, true));
        let reads = [1, 2].map(|k| read_over_stores(store, store.args(t)[k], index));
        for read in &reads {
            if let Read::Array(a, skipped) = *read {
                steps += skipped;
                if store.op(a) == Some(Op::Ite) {
                    stack.push((a, false));
                }
            }
        }
        if steps > MAX_READ_PUSH_STEPS {
            return None;
        }
        branches.insert(t, reads);
    }
    Some(image[&root])
}

/// The element a branch's [`Read`] stands for: a choice already pushed
/// into, or a read that needs no further rewriting.
fn read_image(store: &mut TermStore, read: Read, index: TermId, image: &rustc_hash::FxHashMap<TermId, TermId>) -> TermId {
    match read {
        Read::Element(v) => v,
        Read::Array(a, _) => match image.get(&a) {
            Some(&pushed) => pushed,
            None => {
                let (_, element) = store.sorts().array_parts(store.sort(a)).expect("array sort");
                store.intern_app(Op::Select, &[a, index], element)
            }
        },
    }
}

/// `f(ite(c, a, b)) = ite(c, f(a), f(b))` over the whole tree of `Ite`
/// nodes below `root`, with `f = apply` on the leaves. Walked with an
/// explicit stack and memoised, so work and new terms are linear in the
/// size of the ite DAG. `None` (nothing built) if a leaf fails `leaf_ok` or
/// the DAG has more than `max_nodes` nodes.
fn push_into_ite_tree(
    store: &mut TermStore,
    root: TermId,
    max_nodes: usize,
    leaf_ok: impl Fn(&TermStore, TermId) -> bool,
    apply: impl Fn(&mut TermStore, TermId) -> TermId,
) -> Option<TermId> {
    let mut post_order = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack = vec![(root, false)];
    while let Some((t, children_done)) = stack.pop() {
        if children_done {
            post_order.push(t);
            continue;
        }
        if !seen.insert(t) {
            continue;
        }
        if seen.len() > max_nodes {
            return None;
        }
        if store.op(t) == Some(Op::Ite) {
            stack.push((t, true));
            stack.extend(store.args(t)[1..].iter().map(|&branch| (branch, false)));
        } else if leaf_ok(store, t) {
            post_order.push(t);
        } else {
            return None;
        }
    }
    let mut image = rustc_hash::FxHashMap::default();
    for t in post_order {
        let result = match store.op(t) {
            Some(Op::Ite) => {
                let [c, then, els] = [0, 1, 2].map(|i| store.args(t)[i]);
                store.ite(c, image[&then], image[&els])
            }
            _ => apply(store, t),
        };
        image.insert(t, result);
    }
    Some(image[&root])
}

fn simplify_store(
    store: &mut TermStore,
    array: TermId,
    index: TermId,
    value: TermId,
) -> Option<TermId> {
    // Writing back what is there changes nothing.
    if store.op(value) == Some(Op::Select) && store.args(value) == [array, index] {
        return Some(array);
    }
    // A later write to the same index hides the earlier one.
    if store.op(array) == Some(Op::Store) && store.args(array)[1] == index {
        let inner = store.args(array)[0];
        return Some(store.store(inner, index, value));
    }
    None
}

#[cfg(test)]
mod tests;
