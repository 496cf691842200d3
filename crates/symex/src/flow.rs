//! Control flow inside a frame: where the executor's states go and in
//! which order they run.
//!
//! A frame runs one state at a time, in the weak topological order of its
//! function's instructions (`analysis::loops`): every edge goes forward in
//! that order except the back edges of loops, and each loop is one range of
//! it. A state that takes a forward edge waits at its target (`pending`)
//! and is merged there with the others arriving; the next state to run is
//! always the first waiting one, so a join point runs once, after every
//! path into it.
//!
//! A state that takes a back edge of a loop (any of them: `continue`, the
//! closing jump, a `goto` to the head) is parked with the loop. When no
//! state waits inside the loop's range any more, every path of the current
//! iteration has either left the loop or come back to the head: the parked
//! states are merged and start the next iteration at the head, counted
//! once per loop, whatever back edges they took. Past the loop's bound the
//! merged state's guard is the loop's unwinding assertion (or assumption);
//! without a bound, an iteration that adds nothing is not started (see
//! `iterates_in_vain`). The interpreter counts iterations the same way
//! (`ir::interp::LoopNest`), so unwinding violations replay. In the
//! inductive step of k-induction the same places enter, leave and iterate
//! loops as `crate::step` describes.

use crate::exec::Symex;
use crate::state::State;
use analysis::{FunctionLoops, LoopId};
use ir::{Expr, InstrIdx};
use smt::TermId;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Iterations of an unbounded loop for which the intervals of the guard
/// are consulted (each query costs up to the guard's size; a loop whose
/// counter they bound ends within the width of its range).
const INTERVAL_ITERATIONS: u64 = 4096;

/// A loop the frame has entered and not yet left.
pub(crate) struct ActiveLoop {
    pub id: LoopId,
    /// Iterations started after the first (the index of the current one).
    pub count: u64,
    /// The states that came back to the head during this iteration.
    parked: Vec<State>,
    /// Without a bound: the state that entered the last iteration.
    last_entry: Option<State>,
    /// In the inductive step: whether this entry is a long one.
    pub long: Option<TermId>,
}

/// The control-flow state of one frame.
pub(crate) struct FrameFlow {
    pub loops: Rc<FunctionLoops>,
    /// States waiting at a forward edge's target, by the target's rank.
    pending: BTreeMap<usize, Vec<State>>,
    /// The loops containing the current instruction, outermost first.
    pub active: Vec<ActiveLoop>,
}

impl FrameFlow {
    /// The flow of a new frame, before it enters any loop.
    pub fn new(loops: Rc<FunctionLoops>) -> FrameFlow {
        FrameFlow { loops, pending: BTreeMap::new(), active: Vec::new() }
    }

    /// The loops containing `node` that are not active yet, outermost first.
    fn not_yet_entered(&self, node: usize) -> Vec<LoopId> {
        let enclosing: Vec<LoopId> = self.loops.enclosing(node).collect();
        let new = enclosing.len() - self.active.len();
        debug_assert!(enclosing[new..].iter().rev().eq(self.active.iter().map(|a| &a.id)), "the active loops enclose the node");
        enclosing[..new].iter().rev().copied().collect()
    }

    /// The ranks of loop `id`'s range.
    pub fn range(&self, id: LoopId) -> std::ops::Range<usize> {
        let first = self.loops.rank(self.loops.get(id).head);
        first..first + self.loops.get(id).body.len()
    }

    /// Takes the states waiting in `ranks`.
    pub fn take_pending_in(&mut self, ranks: std::ops::Range<usize>) -> Vec<(usize, State)> {
        let inside: Vec<usize> = self.pending.range(ranks).map(|(&r, _)| r).collect();
        inside.into_iter().flat_map(|r| self.pending.remove(&r).unwrap_or_default().into_iter().map(move |s| (r, s))).collect()
    }

    /// Puts back states taken with [`FrameFlow::take_pending_in`].
    pub fn restore_pending(&mut self, states: Vec<(usize, State)>) {
        for (rank, state) in states {
            self.pending.entry(rank).or_default().push(state);
        }
    }
}

impl<'a> Symex<'a> {
    fn flow(&mut self) -> &mut FrameFlow {
        &mut self.frames.last_mut().expect("inside a frame").flow
    }

    /// Merges the states waiting at the current instruction into the current state.
    pub(crate) fn take_pending(&mut self) {
        let frame = self.frames.last_mut().expect("inside a frame");
        let rank = frame.flow.loops.rank(frame.pc);
        if let Some(states) = frame.flow.pending.remove(&rank) {
            for s in states {
                self.merge_into_current(s);
            }
        }
    }

    /// Makes the frame's run visit `node` even when no path reaches it (a
    /// quantifier's end, which restores the state from before its body).
    pub(crate) fn visit_even_if_unreached(&mut self, node: usize) {
        let dead = State::new(self.store.false_term());
        let flow = self.flow();
        let rank = flow.loops.rank(node);
        flow.pending.entry(rank).or_default().push(dead);
    }

    /// Enters the loops containing `node`, the current frame's next
    /// instruction, that are not active yet (their counts start at zero).
    pub(crate) fn enter_loops_at(&mut self, node: usize) {
        for id in self.flow().not_yet_entered(node) {
            let long = self.step_entry(id);
            self.flow().active.push(ActiveLoop { id, count: 0, parked: Vec::new(), last_entry: None, long });
        }
    }

    /// The current state goes on to the next instruction.
    pub(crate) fn advance(&mut self) {
        let pc = self.frames.last().expect("inside a frame").pc;
        self.move_to(pc + 1);
    }

    /// The current state takes the edge from the current instruction to `to`.
    pub(crate) fn move_to(&mut self, to: usize) {
        let frame = self.frames.last_mut().expect("inside a frame");
        let loops = &frame.flow.loops;
        // The next instruction in the order, in the same loops: no state
        // can be waiting before it.
        if loops.rank(to) == loops.rank(frame.pc) + 1 && loops.innermost(to) == loops.innermost(frame.pc) {
            frame.pc = to;
            return;
        }
        let state = std::mem::replace(&mut self.state, State::new(self.store.false_term()));
        self.send(state, to);
        self.dispatch();
    }

    /// `state` takes the edge from the current instruction to `to`: it
    /// waits there, or is parked with the loop whose back edge it is.
    pub(crate) fn send(&mut self, mut state: State, to: usize) {
        if self.store.is_false(state.guard) {
            return;
        }
        let frame = self.frames.last().expect("inside a frame");
        let (from_rank, to_rank) = (frame.flow.loops.rank(frame.pc), frame.flow.loops.rank(to));
        state.guard = self.leave_windows(state.guard, to_rank);
        if to_rank > from_rank {
            let flow = self.flow();
            flow.pending.entry(to_rank).or_default().push(state);
            return;
        }
        let frame = self.frames.last_mut().expect("inside a frame");
        let id = frame.flow.loops.back_edge(frame.pc, to).expect("an edge backwards in the order is a back edge");
        let active = frame.flow.active.iter_mut().rev().find(|a| a.id == id).expect("a back edge's loop contains its source");
        active.parked.push(state);
    }

    /// The current state is done: picks what the frame runs next, the
    /// first waiting state, or the next iteration of a loop none of whose
    /// states waits any more.
    pub(crate) fn dispatch(&mut self) {
        loop {
            let flow = self.flow();
            let exit = flow.loops.cfg().exit();
            let next = flow.pending.keys().next().copied().unwrap_or_else(|| flow.loops.rank(exit));
            if let Some(innermost) = flow.active.last() {
                if !flow.loops.contains_rank(innermost.id, next) {
                    if innermost.parked.is_empty() {
                        flow.active.pop();
                    } else if self.next_iteration() {
                        return;
                    }
                    continue;
                }
            }
            let node = flow.loops.order()[next];
            self.frames.last_mut().expect("inside a frame").pc = node;
            self.enter_loops_at(node);
            return;
        }
    }

    /// Merges the parked states of the innermost active loop and starts its
    /// next iteration at its head (true), or ends those paths at the
    /// loop's bound or because the iteration would add nothing (false).
    fn next_iteration(&mut self) -> bool {
        let frame = self.frames.last_mut().expect("inside a frame");
        let func = frame.func;
        let loops = Rc::clone(&frame.flow.loops);
        let active = frame.flow.active.last_mut().expect("a loop to iterate");
        let (id, count, long) = (active.id, active.count + 1, active.long);
        let parked = std::mem::take(&mut active.parked);
        self.state = State::new(self.store.false_term());
        for s in parked {
            self.merge_into_current(s);
        }
        let l = loops.get(id);
        self.loc = l.loc;
        let continues = match self.options.step.as_ref().map(|step| step.k) {
            Some(k) => self.step_iteration(count, k, long),
            None => self.bounded_iteration(func, l, count),
        };
        let frame = self.frames.last_mut().expect("inside a frame");
        if !continues {
            self.state = State::new(self.store.false_term());
            return false;
        }
        frame.flow.active.last_mut().expect("still there").count = count;
        frame.pc = l.head;
        true
    }

    /// Whether iteration `count` of loop `l` of `func` runs, its unwinding
    /// bound (or, without one, `iterates_in_vain`) deciding.
    fn bounded_iteration(&mut self, func: ir::FuncId, l: &analysis::Loop, count: u64) -> bool {
        let in_model = self.program.files.is_library_model(l.loc);
        let default = if in_model { self.options.model_loop_bound.or(self.options.unwind) } else { self.options.unwind };
        match self.program.loop_bound(func, InstrIdx(l.head as u32), default) {
            Some(k) if count >= k => {
                self.equation.model_loop_cut |= in_model;
                let what = format!("loop at {}:{}", self.program.functions[func].name, l.loc.line);
                let guard = self.state.guard;
                self.bound_exceeded(guard, &what);
                false
            }
            Some(_) => true,
            None => !self.iterates_in_vain(count),
        }
    }

    /// Whether the current state, about to start iteration `count` of the
    /// innermost active loop (which has no bound), can be dropped because
    /// no further iteration adds anything: the intervals of its guard
    /// refute it (the loop exits first), or it is the state that entered
    /// the previous iteration, so every later iteration repeats it and only
    /// non-terminating paths stay in the loop.
    fn iterates_in_vain(&mut self, count: u64) -> bool {
        let entry = self.state.clone();
        let taken = entry.guard;
        let active = self.flow().active.last_mut().expect("a loop to iterate");
        let Some(previous) = active.last_entry.replace(entry.clone()) else { return false };
        if previous.same_as(&entry) {
            self.paths_never_end();
            return true;
        }
        // A guard the iteration did not narrow was not refuted before.
        previous.guard != taken && count <= INTERVAL_ITERATIONS && self.intervals.refutes(self.store, taken)
    }

    /// `if (cond) goto target` at the current instruction.
    pub(crate) fn goto(&mut self, cond: &Expr, target: usize) -> crate::Result<()> {
        let c = self.eval(cond)?;
        if self.store.is_true(c) {
            self.move_to(target);
            return Ok(());
        }
        let taken = self.store.and2(self.state.guard, c);
        if !self.store.is_false(taken) {
            let branch = self.state.with_guard(taken);
            self.send(branch, target);
        }
        let not_c = self.store.not(c);
        self.state.guard = self.store.and2(self.state.guard, not_c);
        self.advance();
        Ok(())
    }
}
