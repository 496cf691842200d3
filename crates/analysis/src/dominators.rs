//! Dominators of a control-flow graph: node `a` dominates node `b` when
//! every path from the entry to `b` passes through `a`. Computed with the
//! iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
//! Dominance Algorithm") over the reverse postorder; `dominates` answers
//! in constant time from a numbering of the dominator tree. Nodes that the
//! entry cannot reach have no dominators and dominate nothing.

use crate::cfg::Cfg;

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct Dominators {
    /// Immediate dominator per node; the entry's is itself; `NONE` when
    /// unreachable.
    idom: Vec<u32>,
    /// Preorder and postorder numbers in the dominator tree.
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl Dominators {
    pub fn of(cfg: &Cfg) -> Dominators {
        let order = cfg.reverse_postorder();
        let mut number = vec![NONE; cfg.len()];
        for (i, &node) in order.iter().enumerate() {
            number[node] = i as u32;
        }
        let mut idom = vec![NONE; cfg.len()];
        idom[cfg.entry()] = cfg.entry() as u32;
        let mut changed = true;
        while changed {
            changed = false;
            for &node in order.iter().skip(1) {
                let mut new = NONE;
                for &pred in cfg.predecessors(node) {
                    if idom[pred] == NONE {
                        continue;
                    }
                    new = if new == NONE { pred as u32 } else { intersect(&idom, &number, new, pred as u32) };
                }
                if idom[node] != new {
                    idom[node] = new;
                    changed = true;
                }
            }
        }
        let (pre, post) = tree_numbers(&idom, cfg.entry());
        Dominators { idom, pre, post }
    }

    /// Whether the entry reaches `node`.
    pub fn is_reachable(&self, node: usize) -> bool {
        self.idom[node] != NONE
    }

    /// The immediate dominator of `node`; `None` for the entry and for
    /// unreachable nodes.
    pub fn immediate_dominator(&self, node: usize) -> Option<usize> {
        match self.idom[node] {
            NONE => None,
            d if d as usize == node => None,
            d => Some(d as usize),
        }
    }

    /// Whether `a` dominates `b` (every node dominates itself); false when
    /// either is unreachable.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        self.is_reachable(a) && self.is_reachable(b) && self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
    }
}

/// The nearest common dominator of `a` and `b`: walks up the dominator
/// tree from the one later in reverse postorder (a dominator always comes
/// earlier) until they meet.
fn intersect(idom: &[u32], number: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while number[a as usize] > number[b as usize] {
            a = idom[a as usize];
        }
        while number[b as usize] > number[a as usize] {
            b = idom[b as usize];
        }
    }
    a
}

/// Pre- and postorder numbers of the dominator tree given by `idom`.
fn tree_numbers(idom: &[u32], entry: usize) -> (Vec<u32>, Vec<u32>) {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); idom.len()];
    for (node, &d) in idom.iter().enumerate() {
        if d != NONE && d as usize != node {
            children[d as usize].push(node);
        }
    }
    let (mut pre, mut post) = (vec![NONE; idom.len()], vec![NONE; idom.len()]);
    let (mut pre_count, mut post_count) = (0, 0);
    let mut stack = vec![(entry, 0usize)];
    pre[entry] = 0;
    pre_count += 1;
    while let Some((node, next)) = stack.last_mut() {
        let node = *node;
        match children[node].get(*next) {
            Some(&child) => {
                *next += 1;
                pre[child] = pre_count;
                pre_count += 1;
                stack.push((child, 0));
            }
            None => {
                post[node] = post_count;
                post_count += 1;
                stack.pop();
            }
        }
    }
    (pre, post)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{body, Shape};

    #[test]
    fn a_diamond_is_dominated_by_its_fork_only() {
        // 0: if c goto 3; 1: skip; 2: goto 4; 3: skip; 4: return
        let cfg = Cfg::of_body(&body(&[Shape::Branch(3), Shape::Plain, Shape::Jump(4), Shape::Plain, Shape::Return]));
        let dom = Dominators::of(&cfg);
        assert!(dom.dominates(0, 4) && dom.dominates(0, 1) && dom.dominates(0, 3));
        assert!(!dom.dominates(1, 4) && !dom.dominates(3, 4));
        assert_eq!(dom.immediate_dominator(4), Some(0));
        assert_eq!(dom.immediate_dominator(0), None);
        assert!(dom.dominates(4, 5), "the return dominates the exit");
    }

    #[test]
    fn unreachable_nodes_dominate_nothing() {
        // 0: return; 1: goto 1
        let cfg = Cfg::of_body(&body(&[Shape::Return, Shape::Jump(1)]));
        let dom = Dominators::of(&cfg);
        assert!(!dom.is_reachable(1) && !dom.dominates(1, 1) && !dom.dominates(0, 1));
    }
}
