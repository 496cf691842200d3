//! Size and effort figures of one bit-blasting solver, for `--verbose`
//! output and benchmarks.

use std::fmt;
use std::time::Duration;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub aig_inputs: u64,
    pub aig_ands: u64,
    pub cnf_vars: u64,
    pub cnf_clauses: u64,
    pub array_reads: u64,
    pub ackermann_constraints: u64,
    /// Terms replaced by unconstrained words (unsupported operators).
    pub approximated_terms: u64,
    pub solves: u64,
    pub solve_time: Duration,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "aig: {} inputs, {} and-nodes; cnf: {} vars, {} clauses; arrays: {} reads, {} ackermann \
             constraints; approximated terms: {}; sat: {} solves in {:.3}s",
            self.aig_inputs,
            self.aig_ands,
            self.cnf_vars,
            self.cnf_clauses,
            self.array_reads,
            self.ackermann_constraints,
            self.approximated_terms,
            self.solves,
            self.solve_time.as_secs_f64()
        )
    }
}
