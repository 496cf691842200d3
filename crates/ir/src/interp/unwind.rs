//! Loop and recursion bounds in the interpreter, counted exactly as
//! symbolic execution counts them, so a counterexample that violates an
//! unwinding assertion (`--unwind N`) can be replayed. The loops are the
//! ones the `analysis` crate finds (the loop-nesting forest of each
//! function's control-flow graph), given to the interpreter as a
//! [`LoopNest`] per function: an edge into a loop from outside starts its
//! count, every edge from its body back to its head (whichever `continue`
//! or jump it is) is one more iteration, and the N-th such edge since the
//! loop was entered is the violation. A call of a function that already
//! has N active frames is the violation of its recursion bound.

use crate::loc::Loc;
use rustc_hash::FxHashMap as HashMap;

/// The loops of one function as the interpreter counts their iterations
/// (built by `analysis::loops::FunctionLoops::nest`).
#[derive(Clone, Debug, Default)]
pub struct LoopNest {
    /// Per instruction index, and for the end of the body, the innermost
    /// loop containing it (an index into `loops`).
    pub innermost: Vec<Option<u32>>,
    pub loops: Vec<NestedLoop>,
}

/// One loop of a [`LoopNest`].
#[derive(Clone, Debug)]
pub struct NestedLoop {
    /// The instruction each iteration starts at.
    pub head: usize,
    /// The innermost loop containing this one.
    pub parent: Option<u32>,
    /// Where its unwinding assertion is reported.
    pub loc: Loc,
}

impl LoopNest {
    /// Whether loop `id` contains instruction `node`.
    fn contains(&self, id: u32, node: usize) -> bool {
        let mut current = self.innermost.get(node).copied().flatten();
        while let Some(l) = current {
            if l == id {
                return true;
            }
            current = self.loops[l as usize].parent;
        }
        false
    }
}

/// Iteration counts of the loops of one frame.
#[derive(Clone, Default)]
pub(super) struct LoopCounts {
    counts: HashMap<u32, u64>,
    /// The instruction the frame executed last.
    previous: Option<usize>,
}

impl LoopCounts {
    /// Called before executing the instruction at `pc`: the edge from the
    /// previous instruction enters loops (their counts restart) or starts
    /// another iteration of the loop headed at `pc`. Returns that loop
    /// when the iteration exceeds its `bound`.
    pub fn arrive<'n>(&mut self, nest: &'n LoopNest, pc: usize, bound: impl Fn(&NestedLoop) -> Option<u64>) -> Option<&'n NestedLoop> {
        let from = self.previous.replace(pc);
        let inner = nest.innermost.get(pc).copied().flatten()?;
        let from_inner = from.and_then(|f| nest.innermost.get(f).copied().flatten());
        if from_inner == Some(inner) && nest.loops[inner as usize].head != pc {
            return None;
        }
        let mut current = Some(inner);
        while let Some(id) = current {
            let l = &nest.loops[id as usize];
            if from.is_some_and(|f| nest.contains(id, f)) {
                if l.head != pc {
                    return None;
                }
                let count = self.counts.get(&id).copied().unwrap_or(0) + 1;
                if bound(l).is_some_and(|k| count >= k) {
                    return Some(l);
                }
                self.counts.insert(id, count);
                return None;
            }
            self.counts.remove(&id);
            current = l.parent;
        }
        None
    }
}

/// True when a call that finds `active` frames of its callee exceeds `bound`.
pub(super) fn recursion_exceeds(active: usize, bound: Option<u64>) -> bool {
    active > 0 && bound.is_some_and(|k| active as u64 >= k)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Instructions 0..=5 with one loop headed at 1 over 1..=3 (back edges
    /// from 2 and 3) and a loop inside it headed at 2 over 2..=2.
    fn nest() -> LoopNest {
        let innermost = vec![None, Some(0), Some(1), Some(0), None, None];
        let loops = vec![
            NestedLoop { head: 1, parent: None, loc: Loc::NONE },
            NestedLoop { head: 2, parent: Some(0), loc: Loc::NONE },
        ];
        LoopNest { innermost, loops }
    }

    /// Walks `path` and returns the index of the step that exceeds `bound`.
    fn exceeded(path: &[usize], bound: u64) -> Option<usize> {
        let nest = nest();
        let mut counts = LoopCounts::default();
        path.iter().position(|&pc| counts.arrive(&nest, pc, |_| Some(bound)).is_some())
    }

    #[test]
    fn every_back_edge_of_a_loop_counts_for_the_same_loop() {
        // 1 -> 3 -> 1 (one back edge) then 1 -> 2 -> 1 (the inner loop's
        // node, back to the outer head): the second iteration.
        assert_eq!(exceeded(&[0, 1, 3, 1, 2, 1], 2), Some(5));
        assert_eq!(exceeded(&[0, 1, 3, 1, 2, 1], 3), None);
    }

    #[test]
    fn leaving_and_reentering_a_loop_starts_a_new_count() {
        assert_eq!(exceeded(&[0, 1, 3, 4, 0, 1, 3, 1], 2), None);
        assert_eq!(exceeded(&[0, 1, 3, 1, 3, 1], 2), Some(5));
    }

    #[test]
    fn an_inner_loop_restarts_with_each_outer_iteration() {
        // The inner loop at 2 iterates once per outer iteration.
        assert_eq!(exceeded(&[0, 1, 2, 2, 3, 1, 2, 2, 3, 4], 2), None);
        assert_eq!(exceeded(&[0, 1, 2, 2, 2], 2), Some(4));
    }

    #[test]
    fn recursion_bound_counts_active_frames() {
        assert!(!recursion_exceeds(0, Some(1)), "the first call is not recursion");
        assert!(recursion_exceeds(1, Some(1)));
        assert!(!recursion_exceeds(1, Some(2)));
        assert!(!recursion_exceeds(5, None));
    }
}
