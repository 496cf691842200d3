//! Quantifiers (`QuantifierBegin` … `QuantifierEnd`): the body runs once per
//! candidate value of the bound variable, each time from the memory the
//! quantifier started with, until its value is decided.
//!
//! A variable of at most 16 bits (or a `_Bool`) is enumerated, which decides
//! the quantifier exactly. A wider one is tried at the values the input
//! provider offers as witnesses (a counterexample's choices for that
//! quantifier) and at zero: one value where a `forall` body is false (an
//! `exists` body true) decides it. When none is and no other quantifier's
//! body is running (the program's state alone fixes the body), the
//! provider is asked to decide it (an engine solves the body exactly): a
//! value it names is run like the others, and only its answer that no
//! value decides ends the search without one. Otherwise the run cannot go on and ends
//! [`Outcome::Unsupported`] — the interpreter never guesses a quantifier's
//! value. Inputs asked inside a body are zero and not taken from the
//! provider, so the counterexample's inputs stay in step.

use super::eval::Place;
use super::exec::Flow;
use super::memory::{Bytes, Memory, ObjectId};
use super::unwind::LoopCounts;
use super::{Outcome, QuantifierDecision};
use crate::instr::Quantifier;
use crate::loc::Loc;
use crate::program::SymbolId;
use crate::types::{Type, TypeId};
use crate::Expr;
use rustc_hash::FxHashMap as HashMap;

/// Widest bound variable whose every value is tried.
const MAX_ENUMERATED_BITS: u64 = 16;

/// The values a quantifier's body is run with.
enum Candidates {
    /// Every value of `bits` bits, in order: exact.
    All { bits: u32 },
    /// Only these (witnesses): decides one way only.
    Listed(Vec<Vec<u8>>),
}

impl Candidates {
    fn len(&self) -> u64 {
        match self {
            Candidates::All { bits } => 1 << bits,
            Candidates::Listed(values) => values.len() as u64,
        }
    }

    fn bytes(&self, index: u64, size: u64) -> Vec<u8> {
        match self {
            Candidates::All { .. } => Bytes::from_u128(u128::from(index), size).data,
            Candidates::Listed(values) => values[index as usize].clone(),
        }
    }
}

/// A quantifier being evaluated.
pub(super) struct QuantifierRun {
    quantifier: Quantifier,
    /// Index of the frame that runs it and of its `QuantifierBegin`.
    frame: usize,
    begin: usize,
    bound: Place,
    size: u64,
    candidates: Candidates,
    /// The candidates are every value of the type.
    exhaustive: bool,
    loc: Loc,
    /// The input provider was asked to decide it.
    consulted: bool,
    next: u64,
    /// The state each evaluation of the body starts from.
    memory: Memory,
    locals: HashMap<SymbolId, ObjectId>,
    loops: LoopCounts,
}

impl super::exec::Machine<'_> {
    /// `QuantifierBegin` at `pc`: runs the body with the first candidate.
    pub(super) fn begin_quantifier(&mut self, quantifier: Quantifier, bound: &Expr, pc: usize, loc: Loc) -> Flow<()> {
        let place = self.place(bound)?;
        let size = self.size(bound.ty)?;
        let (candidates, exhaustive) = self.candidates(bound.ty, size, loc);
        let frame = self.frames.len() - 1;
        let top = &self.frames[frame];
        let run = QuantifierRun {
            quantifier,
            frame,
            begin: pc,
            bound: place,
            size,
            candidates,
            exhaustive,
            loc,
            consulted: false,
            next: 0,
            memory: self.memory.clone(),
            locals: top.locals.clone(),
            loops: top.loops.clone(),
        };
        self.quantifiers.push(run);
        self.try_next_candidate()
    }

    /// The candidates for a bound variable of type `ty` and whether they
    /// are all its values.
    fn candidates(&mut self, ty: TypeId, size: u64, loc: Loc) -> (Candidates, bool) {
        if matches!(self.program.types.get(ty), Type::Bool) {
            return (Candidates::Listed(vec![Bytes::from_u128(0, size).data, Bytes::from_u128(1, size).data]), true);
        }
        if size * 8 <= MAX_ENUMERATED_BITS {
            return (Candidates::All { bits: (size * 8) as u32 }, true);
        }
        let mut values: Vec<Vec<u8>> = Vec::new();
        for mut w in self.inputs.quantifier_witnesses(loc).into_iter().chain([Vec::new()]) {
            w.resize(size as usize, 0);
            if !values.contains(&w) {
                values.push(w);
            }
        }
        (Candidates::Listed(values), false)
    }

    /// Starts the body again from the quantifier's initial state with the
    /// next candidate.
    fn try_next_candidate(&mut self) -> Flow<()> {
        let run = self.quantifiers.last_mut().expect("a quantifier is running");
        let bytes = run.candidates.bytes(run.next, run.size);
        run.next += 1;
        let (begin, frame, ptr) = (run.begin, run.frame, run.bound.ptr);
        self.memory = run.memory.clone();
        let top = &mut self.frames[frame];
        top.locals = run.locals.clone();
        top.loops = run.loops.clone();
        top.pc = begin + 1;
        self.memory.write(ptr, &Bytes::from_data(bytes)).map_err(|e| self.access_error(e))
    }

    /// Asks the input provider to decide the innermost quantifier, none of
    /// whose candidates did: its value when no value decides it, `None`
    /// when the provider names a new candidate to run or cannot tell.
    fn consult_provider(&mut self) -> Option<bool> {
        let run = self.quantifiers.last_mut().expect("a quantifier is running");
        let Candidates::Listed(tried) = &mut run.candidates else { unreachable!("enumerations are exhaustive") };
        match self.inputs.decide_quantifier(run.loc, tried) {
            QuantifierDecision::NoValueDecides => Some(run.quantifier == Quantifier::Forall),
            QuantifierDecision::DecidedBy(mut value) => {
                value.resize(run.size as usize, 0);
                if !tried.contains(&value) {
                    tried.push(value);
                }
                None
            }
            QuantifierDecision::Unknown => None,
        }
    }

    /// Whether a quantifier's body is running (inputs are not asked then).
    pub(super) fn in_quantifier(&self) -> bool {
        !self.quantifiers.is_empty()
    }

    /// `QuantifierEnd` at `pc` with the body's truth `holds`: either runs
    /// the body with the next candidate or stores the decided value in
    /// `lhs` and continues after `pc`.
    pub(super) fn end_quantifier(&mut self, lhs: &Expr, holds: bool, pc: usize) -> Flow<()> {
        let frame = self.frames.len() - 1;
        let outermost = self.quantifiers.len() == 1;
        let Some(run) = self.quantifiers.last_mut().filter(|r| r.frame == frame) else {
            return Err(self.malformed("`quantifier_end` without its `quantifier_begin`".into()));
        };
        let decided = match (run.quantifier, holds) {
            (Quantifier::Forall, false) => Some(false),
            (Quantifier::Exists, true) => Some(true),
            _ if run.next < run.candidates.len() => None,
            _ if run.exhaustive => Some(run.quantifier == Quantifier::Forall),
            _ if !run.consulted && outermost => {
                run.consulted = true;
                self.consult_provider()
            }
            _ => None,
        };
        let Some(value) = decided else {
            let run = self.quantifiers.last().expect("checked above");
            if run.next < run.candidates.len() {
                return self.try_next_candidate();
            }
            let what = format!(
                "`{}` over a {}-bit variable: neither the counterexample's witnesses nor the engine decide it",
                run.quantifier.intrinsic(),
                run.size * 8
            );
            return Err(Outcome::Unsupported(what));
        };
        let run = self.quantifiers.pop().expect("checked above");
        self.memory = run.memory;
        let top = &mut self.frames[frame];
        top.locals = run.locals;
        top.loops = run.loops;
        top.pc = pc + 1;
        let place = self.place(lhs)?;
        self.store(place, lhs.ty, &super::Value::Scalar(u128::from(value)))
    }
}
