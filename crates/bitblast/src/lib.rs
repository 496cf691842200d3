//! Bit-blasting back end: terms are translated (`blast`) into an
//! and-inverter graph (`aig`) through word-level circuits (`words`),
//! encoded to CNF by Tseitin and solved incrementally with CaDiCaL (`cnf`);
//! `solver` puts it together behind the `smt::Solver` trait.
//!
//! The word layer is public so that other encoders (floating point) can
//! build their circuits from the same operations.

pub mod aig;
pub mod blast;
pub mod cnf;
pub mod solver;
pub mod stats;
pub mod words;

#[cfg(test)]
mod testing;

pub use cnf::Limits;
pub use solver::BitBlastSolver;
pub use stats::Stats;
