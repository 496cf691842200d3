//! Solving formulas with quantifiers, which the bit-blaster cannot take:
//! model-based quantifier instantiation.
//!
//! Every quantified term `Q` that is not under another binder is replaced by
//! a Boolean stand-in `q`, and `q ↔ Q` is enforced in two halves:
//! - the existential half becomes a Skolem constant `k`: `¬q → ¬b(k)` for
//!   `Q = ∀x. b`, `q → b(k)` for `Q = ∃x. b` (exact, a constraint);
//! - the universal half (`q → ∀x. b`, resp. `¬q → ∀x. ¬b`) is an obligation.
//!
//! The ground formula is solved; for each obligation its model activates,
//! a value of `x` violating it is searched with every other variable fixed
//! to the model's value (a smaller query, solved by the same procedure, so
//! nested alternations recurse). If one exists, the obligation's instance
//! for it is added and the formula solved again; otherwise the model
//! satisfies the quantified formula. Instances are consequences of the
//! obligations, so UNSAT is exact; SAT is only reported once no obligation
//! has a counterexample. The instance value is a term of the body when one
//! evaluates to the counterexample's value (this generalises: `∀a. ∃b. b =
//! a + 1` needs the instance `b := k + 1`, not one constant per `k`), else
//! the constant. Rounds are bounded: past the bound the answer is UNKNOWN.

use crate::backend::Backend;
use bitblast::BitBlastSolver;
use rustc_hash::{FxHashMap, FxHashSet};
use smt::quantifier::{instantiate, unbound_vars};
use smt::{Binder, Evaluator, Model, Op, Quantifier, SatResult, Solver, TermId, TermStore};
use std::time::Instant;

/// Solver rounds (instances added) per query before giving up.
const MAX_ROUNDS: usize = 64;
/// Instances per quantifier at the formula's extended terms
/// ([`Quantifiers::instantiate_at_extensions`]).
const MAX_EAGER_INSTANCES: usize = 256;
/// Quantifier alternations followed by nested counterexample queries.
const MAX_DEPTH: u32 = 8;

/// A quantified term that has a stand-in.
#[derive(Clone, Debug)]
pub(crate) struct Abstracted {
    pub binder: Binder,
    pub skolem: TermId,
}

/// `guard → ∀var. body`, to be established by instantiation.
#[derive(Clone, Copy, Debug)]
struct Obligation {
    guard: TermId,
    var: TermId,
    body: TermId,
}

/// The quantifier-free abstraction of some formulas, with what it needs
/// to be equivalent to them.
#[derive(Default)]
pub(crate) struct Quantifiers {
    stand_ins: FxHashMap<TermId, TermId>,
    pub abstracted: Vec<Abstracted>,
    /// Skolem definitions and instances: they hold in every query.
    constraints: Vec<TermId>,
    obligations: Vec<Obligation>,
    depth: u32,
    deadline: Option<Instant>,
    /// The model of the last satisfiable query.
    model: Option<Model>,
    /// The solver's last model, even if it violates a quantifier.
    last_model: Option<Model>,
    /// The non-constant terms of the last query, smallest first: instances
    /// at them tie a quantifier to the formula (a read `a[x]` needs the
    /// instance at `x` of `∀j. a[j] == 0`).
    ground: Vec<TermId>,
}

impl Quantifiers {
    pub fn new(deadline: Option<Instant>) -> Quantifiers {
        Quantifiers { deadline, ..Quantifiers::default() }
    }

    /// `t` with every quantified term that is not under a binder replaced
    /// by its stand-in.
    pub fn abstract_term(&mut self, store: &mut TermStore, t: TermId) -> TermId {
        let mut pending = vec![t];
        let mut seen = FxHashSet::default();
        while let Some(node) = pending.pop() {
            if !seen.insert(node) || self.stand_ins.contains_key(&node) {
                continue;
            }
            match store.binder(node) {
                Some(binder) => self.add_stand_in(store, node, binder),
                None => pending.extend_from_slice(store.args(node)),
            }
        }
        smt::substitute(store, &[t], &self.stand_ins)[0]
    }

    fn add_stand_in(&mut self, store: &mut TermStore, term: TermId, binder: Binder) {
        let n = self.abstracted.len();
        let stand_in = store.var(&format!("quantifier!{n}"), smt::Sort::Bool);
        let sort = store.sort(binder.var);
        let skolem = store.var(&format!("witness!{n}"), sort);
        self.stand_ins.insert(term, stand_in);
        self.abstracted.push(Abstracted { binder, skolem });
        let at_skolem = instantiate(store, &binder, skolem);
        let (definition, obligation) = match binder.quantifier {
            Quantifier::Forall => {
                let refuted = store.not(at_skolem);
                (store.or2(stand_in, refuted), Obligation { guard: stand_in, var: binder.var, body: binder.body })
            }
            Quantifier::Exists => {
                let not_q = store.not(stand_in);
                let refuted = store.not(binder.body);
                (store.or2(not_q, at_skolem), Obligation { guard: not_q, var: binder.var, body: refuted })
            }
        };
        self.obligations.push(obligation);
        let definition = self.abstract_term(store, definition);
        self.constraints.push(definition);
    }

    /// Replaces the quantified terms of every term of `equation` by their
    /// stand-ins (so that counterexamples evaluate without quantifiers).
    pub fn abstract_equation(&mut self, store: &mut TermStore, equation: &mut symex::Equation) {
        let mut terms: Vec<&mut TermId> = Vec::new();
        for a in &mut equation.assertions {
            terms.extend([&mut a.guard, &mut a.condition]);
        }
        for s in &mut equation.steps {
            terms.extend([&mut s.guard, &mut s.value]);
        }
        for i in &mut equation.inputs {
            terms.extend([&mut i.guard, &mut i.value]);
        }
        terms.extend(equation.unmodelled_calls.iter_mut().map(|c| &mut c.guard));
        terms.extend(equation.preferences.iter_mut());
        terms.extend(equation.unchecked_accesses.iter_mut());
        terms.extend(equation.constraints.iter_mut());
        terms.extend(equation.conditional_approximations.iter_mut().map(|(condition, _)| condition));
        for t in terms {
            *t = self.abstract_term(store, *t);
        }
    }

    /// `t` with the quantified terms that have stand-ins replaced by them,
    /// so that a model of the abstraction evaluates it.
    pub fn with_stand_ins(&self, store: &mut TermStore, t: TermId) -> TermId {
        smt::substitute(store, &[t], &self.stand_ins)[0]
    }

    /// The last model of the ground abstraction in [`Quantifiers::check`],
    /// which may violate a quantifier (when instantiation gave up).
    pub fn last_model(&self) -> Option<&Model> {
        self.last_model.as_ref()
    }

    /// The model of the last satisfiable [`Quantifiers::check`].
    pub fn model(&self) -> Option<&Model> {
        self.model.as_ref()
    }

    /// Whether the abstracted `query` (with the constraints) has a model
    /// that satisfies every quantifier it stands for.
    pub fn check(&mut self, store: &mut TermStore, solver: &mut Backend, query: TermId) -> SatResult {
        let mut roots = vec![query];
        roots.extend_from_slice(&self.constraints);
        self.ground = smt::post_order(store, &roots).into_iter().filter(|&t| store.const_value(t).is_none()).collect();
        self.instantiate_at_extensions(store);
        for _ in 0..MAX_ROUNDS {
            if let Some(deadline) = self.deadline {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return SatResult::Unknown("timeout".into());
                }
                solver.set_time_limit(Some(left));
            }
            let mut assumptions = vec![query];
            assumptions.extend_from_slice(&self.constraints);
            match solver.check(store, &assumptions) {
                SatResult::Sat => {}
                other => return other,
            }
            let model = solver.model(store);
            self.last_model = Some(model.clone());
            match self.refine(store, &model) {
                Ok(true) => {}
                Ok(false) => {
                    self.model = Some(model);
                    return SatResult::Sat;
                }
                Err(reason) => return SatResult::Unknown(reason),
            }
        }
        SatResult::Unknown("quantifier instantiation did not converge".into())
    }

    /// Adds the instances of every obligation at the terms the formula
    /// extends as the body extends its variable: `∀j. a[j] == 0` reads
    /// memory at an offset computed from `sext(j)`, and a read `a[x]` of the
    /// formula from `sext(x)`, so the instance at `x` is the one that
    /// speaks of that read (E-matching on the extension). Model-based
    /// instantiation alone guesses such indices one value at a time.
    ///
    /// Only extended terms that index an array the body reads count (by
    /// the array variables under stores and choices): an instance at an
    /// index of other arrays says nothing about the formula's reads, and
    /// the instances of every quantifier at every index of a formula with
    /// several loops over arrays grew as their square (model-based
    /// instantiation still adds any instance a model needs).
    fn instantiate_at_extensions(&mut self, store: &mut TermStore) {
        let bases = ArrayBases::of(store, &self.ground);
        for index in 0..self.obligations.len() {
            let obligation = self.obligations[index];
            let smt::Sort::BitVec(width) = store.sort(obligation.var) else { continue };
            let read = bases.read_by(store, obligation.body);
            let patterns: FxHashSet<(bool, smt::Sort)> = smt::post_order(store, &[obligation.body])
                .into_iter()
                .filter(|&t| store.args(t) == [obligation.var])
                .filter_map(|t| match store.op(t)? {
                    Op::SignExtend(_) => Some((true, store.sort(t))),
                    Op::ZeroExtend(_) => Some((false, store.sort(t))),
                    _ => None,
                })
                .collect();
            let mut at: Vec<TermId> = Vec::new();
            for &g in &self.ground {
                let signed = match store.op(g) {
                    Some(Op::SignExtend(_)) => true,
                    Some(Op::ZeroExtend(_)) => false,
                    _ => continue,
                };
                if !patterns.contains(&(signed, store.sort(g))) || !bases.indexes(g, read.as_ref()) {
                    continue;
                }
                let arg = store.args(g)[0];
                let smt::Sort::BitVec(w) = store.sort(arg) else { continue };
                let term = match w.cmp(&width) {
                    std::cmp::Ordering::Equal => arg,
                    std::cmp::Ordering::Less if signed => store.sign_extend(width - w, arg),
                    std::cmp::Ordering::Less => store.zero_extend(width - w, arg),
                    std::cmp::Ordering::Greater => continue,
                };
                if !at.contains(&term) {
                    at.push(term);
                }
                if at.len() == MAX_EAGER_INSTANCES {
                    break;
                }
            }
            at.extend(self.at_constant_reads(store, &obligation));
            let binder = Binder { quantifier: Quantifier::Forall, var: obligation.var, body: obligation.body };
            for term in at {
                let instance = instantiate(store, &binder, term);
                let off = store.not(obligation.guard);
                let lemma = store.or2(off, instance);
                let lemma = self.abstract_term(store, lemma);
                self.constraints.push(lemma);
            }
        }
    }

    /// The values of the obligation's variable at which the body reads an
    /// array at an index the formula reads at as a constant (`a[1]`, whose
    /// offset the rewriter folded): each found by a query over the
    /// variable alone.
    fn at_constant_reads(&self, store: &mut TermStore, obligation: &Obligation) -> Vec<TermId> {
        let reads = |store: &TermStore, roots: &[TermId]| -> Vec<TermId> {
            smt::post_order(store, roots).into_iter().filter(|&t| store.op(t) == Some(Op::Select)).map(|t| store.args(t)[1]).collect()
        };
        let var = store.as_var(obligation.var).expect("bound variables are variables");
        let indices: Vec<TermId> = reads(store, &[obligation.body]).into_iter().filter(|&i| unbound_vars(store, &[i]) == [var]).collect();
        let mut constants: Vec<TermId> = reads(store, &self.ground).into_iter().filter(|&i| store.const_value(i).is_some()).collect();
        constants.sort_unstable();
        constants.dedup();
        constants.truncate(MAX_EAGER_INSTANCES);
        let mut out = Vec::new();
        for &index in &indices {
            for &constant in &constants {
                if store.sort(constant) != store.sort(index) {
                    continue;
                }
                let hits = store.eq(index, constant);
                let mut solver = BitBlastSolver::new();
                if solver.check(store, &[hits]) != SatResult::Sat {
                    continue;
                }
                let Ok(value) = Evaluator::new(store, &solver.model(store)).eval(obligation.var) else { continue };
                let term = store.constant(value);
                if !out.contains(&term) {
                    out.push(term);
                }
            }
        }
        out
    }

    /// Adds an instance for every obligation `model` violates; false when
    /// it violates none.
    fn refine(&mut self, store: &mut TermStore, model: &Model) -> Result<bool, String> {
        let mut refined = false;
        let mut index = 0;
        while index < self.obligations.len() {
            let obligation = self.obligations[index];
            index += 1;
            if !is_true(store, model, obligation.guard)? {
                continue;
            }
            let Some(value) = self.counterexample(store, model, &obligation)? else { continue };
            let binder = Binder { quantifier: Quantifier::Forall, var: obligation.var, body: obligation.body };
            let instance = instantiate(store, &binder, value);
            let off = store.not(obligation.guard);
            let lemma = store.or2(off, instance);
            let lemma = self.abstract_term(store, lemma);
            self.constraints.push(lemma);
            refined = true;
        }
        Ok(refined)
    }

    /// A term for a value of the obligation's variable that falsifies its
    /// body when every other variable has its value in `model`.
    fn counterexample(&self, store: &mut TermStore, model: &Model, obligation: &Obligation) -> Result<Option<TermId>, String> {
        let value = self.falsifying_value(store, model, obligation.var, obligation.body)?;
        Ok(value.map(|value| instance_term(store, model, obligation, value, &self.ground)))
    }

    /// A value of `var` that makes `body` false when every other variable
    /// has its value in `model` (a ground query over `var`, solved
    /// exactly), or `None` when there is none.
    fn falsifying_value(&self, store: &mut TermStore, model: &Model, var: TermId, body: TermId) -> Result<Option<smt::Value>, String> {
        if self.depth >= MAX_DEPTH {
            return Err("unsupported: quantifiers nested too deeply".into());
        }
        let bound = store.as_var(var).expect("bound variables are variables");
        let mut fixed = FxHashMap::default();
        for other in unbound_vars(store, &[body]).into_iter().filter(|&v| v != bound) {
            let value = Evaluator::new(store, model).eval(store.var_term(other)).map_err(|e| e.to_string())?;
            let constant = store.constant(value);
            fixed.insert(store.var_term(other), constant);
        }
        let violated = store.not(body);
        let query = smt::substitute(store, &[violated], &fixed)[0];
        let mut inner = Quantifiers { depth: self.depth + 1, ..Quantifiers::new(self.deadline) };
        let abstracted = inner.abstract_term(store, query);
        match inner.check(store, &mut Backend::BitBlast(Box::new(BitBlastSolver::new())), abstracted) {
            SatResult::Unsat => Ok(None),
            SatResult::Unknown(reason) => Err(reason),
            SatResult::Sat => {
                let found = inner.model.as_ref().expect("set on Sat");
                Evaluator::new(store, found).eval(var).map(Some).map_err(|e| e.to_string())
            }
        }
    }

    /// A value of `binder`'s variable that decides it (makes a `forall`
    /// body false, an `exists` body true) when every other variable has
    /// its value in `model`, or `None` when no value does.
    pub fn deciding_value(&self, store: &mut TermStore, model: &Model, binder: &Binder) -> Result<Option<smt::Value>, String> {
        let refuted = match binder.quantifier {
            Quantifier::Forall => binder.body,
            Quantifier::Exists => store.not(binder.body),
        };
        self.falsifying_value(store, model, binder.var, refuted)
    }
}

/// Which array variables (under stores and choices) the reads of a
/// formula read, and which extended terms index them.
struct ArrayBases {
    /// The array variables each array term of the formula is made from.
    of_array: FxHashMap<TermId, Vec<TermId>>,
    /// The extended terms in the index of a read, with the variables of
    /// the arrays read there; `None` when a read's array has none (a
    /// constant array): such terms index anything.
    indexing: FxHashMap<TermId, Option<Vec<TermId>>>,
}

/// Nodes of a read's index searched for extended terms.
const MAX_INDEX_NODES: usize = 64;

impl ArrayBases {
    /// Over `ground`, in post order (arguments before their terms).
    fn of(store: &TermStore, ground: &[TermId]) -> ArrayBases {
        let mut bases = ArrayBases { of_array: FxHashMap::default(), indexing: FxHashMap::default() };
        for &t in ground {
            if matches!(store.sort(t), smt::Sort::Array(_)) {
                let made_of = bases.made_of(store, t);
                bases.of_array.insert(t, made_of);
            }
            if store.op(t) == Some(Op::Select) {
                let arrays = bases.of_array.get(&store.args(t)[0]).filter(|v| !v.is_empty()).cloned();
                for g in extensions_in(store, store.args(t)[1]) {
                    match (bases.indexing.entry(g).or_insert_with(|| Some(Vec::new())), &arrays) {
                        (Some(known), Some(arrays)) => add_new(known, arrays),
                        (entry, _) => *entry = None,
                    }
                }
            }
        }
        bases
    }

    fn made_of(&self, store: &TermStore, array: TermId) -> Vec<TermId> {
        if store.as_var(array).is_some() {
            return vec![array];
        }
        let parts: &[TermId] = match store.op(array) {
            Some(Op::Store) => &store.args(array)[..1],
            Some(Op::Ite) => &store.args(array)[1..],
            _ => &[],
        };
        let mut out: Vec<TermId> = Vec::new();
        for p in parts {
            add_new(&mut out, self.of_array.get(p).map_or(&[][..], Vec::as_slice));
        }
        out
    }

    /// The array variables `body` reads (None: some read's array is not
    /// made of variables, or the body has no read: any index may matter).
    fn read_by(&self, store: &TermStore, body: TermId) -> Option<Vec<TermId>> {
        let order = smt::post_order(store, &[body]);
        let local = ArrayBases::of(store, &order);
        let mut read: Vec<TermId> = Vec::new();
        for &t in order.iter().filter(|&&t| store.op(t) == Some(Op::Select)) {
            let arrays = local.of_array.get(&store.args(t)[0]).filter(|v| !v.is_empty())?;
            add_new(&mut read, arrays);
        }
        (!read.is_empty()).then_some(read)
    }

    /// Whether the extended term `g` indexes a read of one of `read`.
    fn indexes(&self, g: TermId, read: Option<&Vec<TermId>>) -> bool {
        match (self.indexing.get(&g), read) {
            (None, _) => false,
            (Some(None), _) | (_, None) => true,
            (Some(Some(arrays)), Some(read)) => arrays.iter().any(|a| read.contains(a)),
        }
    }
}

/// Appends the terms of `from` that `into` lacks.
fn add_new(into: &mut Vec<TermId>, from: &[TermId]) {
    for &t in from {
        if !into.contains(&t) {
            into.push(t);
        }
    }
}

/// The sign and zero extensions in `index` (within [`MAX_INDEX_NODES`]).
fn extensions_in(store: &TermStore, index: TermId) -> Vec<TermId> {
    let mut pending = vec![index];
    let mut seen = FxHashSet::default();
    let mut found = Vec::new();
    while let Some(t) = pending.pop() {
        if seen.len() >= MAX_INDEX_NODES || !seen.insert(t) {
            continue;
        }
        if matches!(store.op(t), Some(Op::SignExtend(_) | Op::ZeroExtend(_))) {
            found.push(t);
        }
        pending.extend_from_slice(store.args(t));
    }
    found
}

/// A term of the obligation's body, free of bound variables, that has
/// `value` in `model` (the smallest such, for generality); else such a
/// term of the formula (`ground`); else `value`.
fn instance_term(store: &mut TermStore, model: &Model, obligation: &Obligation, value: smt::Value, ground: &[TermId]) -> TermId {
    let order = smt::post_order(store, &[obligation.body]);
    let mut bound: FxHashSet<TermId> = order.iter().filter_map(|&t| store.binder(t)).map(|b| b.var).collect();
    bound.insert(obligation.var);
    let sort = store.sort(obligation.var);
    let mut depends = FxHashSet::default();
    let mut evaluator = Evaluator::new(store, model);
    for &t in &order {
        if bound.contains(&t) || store.args(t).iter().any(|a| depends.contains(a)) || store.binder(t).is_some() {
            depends.insert(t);
            continue;
        }
        let candidate = store.sort(t) == sort && store.const_value(t).is_none();
        if candidate && evaluator.eval(t).is_ok_and(|v| v == value) {
            return t;
        }
    }
    for &t in ground {
        match (store.sort(t), evaluator.eval(t)) {
            (s, Ok(v)) if s == sort && v == value => return t,
            (smt::Sort::BitVec(w), Ok(smt::Value::Bv(v))) => {
                // The formula may read the variable's value in a narrower
                // type (`a[x]` with an `int x`, extended in the index).
                let smt::Value::Bv(wanted) = &value else { continue };
                let Some(extra) = wanted.width().checked_sub(w).filter(|e| *e > 0) else { continue };
                if v.sign_extend(extra) == *wanted {
                    return store.sign_extend(extra, t);
                }
                if v.zero_extend(extra) == *wanted {
                    return store.zero_extend(extra, t);
                }
            }
            _ => {}
        }
    }
    store.constant(value)
}

fn is_true(store: &TermStore, model: &Model, t: TermId) -> Result<bool, String> {
    match Evaluator::new(store, model).eval(t) {
        Ok(smt::Value::Bool(b)) => Ok(b),
        Ok(other) => Err(format!("a quantifier guard evaluated to {other}")),
        Err(e) => Err(format!("cannot evaluate the model: {e}")),
    }
}

pub(crate) mod replay_oracle;
#[cfg(test)]
mod tests;
