//! The bit-blasting implementation of `smt::Solver`: terms are blasted into
//! the AIG, asserted through the incremental CNF encoder, and models are
//! read back as values of the store's variables.
//!
//! Soundness with approximations: when some term had to be replaced by an
//! unconstrained word, an `Unsat` answer is still exact (the encoding is
//! weaker than the formula), but a satisfying assignment of the encoding
//! may not satisfy the formula. It is accepted only if the term evaluator
//! confirms every assertion and assumption under the model; otherwise the
//! answer is `Unknown` with the approximation's reason. An assertion that
//! cannot be translated at all (resource limits) is left out, with the
//! same consequence for satisfying assignments.

use std::sync::Arc;
use std::time::{Duration, Instant};

use smt::{default_value, eval, ArrayValue, EvalError, Evaluator, Model, SatResult, Solver, TermId, TermStore, Value};

use crate::aig::Lit;
use crate::blast::{value_from_bits, Blaster};
use crate::cnf::{self, CnfSolver, Limits};
use crate::stats::Stats;

pub struct BitBlastSolver {
    blaster: Blaster,
    cnf: CnfSolver,
    assertions: Vec<TermId>,
    /// Why an assertion could not be translated (the first such reason).
    /// The CNF then lacks that assertion: `Unsat` is still exact, but no
    /// satisfying assignment can be trusted.
    failure: Option<String>,
    /// The model of the last check, if it answered `Sat`.
    model: Option<Model>,
}

impl Default for BitBlastSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl BitBlastSolver {
    pub fn new() -> BitBlastSolver {
        BitBlastSolver {
            blaster: Blaster::new(),
            cnf: CnfSolver::new(),
            assertions: Vec::new(),
            failure: None,
            model: None,
        }
    }

    /// Limits the SAT search of every later check; a check that reaches a
    /// limit answers `Unknown`.
    pub fn set_limits(&mut self, limits: Limits) {
        self.cnf.set_limits(limits);
    }

    /// Makes every later check give up once `flag` is raised, keeping the
    /// deadline.
    pub fn set_interrupt(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        let deadline = self.cnf.limits().deadline;
        self.cnf.set_limits(Limits { deadline, interrupt: Some(flag) });
    }

    /// Sets the deadline to `limit` from now (no deadline with `None`),
    /// keeping the interrupt flag.
    pub fn set_time_limit(&mut self, limit: Option<Duration>) {
        let deadline = limit.and_then(|limit| Instant::now().checked_add(limit));
        let interrupt = self.cnf.limits().interrupt.clone();
        self.cnf.set_limits(Limits { deadline, interrupt });
    }

    pub fn stats(&self) -> Stats {
        let aig = &self.blaster.aig;
        let counts = self.blaster.counts();
        Stats {
            aig_inputs: aig.num_inputs() as u64,
            aig_ands: aig.num_ands() as u64,
            cnf_vars: self.cnf.num_vars(),
            cnf_clauses: self.cnf.num_clauses(),
            array_reads: counts.array_reads,
            ackermann_constraints: counts.ackermann_constraints,
            approximated_terms: counts.approximated_terms,
            solves: self.cnf.num_solves(),
            solve_time: self.cnf.solve_time(),
        }
    }

    /// Asserts the encoding's own facts produced by the latest blasting.
    fn flush_facts(&mut self) {
        for fact in self.blaster.take_pending_facts() {
            self.cnf.assert(&self.blaster.aig, fact);
        }
    }

    fn read_bits(&mut self, word: &[Lit]) -> Vec<bool> {
        word.iter().map(|&lit| self.cnf.value(&self.blaster.aig, lit)).collect()
    }

    /// Values of every variable the blaster has seen, from the SAT model.
    fn read_model(&mut self, store: &TermStore) -> Model {
        let mut model = Model::new();
        model.fill_unassigned = true;
        let scalars: Vec<(TermId, Vec<Lit>)> = self.blaster.scalar_vars().map(|(t, word)| (t, word.clone())).collect();
        for (term, word) in scalars {
            let bits = self.read_bits(&word);
            if let (Some(var), Some(value)) = (store.as_var(term), value_from_bits(store.sort(term), &bits)) {
                model.set(var, value);
            }
        }
        for (term, value) in self.array_values(store) {
            if let Some(var) = store.as_var(term) {
                model.set(var, Value::Array(Arc::new(value)));
            }
        }
        model
    }

    /// Each array variable as the default element everywhere except at the
    /// indices it was read at. Ackermann constraints make the entries
    /// agree wherever two reads hit the same index.
    fn array_values(&mut self, store: &TermStore) -> Vec<(TermId, ArrayValue)> {
        type Reads = Vec<(Vec<Lit>, Vec<Lit>)>;
        let arrays: Vec<(TermId, Reads)> = self
            .blaster
            .array_var_reads()
            .map(|(t, reads)| (t, reads.into_iter().map(|(i, e)| (i.clone(), e.clone())).collect()))
            .collect();
        let mut values = Vec::new();
        for (term, reads) in arrays {
            let sort = store.sort(term);
            let (index_sort, elem_sort) = store.sorts().array_parts(sort).expect("array sort");
            let mut array = ArrayValue::constant(sort, default_value(elem_sort, store.sorts()));
            for (index, elem) in reads {
                let index_bits = self.read_bits(&index);
                let elem_bits = self.read_bits(&elem);
                if let (Some(i), Some(e)) =
                    (value_from_bits(index_sort, &index_bits), value_from_bits(elem_sort, &elem_bits))
                {
                    array = array.store(i, e);
                }
            }
            values.push((term, array));
        }
        values
    }

    /// Whether every assertion and assumption evaluates to true under
    /// `model` (false also when evaluation is not possible).
    fn model_satisfies(&self, store: &TermStore, model: &Model, assumptions: &[TermId]) -> bool {
        let mut evaluator = Evaluator::new(store, model);
        self.assertions.iter().chain(assumptions).all(|&t| evaluator.eval(t) == Ok(Value::Bool(true)))
    }
}

impl Solver for BitBlastSolver {
    fn assert(&mut self, store: &TermStore, t: TermId) {
        self.model = None;
        let blasted = self.blaster.blast_bool(store, t, self.cnf.limits());
        self.flush_facts();
        match blasted {
            Ok(lit) => {
                self.cnf.assert(&self.blaster.aig, lit);
                self.assertions.push(t);
            }
            Err(reason) => {
                self.failure.get_or_insert(reason);
            }
        }
    }

    fn check(&mut self, store: &TermStore, assumptions: &[TermId]) -> SatResult {
        self.model = None;
        let blasted: Result<Vec<Lit>, String> =
            assumptions.iter().map(|&t| self.blaster.blast_bool(store, t, self.cnf.limits())).collect();
        self.flush_facts();
        let lits = match blasted {
            Ok(lits) => lits,
            Err(reason) => return SatResult::Unknown(reason),
        };
        match self.cnf.solve(&self.blaster.aig, &lits) {
            cnf::SatResult::Unsat => SatResult::Unsat,
            cnf::SatResult::Unknown => {
                let why = self.cnf.limits().exceeded().unwrap_or("resource limit reached");
                SatResult::Unknown(format!("SAT solver stopped: {why}"))
            }
            cnf::SatResult::Sat => {
                if let Some(reason) = &self.failure {
                    return SatResult::Unknown(reason.clone());
                }
                let model = self.read_model(store);
                if let Some(reason) = self.blaster.approximation() {
                    if !self.model_satisfies(store, &model, assumptions) {
                        return SatResult::Unknown(format!("unsupported: {reason}"));
                    }
                }
                self.model = Some(model);
                SatResult::Sat
            }
        }
    }

    fn model_value(&mut self, store: &TermStore, t: TermId) -> Result<Value, EvalError> {
        match &self.model {
            Some(model) => eval(store, t, model),
            None => Err(EvalError::Unsupported("model value without a satisfiable check".to_string())),
        }
    }

    fn model(&mut self, _store: &TermStore) -> Model {
        self.model.clone().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests;
