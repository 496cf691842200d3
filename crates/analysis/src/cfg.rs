//! The control-flow graph of one IR function body.
//!
//! Nodes are instruction indices `0..len`, plus one extra node `len`, the
//! function's exit (every `Return` goes there, and so would control falling
//! off the end). Node 0 is the entry. Edges are the ways control can move
//! between instructions: the fall-through to the next index, the target of
//! a `Goto` (only the target when its condition is the constant true, only
//! the fall-through when it is the constant false), the exit after a
//! `Return`. A call is an edge to the next instruction: the callee runs in
//! its own graph. Unreachable instructions are nodes too, so every
//! instruction has a place in the analyses built on this graph.

use ir::{ExprKind, Instr, InstrKind};

/// The control-flow graph of one function body (see the module comment).
#[derive(Clone, Debug)]
pub struct Cfg {
    successors: Vec<Vec<usize>>,
    predecessors: Vec<Vec<usize>>,
}

impl Cfg {
    /// The graph of `body`.
    pub fn of_body(body: &[Instr]) -> Cfg {
        let exit = body.len();
        let mut successors: Vec<Vec<usize>> = vec![Vec::new(); exit + 1];
        for (index, instr) in body.iter().enumerate() {
            let next = index + 1;
            let targets = &mut successors[index];
            match &instr.kind {
                InstrKind::Goto { cond, target } => {
                    let target = (target.0 as usize).min(exit);
                    match cond.kind {
                        ExprKind::IntConst(0) => targets.push(next),
                        ExprKind::IntConst(_) => targets.push(target),
                        _ => targets.extend([next, target]),
                    }
                }
                InstrKind::StartThread(target) => targets.extend([next, (target.0 as usize).min(exit)]),
                InstrKind::Return(_) | InstrKind::EndThread => targets.push(exit),
                _ => targets.push(next),
            }
            targets.dedup();
        }
        let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); exit + 1];
        for (from, targets) in successors.iter().enumerate() {
            for &to in targets {
                predecessors[to].push(from);
            }
        }
        Cfg { successors, predecessors }
    }

    /// The number of nodes: the body's instructions and the exit.
    pub fn len(&self) -> usize {
        self.successors.len()
    }

    /// Never: the exit node is always there.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The entry node (the first instruction).
    pub fn entry(&self) -> usize {
        0
    }

    /// The exit node (one past the last instruction).
    pub fn exit(&self) -> usize {
        self.successors.len() - 1
    }

    pub fn successors(&self, node: usize) -> &[usize] {
        &self.successors[node]
    }

    pub fn predecessors(&self, node: usize) -> &[usize] {
        &self.predecessors[node]
    }

    /// Every edge `(from, to)`, in order of `from`.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.successors.iter().enumerate().flat_map(|(from, targets)| targets.iter().map(move |&to| (from, to)))
    }

    /// The nodes reachable from the entry in reverse postorder of a
    /// depth-first search that visits successors in their listed order:
    /// every node comes before its successors except along retreating
    /// edges.
    pub fn reverse_postorder(&self) -> Vec<usize> {
        let mut visited = vec![false; self.len()];
        let mut postorder = Vec::with_capacity(self.len());
        let mut stack: Vec<(usize, usize)> = vec![(self.entry(), 0)];
        visited[self.entry()] = true;
        while let Some((node, next)) = stack.last_mut() {
            let node = *node;
            match self.successors[node].get(*next) {
                Some(&succ) => {
                    *next += 1;
                    if !visited[succ] {
                        visited[succ] = true;
                        stack.push((succ, 0));
                    }
                }
                None => {
                    postorder.push(node);
                    stack.pop();
                }
            }
        }
        postorder.reverse();
        postorder
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{body, Shape};

    #[test]
    fn edges_follow_jumps_fall_through_and_returns() {
        // 0: if c goto 2; 1: skip; 2: goto 0 (unconditional); 3: return
        let cfg = Cfg::of_body(&body(&[Shape::Branch(2), Shape::Plain, Shape::Jump(0), Shape::Return]));
        assert_eq!(cfg.successors(0), &[1, 2]);
        assert_eq!(cfg.successors(1), &[2]);
        assert_eq!(cfg.successors(2), &[0], "an unconditional jump does not fall through");
        assert_eq!(cfg.successors(3), &[4], "a return goes to the exit node");
        assert_eq!(cfg.exit(), 4);
        assert_eq!(cfg.predecessors(2), &[0, 1]);
        assert_eq!(cfg.reverse_postorder()[0], 0);
        assert!(!cfg.reverse_postorder().contains(&3), "3 is unreachable");
    }

    #[test]
    fn a_constant_false_condition_only_falls_through() {
        let cfg = Cfg::of_body(&body(&[Shape::Never(0), Shape::Return]));
        assert_eq!(cfg.successors(0), &[1]);
    }
}
