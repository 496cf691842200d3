//! The hash-consed term store.
//!
//! A [`TermId`] is a `u32` index into a [`TermStore`]. Applications and
//! constants are hash-consed: building a structurally equal term again returns
//! the same id, so equality of ids is structural equality and DAG sharing is
//! automatic. Variables are never merged: [`TermStore::var`] always makes a
//! fresh one (names are only for printing and need not be unique), except
//! across the rounds of [`TermStore::recycle_variables`], where a producer
//! that runs again (symbolic execution of a larger bound) gets the earlier
//! round's variables back in the same order, so that the terms it rebuilds
//! are the same ids and a solver kept across rounds blasts them only once.
//!
//! [`TermStore::app`] sort-checks, then runs the rewriter (`rewrite.rs`) and
//! only interns what the rewriter leaves; ill-sorted terms cannot exist. The
//! typed helpers (`and`, `bv_add`, `extract`, …) call `app` and panic on a
//! sort error, which is a bug in the caller, never a property of user input.

use std::hash::{Hash, Hasher};

use hashbrown::HashTable;
use rustc_hash::FxHasher;

use crate::bv::BvValue;
use crate::op::{result_sort, Op, SortError};
use crate::sort::{RoundingMode, Sort, SortTable};
use crate::value::{FpValue, Value};

/// Handle of a term in a [`TermStore`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(pub u32);

/// Handle of a variable (each [`TermStore::var`] call makes a new one).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

impl TermId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl VarId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Debug for TermId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "t{}", self.0)
    }
}

impl std::fmt::Debug for VarId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "v{}", self.0)
    }
}

/// What a term is. Constants are never arrays: array constants are built
/// from `ConstArray` and `Store` applications. The value is boxed to keep
/// every node small (most nodes are applications).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TermKind {
    Const(Box<Value>),
    Var(VarId),
    App { op: Op, args: Box<[TermId]> },
}

#[derive(Clone, Debug)]
struct Node {
    kind: TermKind,
    sort: Sort,
}

#[derive(Clone, Debug)]
struct VarInfo {
    name: String,
    sort: Sort,
    term: TermId,
}

/// Owner of all terms, variables and array sorts of one problem.
#[derive(Clone, Debug, Default)]
pub struct TermStore {
    nodes: Vec<Node>,
    /// Hash-consing index: ids of constants and applications, found by
    /// structural hash and compared with the nodes themselves (no key copies).
    table: HashTable<TermId>,
    vars: Vec<VarInfo>,
    sorts: SortTable,
    /// Nesting of rewriter calls; rewriting stops below a fixed depth so that
    /// rewrites that build new terms can never recurse without bound.
    pub(crate) rewrite_depth: u32,
    /// Present once [`TermStore::recycle_variables`] was called.
    recycling: Option<Recycling>,
}

/// The variables made since recycling began, by sort and name in creation
/// order, and how many of each the current round has taken.
#[derive(Clone, Debug, Default)]
struct Recycling {
    by_key: rustc_hash::FxHashMap<(Sort, String), (Vec<VarId>, usize)>,
}

/// A node to look up before it exists: borrowed, so a hit allocates nothing.
#[derive(Clone, Copy)]
enum NodeKey<'a> {
    Const(&'a Value),
    App(Op, &'a [TermId]),
}

impl<'a> NodeKey<'a> {
    /// The key of an interned (constant or application) node.
    fn of(kind: &'a TermKind) -> NodeKey<'a> {
        match kind {
            TermKind::Const(v) => NodeKey::Const(v),
            TermKind::App { op, args } => NodeKey::App(*op, args),
            TermKind::Var(_) => unreachable!("variables are not hash-consed"),
        }
    }

    fn structural_hash(self) -> u64 {
        let mut hasher = FxHasher::default();
        match self {
            NodeKey::Const(v) => (0u8, v).hash(&mut hasher),
            NodeKey::App(op, args) => (1u8, op, args).hash(&mut hasher),
        }
        hasher.finish()
    }

    fn matches(self, kind: &TermKind) -> bool {
        match (self, kind) {
            (NodeKey::Const(v), TermKind::Const(w)) => v == &**w,
            (NodeKey::App(op, args), TermKind::App { op: o, args: a }) => {
                op == *o && args == &a[..]
            }
            _ => false,
        }
    }

    fn to_kind(self) -> TermKind {
        match self {
            NodeKey::Const(v) => TermKind::Const(Box::new(v.clone())),
            NodeKey::App(op, args) => TermKind::App {
                op,
                args: args.into(),
            },
        }
    }
}

impl TermStore {
    pub fn new() -> TermStore {
        TermStore::default()
    }

    /// Number of terms (variables included).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn sort(&self, t: TermId) -> Sort {
        self.nodes[t.index()].sort
    }

    pub fn kind(&self, t: TermId) -> &TermKind {
        &self.nodes[t.index()].kind
    }

    /// The operator of an application.
    pub fn op(&self, t: TermId) -> Option<Op> {
        match self.kind(t) {
            TermKind::App { op, .. } => Some(*op),
            _ => None,
        }
    }

    /// The arguments of an application (empty for constants and variables).
    pub fn args(&self, t: TermId) -> &[TermId] {
        match self.kind(t) {
            TermKind::App { args, .. } => args,
            _ => &[],
        }
    }

    pub fn const_value(&self, t: TermId) -> Option<&Value> {
        match self.kind(t) {
            TermKind::Const(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_bool_const(&self, t: TermId) -> Option<bool> {
        self.const_value(t).and_then(Value::as_bool)
    }

    pub fn as_bv_const(&self, t: TermId) -> Option<&BvValue> {
        self.const_value(t).and_then(Value::as_bv)
    }

    pub fn is_true(&self, t: TermId) -> bool {
        self.as_bool_const(t) == Some(true)
    }

    pub fn is_false(&self, t: TermId) -> bool {
        self.as_bool_const(t) == Some(false)
    }

    pub fn sorts(&self) -> &SortTable {
        &self.sorts
    }

    /// The (interned) array sort from `index` to `elem`.
    pub fn array_sort(&mut self, index: Sort, elem: Sort) -> Sort {
        self.sorts.array(index, elem)
    }

    pub fn var_name(&self, v: VarId) -> &str {
        &self.vars[v.index()].name
    }

    pub fn var_sort(&self, v: VarId) -> Sort {
        self.vars[v.index()].sort
    }

    /// The term standing for variable `v`.
    pub fn var_term(&self, v: VarId) -> TermId {
        self.vars[v.index()].term
    }

    /// All variables in creation order.
    pub fn vars(&self) -> impl Iterator<Item = VarId> {
        (0..self.vars.len() as u32).map(VarId)
    }

    /// The variable of a variable term.
    pub fn as_var(&self, t: TermId) -> Option<VarId> {
        match self.kind(t) {
            TermKind::Var(v) => Some(*v),
            _ => None,
        }
    }

    /// A fresh variable of `sort`; `name` is a printing hint only. While
    /// recycling, the n-th variable of a name and sort in this round is the
    /// n-th one of earlier rounds (fresh within the round all the same).
    ///
    /// # Panics
    /// If `sort` is not [`Sort::is_valid`] (a bug in the caller).
    pub fn var(&mut self, name: &str, sort: Sort) -> TermId {
        assert!(sort.is_valid(), "variable {name} of invalid sort {sort:?}");
        let Some(recycling) = &mut self.recycling else { return self.new_var(name, sort) };
        let (made, taken) = recycling.by_key.entry((sort, name.to_string())).or_default();
        *taken += 1;
        if let Some(&earlier) = made.get(*taken - 1) {
            return self.vars[earlier.index()].term;
        }
        made.push(VarId(self.vars.len() as u32));
        self.new_var(name, sort)
    }

    /// Starts a round of variable recycling: from now on, [`TermStore::var`]
    /// hands out the variables of earlier rounds again, in their order per
    /// name and sort, before it makes new ones. Sound for a caller whose
    /// rounds are independent problems (each checked under its own
    /// assumptions, never asserted for good): a variable then stands for
    /// one thing within each round, and a solver kept across the rounds
    /// holds only definitions of terms, true whatever the variables mean.
    pub fn recycle_variables(&mut self) {
        let recycling = self.recycling.get_or_insert_with(Recycling::default);
        for (_, taken) in recycling.by_key.values_mut() {
            *taken = 0;
        }
    }

    fn new_var(&mut self, name: &str, sort: Sort) -> TermId {
        let id = VarId(self.vars.len() as u32);
        let term = self.push(TermKind::Var(id), sort);
        self.vars.push(VarInfo {
            name: name.to_string(),
            sort,
            term,
        });
        term
    }

    fn push(&mut self, kind: TermKind, sort: Sort) -> TermId {
        let id = TermId(u32::try_from(self.nodes.len()).expect("more than 2^32 terms"));
        self.nodes.push(Node { kind, sort });
        id
    }

    /// Returns the existing id of `key` or adds it with `sort`.
    fn intern(&mut self, key: NodeKey<'_>, sort: Sort) -> TermId {
        let hash = key.structural_hash();
        let nodes = &self.nodes;
        if let Some(&id) = self
            .table
            .find(hash, |&id| key.matches(&nodes[id.index()].kind))
        {
            return id;
        }
        let id = self.push(key.to_kind(), sort);
        let nodes = &self.nodes;
        self.table.insert_unique(hash, id, |&id| {
            NodeKey::of(&nodes[id.index()].kind).structural_hash()
        });
        id
    }

    /// A constant term. Array values become `ConstArray` and `Store` terms.
    pub fn constant(&mut self, value: Value) -> TermId {
        match value {
            Value::Array(array) => {
                let default = self.constant(array.default_value().clone());
                let mut term = self.mk(Op::ConstArray(array.sort), &[default]);
                for (index, elem) in array.entries() {
                    let (index, elem) = (self.constant(index.clone()), self.constant(elem.clone()));
                    term = self.mk(Op::Store, &[term, index, elem]);
                }
                term
            }
            scalar => {
                let sort = scalar.sort();
                self.intern(NodeKey::Const(&scalar), sort)
            }
        }
    }

    pub fn bool_const(&mut self, value: bool) -> TermId {
        self.constant(Value::Bool(value))
    }

    pub fn true_term(&mut self) -> TermId {
        self.bool_const(true)
    }

    pub fn false_term(&mut self) -> TermId {
        self.bool_const(false)
    }

    pub fn bv_const(&mut self, value: BvValue) -> TermId {
        self.constant(Value::Bv(value))
    }

    /// The bit-vector constant `value` truncated to `width` bits.
    pub fn bv_u64(&mut self, width: u32, value: u64) -> TermId {
        self.bv_const(BvValue::from_u64(width, value))
    }

    pub fn fp_const(&mut self, value: FpValue) -> TermId {
        self.constant(Value::Fp(value))
    }

    pub fn rm_const(&mut self, rm: RoundingMode) -> TermId {
        self.constant(Value::Rm(rm))
    }

    /// `op` applied to `args`: sort-checked, then simplified by the rewriter.
    pub fn app(&mut self, op: Op, args: &[TermId]) -> Result<TermId, SortError> {
        // Almost every application has at most four arguments: no allocation.
        let mut few = [Sort::Bool; 4];
        let many: Vec<Sort>;
        let arg_sorts = if args.len() <= few.len() {
            for (slot, &a) in few.iter_mut().zip(args) {
                *slot = self.sort(a);
            }
            &few[..args.len()]
        } else {
            many = args.iter().map(|&a| self.sort(a)).collect();
            &many[..]
        };
        let sort = result_sort(op, arg_sorts, &self.sorts)?;
        Ok(match crate::rewrite::simplify(self, op, args, sort) {
            Some(t) => t,
            None => self.intern_app(op, args, sort),
        })
    }

    /// Interns an application that the caller has sort-checked (`sort`) and
    /// that needs no further rewriting.
    pub(crate) fn intern_app(&mut self, op: Op, args: &[TermId], sort: Sort) -> TermId {
        if op.is_commutative() && args.len() == 2 && args[0] > args[1] {
            return self.intern(NodeKey::App(op, &[args[1], args[0]]), sort);
        }
        self.intern(NodeKey::App(op, args), sort)
    }

    /// [`TermStore::app`] for callers that know the application is well sorted.
    ///
    /// # Panics
    /// On a sort error (a bug in the caller).
    pub fn mk(&mut self, op: Op, args: &[TermId]) -> TermId {
        self.app(op, args).unwrap_or_else(|e| panic!("{e}"))
    }

    pub fn not(&mut self, a: TermId) -> TermId {
        self.mk(Op::Not, &[a])
    }

    /// Conjunction of any number of Booleans (true if empty).
    pub fn and(&mut self, args: &[TermId]) -> TermId {
        self.mk(Op::And, args)
    }

    /// Disjunction of any number of Booleans (false if empty).
    pub fn or(&mut self, args: &[TermId]) -> TermId {
        self.mk(Op::Or, args)
    }

    pub fn and2(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::And, &[a, b])
    }

    pub fn or2(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::Or, &[a, b])
    }

    pub fn xor(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::Xor, &[a, b])
    }

    pub fn implies(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::Implies, &[a, b])
    }

    pub fn ite(&mut self, cond: TermId, then: TermId, els: TermId) -> TermId {
        self.mk(Op::Ite, &[cond, then, els])
    }

    pub fn eq(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::Eq, &[a, b])
    }

    pub fn bv_not(&mut self, a: TermId) -> TermId {
        self.mk(Op::BvNot, &[a])
    }

    pub fn bv_neg(&mut self, a: TermId) -> TermId {
        self.mk(Op::BvNeg, &[a])
    }

    pub fn bv_and(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::BvAnd, &[a, b])
    }

    pub fn bv_or(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::BvOr, &[a, b])
    }

    pub fn bv_xor(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::BvXor, &[a, b])
    }

    pub fn bv_add(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::BvAdd, &[a, b])
    }

    pub fn bv_sub(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::BvSub, &[a, b])
    }

    pub fn bv_mul(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::BvMul, &[a, b])
    }

    pub fn bv_ult(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::BvUlt, &[a, b])
    }

    pub fn bv_ule(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::BvUle, &[a, b])
    }

    pub fn bv_slt(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::BvSlt, &[a, b])
    }

    pub fn bv_sle(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Op::BvSle, &[a, b])
    }

    /// `high ++ low`.
    pub fn concat(&mut self, high: TermId, low: TermId) -> TermId {
        self.mk(Op::Concat, &[high, low])
    }

    /// Bits `hi..=lo` of `a`.
    pub fn extract(&mut self, hi: u32, lo: u32, a: TermId) -> TermId {
        self.mk(Op::Extract { hi, lo }, &[a])
    }

    pub fn zero_extend(&mut self, extra: u32, a: TermId) -> TermId {
        self.mk(Op::ZeroExtend(extra), &[a])
    }

    pub fn sign_extend(&mut self, extra: u32, a: TermId) -> TermId {
        self.mk(Op::SignExtend(extra), &[a])
    }

    pub fn select(&mut self, array: TermId, index: TermId) -> TermId {
        self.mk(Op::Select, &[array, index])
    }

    pub fn store(&mut self, array: TermId, index: TermId, value: TermId) -> TermId {
        self.mk(Op::Store, &[array, index, value])
    }

    /// The array of sort `array_sort` holding `elem` everywhere.
    pub fn const_array(&mut self, array_sort: Sort, elem: TermId) -> TermId {
        self.mk(Op::ConstArray(array_sort), &[elem])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_consing_shares_equal_terms() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::BitVec(8));
        let y = s.var("y", Sort::BitVec(8));
        let a = s.bv_mul(x, y);
        let b = s.bv_mul(x, y);
        assert_eq!(a, b);
        assert_eq!(s.bv_mul(y, x), a, "commutative operands are ordered");
        assert_ne!(s.bv_sub(x, y), s.bv_sub(y, x));
        assert_eq!(s.bv_u64(8, 3), s.bv_u64(8, 259));
        assert_ne!(s.bv_u64(8, 3), s.bv_u64(9, 3));
    }

    #[test]
    fn variables_are_always_fresh() {
        let mut s = TermStore::new();
        let a = s.var("x", Sort::Bool);
        let b = s.var("x", Sort::Bool);
        assert_ne!(a, b);
        assert_eq!(s.var_name(s.as_var(b).unwrap()), "x");
        assert_eq!(s.vars().count(), 2);
    }

    #[test]
    fn recycled_variables_are_fresh_within_a_round_and_shared_across_rounds() {
        let mut s = TermStore::new();
        let round = |s: &mut TermStore, extra: bool| {
            s.recycle_variables();
            let (x1, x2) = (s.var("x", Sort::BitVec(8)), s.var("x", Sort::BitVec(8)));
            let p = s.var("x", Sort::Bool);
            let sum = s.bv_add(x1, x2);
            let more = extra.then(|| s.var("x", Sort::BitVec(8)));
            (x1, x2, p, sum, more)
        };
        let (x1, x2, p, sum, none) = round(&mut s, false);
        assert!(x1 != x2 && none.is_none());
        assert_ne!(s.sort(p), s.sort(x1), "another sort is another variable");
        let (y1, y2, q, again, third) = round(&mut s, true);
        assert_eq!((y1, y2, q, again), (x1, x2, p, sum), "the next round gets the same variables and terms");
        let third = third.expect("made in the second round");
        assert!(third != x1 && third != x2, "a variable beyond the earlier rounds is new");
        let (_, _, _, _, fourth) = round(&mut s, true);
        assert_eq!(fourth, Some(third));
        assert_eq!(s.vars().count(), 4);
    }

    #[test]
    fn app_rejects_ill_sorted_terms() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::BitVec(8));
        let p = s.var("p", Sort::Bool);
        assert!(s.app(Op::BvAdd, &[x, p]).is_err());
        assert!(s.app(Op::Ite, &[x, x, x]).is_err());
        assert!(s.app(Op::Extract { hi: 9, lo: 0 }, &[x]).is_err());
        let slice = s.mk(Op::Extract { hi: 6, lo: 2 }, &[x]);
        assert_eq!(s.sort(slice), Sort::BitVec(5));
    }

    #[test]
    fn array_constants_round_trip_through_terms() {
        let mut s = TermStore::new();
        let sort = s.array_sort(Sort::BitVec(4), Sort::BitVec(8));
        let value = crate::value::ArrayValue::constant(sort, Value::Bv(BvValue::from_u64(8, 7)))
            .store(
                Value::Bv(BvValue::from_u64(4, 2)),
                Value::Bv(BvValue::from_u64(8, 9)),
            );
        let t = s.constant(Value::Array(std::sync::Arc::new(value.clone())));
        assert_eq!(s.sort(t), sort);
        let evaluated = crate::eval::eval(&s, t, &crate::eval::Model::default()).unwrap();
        assert_eq!(evaluated.as_array(), Some(&value));
    }
}
