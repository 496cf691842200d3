//! IR passes and analyses that run between the front end and the engines.
//!
//! [`instrument`] turns the verification intrinsics of every common tool
//! into IR `Assert`/`Assume`/`Nondet` and adds the arithmetic checks the
//! user asked for. Memory-safety checks (pointer validity, bounds, `free`,
//! leaks) are not added here: they need the points-to information that
//! symbolic execution computes, so symex emits them.
//!
//! The structure every engine shares: [`cfg`] (the control-flow graph of a
//! function body), [`dominators`] and [`loops`] (the loop-nesting forest,
//! natural loops with all their back edges, irreducible loops handled, and
//! an instruction order in which each loop is contiguous), and
//! [`modified`] (the state a loop may change, calls included).
//!
//! [`evaluation_order`] keeps one evaluation order where the front end
//! lowered several and the operands cannot observe each other;
//! [`counted_loops`] proves the loops it may count as ending.
//!
//! [`threads`] gives a program that starts threads the instruction shape
//! its interleavings need (a shared write is a step of its own).
//!
//! [`spin`] cuts the loop iterations that change nothing (stutter steps):
//! a busy-wait loses its back edges, another loop its quiet iterations.
//!
//! [`absint`] is an abstract interpreter over the IR (intervals with
//! congruences, octagons, affine equalities); [`invariants`] turns its
//! results at loop heads into candidate invariants, IR expressions that
//! the engine certifies with the solver before it assumes them.

pub mod absint;
pub mod cfg;
pub mod counted_loops;
pub mod dominators;
pub mod evaluation_order;
pub mod instrument;
pub mod invariants;
pub mod loops;
pub mod modified;
pub mod spin;
pub mod threads;
#[cfg(test)]
mod testing;

pub use instrument::{instrument, Checks, Instrumented};
pub use loops::{FunctionLoops, Loop, LoopId, ProgramLoops};
