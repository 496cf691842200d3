//! The fixpoint iteration over one function body: basic blocks in a
//! worklist ordered by position (loops are iterated before what follows
//! them), joins at every block entry, widening with thresholds at the
//! targets of backward jumps (every cycle passes one, irreducible ones
//! too), then a few descending rounds that recover precision (narrowing).
//! A budget of block visits bounds the work on any input.

use super::frame::Frame;
use super::state::State;
use super::transfer::{refine, step};
use ir::{Instr, InstrKind};
use std::collections::{BTreeSet, HashMap};

/// Joins at a widening point before widening starts.
const WIDEN_DELAY: u32 = 2;
/// Widenings at a point after which octagon entries that still grow lose
/// their bound (they climb the thresholds slowly: there are many), and
/// after which interval bounds go straight to the type's ends.
const OCTAGON_THRESHOLD_ROUNDS: u32 = 6;
const INTERVAL_THRESHOLD_ROUNDS: u32 = 30;
/// Descending rounds after the ascending iteration.
const NARROWING_ROUNDS: usize = 2;
/// Block visits allowed per block (plus a constant) before giving up.
const VISITS_PER_BLOCK: usize = 40;

/// The result for one function: the state at each block start, and the
/// state where it returns.
pub struct Analysis {
    pub at: HashMap<usize, State>,
    pub exit: Option<State>,
}

struct Blocks {
    /// First instruction of each block, and one past its last.
    ranges: Vec<(usize, usize)>,
    block_at: HashMap<usize, usize>,
    /// Blocks entered by a backward edge.
    widen: Vec<bool>,
}

fn leaders(body: &[Instr]) -> BTreeSet<usize> {
    let mut leaders = BTreeSet::from([0]);
    for (i, instr) in body.iter().enumerate() {
        match &instr.kind {
            InstrKind::Goto { target, .. } | InstrKind::StartThread(target) => {
                leaders.insert(target.0 as usize);
                leaders.insert(i + 1);
            }
            InstrKind::Return(_) | InstrKind::EndThread => {
                leaders.insert(i + 1);
            }
            _ => {}
        }
    }
    leaders.retain(|l| *l < body.len());
    leaders
}

impl Blocks {
    fn new(body: &[Instr]) -> Blocks {
        let starts: Vec<usize> = leaders(body).into_iter().collect();
        let ranges: Vec<(usize, usize)> =
            starts.iter().enumerate().map(|(b, s)| (*s, starts.get(b + 1).copied().unwrap_or(body.len()))).collect();
        let block_at: HashMap<usize, usize> = starts.iter().enumerate().map(|(b, s)| (*s, b)).collect();
        let mut widen = vec![false; ranges.len()];
        for (b, (_, end)) in ranges.iter().enumerate() {
            if let InstrKind::Goto { target, .. } | InstrKind::StartThread(target) = &body[end - 1].kind {
                if let Some(t) = block_at.get(&(target.0 as usize)) {
                    widen[*t] |= *t <= b;
                }
            }
        }
        Blocks { ranges, block_at, widen }
    }
}

struct Outputs {
    edges: Vec<(usize, State)>,
    exit: Option<State>,
}

fn run_block(frame: &Frame, blocks: &Blocks, body: &[Instr], b: usize, state: State) -> Outputs {
    let (start, end) = blocks.ranges[b];
    let mut out = Outputs { edges: Vec::new(), exit: None };
    let mut state = state;
    for instr in &body[start..end - 1] {
        match step(frame, state, &instr.kind) {
            Some(next) => state = next,
            None => return out,
        }
    }
    let next_block = blocks.block_at.get(&end).copied();
    let last = &body[end - 1].kind;
    match last {
        InstrKind::Goto { cond, target } => {
            let target = blocks.block_at.get(&(target.0 as usize)).copied();
            if let Some(t) = target {
                out.edges.extend(refine(frame, state.clone(), cond, true).map(|s| (t, s)));
            }
            match next_block {
                Some(n) => out.edges.extend(refine(frame, state, cond, false).map(|s| (n, s))),
                None => out.exit = refine(frame, state, cond, false),
            }
        }
        InstrKind::StartThread(target) => {
            if let Some(t) = blocks.block_at.get(&(target.0 as usize)) {
                out.edges.push((*t, state.clone()));
            }
            out.edges.extend(next_block.map(|n| (n, state)));
        }
        InstrKind::Return(_) | InstrKind::EndThread => out.exit = Some(state),
        _ => match (step(frame, state, last), next_block) {
            (Some(s), Some(n)) => out.edges.push((n, s)),
            (s, None) => out.exit = s,
            (None, _) => {}
        },
    }
    out
}

fn join_exit(exit: &mut Option<State>, state: Option<State>) {
    if let Some(s) = state {
        *exit = Some(match exit.take() {
            Some(e) => e.join(&s),
            None => s,
        });
    }
}

/// Analyses `body` from `entry`; `None` when the budget ran out.
pub fn analyze(frame: &Frame, body: &[Instr], entry: State) -> Option<Analysis> {
    if body.is_empty() {
        return Some(Analysis { at: HashMap::new(), exit: Some(entry) });
    }
    let blocks = Blocks::new(body);
    let n = blocks.ranges.len();
    let mut input: Vec<Option<State>> = vec![None; n];
    let mut visits = vec![0u32; n];
    input[0] = Some(entry.clone());
    let mut worklist = BTreeSet::from([0usize]);
    let mut budget = VISITS_PER_BLOCK * n + 100;
    while let Some(b) = worklist.pop_first() {
        budget = budget.checked_sub(1)?;
        let Some(state) = input[b].clone().and_then(|s| s.settled(frame)) else { continue };
        for (t, s) in run_block(frame, &blocks, body, b, state).edges {
            let merged = match &input[t] {
                None => Some(s),
                Some(old) if s.is_subset(old) => None,
                // A new state from outside the loop (an outer loop's next
                    // iteration) restarts the loop's widening rounds.
                Some(old) if t > b => {
                    visits[t] = 0;
                    Some(old.join(&s))
                }
                Some(old) => {
                    let joined = old.join(&s);
                    if blocks.widen[t] {
                        visits[t] += 1;
                        if visits[t] > WIDEN_DELAY {
                            let rounds = visits[t] - WIDEN_DELAY;
                            let with = (rounds <= INTERVAL_THRESHOLD_ROUNDS, rounds <= OCTAGON_THRESHOLD_ROUNDS);
                            Some(old.widen(&joined, frame, with))
                        } else {
                            Some(joined)
                        }
                    } else {
                        Some(joined)
                    }
                }
            };
            if let Some(m) = merged {
                input[t] = Some(m);
                worklist.insert(t);
            }
        }
    }
    let mut exit = None;
    for _ in 0..NARROWING_ROUNDS {
        let mut next: Vec<Option<State>> = vec![None; n];
        next[0] = Some(entry.clone());
        exit = None;
        for (b, state) in input.iter().enumerate() {
            let Some(state) = state.clone().and_then(|s| s.settled(frame)) else { continue };
            let out = run_block(frame, &blocks, body, b, state);
            join_exit(&mut exit, out.exit);
            for (t, s) in out.edges {
                next[t] = Some(match next[t].take() {
                    Some(e) => e.join(&s),
                    None => s,
                });
            }
        }
        input = next;
    }
    let at = input.into_iter().enumerate().filter_map(|(b, s)| Some((blocks.ranges[b].0, s?.reduce(frame)?))).collect();
    Some(Analysis { at, exit })
}
