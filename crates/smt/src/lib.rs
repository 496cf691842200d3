//! tarsier's term layer: sorts, hash-consed terms, rewriting, evaluation and
//! SMT-LIB2 output, independent of C and of the IR.
//!
//! - [`Sort`], [`SortTable`]: Bool, bit-vectors of any width, IEEE floats,
//!   rounding modes, arrays (interned).
//! - [`BvValue`], [`FpValue`], [`Value`]: concrete values with exact
//!   SMT-LIB semantics (floating point through the `ieee` crate).
//! - [`TermStore`], [`TermId`], [`Op`]: the hash-consed term DAG; every
//!   application is sort-checked and simplified by the rewriter when built.
//! - [`eval()`], [`Model`], [`Evaluator`]: iterative evaluation (the oracle of
//!   every later stage's tests).
//! - [`interval::Intervals`]: interval facts of path conditions (refutes
//!   conditions whose comparisons contradict each other).
//! - [`post_order`], [`free_vars`], [`substitute`]: iterative DAG walks.
//! - [`TermStore::forall`], [`quantifier`]: quantified terms, which the
//!   engine eliminates before bit-blasting.
//! - [`to_smtlib2`]: SMT-LIB2 text with DAG sharing.
//! - [`Solver`], [`SatResult`]: the incremental solver interface;
//!   [`ProcessSolver`] implements it with an external SMT-LIB2 solver.

pub mod answer;
pub mod bv;
pub mod eval;
mod fp;
pub mod interval;
pub mod op;
pub mod process;
pub mod quantifier;
#[cfg(test)]
mod reference_solver;
mod rewrite;
pub mod smtlib;
pub mod solver;
pub mod sort;
pub mod term;
#[cfg(test)]
mod testing;
pub mod traverse;
pub mod value;

pub use bv::BvValue;
pub use eval::{default_value, eval, eval_op, EvalError, Evaluator, Model};
pub use op::{result_sort, Op, SortError};
pub use process::ProcessSolver;
pub use quantifier::{Binder, Quantifier};
pub use smtlib::{term_to_string, to_smtlib2, SmtLibWriter};
pub use solver::{SatResult, Solver};
pub use sort::{ArraySortId, RoundingMode, Sort, SortTable};
pub use term::{TermId, TermKind, TermStore, VarId};
pub use traverse::{free_vars, post_order, substitute};
pub use value::{ArrayValue, FpValue, Value};
