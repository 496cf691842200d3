//! IR passes that run between the front end and the engines.
//!
//! [`instrument`] turns the verification intrinsics of every common tool
//! into IR `Assert`/`Assume`/`Nondet` and adds the arithmetic checks the
//! user asked for. Memory-safety checks (pointer validity, bounds, `free`,
//! leaks) are not added here: they need the points-to information that
//! symbolic execution computes, so symex emits them.

pub mod instrument;

pub use instrument::{instrument, Checks, Instrumented};
