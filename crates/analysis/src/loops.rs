//! The loops of a function: the loop-nesting forest of its control-flow
//! graph, and an order of its instructions in which every loop is one
//! contiguous range. Every engine uses this structure: symbolic execution
//! unwinds these loops (one iteration ends when every path of it has left
//! the loop or come back to the head), the interpreter counts their
//! iterations for unwinding assertions, and k-induction and invariant
//! generation work at their heads.
//!
//! A loop is a strongly connected region of the graph with one head. For a
//! reducible graph (every loop entered only at its head, as structured C
//! and most `goto` code is) the loops are exactly the natural loops: the
//! head dominates the body, and every edge from the body back to the head
//! (`continue`, `goto` to the head, the closing jump, a `continue` inside a
//! `switch`) is a back edge of the same loop; natural loops with the same
//! head are one loop. The forest is computed by nested strongly connected
//! components (as Havlak's and Bourdoncle's algorithms do): the components
//! of the graph are the outermost loops; inside one, the edges back to its
//! head are removed and the components of the rest are its inner loops.
//!
//! Irreducible control flow (a `goto` into the middle of a loop, so a cycle
//! has several entries) is not rejected: its component is one loop whose
//! head is the entry first reached from the function's entry, and the other
//! entries are recorded ([`Loop::entries`]). Its iterations are counted the
//! same way (a path that comes back to the head starts the next one), so an
//! unwinding bound still covers every path around it; only analyses that
//! need the head to dominate the body check [`Loop::is_reducible`].
//!
//! The order ([`FunctionLoops::order`]) is a weak topological order: every
//! edge goes to a later position except the back edges, which go to the
//! head of a loop containing their source; a loop's head comes first in its
//! range and its body fills the range. Ties keep the instruction order.

use crate::cfg::Cfg;
use crate::dominators::Dominators;
use ir::{FuncId, Instr, Loc, Program};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// A loop of one function (index into [`FunctionLoops::loops`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct LoopId(pub u32);

/// One loop (see the module comment). Nodes are instruction indices.
#[derive(Clone, Debug)]
pub struct Loop {
    /// Where each iteration starts; the target of every back edge.
    pub head: usize,
    /// The innermost loop containing this one.
    pub parent: Option<LoopId>,
    /// The loops directly inside this one.
    pub children: Vec<LoopId>,
    /// 1 for an outermost loop.
    pub depth: u32,
    /// Every node of the loop, inner loops' included, in increasing order.
    pub body: Vec<usize>,
    /// The edges from the body to the head (`(latch, head)`), in order.
    pub back_edges: Vec<(usize, usize)>,
    /// The edges from the body to nodes outside it.
    pub exits: Vec<(usize, usize)>,
    /// The edges from reachable nodes outside into the body at a node
    /// other than the head: empty for a natural loop, not for irreducible
    /// control flow.
    pub entries: Vec<(usize, usize)>,
    /// Where the loop is named ("loop at f:LINE") and where its unwinding
    /// assertion is reported: the location of the latch last in
    /// instruction order, which for a `while`, `for` or `do` statement is
    /// its closing jump, at the statement's line.
    pub loc: Loc,
    /// The loop's range in [`FunctionLoops::order`]: its head is at
    /// `first_rank`, its body fills `first_rank..first_rank + body.len()`.
    first_rank: usize,
}

impl Loop {
    /// The sources of the back edges, in order.
    pub fn latches(&self) -> impl Iterator<Item = usize> + '_ {
        self.back_edges.iter().map(|&(latch, _)| latch)
    }

    /// Whether the loop is entered only at its head (a natural loop: the
    /// head dominates the body).
    pub fn is_reducible(&self) -> bool {
        self.entries.is_empty()
    }
}

const NONE: u32 = u32::MAX;

/// The control-flow graph, dominators and loops of one function body.
#[derive(Clone, Debug)]
pub struct FunctionLoops {
    cfg: Cfg,
    dominators: Dominators,
    loops: Vec<Loop>,
    /// Innermost loop per node (`NONE`: in no loop).
    innermost: Vec<u32>,
    order: Vec<usize>,
    rank: Vec<usize>,
}

impl FunctionLoops {
    /// The loops of `body`.
    pub fn of_body(body: &[Instr]) -> FunctionLoops {
        let cfg = Cfg::of_body(body);
        let dominators = Dominators::of(&cfg);
        let mut forest = Forest::new(&cfg);
        forest.decompose();
        let Forest { loops, innermost, order, rank, .. } = forest;
        let mut result = FunctionLoops { cfg, dominators, loops: Vec::new(), innermost, order, rank };
        result.loops = loops.into_iter().map(|raw| result.describe(raw, body)).collect();
        for id in 0..result.loops.len() {
            if let Some(parent) = result.loops[id].parent {
                result.loops[parent.0 as usize].children.push(LoopId(id as u32));
            }
        }
        result
    }

    /// The edge sets and name of a loop found by the decomposition.
    fn describe(&self, raw: RawLoop, body: &[Instr]) -> Loop {
        let contains = |node: usize| self.rank[node] >= raw.first_rank && self.rank[node] < raw.first_rank + raw.body.len();
        let (mut back_edges, mut exits, mut entries) = (Vec::new(), Vec::new(), Vec::new());
        for &node in &raw.body {
            for &succ in self.cfg.successors(node) {
                match (succ == raw.head, contains(succ)) {
                    (true, _) => back_edges.push((node, succ)),
                    (false, false) => exits.push((node, succ)),
                    (false, true) => {}
                }
            }
            if node != raw.head {
                // Unreachable code enters nothing (the jump `if (c) { goto
                // out; } else {}` leaves after its `goto`).
                let enters = |p: usize| !contains(p) && self.dominators.is_reachable(p);
                entries.extend(self.cfg.predecessors(node).iter().copied().filter(|&p| enters(p)).map(|p| (p, node)));
            }
        }
        let last_latch = back_edges.iter().map(|&(latch, _)| latch).max().unwrap_or(raw.head);
        let loc = body.get(last_latch).map_or(Loc::NONE, |i| i.loc);
        Loop {
            head: raw.head,
            parent: raw.parent,
            children: Vec::new(),
            depth: raw.depth,
            body: raw.body,
            back_edges,
            exits,
            entries,
            loc,
            first_rank: raw.first_rank,
        }
    }

    pub fn cfg(&self) -> &Cfg {
        &self.cfg
    }

    pub fn dominators(&self) -> &Dominators {
        &self.dominators
    }

    /// Every loop, outer loops before the loops inside them.
    pub fn loops(&self) -> &[Loop] {
        &self.loops
    }

    pub fn get(&self, id: LoopId) -> &Loop {
        &self.loops[id.0 as usize]
    }

    /// The loops with their ids, outer loops first.
    pub fn iter(&self) -> impl Iterator<Item = (LoopId, &Loop)> {
        self.loops.iter().enumerate().map(|(i, l)| (LoopId(i as u32), l))
    }

    /// The innermost loop containing `node`.
    pub fn innermost(&self, node: usize) -> Option<LoopId> {
        match self.innermost[node] {
            NONE => None,
            id => Some(LoopId(id)),
        }
    }

    /// The loops containing `node`, innermost first.
    pub fn enclosing(&self, node: usize) -> impl Iterator<Item = LoopId> + '_ {
        std::iter::successors(self.innermost(node), |&l| self.get(l).parent)
    }

    /// The loop whose head is `node`, if any.
    pub fn headed_at(&self, node: usize) -> Option<LoopId> {
        self.innermost(node).filter(|&l| self.get(l).head == node)
    }

    /// Whether loop `id` contains `node`.
    pub fn contains(&self, id: LoopId, node: usize) -> bool {
        self.contains_rank(id, self.rank[node])
    }

    /// Whether loop `id` contains the node at position `rank` of the order.
    pub fn contains_rank(&self, id: LoopId, rank: usize) -> bool {
        let l = self.get(id);
        rank >= l.first_rank && rank < l.first_rank + l.body.len()
    }

    /// The loop whose next iteration the edge `from -> to` starts, if it is
    /// a back edge.
    pub fn back_edge(&self, from: usize, to: usize) -> Option<LoopId> {
        self.headed_at(to).filter(|&l| self.contains(l, from))
    }

    /// Every node in the weak topological order (see the module comment).
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The position of `node` in [`FunctionLoops::order`].
    pub fn rank(&self, node: usize) -> usize {
        self.rank[node]
    }

    /// Whether every loop is entered only at its head.
    pub fn is_reducible(&self) -> bool {
        self.loops.iter().all(Loop::is_reducible)
    }

    /// The view of the loops the interpreter counts iterations with.
    pub fn nest(&self) -> ir::interp::LoopNest {
        ir::interp::LoopNest {
            innermost: (0..self.cfg.len()).map(|n| self.innermost(n).map(|l| l.0)).collect(),
            loops: self
                .loops
                .iter()
                .map(|l| ir::interp::NestedLoop { head: l.head, parent: l.parent.map(|p| p.0), loc: l.loc })
                .collect(),
        }
    }
}

/// The loops of every function with a body.
#[derive(Clone, Debug, Default)]
pub struct ProgramLoops {
    functions: HashMap<FuncId, FunctionLoops>,
}

impl ProgramLoops {
    pub fn of_program(program: &Program) -> ProgramLoops {
        let functions = program.functions.iter().filter_map(|(id, f)| Some((id, FunctionLoops::of_body(f.body.as_deref()?))));
        ProgramLoops { functions: functions.collect() }
    }

    /// The loops of `func`; `None` when it has no body.
    pub fn function(&self, func: FuncId) -> Option<&FunctionLoops> {
        self.functions.get(&func)
    }

    /// The interpreter's view of every function's loops.
    pub fn nests(&self) -> HashMap<FuncId, ir::interp::LoopNest> {
        self.functions.iter().map(|(&f, loops)| (f, loops.nest())).collect()
    }
}

/// A loop as the decomposition finds it.
struct RawLoop {
    head: usize,
    parent: Option<LoopId>,
    depth: u32,
    body: Vec<usize>,
    first_rank: usize,
}

/// A region still to decompose: `nodes` (sorted), without the edges into
/// `head`, the loop they make up, and where their range starts.
struct Region {
    nodes: Vec<usize>,
    head: Option<usize>,
    parent: Option<LoopId>,
    depth: u32,
    first_rank: usize,
}

/// The decomposition's working state.
struct Forest<'a> {
    cfg: &'a Cfg,
    /// Reverse postorder number per node (`NONE` when unreachable), to
    /// choose the head of a loop with several entries.
    rpo_number: Vec<u32>,
    loops: Vec<RawLoop>,
    innermost: Vec<u32>,
    order: Vec<usize>,
    rank: Vec<usize>,
    /// The region each node was last marked in (`in_region`).
    mark: Vec<u32>,
    stamp: u32,
    /// Tarjan's per-node state, reset for each region's nodes.
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    /// The component of each node of the current region.
    component: Vec<u32>,
}

impl<'a> Forest<'a> {
    fn new(cfg: &'a Cfg) -> Forest<'a> {
        let n = cfg.len();
        let mut rpo_number = vec![NONE; n];
        for (i, node) in cfg.reverse_postorder().into_iter().enumerate() {
            rpo_number[node] = i as u32;
        }
        Forest {
            cfg,
            rpo_number,
            loops: Vec::new(),
            innermost: vec![NONE; n],
            order: vec![0; n],
            rank: vec![0; n],
            mark: vec![0; n],
            stamp: 0,
            index: vec![NONE; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            component: vec![0; n],
        }
    }

    fn decompose(&mut self) {
        let all = Region { nodes: (0..self.cfg.len()).collect(), head: None, parent: None, depth: 0, first_rank: 0 };
        let mut work = vec![all];
        while let Some(region) = work.pop() {
            work.extend(self.place(region));
        }
    }

    /// Orders the nodes of `region` and returns its loops as regions.
    fn place(&mut self, region: Region) -> Vec<Region> {
        self.stamp += 1;
        for &n in &region.nodes {
            self.mark[n] = self.stamp;
        }
        let components = self.components(&region);
        let mut inner = Vec::new();
        let mut rank = region.first_rank;
        for members in self.topological(&region, &components) {
            let members = &components[members];
            if !self.is_cycle(members, region.head) {
                let node = members[0];
                self.order[rank] = node;
                self.rank[node] = rank;
                self.innermost[node] = region.parent.map_or(NONE, |l| l.0);
                rank += 1;
                continue;
            }
            let id = LoopId(self.loops.len() as u32);
            let mut body = members.clone();
            body.sort_unstable();
            let head = self.choose_head(&body);
            let depth = region.depth + 1;
            self.loops.push(RawLoop { head, parent: region.parent, depth, body: body.clone(), first_rank: rank });
            inner.push(Region { nodes: body, head: Some(head), parent: Some(id), depth, first_rank: rank });
            rank += members.len();
        }
        inner
    }

    /// Whether the component `members` is a loop: several nodes, or one
    /// with an edge to itself (not the region's head, whose incoming edges
    /// are the enclosing loop's back edges).
    fn is_cycle(&self, members: &[usize], head: Option<usize>) -> bool {
        members.len() > 1 || (Some(members[0]) != head && self.cfg.successors(members[0]).contains(&members[0]))
    }

    /// The head of a loop with body `body`: its only entry for a natural
    /// loop; with several entries, the one first reached from the
    /// function's entry; with none (unreachable code), its first node.
    fn choose_head(&self, body: &[usize]) -> usize {
        let inside = |n: usize| body.binary_search(&n).is_ok();
        let is_entry = |n: usize| n == self.cfg.entry() || self.cfg.predecessors(n).iter().any(|&p| !inside(p));
        let entries = body.iter().copied().filter(|&n| is_entry(n));
        entries.min_by_key(|&n| (self.rpo_number[n], n)).unwrap_or(body[0])
    }

    /// Whether edge `from -> to` counts inside `region`.
    fn in_region(&self, to: usize, region: &Region) -> bool {
        self.mark[to] == self.stamp && Some(to) != region.head
    }

    /// The strongly connected components of `region` (Tarjan's algorithm
    /// with an explicit stack); sets `component` for its nodes.
    fn components(&mut self, region: &Region) -> Vec<Vec<usize>> {
        for &n in &region.nodes {
            self.index[n] = NONE;
            self.on_stack[n] = false;
        }
        let mut components = Vec::new();
        let mut next_index = 0u32;
        let mut stack = Vec::new();
        for &root in &region.nodes {
            if self.index[root] != NONE {
                continue;
            }
            let mut calls: Vec<(usize, usize)> = vec![(root, 0)];
            self.visit(root, &mut next_index, &mut stack);
            while let Some(&mut (node, ref mut next)) = calls.last_mut() {
                if let Some(&succ) = self.cfg.successors(node).get(*next) {
                    *next += 1;
                    if !self.in_region(succ, region) {
                        continue;
                    }
                    if self.index[succ] == NONE {
                        self.visit(succ, &mut next_index, &mut stack);
                        calls.push((succ, 0));
                    } else if self.on_stack[succ] {
                        self.low[node] = self.low[node].min(self.index[succ]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(caller, _)) = calls.last() {
                    self.low[caller] = self.low[caller].min(self.low[node]);
                }
                if self.low[node] == self.index[node] {
                    let mut members = Vec::new();
                    loop {
                        let member = stack.pop().expect("the component's nodes are on the stack");
                        self.on_stack[member] = false;
                        self.component[member] = components.len() as u32;
                        members.push(member);
                        if member == node {
                            break;
                        }
                    }
                    components.push(members);
                }
            }
        }
        components
    }

    fn visit(&mut self, node: usize, next_index: &mut u32, stack: &mut Vec<usize>) {
        self.index[node] = *next_index;
        self.low[node] = *next_index;
        *next_index += 1;
        stack.push(node);
        self.on_stack[node] = true;
    }

    /// The components of `region` in a topological order of the edges
    /// between them, the smallest key first among the ready ones (a
    /// component's key is its head, or its node), so that structured code
    /// keeps its instruction order.
    fn topological(&self, region: &Region, components: &[Vec<usize>]) -> Vec<usize> {
        let mut incoming = vec![0usize; components.len()];
        for &n in &region.nodes {
            for &succ in self.cfg.successors(n) {
                if self.in_region(succ, region) && self.component[succ] != self.component[n] {
                    incoming[self.component[succ] as usize] += 1;
                }
            }
        }
        let key = |c: usize| match components[c].as_slice() {
            [single] => *single,
            members => {
                let mut body = members.to_vec();
                body.sort_unstable();
                self.choose_head(&body)
            }
        };
        let mut ready: BinaryHeap<Reverse<(usize, usize)>> =
            (0..components.len()).filter(|&c| incoming[c] == 0).map(|c| Reverse((key(c), c))).collect();
        let mut order = Vec::with_capacity(components.len());
        while let Some(Reverse((_, c))) = ready.pop() {
            order.push(c);
            for &n in &components[c] {
                for &succ in self.cfg.successors(n) {
                    let target = self.component[succ] as usize;
                    if self.in_region(succ, region) && target != c {
                        incoming[target] -= 1;
                        if incoming[target] == 0 {
                            ready.push(Reverse((key(target), target)));
                        }
                    }
                }
            }
        }
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{body, Shape, Shape::*};

    fn loops_of(shapes: &[Shape]) -> FunctionLoops {
        FunctionLoops::of_body(&body(shapes))
    }

    #[test]
    fn a_while_loop_with_continue_is_one_loop_with_two_back_edges() {
        // while (c) { if (d) continue; x = 1; }
        // 0: if !c goto 4; 1: if d goto 0; 2: x = 1; 3: goto 0; 4: return
        let f = loops_of(&[Branch(4), Branch(0), Plain, Jump(0), Return]);
        assert_eq!(f.loops().len(), 1);
        let l = &f.loops()[0];
        assert_eq!((l.head, &l.body), (0, &vec![0, 1, 2, 3]));
        assert_eq!(l.back_edges, vec![(1, 0), (3, 0)]);
        assert_eq!(l.exits, vec![(0, 4)]);
        assert!(l.is_reducible());
        assert_eq!(l.loc.line, 4, "named by its last latch, the closing jump");
        assert_eq!(f.back_edge(1, 0), Some(LoopId(0)));
        assert_eq!(f.back_edge(0, 1), None);
    }

    #[test]
    fn a_continue_of_the_outer_loop_from_an_inner_one_is_an_outer_back_edge() {
        // 0: if !c goto 6; 1: if !d goto 5; 2: if e goto 0; 3: skip; 4: goto 1; 5: goto 0; 6: return
        let f = loops_of(&[Branch(6), Branch(5), Branch(0), Plain, Jump(1), Jump(0), Return]);
        assert_eq!(f.loops().len(), 2);
        let (outer, inner) = (&f.loops()[0], &f.loops()[1]);
        assert_eq!((outer.head, inner.head), (0, 1));
        assert_eq!(inner.parent, Some(LoopId(0)));
        assert_eq!(outer.children, vec![LoopId(1)]);
        assert_eq!(inner.body, vec![1, 2, 3, 4]);
        assert_eq!(outer.back_edges, vec![(2, 0), (5, 0)]);
        assert_eq!(inner.exits, vec![(1, 5), (2, 0)]);
        assert_eq!(f.innermost(3), Some(LoopId(1)));
        assert_eq!(f.enclosing(3).collect::<Vec<_>>(), vec![LoopId(1), LoopId(0)]);
        assert_eq!(f.innermost(5), Some(LoopId(0)));
        assert_eq!(f.innermost(6), None);
    }

    #[test]
    fn a_loop_built_with_gotos_is_headed_where_it_is_entered() {
        // goto L; B: x++; L: if (c) goto B; return
        // 0: goto 2; 1: skip (B); 2: if c goto 1 (L); 3: return
        let f = loops_of(&[Jump(2), Plain, Branch(1), Return]);
        let l = &f.loops()[0];
        assert_eq!(l.head, 2, "the jump backwards in the text enters the body, it is no back edge");
        assert_eq!(l.back_edges, vec![(1, 2)], "the fall-through from B is");
        assert_eq!(f.order(), &[0, 2, 1, 3, 4]);
        assert!(l.is_reducible());
    }

    #[test]
    fn a_jump_into_the_middle_of_a_loop_makes_an_irreducible_loop() {
        // 0: if c goto 2; 1: skip (A); 2: skip (B); 3: if d goto 1; 4: return
        let f = loops_of(&[Branch(2), Plain, Plain, Branch(1), Return]);
        assert_eq!(f.loops().len(), 1);
        let l = &f.loops()[0];
        assert_eq!(l.body, vec![1, 2, 3]);
        assert!(!l.is_reducible() && !f.is_reducible());
        assert_eq!(l.entries, vec![(0, 2)]);
        assert_eq!(l.back_edges, vec![(3, l.head)]);
    }

    #[test]
    fn a_jump_from_unreachable_code_into_a_loop_is_no_entry() {
        // 0: if c goto 3; 1: return; 2: goto 3 (unreachable); 3: skip; 4: goto 0
        let f = loops_of(&[Branch(3), Return, Jump(3), Plain, Jump(0)]);
        let l = &f.loops()[0];
        assert_eq!((l.head, l.body.clone()), (0, vec![0, 3, 4]));
        assert!(l.entries.is_empty() && l.is_reducible());
    }

    #[test]
    fn a_self_loop_is_a_loop_and_unreachable_code_has_a_place() {
        // 0: if c goto 0; 1: return; 2: goto 2 (unreachable)
        let f = loops_of(&[Branch(0), Return, Jump(2)]);
        assert_eq!(f.loops().len(), 2);
        assert_eq!(f.headed_at(0).map(|l| f.get(l).body.clone()), Some(vec![0]));
        assert!(f.headed_at(2).is_some());
        assert_eq!(f.order().len(), 4);
    }

    /// A small deterministic generator (xorshift).
    struct Random(u64);

    impl Random {
        fn below(&mut self, n: u32) -> u32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % u64::from(n)) as u32
        }
    }

    fn random_shapes(random: &mut Random) -> Vec<Shape> {
        let len = 2 + random.below(14);
        let mut shapes: Vec<Shape> = (0..len - 1)
            .map(|_| match random.below(6) {
                0 | 1 => Plain,
                2 | 3 => Branch(random.below(len)),
                4 => Jump(random.below(len)),
                _ => Return,
            })
            .collect();
        shapes.push(Return);
        shapes
    }

    /// The natural loop of the back edges into `head`: the reachable nodes
    /// that reach a latch without passing the head.
    fn natural_loop(f: &FunctionLoops, head: usize) -> Vec<usize> {
        let cfg = f.cfg();
        let mut body = vec![head];
        let mut work: Vec<usize> =
            cfg.predecessors(head).iter().copied().filter(|&p| f.dominators().dominates(head, p)).collect();
        while let Some(n) = work.pop() {
            if !body.contains(&n) {
                body.push(n);
                work.extend(cfg.predecessors(n).iter().filter(|&&p| f.dominators().is_reachable(p)));
            }
        }
        body.sort_unstable();
        body
    }

    /// The properties every decomposition has, on thousands of random graphs.
    #[test]
    fn random_graphs_get_a_weak_topological_order_and_natural_loops() {
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        let (mut natural, mut irreducible, mut nested) = (0, 0, 0);
        for _ in 0..5000 {
            let shapes = random_shapes(&mut random);
            let f = loops_of(&shapes);
            natural += f.loops().iter().filter(|l| l.is_reducible()).count();
            irreducible += f.loops().iter().filter(|l| !l.is_reducible()).count();
            nested += f.loops().iter().filter(|l| l.parent.is_some()).count();
            let cfg = f.cfg();
            let mut seen = f.order().to_vec();
            seen.sort_unstable();
            assert_eq!(seen, (0..cfg.len()).collect::<Vec<_>>(), "{shapes:?}");
            for (from, to) in cfg.edges() {
                let backward = f.rank(to) <= f.rank(from);
                assert_eq!(backward, f.back_edge(from, to).is_some(), "{shapes:?}: edge {from} -> {to}");
            }
            for (id, l) in f.iter() {
                let ranks: Vec<usize> = l.body.iter().map(|&n| f.rank(n)).collect();
                let first = *ranks.iter().min().expect("a loop has a body");
                assert_eq!(first, f.rank(l.head), "{shapes:?}: the head starts the range");
                assert_eq!(ranks.iter().max().map(|m| m - first + 1), Some(l.body.len()), "{shapes:?}: contiguous");
                assert!(l.body.iter().all(|&n| f.contains(id, n)));
                if let Some(parent) = l.parent {
                    assert!(l.body.iter().all(|&n| f.contains(parent, n)), "{shapes:?}: nested");
                }
                if l.is_reducible() && f.dominators().is_reachable(l.head) {
                    assert!(l.body.iter().all(|&n| f.dominators().dominates(l.head, n)), "{shapes:?}");
                    assert_eq!(natural_loop(&f, l.head), l.body, "{shapes:?}: the natural loop of {}", l.head);
                }
            }
            if f.is_reducible() {
                for (from, to) in cfg.edges() {
                    if f.dominators().dominates(to, from) {
                        assert!(f.back_edge(from, to).is_some(), "{shapes:?}: dominator back edge {from} -> {to}");
                    }
                }
            }
        }
        assert!(natural > 1000 && irreducible > 100 && nested > 100, "{natural} {irreducible} {nested}");
    }
}
