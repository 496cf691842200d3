//! Incremental CNF encoding of an AIG into CaDiCaL.
//!
//! Only the cone of influence of what is asserted or assumed is encoded,
//! by Tseitin's transformation, and each AIG variable is encoded at most
//! once over the life of the solver: later calls only add clauses for nodes
//! that are new to the SAT solver. Assertions are permanent; per-query
//! conditions are passed as assumptions.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::aig::{Aig, Lit, Node, Var};

/// Answer of one SAT call.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    Sat,
    Unsat,
    /// The solver stopped before deciding (a limit was reached).
    Unknown,
}

/// When a running solve must give up: at a deadline, or when another
/// thread raises the interrupt flag (a portfolio member that finished).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub deadline: Option<Instant>,
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl Limits {
    fn is_unlimited(&self) -> bool {
        self.deadline.is_none() && self.interrupt.is_none()
    }

    /// Why the search must stop now, if it must.
    pub fn exceeded(&self) -> Option<&'static str> {
        if self.interrupt.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            return Some("interrupted");
        }
        if self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return Some("deadline reached");
        }
        None
    }
}

impl cadical::Callbacks for Limits {
    fn terminate(&mut self) -> bool {
        self.exceeded().is_some()
    }
}

/// What an and-node computes, as the CNF encoder sees it: the AIG's
/// `!(c & t) & !(!c & e)` is a multiplexer (`c ? !t : !e`, which covers
/// exclusive or), encoded with one variable instead of three.
#[derive(Copy, Clone, Debug)]
enum Gate {
    And(Lit, Lit),
    Mux { cond: Lit, then: Lit, other: Lit },
}

impl Gate {
    fn of(aig: &Aig, a: Lit, b: Lit) -> Gate {
        let negated_and = |lit: Lit| match aig.node(lit.var()) {
            Node::And(x, y) if lit.is_negated() => Some([x, y]),
            _ => None,
        };
        if let (Some(left), Some(right)) = (negated_and(a), negated_and(b)) {
            for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                if left[i] == !right[j] {
                    return Gate::Mux { cond: left[i], then: !left[1 - i], other: !right[1 - j] };
                }
            }
        }
        Gate::And(a, b)
    }

    fn inputs(self) -> impl Iterator<Item = Lit> {
        let (lits, count) = match self {
            Gate::And(a, b) => ([a, b, b], 2),
            Gate::Mux { cond, then, other } => ([cond, then, other], 3),
        };
        lits.into_iter().take(count)
    }
}

/// CaDiCaL plus the map from AIG variables to SAT variables.
pub struct CnfSolver {
    sat: cadical::Solver<Limits>,
    /// DIMACS variable of each AIG variable; 0 while not encoded.
    sat_var: Vec<i32>,
    num_sat_vars: i32,
    num_clauses: u64,
    num_solves: u64,
    solve_time: Duration,
    limits: Limits,
    /// Answer of the last solve, reset by any new clause: CaDiCaL's model
    /// and failed assumptions are only valid until the formula changes.
    last_result: Option<SatResult>,
    /// Values of and-nodes outside the encoded cone, computed on demand
    /// from the last model; cleared by every solve.
    derived_values: FxHashMap<Var, bool>,
    /// The DIMACS literal assumed for each assumption (see [`Self::assumed`]).
    selectors: FxHashMap<Lit, i32>,
}

/// The widest clause [`clauses_implying`] makes by splitting a negated
/// conjunction into a disjunction.
const WIDEST_CLAUSE: usize = 6;
/// The most conjuncts one conjunction is split into by [`clauses_implying`].
const MOST_CONJUNCTS: usize = 64;

impl Default for CnfSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl CnfSolver {
    pub fn new() -> CnfSolver {
        let mut solver = CnfSolver {
            sat: cadical::Solver::new(),
            sat_var: Vec::new(),
            num_sat_vars: 0,
            num_clauses: 0,
            num_solves: 0,
            solve_time: Duration::ZERO,
            limits: Limits::default(),
            last_result: None,
            derived_values: FxHashMap::default(),
            selectors: FxHashMap::default(),
        };
        // The AIG constant gets a SAT variable of its own, forced false, so
        // constant literals need no special case anywhere.
        let constant = solver.fresh_sat_var();
        solver.sat_var.push(constant);
        solver.add_clause(&[-constant]);
        solver
    }

    pub fn num_vars(&self) -> u64 {
        self.num_sat_vars as u64
    }

    pub fn num_clauses(&self) -> u64 {
        self.num_clauses
    }

    pub fn num_solves(&self) -> u64 {
        self.num_solves
    }

    pub fn solve_time(&self) -> Duration {
        self.solve_time
    }

    /// Limits of every later solve call; a call that reaches one answers
    /// `Unknown`.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    fn fresh_sat_var(&mut self) -> i32 {
        self.num_sat_vars = self.num_sat_vars.checked_add(1).expect("more than 2^31 SAT variables");
        self.num_sat_vars
    }

    fn add_clause(&mut self, clause: &[i32]) {
        self.sat.add_clause(clause.iter().copied());
        self.num_clauses += 1;
        self.last_result = None;
    }

    fn encoded(&self, var: Var) -> Option<i32> {
        self.sat_var.get(var.index()).copied().filter(|&v| v != 0)
    }

    fn dimacs(sat_var: i32, lit: Lit) -> i32 {
        if lit.is_negated() {
            -sat_var
        } else {
            sat_var
        }
    }

    /// The DIMACS literal of `lit`, encoding its cone first where needed
    /// (depth-first with an explicit stack: cones can be millions deep).
    pub fn encode(&mut self, aig: &Aig, lit: Lit) -> i32 {
        if let Some(v) = self.encoded(lit.var()) {
            return Self::dimacs(v, lit);
        }
        if self.sat_var.len() < aig.num_vars() {
            self.sat_var.resize(aig.num_vars(), 0);
        }
        let mut stack = vec![lit.var()];
        while let Some(&var) = stack.last() {
            if self.encoded(var).is_some() {
                stack.pop();
                continue;
            }
            match aig.node(var) {
                Node::Const | Node::Input => {
                    let fresh = self.fresh_sat_var();
                    self.sat_var[var.index()] = fresh;
                    stack.pop();
                }
                Node::And(a, b) => {
                    let gate = Gate::of(aig, a, b);
                    let depth = stack.len();
                    stack.extend(gate.inputs().map(Lit::var).filter(|&v| self.encoded(v).is_none()));
                    if stack.len() > depth {
                        continue;
                    }
                    let x = self.fresh_sat_var();
                    self.sat_var[var.index()] = x;
                    self.add_gate_clauses(x, gate);
                    stack.pop();
                }
            }
        }
        self.encode_known(lit)
    }

    /// Tseitin clauses defining `x` as `gate`.
    fn add_gate_clauses(&mut self, x: i32, gate: Gate) {
        match gate {
            Gate::And(a, b) => {
                let (a, b) = (self.encode_known(a), self.encode_known(b));
                self.add_clause(&[-x, a]);
                self.add_clause(&[-x, b]);
                self.add_clause(&[x, -a, -b]);
            }
            Gate::Mux { cond, then, other } => {
                let (c, t, e) = (self.encode_known(cond), self.encode_known(then), self.encode_known(other));
                self.add_clause(&[-c, -t, x]);
                self.add_clause(&[-c, t, -x]);
                self.add_clause(&[c, -e, x]);
                self.add_clause(&[c, e, -x]);
                // Redundant, but they let propagation skip the condition;
                // for an exclusive or (t = -e) they are tautologies.
                if t != -e {
                    self.add_clause(&[-t, -e, x]);
                    self.add_clause(&[t, e, -x]);
                }
            }
        }
    }

    fn encode_known(&self, lit: Lit) -> i32 {
        let var = self.encoded(lit.var()).expect("fan-in encoded before its node");
        Self::dimacs(var, lit)
    }

    /// Adds `lit` as a permanent fact. A conjunction is split into its
    /// conjuncts and a negated conjunction becomes one binary clause, which
    /// saves the Tseitin variables of the top-level structure.
    pub fn assert(&mut self, aig: &Aig, lit: Lit) {
        let mut stack = vec![lit];
        let mut seen = FxHashSet::default();
        while let Some(lit) = stack.pop() {
            if !seen.insert(lit) {
                continue;
            }
            match aig.node(lit.var()) {
                Node::And(a, b) if !lit.is_negated() => stack.extend([a, b]),
                Node::And(a, b) => {
                    let clause = [-self.encode(aig, a), -self.encode(aig, b)];
                    self.add_clause(&clause);
                }
                _ => {
                    let unit = self.encode(aig, lit);
                    self.add_clause(&[unit]);
                }
            }
        }
    }

    /// A DIMACS literal whose truth implies `lit`, to assume it. A query's
    /// assumptions are mostly implications whose right side is an equality
    /// (`from -> read = write`): only that direction is needed, so the top
    /// of the literal's circuit is made clauses under a fresh selector
    /// (Plaisted and Greenbaum's one-sided encoding), and the Tseitin
    /// encoding starts below it. A 32-bit equality under an implication is
    /// then 64 clauses of four literals instead of 32 exclusive-or gates
    /// and an and-tree. Nodes left out of the CNF get their model values
    /// from their fan-ins (see [`Self::value`]), so models stay exact.
    fn assumed(&mut self, aig: &Aig, lit: Lit) -> i32 {
        if let Some(&selector) = self.selectors.get(&lit) {
            return selector;
        }
        let compound = matches!(aig.node(lit.var()), Node::And(..));
        if !compound || self.encoded(lit.var()).is_some() {
            return self.encode(aig, lit);
        }
        let selector = self.fresh_sat_var();
        let encoded = |var: Var| self.sat_var.get(var.index()).is_some_and(|&v| v != 0);
        for clause in clauses_implying(aig, lit, &encoded) {
            let mut dimacs = vec![-selector];
            dimacs.extend(clause.into_iter().map(|l| self.encode(aig, l)));
            self.add_clause(&dimacs);
        }
        self.selectors.insert(lit, selector);
        selector
    }

    /// Decides the asserted facts together with `assumptions`, which hold
    /// for this call only.
    pub fn solve(&mut self, aig: &Aig, assumptions: &[Lit]) -> SatResult {
        let assumed: Vec<i32> = assumptions.iter().map(|&l| self.assumed(aig, l)).collect();
        self.derived_values.clear();
        self.sat.set_callbacks((!self.limits.is_unlimited()).then(|| self.limits.clone()));
        let start = Instant::now();
        let answer = self.sat.solve_with(assumed);
        self.solve_time += start.elapsed();
        self.num_solves += 1;
        let result = match answer {
            Some(true) => SatResult::Sat,
            Some(false) => SatResult::Unsat,
            None => SatResult::Unknown,
        };
        self.last_result = Some(result);
        result
    }

    /// The value of `lit` in the model of the last `Sat` answer. Inputs the
    /// solver never saw are false; and-nodes outside the encoded cone are
    /// computed from their fan-ins, so values are always consistent with
    /// the circuit.
    pub fn value(&mut self, aig: &Aig, lit: Lit) -> bool {
        assert_eq!(self.last_result, Some(SatResult::Sat), "model requested without a satisfiable answer");
        let mut stack = vec![lit.var()];
        while let Some(&var) = stack.last() {
            if self.known_value(var).is_some() {
                stack.pop();
                continue;
            }
            let value = match aig.node(var) {
                Node::Const => false,
                Node::Input => false,
                Node::And(a, b) => {
                    let depth = stack.len();
                    stack.extend([a.var(), b.var()].into_iter().filter(|&v| self.known_value(v).is_none()));
                    if stack.len() > depth {
                        continue;
                    }
                    self.known_lit_value(a) && self.known_lit_value(b)
                }
            };
            self.derived_values.insert(var, value);
            stack.pop();
        }
        self.known_lit_value(lit)
    }

    /// A variable's value when the solver assigned it or it was derived.
    /// An encoded variable the solver left unassigned is a don't-care for
    /// the formula; it is derived from its fan-ins like an unencoded one.
    fn known_value(&self, var: Var) -> Option<bool> {
        if let Some(value) = self.derived_values.get(&var) {
            return Some(*value);
        }
        self.encoded(var).and_then(|v| self.sat.value(v))
    }

    fn known_lit_value(&self, lit: Lit) -> bool {
        self.known_value(lit.var()).expect("value computed before use") ^ lit.is_negated()
    }

    /// Whether assumption `lit` took part in the last `Unsat` answer.
    pub fn failed_assumption(&self, lit: Lit) -> bool {
        assert_eq!(self.last_result, Some(SatResult::Unsat), "no unsatisfiable answer to explain");
        let assumed = self.selectors.get(&lit).copied().or_else(|| self.encoded(lit.var()).map(|v| Self::dimacs(v, lit)));
        assumed.is_some_and(|v| self.sat.failed(v))
    }
}

/// Clauses (disjunctions of AIG literals) whose conjunction implies `lit`
/// and is implied by it. An and-node not yet `encoded` is split: a
/// multiplexer (see [`Gate`]) into its two cases, while the clause stays
/// within [`WIDEST_CLAUSE`]; another and-node, negated,
/// into the disjunction of its negated fan-ins while the clause stays
/// within [`WIDEST_CLAUSE`]; positive, into one clause per conjunct (up to
/// [`MOST_CONJUNCTS`]), at most once along each clause's making, so the
/// count stays linear in the circuit's top.
fn clauses_implying(aig: &Aig, lit: Lit, encoded: &dyn Fn(Var) -> bool) -> Vec<Vec<Lit>> {
    let and_node = |l: Lit| match aig.node(l.var()) {
        Node::And(a, b) if !encoded(l.var()) => Some((a, b)),
        _ => None,
    };
    let mut done = Vec::new();
    let mut work = vec![(vec![lit], false)];
    while let Some((clause, distributed)) = work.pop() {
        let wider_fits = clause.len() < WIDEST_CLAUSE;
        let splittable = |l: &Lit| match and_node(*l) {
            Some((a, b)) if matches!(Gate::of(aig, a, b), Gate::Mux { .. }) => wider_fits,
            Some(_) if l.is_negated() => wider_fits,
            Some(_) => !distributed,
            None => false,
        };
        let Some(i) = clause.iter().position(splittable) else {
            if !clause.iter().any(|&l| clause.contains(&!l)) {
                done.push(clause);
            }
            continue;
        };
        let (a, b) = and_node(clause[i]).expect("an and-node");
        if let Gate::Mux { cond, then, other } = Gate::of(aig, a, b) {
            // The node is `cond ? then : other`.
            let (then, other) = if clause[i].is_negated() { (!then, !other) } else { (then, other) };
            for (guard, value) in [(!cond, then), (cond, other)] {
                let mut one = clause.clone();
                one[i] = guard;
                one.push(value);
                work.push((one, distributed));
            }
            continue;
        }
        if clause[i].is_negated() {
            let mut wider = clause;
            wider[i] = !a;
            wider.push(!b);
            work.push((wider, distributed));
            continue;
        }
        for conjunct in conjuncts(clause[i], &and_node) {
            let mut one = clause.clone();
            one[i] = conjunct;
            work.push((one, true));
        }
    }
    done
}

/// The conjuncts of the positive and-tree at `lit`, split down to
/// literals that are not and-nodes to split (at most [`MOST_CONJUNCTS`]).
fn conjuncts(lit: Lit, and_node: &dyn Fn(Lit) -> Option<(Lit, Lit)>) -> Vec<Lit> {
    let mut leaves = Vec::new();
    let mut seen = FxHashSet::default();
    let mut stack = vec![lit];
    while let Some(l) = stack.pop() {
        if !seen.insert(l) {
            continue;
        }
        match and_node(l) {
            Some((a, b)) if !l.is_negated() && leaves.len() + stack.len() + 2 <= MOST_CONJUNCTS => stack.extend([a, b]),
            _ => leaves.push(l),
        }
    }
    leaves
}

#[cfg(test)]
mod tests;
