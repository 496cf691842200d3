//! Bit-blasting back end: terms are translated (`blast`) into an
//! and-inverter graph (`aig`) through word-level circuits (`words`),
//! encoded to CNF by Tseitin and solved incrementally with CaDiCaL (`cnf`);
//! `solver` puts it together behind the `smt::Solver` trait, `stats`
//! reports sizes and times.
//!
//! Decisions worth knowing before changing this crate:
//! - The word layer is public and sort-agnostic (`&[Lit]`, least
//!   significant bit first) so that other encoders, floating point first,
//!   build their circuits from the same operations. Floats are words of
//!   their IEEE encoding, rounding modes the 3-bit index into
//!   `RoundingMode::ALL`; FP operators are exact circuits (`fp`), except
//!   those listed there, which stay approximated.
//! - Only the cone of influence of asserted and assumed literals reaches
//!   the SAT solver, and each AIG node is encoded once for the solver's
//!   whole life, so incremental checks only pay for new structure.
//! - Arrays are eliminated eagerly: read-over-write through stores, `ite`s
//!   and constant arrays, Ackermann constraints between reads of a base
//!   array. Index comparisons of `base + constant` addresses go through one
//!   shared difference per pair of bases (constants when the base is the
//!   same), which keeps memory-like store chains small.
//! - What cannot be translated exactly is over-approximated by fresh
//!   inputs; `Unsat` stays exact and `Sat` is only reported when the term
//!   evaluator confirms the model, otherwise `Unknown` with the reason.

pub mod aig;
pub mod blast;
pub mod cnf;
pub mod fp;
pub mod solver;
pub mod stats;
pub mod words;

#[cfg(test)]
mod testing;

pub use cnf::Limits;
pub use solver::BitBlastSolver;
pub use stats::Stats;
