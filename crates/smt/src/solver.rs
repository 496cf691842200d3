//! The solver interface every back end implements (bit-blaster, SMT-LIB2
//! process).
//!
//! A solver is used incrementally: assertions accumulate across checks, and
//! each [`Solver::check`] may add temporary assumptions that hold for that
//! check only. Terms live in a [`TermStore`] owned by the caller and lent to
//! each call, so the caller may build new terms between checks; a solver must
//! only remember [`TermId`]s of the store it is given every time.

use crate::eval::{EvalError, Model};
use crate::term::{TermId, TermStore};
use crate::value::Value;

/// The answer of a satisfiability check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    Sat,
    Unsat,
    /// The solver gave up; the reason is meant for the user.
    Unknown(String),
}

/// An incremental satisfiability checker over terms of one store.
pub trait Solver {
    /// Adds a Boolean term that must hold in every later check.
    fn assert(&mut self, store: &TermStore, t: TermId);

    /// Checks the assertions together with `assumptions` (Boolean terms that
    /// hold for this check only).
    fn check(&mut self, store: &TermStore, assumptions: &[TermId]) -> SatResult;

    /// After `Sat`: the value of any term (of the store) in the found model.
    fn model_value(&mut self, store: &TermStore, t: TermId) -> Result<Value, EvalError>;

    /// After `Sat`: values of all variables the solver has seen. Variables it
    /// has not seen are unconstrained; the model fills them with defaults.
    fn model(&mut self, store: &TermStore) -> Model;
}
