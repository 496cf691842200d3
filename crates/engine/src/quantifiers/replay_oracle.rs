//! The replay's oracle for quantifiers over variables too wide for the
//! interpreter to enumerate: the quantified term symex built for the
//! quantifier's location, with every free variable fixed to the
//! counterexample model's value, is a ground query over the bound variable
//! alone, which the bit-blaster decides exactly.
//!
//! Only quantifiers symex executed outside any other quantifier's body are
//! answered (the interpreter asks only for those): their terms' free
//! variables are program state, which the model fixes, whereas a nested
//! term has an enclosing bound variable free, whose value in the run the
//! model does not know. A term is only used when it agrees with what the
//! interpreter saw: at each value the interpreter tried, the term's body
//! must be as undecided as the run's body was. A deciding value the oracle
//! names is run by the interpreter like any other candidate; only "no value
//! decides it" is taken on the oracle's word, and only when every agreeing
//! term at the location (one per execution symex made of it) says so. An
//! execution whose body's term does not mention the bound variable (the
//! rewriter decided it) is answered from that term like any other.

use super::Quantifiers;
use crate::counterexample;
use ir::interp::QuantifierDecision;
use ir::Loc;
use smt::quantifier::instantiate;
use smt::{Binder, BvValue, Evaluator, Model, Quantifier, Sort, TermId, TermStore, Value};
use symex::QuantifiedVar;

/// What the replay may ask about the counterexample's quantifiers.
pub(crate) struct QuantifierOracle<'a> {
    pub store: &'a mut TermStore,
    pub model: &'a Model,
    pub quantifiers: &'a Quantifiers,
    pub vars: &'a [QuantifiedVar],
}

impl QuantifierOracle<'_> {
    /// Decides the quantifier at `loc` whose body did not decide it at any
    /// value in `tried` (memory bytes of the bound variable).
    pub fn decide(&mut self, loc: Loc, tried: &[Vec<u8>]) -> QuantifierDecision {
        let mut agreeing = 0;
        for var in self.vars.iter().filter(|v| v.loc == loc && !v.nested) {
            let abstracted = self.quantifiers.abstracted.iter().map(|a| a.binder).filter(|b| b.var == var.var);
            let binders: Vec<Binder> = abstracted.chain(var.decided_alone).collect();
            for binder in binders {
                if !self.undecided_at(var, &binder, tried) {
                    continue;
                }
                agreeing += 1;
                match self.quantifiers.deciding_value(self.store, self.model, &binder) {
                    Ok(None) => {}
                    Ok(Some(value)) => {
                        let constant = self.store.constant(value);
                        return match self.memory_bytes(var, constant) {
                            Some(bytes) => QuantifierDecision::DecidedBy(bytes),
                            None => QuantifierDecision::Unknown,
                        };
                    }
                    Err(_) => return QuantifierDecision::Unknown,
                }
            }
        }
        match agreeing {
            0 => QuantifierDecision::Unknown,
            _ => QuantifierDecision::NoValueDecides,
        }
    }

    /// Whether `binder`'s body, under the model, leaves it undecided at
    /// every value in `tried`, as the interpreter's run of the body did.
    fn undecided_at(&mut self, var: &QuantifiedVar, binder: &Binder, tried: &[Vec<u8>]) -> bool {
        let undecided = binder.quantifier == Quantifier::Forall;
        tried.iter().all(|bytes| {
            let Some(value) = self.value_of(var, bytes) else { return false };
            let body = instantiate(self.store, binder, value);
            let body = self.quantifiers.with_stand_ins(self.store, body);
            Evaluator::new(self.store, self.model).eval(body) == Ok(Value::Bool(undecided))
        })
    }

    /// The constant of `var`'s sort whose memory bytes are `bytes`.
    fn value_of(&mut self, var: &QuantifiedVar, bytes: &[u8]) -> Option<TermId> {
        let value = match self.store.sort(var.var) {
            Sort::Bool => Value::Bool(bytes.iter().any(|&b| b != 0)),
            Sort::BitVec(width) if bytes.len() <= 16 => {
                let mut le = [0u8; 16];
                le[..bytes.len()].copy_from_slice(bytes);
                Value::Bv(BvValue::from_u128(width, u128::from_le_bytes(le)))
            }
            _ => return None,
        };
        let constant = self.store.constant(value);
        let mut memory = self.memory_bytes(var, constant)?;
        memory.resize(bytes.len(), 0);
        (memory == bytes).then_some(constant)
    }

    /// The memory bytes of `var` holding the constant `value`.
    fn memory_bytes(&mut self, var: &QuantifiedVar, value: TermId) -> Option<Vec<u8>> {
        let renaming = rustc_hash::FxHashMap::from_iter([(var.var, value)]);
        let memory = smt::substitute(self.store, &[var.memory], &renaming)[0];
        Evaluator::new(self.store, self.model).eval(memory).ok().map(|v| counterexample::to_bytes(&v))
    }
}
