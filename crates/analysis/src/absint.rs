//! Abstract interpretation over the IR, the source of candidate loop
//! invariants ([`crate::invariants`]).
//!
//! Each function with a loop is analysed on its own: its tracked
//! variables ([`vars`]: scalar integers whose address is never taken)
//! start unknown, except that the entry function starts from the globals'
//! values after the program's initialiser. The state ([`state`]) is the
//! product of intervals with congruences ([`value`], [`congruence`]),
//! octagons ([`octagon`]) and affine equalities ([`affine`]), computed by a
//! worklist iteration with widening and narrowing ([`fixpoint`]).
//!
//! Nothing here decides a verdict: what the analysis finds is a candidate
//! that the solver certifies before any engine assumes it, so a mistake
//! here can lose a proof but never make one wrong. It is still meant to be
//! sound (wrap-around, calls, pointers), or its candidates would mostly
//! fail certification.

pub mod affine;
pub mod congruence;
mod eval;
pub mod fixpoint;
pub mod frame;
pub mod kind;
pub mod octagon;
pub mod state;
mod transfer;
pub mod value;
pub mod vars;

pub use fixpoint::{analyze, Analysis};
pub use frame::Frame;
pub use state::State;
pub use value::Value;
pub use vars::Tracked;

use ir::{FuncId, Program, SymbolId};
use std::collections::HashMap;

/// The values of the tracked globals when the entry function starts:
/// zero, then whatever the initialiser assigns.
pub fn globals_at_entry(program: &Program, tracked: &Tracked) -> HashMap<SymbolId, Value> {
    let Some(init) = program.init else { return HashMap::new() };
    let Some(body) = &program.functions[init].body else { return HashMap::new() };
    let frame = Frame::new(program, tracked, init, body, None);
    let mut entry = State::entry(&frame);
    for (v, var) in frame.vars.iter().enumerate() {
        if var.global {
            entry.set_value(&frame, v, Value::constant(0));
        }
    }
    let Some(exit) = analyze(&frame, body, entry).and_then(|a| a.exit) else { return HashMap::new() };
    frame.vars.iter().zip(&exit.values).filter(|(var, _)| var.global).map(|(var, value)| (var.sym, *value)).collect()
}

/// The entry state of `func`: nothing known, except the globals of the
/// program's entry function (`initial`: their values after the
/// initialiser; a global it does not assign is zero).
pub fn entry_state(frame: &Frame, func: FuncId, initial: &HashMap<SymbolId, Value>) -> State {
    let mut state = State::entry(frame);
    if frame.program.entry == Some(func) {
        for (v, var) in frame.vars.iter().enumerate() {
            if var.global {
                let value = initial.get(&var.sym).copied().unwrap_or(Value::constant(0));
                state.set_value(frame, v, value);
            }
        }
    }
    state
}
