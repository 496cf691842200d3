//! Interval reasoning over path conditions: the signed range each
//! bit-vector term must lie in for a Boolean term to hold, derived from
//! the comparisons it conjoins and, across a disjunction, from what every
//! disjunct implies. Symbolic execution asks it whether a loop can iterate
//! again when the guard depends on inputs the rewriter cannot fold
//! (`assume(i >= 0); while (i < 5) i++;`).
//!
//! Every range is an over-approximation of the values the term can take
//! where the condition holds, so [`Intervals::refutes`] answers true only
//! for unsatisfiable conditions. Work is bounded (nesting depth and a
//! budget per query); what is not looked at only weakens the facts.

use crate::{Op, Sort, TermId, TermStore};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Widest bit-vector tracked: values, sums and differences fit in `i128`.
const MAX_WIDTH: u32 = 64;
/// Term nesting followed when evaluating or narrowing a term.
const MAX_DEPTH: u32 = 16;
/// Terms visited per query; past it, the remaining ones add no facts.
const MAX_WORK: usize = 50_000;
/// Conjunctions up to this size get a second pass, for comparisons that
/// come before the facts that sharpen them.
const SECOND_PASS_CONJUNCTS: usize = 512;

/// The signed values `lo..=hi` of a bit-vector (never empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub lo: i128,
    pub hi: i128,
}

impl Interval {
    fn new(lo: i128, hi: i128) -> Option<Interval> {
        (lo <= hi).then_some(Interval { lo, hi })
    }
    fn point(value: i128) -> Interval {
        Interval { lo: value, hi: value }
    }
    /// Every value of a `width`-bit vector.
    pub fn full(width: u32) -> Interval {
        Interval { lo: -(1i128 << (width - 1)), hi: (1i128 << (width - 1)) - 1 }
    }
    fn meet(self, other: Interval) -> Option<Interval> {
        Interval::new(self.lo.max(other.lo), self.hi.min(other.hi))
    }
    fn hull(self, other: Interval) -> Interval {
        Interval { lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }
    /// `lo..=hi` as signed `width`-bit values when no value wraps, else
    /// every value: the range of a bit-vector operation whose exact result
    /// is `lo..=hi`.
    fn wrapped(lo: i128, hi: i128, width: u32) -> Interval {
        let full = Interval::full(width);
        match lo >= full.lo && hi <= full.hi {
            true => Interval { lo, hi },
            false => full,
        }
    }
    /// The same bit patterns read as unsigned numbers (a range that
    /// crosses zero covers both ends of the unsigned range).
    fn unsigned(self, width: u32) -> Interval {
        let modulus = 1i128 << width;
        match (self.lo >= 0, self.hi < 0) {
            (true, _) => self,
            (_, true) => Interval { lo: self.lo + modulus, hi: self.hi + modulus },
            _ => Interval { lo: 0, hi: modulus - 1 },
        }
    }
    /// Unsigned values read back as signed ones.
    fn signed(self, width: u32) -> Interval {
        let half = 1i128 << (width - 1);
        if self.hi < half {
            self
        } else if self.lo >= half {
            Interval { lo: self.lo - (half << 1), hi: self.hi - (half << 1) }
        } else {
            Interval::full(width)
        }
    }
}

/// What a condition implies: ranges of bit-vector terms.
#[derive(Clone, Debug, Default)]
struct Facts {
    ranges: FxHashMap<TermId, Interval>,
    /// Narrowings made (a second pass over a conjunction pays only then).
    narrowed: usize,
}

impl Facts {
    /// The facts that hold wherever `self` or `other` does.
    fn join(&self, other: &Facts) -> Facts {
        let ranges = self.ranges.iter().filter_map(|(t, r)| other.ranges.get(t).map(|o| (*t, r.hull(*o)))).collect();
        Facts { ranges, narrowed: 0 }
    }
}

/// The condition cannot hold.
struct Contradiction;

/// A comparison `a ⋈ b` after pushing negations in.
#[derive(Clone, Copy)]
enum Relation {
    /// `a < b` (strict) or `a <= b`, signed or unsigned.
    Less { strict: bool, signed: bool },
    Equal,
    Different,
}

/// Interval facts of Boolean terms over one [`TermStore`]. The facts of
/// each disjunction are kept between queries: a merged path condition is
/// part of every later guard.
#[derive(Default)]
pub struct Intervals {
    disjunctions: FxHashMap<(TermId, bool), Result<Rc<Facts>, ()>>,
    work: usize,
}

impl Intervals {
    pub fn new() -> Intervals {
        Intervals::default()
    }

    /// Whether `condition` (a Boolean term) certainly cannot hold.
    pub fn refutes(&mut self, store: &TermStore, condition: TermId) -> bool {
        self.work = 0;
        let mut facts = Facts::default();
        self.assume(store, &mut facts, condition, true, 0).is_err()
    }

    /// Adds to `facts` what `term == value` implies.
    fn assume(&mut self, store: &TermStore, facts: &mut Facts, term: TermId, value: bool, depth: u32) -> Result<(), Contradiction> {
        if let Some(constant) = store.as_bool_const(term) {
            return if constant == value { Ok(()) } else { Err(Contradiction) };
        }
        self.work += 1;
        if self.work > MAX_WORK || depth > MAX_DEPTH {
            return Ok(());
        }
        let Some(op) = store.op(term) else { return Ok(()) };
        let args = store.args(term);
        match (op, value) {
            (Op::Not, _) => self.assume(store, facts, args[0], !value, depth + 1),
            (Op::And, true) | (Op::Or, false) => {
                let conjuncts = conjuncts(store, term, value);
                self.assume_all(store, facts, &conjuncts, value, depth)
            }
            (Op::Or, true) | (Op::And, false) => {
                let implied = self.disjunction(store, term, value, depth).map_err(|()| Contradiction)?;
                for (&t, &range) in &implied.ranges {
                    self.narrow(store, facts, t, range, depth + 1)?;
                }
                Ok(())
            }
            (Op::Implies, false) => {
                self.assume(store, facts, args[0], true, depth + 1)?;
                self.assume(store, facts, args[1], false, depth + 1)
            }
            _ => match relation(op, value) {
                Some((relation, swap)) if args.len() == 2 && tracked_width(store, args[0]).is_some() => {
                    let (a, b) = if swap { (args[1], args[0]) } else { (args[0], args[1]) };
                    self.relate(store, facts, a, b, relation, depth + 1)
                }
                _ => Ok(()),
            },
        }
    }

    /// Every `term` of `terms` has `value`.
    fn assume_all(&mut self, store: &TermStore, facts: &mut Facts, terms: &[TermId], value: bool, depth: u32) -> Result<(), Contradiction> {
        let before = facts.narrowed;
        for &t in terms {
            self.assume(store, facts, t, value, depth + 1)?;
        }
        if facts.narrowed > before && terms.len() > 1 && terms.len() <= SECOND_PASS_CONJUNCTS {
            for &t in terms {
                self.assume(store, facts, t, value, depth + 1)?;
            }
        }
        Ok(())
    }

    /// What holds in every case where one of the `term`'s arguments has
    /// `value` (`term` is a disjunction for `value` true, a conjunction
    /// for false): the join of what each implies.
    fn disjunction(&mut self, store: &TermStore, term: TermId, value: bool, depth: u32) -> Result<Rc<Facts>, ()> {
        if let Some(known) = self.disjunctions.get(&(term, value)) {
            return known.clone();
        }
        let mut joined: Option<Facts> = None;
        for &case in store.args(term) {
            let mut facts = Facts::default();
            if self.assume(store, &mut facts, case, value, depth + 1).is_err() {
                continue;
            }
            joined = Some(match joined {
                None => facts,
                Some(j) => j.join(&facts),
            });
        }
        let result = joined.map(Rc::new).ok_or(());
        if self.work <= MAX_WORK {
            self.disjunctions.insert((term, value), result.clone());
        }
        result
    }

    /// Adds the facts of `a ⋈ b`.
    fn relate(&mut self, store: &TermStore, facts: &mut Facts, a: TermId, b: TermId, relation: Relation, depth: u32) -> Result<(), Contradiction> {
        let Some(width) = tracked_width(store, a) else { return Ok(()) };
        let ra = self.eval(store, facts, a, depth);
        let rb = self.eval(store, facts, b, depth);
        match relation {
            Relation::Less { strict, signed } => {
                let step = strict as i128;
                let (ua, ub) = match signed {
                    true => (ra, rb),
                    false => (ra.unsigned(width), rb.unsigned(width)),
                };
                let na = Interval::new(ua.lo, ua.hi.min(ub.hi - step)).ok_or(Contradiction)?;
                let nb = Interval::new(ub.lo.max(ua.lo + step), ub.hi).ok_or(Contradiction)?;
                let (na, nb) = match signed {
                    true => (na, nb),
                    false => (na.signed(width), nb.signed(width)),
                };
                self.narrow(store, facts, a, na, depth)?;
                self.narrow(store, facts, b, nb, depth)
            }
            Relation::Equal => {
                let both = ra.meet(rb).ok_or(Contradiction)?;
                self.narrow(store, facts, a, both, depth)?;
                self.narrow(store, facts, b, both, depth)
            }
            Relation::Different => {
                if ra.lo == ra.hi && ra == rb {
                    return Err(Contradiction);
                }
                let exclude = |r: Interval, p: Interval| match p.lo == p.hi {
                    true if r.lo == p.lo => Interval::new(r.lo + 1, r.hi),
                    true if r.hi == p.lo => Interval::new(r.lo, r.hi - 1),
                    _ => Some(r),
                };
                let na = exclude(ra, rb).ok_or(Contradiction)?;
                let nb = exclude(rb, ra).ok_or(Contradiction)?;
                self.narrow(store, facts, a, na, depth)?;
                self.narrow(store, facts, b, nb, depth)
            }
        }
    }

    /// Records that `term` lies in `range` and passes the fact on to the
    /// operands it determines.
    fn narrow(&mut self, store: &TermStore, facts: &mut Facts, term: TermId, range: Interval, depth: u32) -> Result<(), Contradiction> {
        let Some(width) = tracked_width(store, term) else { return Ok(()) };
        let current = facts.ranges.get(&term).copied().unwrap_or(Interval::full(width));
        let narrowed = current.meet(range).ok_or(Contradiction)?;
        if narrowed == current {
            return Ok(());
        }
        facts.ranges.insert(term, narrowed);
        facts.narrowed += 1;
        self.work += 1;
        if self.work > MAX_WORK || depth > MAX_DEPTH || store.as_bv_const(term).is_some() {
            return Ok(());
        }
        let Some(op) = store.op(term) else { return Ok(()) };
        let args = store.args(term);
        let fits = |lo: i128, hi: i128| {
            let full = Interval::full(width);
            (lo >= full.lo && hi <= full.hi).then_some(Interval { lo, hi })
        };
        match op {
            Op::BvAdd => {
                for (x, y) in [(args[0], args[1]), (args[1], args[0])] {
                    let ry = self.eval(store, facts, y, depth + 1);
                    if let Some(rx) = fits(narrowed.lo - ry.hi, narrowed.hi - ry.lo) {
                        self.narrow(store, facts, x, rx, depth + 1)?;
                    }
                }
                Ok(())
            }
            Op::BvSub => {
                let ry = self.eval(store, facts, args[1], depth + 1);
                if let Some(rx) = fits(narrowed.lo + ry.lo, narrowed.hi + ry.hi) {
                    self.narrow(store, facts, args[0], rx, depth + 1)?;
                }
                let rx = self.eval(store, facts, args[0], depth + 1);
                if let Some(ry) = fits(rx.lo - narrowed.hi, rx.hi - narrowed.lo) {
                    self.narrow(store, facts, args[1], ry, depth + 1)?;
                }
                Ok(())
            }
            Op::BvNeg => match fits(-narrowed.hi, -narrowed.lo) {
                Some(rx) => self.narrow(store, facts, args[0], rx, depth + 1),
                None => Ok(()),
            },
            Op::SignExtend(_) => {
                let Some(inner) = tracked_width(store, args[0]) else { return Ok(()) };
                let rx = narrowed.meet(Interval::full(inner)).ok_or(Contradiction)?;
                self.narrow(store, facts, args[0], rx, depth + 1)
            }
            Op::ZeroExtend(_) => {
                let Some(inner) = tracked_width(store, args[0]) else { return Ok(()) };
                let unsigned = narrowed.meet(Interval { lo: 0, hi: (1i128 << inner) - 1 }).ok_or(Contradiction)?;
                self.narrow(store, facts, args[0], unsigned.signed(inner), depth + 1)
            }
            _ => Ok(()),
        }
    }

    /// The range of bit-vector `term` under `facts` (every value when it
    /// is wider than [`MAX_WIDTH`] bits).
    fn eval(&mut self, store: &TermStore, facts: &Facts, term: TermId, depth: u32) -> Interval {
        let Some(width) = tracked_width(store, term) else { return Interval::full(MAX_WIDTH) };
        let known = facts.ranges.get(&term).copied().unwrap_or(Interval::full(width));
        if let Some(value) = store.as_bv_const(term).and_then(|v| v.to_i128()) {
            return Interval::point(value);
        }
        self.work += 1;
        if self.work > MAX_WORK || depth > MAX_DEPTH {
            return known;
        }
        let structural = self.eval_structure(store, facts, term, width, depth);
        // An empty meet means the facts contradict each other: any range is right.
        known.meet(structural).unwrap_or(known)
    }

    fn eval_structure(&mut self, store: &TermStore, facts: &Facts, term: TermId, width: u32, depth: u32) -> Interval {
        let full = Interval::full(width);
        let Some(op) = store.op(term) else { return full };
        let args = store.args(term);
        let operand = |this: &mut Self, i: usize| this.eval(store, facts, args[i], depth + 1);
        match op {
            Op::BvAdd => {
                let (x, y) = (operand(self, 0), operand(self, 1));
                Interval::wrapped(x.lo + y.lo, x.hi + y.hi, width)
            }
            Op::BvSub => {
                let (x, y) = (operand(self, 0), operand(self, 1));
                Interval::wrapped(x.lo - y.hi, x.hi - y.lo, width)
            }
            Op::BvNeg => {
                let x = operand(self, 0);
                Interval::wrapped(-x.hi, -x.lo, width)
            }
            Op::BvMul => {
                let (x, y) = (operand(self, 0), operand(self, 1));
                // Operands of at most 64 bits: the products fit in i128.
                let products = [x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi];
                let (lo, hi) = (products.iter().min(), products.iter().max());
                Interval::wrapped(*lo.unwrap_or(&0), *hi.unwrap_or(&0), width)
            }
            Op::SignExtend(_) => operand(self, 0),
            Op::ZeroExtend(_) => match tracked_width(store, args[0]) {
                Some(inner) => operand(self, 0).unsigned(inner),
                None => full,
            },
            Op::Extract { lo: 0, .. } => {
                let x = operand(self, 0);
                match x.meet(full) == Some(x) {
                    true => x,
                    false => full,
                }
            }
            Op::BvUrem => match store.as_bv_const(args[1]).and_then(|v| v.to_i128()) {
                Some(m) if m > 0 => Interval { lo: 0, hi: m - 1 }.signed(width),
                _ => full,
            },
            // A mask without its sign bit bounds the result, whatever the
            // other operand (`for (k = 0; k < (n & 15); k++)`).
            Op::BvAnd => match args.iter().filter_map(|&a| store.as_bv_const(a).and_then(|v| v.to_i128())).filter(|&m| m >= 0).min() {
                Some(mask) => Interval { lo: 0, hi: mask },
                None => full,
            },
            // Zeros above a value: the rewriter's form of a zero extension
            // and of a mask of low bits.
            Op::Concat if store.as_bv_const(args[0]).is_some_and(|high| high.to_i128() == Some(0)) => match tracked_width(store, args[1]) {
                Some(low) => operand(self, 1).unsigned(low),
                None => full,
            },
            Op::Ite => match self.decide(store, facts, args[0], depth + 1) {
                Some(true) => operand(self, 1),
                Some(false) => operand(self, 2),
                None => operand(self, 1).hull(operand(self, 2)),
            },
            _ => full,
        }
    }

    /// The value of Boolean `term` when `facts` fix it.
    fn decide(&mut self, store: &TermStore, facts: &Facts, term: TermId, depth: u32) -> Option<bool> {
        if let Some(constant) = store.as_bool_const(term) {
            return Some(constant);
        }
        self.work += 1;
        if self.work > MAX_WORK || depth > MAX_DEPTH {
            return None;
        }
        let op = store.op(term)?;
        let args = store.args(term);
        match op {
            Op::Not => self.decide(store, facts, args[0], depth + 1).map(|b| !b),
            Op::And | Op::Or => {
                let absorbing = op == Op::Or;
                let mut all_decided = true;
                for &a in args {
                    match self.decide(store, facts, a, depth + 1) {
                        Some(b) if b == absorbing => return Some(absorbing),
                        Some(_) => {}
                        None => all_decided = false,
                    }
                }
                all_decided.then_some(!absorbing)
            }
            _ => {
                let (relation, swap) = relation(op, true)?;
                let width = tracked_width(store, args[0])?;
                let (a, b) = if swap { (args[1], args[0]) } else { (args[0], args[1]) };
                let (ra, rb) = (self.eval(store, facts, a, depth + 1), self.eval(store, facts, b, depth + 1));
                compare(ra, rb, relation, width)
            }
        }
    }
}

/// The terms that must all have `value` for `term` (a conjunction for
/// `value` true, a disjunction for false) to have it, nested ones
/// flattened in order (long guards are conjunctions of conjunctions).
fn conjuncts(store: &TermStore, term: TermId, value: bool) -> Vec<TermId> {
    let joining = if value { Op::And } else { Op::Or };
    let mut leaves = Vec::new();
    let mut stack = vec![term];
    while let Some(t) = stack.pop() {
        match store.op(t) {
            Some(op) if op == joining && leaves.len() + stack.len() < MAX_WORK => stack.extend(store.args(t).iter().rev()),
            _ => leaves.push(t),
        }
    }
    leaves
}

/// `a ⋈ b` when the ranges decide it.
fn compare(ra: Interval, rb: Interval, relation: Relation, width: u32) -> Option<bool> {
    match relation {
        Relation::Less { strict, signed } => {
            let (ra, rb) = match signed {
                true => (ra, rb),
                false => (ra.unsigned(width), rb.unsigned(width)),
            };
            let step = strict as i128;
            if ra.hi + step <= rb.lo {
                Some(true)
            } else if ra.lo + step > rb.hi {
                Some(false)
            } else {
                None
            }
        }
        Relation::Equal => match (ra.meet(rb), ra.lo == ra.hi && ra == rb) {
            (None, _) => Some(false),
            (_, true) => Some(true),
            _ => None,
        },
        Relation::Different => compare(ra, rb, Relation::Equal, width).map(|b| !b),
    }
}

/// The relation `op` states (or its negation, for `value` false), and
/// whether the operands must be swapped to read it left to right.
fn relation(op: Op, value: bool) -> Option<(Relation, bool)> {
    let less = |strict, signed| Relation::Less { strict, signed };
    // `a < b` is false exactly when `b <= a`, and so on.
    let (strict, signed, swap) = match op {
        Op::Eq => return Some((if value { Relation::Equal } else { Relation::Different }, false)),
        Op::BvSlt => (true, true, false),
        Op::BvSle => (false, true, false),
        Op::BvSgt => (true, true, true),
        Op::BvSge => (false, true, true),
        Op::BvUlt => (true, false, false),
        Op::BvUle => (false, false, false),
        Op::BvUgt => (true, false, true),
        Op::BvUge => (false, false, true),
        _ => return None,
    };
    match value {
        true => Some((less(strict, signed), swap)),
        false => Some((less(!strict, signed), !swap)),
    }
}

fn tracked_width(store: &TermStore, term: TermId) -> Option<u32> {
    match store.sort(term) {
        Sort::BitVec(w) if w <= MAX_WIDTH => Some(w),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
