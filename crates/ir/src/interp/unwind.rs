//! Loop and recursion bounds in the interpreter, counted exactly as
//! symbolic execution counts them, so a counterexample that violates an
//! unwinding assertion (`--unwind N`) can be replayed: a backward jump to
//! the same target taken the N-th time since the loop was last entered
//! (reached other than by a backward jump), or a call of a function that
//! already has N active frames, is the violation.

use rustc_hash::FxHashMap as HashMap;

/// Backward-jump counts of one frame.
#[derive(Clone, Default)]
pub(super) struct LoopCounts {
    counts: HashMap<usize, u64>,
    arrived_by_back_edge: bool,
}

impl LoopCounts {
    /// Called before executing the instruction at `pc`: arriving there
    /// other than by a backward jump (re-)enters the loop headed there.
    pub fn arrive(&mut self, pc: usize) {
        if !self.arrived_by_back_edge {
            self.counts.remove(&pc);
        }
        self.arrived_by_back_edge = false;
    }

    /// A backward jump to `target` is taken; true when it exceeds `bound`.
    pub fn back_edge(&mut self, target: usize, bound: Option<u64>) -> bool {
        let count = self.counts.get(&target).copied().unwrap_or(0) + 1;
        if bound.is_some_and(|k| count >= k) {
            return true;
        }
        self.counts.insert(target, count);
        self.arrived_by_back_edge = true;
        false
    }
}

/// True when a call that finds `active` frames of its callee exceeds `bound`.
pub(super) fn recursion_exceeds(active: usize, bound: Option<u64>) -> bool {
    active > 0 && bound.is_some_and(|k| active as u64 >= k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_counts_back_edges_since_the_loop_was_entered() {
        let mut loops = LoopCounts::default();
        loops.arrive(3);
        assert!(!loops.back_edge(3, Some(2)), "first iteration back to the head");
        loops.arrive(3);
        assert!(loops.back_edge(3, Some(2)), "the second back edge exceeds a bound of 2");
        let mut fresh = LoopCounts::default();
        fresh.arrive(3);
        assert!(!fresh.back_edge(3, Some(2)));
        fresh.arrive(3);
        fresh.arrive(4);
        fresh.arrive(3);
        assert!(!fresh.back_edge(3, Some(2)), "leaving and re-entering the loop starts a new count");
        assert!(!LoopCounts::default().back_edge(3, None), "no bound, no violation");
    }

    #[test]
    fn recursion_bound_counts_active_frames() {
        assert!(!recursion_exceeds(0, Some(1)), "the first call is not recursion");
        assert!(recursion_exceeds(1, Some(1)));
        assert!(!recursion_exceeds(1, Some(2)));
        assert!(!recursion_exceeds(5, None));
    }
}
