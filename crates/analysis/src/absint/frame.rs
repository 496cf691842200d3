//! The per-function setup of the analysis: the tracked variables a
//! function's states hold (its own tracked locals and the tracked globals
//! it names), the packs of the relational domains (the variables that
//! loops change and conditions compare, a bounded number each so a
//! function with hundreds of variables stays cheap), and the widening
//! thresholds (the program's constants near each bound).

use super::kind::IntKind;
use super::vars::{for_each_expr, lvalue_root, Tracked};
use super::value::{NEG_INF, POS_INF};
use ir::{Expr, ExprKind, FuncId, Instr, InstrKind, Program, SymbolId, SymbolKind};
use std::collections::HashMap;

/// At most this many variables in the octagon (its closure is cubic in it).
const OCTAGON_PACK: usize = 16;
/// At most this many variables in the affine-equality domain.
const AFFINE_PACK: usize = 16;

#[derive(Clone, Debug)]
pub struct Var {
    pub sym: SymbolId,
    pub kind: IntKind,
    pub global: bool,
}

pub struct Frame<'p> {
    pub program: &'p Program,
    pub tracked: &'p Tracked,
    pub func: FuncId,
    pub vars: Vec<Var>,
    pub index: HashMap<SymbolId, usize>,
    /// Position of each variable in the octagon pack / affine pack.
    pub oct_slot: Vec<Option<usize>>,
    pub oct_vars: Vec<usize>,
    pub aff_slot: Vec<Option<usize>>,
    pub aff_vars: Vec<usize>,
    /// Sorted, with the ends of every tracked type.
    pub thresholds: Vec<i128>,
    /// Sorted thresholds for octagon entries (bounds of `x - y`, `x + y`, `2x`).
    pub oct_thresholds: Vec<i128>,
}

/// The (source, target) instruction pairs of backward jumps: every cycle
/// of the control flow contains one.
pub fn back_jumps(body: &[Instr]) -> Vec<(usize, usize)> {
    body.iter()
        .enumerate()
        .filter_map(|(i, instr)| match instr.kind {
            InstrKind::Goto { target, .. } if (target.0 as usize) <= i => Some((i, target.0 as usize)),
            _ => None,
        })
        .collect()
}

impl<'p> Frame<'p> {
    /// The frame of `func`; the relational packs favour the variables of
    /// the instructions `focus` marks (a loop nest), or of every loop.
    pub fn new(program: &'p Program, tracked: &'p Tracked, func: FuncId, body: &[Instr], focus: Option<&[bool]>) -> Frame<'p> {
        let mut frame = Frame {
            program,
            tracked,
            func,
            vars: Vec::new(),
            index: HashMap::new(),
            oct_slot: Vec::new(),
            oct_vars: Vec::new(),
            aff_slot: Vec::new(),
            aff_vars: Vec::new(),
            thresholds: Vec::new(),
            oct_thresholds: Vec::new(),
        };
        let mut constants = vec![0i128, 1, -1];
        for param in &program.functions[func].params {
            frame.add_var(*param);
        }
        for instr in body {
            for_each_expr(&instr.kind, &mut |e: &Expr| {
                for node in e.walk() {
                    match &node.kind {
                        ExprKind::Sym(s) => frame.add_var(*s),
                        ExprKind::IntConst(bits) => {
                            if let Some(kind) = IntKind::of(&program.types, node.ty) {
                                constants.push(kind.value_of_bits(*bits));
                            }
                        }
                        _ => {}
                    }
                }
            });
            if let InstrKind::Decl(s) | InstrKind::Dead(s) = &instr.kind {
                frame.add_var(*s);
            }
        }
        frame.set_thresholds(constants);
        frame.choose_packs(body, focus);
        frame
    }

    fn add_var(&mut self, sym: SymbolId) {
        if self.index.contains_key(&sym) {
            return;
        }
        let Some(kind) = self.tracked.kind(sym) else { return };
        let global = match self.program.symbols[sym].kind {
            SymbolKind::Global => true,
            SymbolKind::Local(f) if f == self.func => false,
            _ => return,
        };
        self.index.insert(sym, self.vars.len());
        self.vars.push(Var { sym, kind, global });
    }

    fn set_thresholds(&mut self, constants: Vec<i128>) {
        let mut t: Vec<i128> = constants.iter().flat_map(|c| [c - 1, *c, c + 1]).collect();
        t.extend(self.vars.iter().flat_map(|v| [v.kind.min(), v.kind.max()]));
        t.extend([NEG_INF, POS_INF]);
        t.sort_unstable();
        t.dedup();
        let mut o: Vec<i128> = t.iter().flat_map(|c| [*c, c.saturating_mul(2)]).collect();
        o.sort_unstable();
        o.dedup();
        self.thresholds = t;
        self.oct_thresholds = o;
    }

    /// Scores each variable and fills the packs with the best, `Bool`s
    /// left out: assigned inside the focus, 4; per condition there that
    /// compares it with another variable, 2, or that reads it, 1; and 1
    /// each for being read by a condition elsewhere (the property after
    /// the loop) and for flowing into a variable the focus assigns (`x =
    /// i` before `while (x != 0) x--;` relates `x` to `i`).
    fn choose_packs(&mut self, body: &[Instr], focus: Option<&[bool]>) {
        let mut score = vec![0u32; self.vars.len()];
        let loops = back_jumps(body);
        let in_focus = |i: usize| match focus {
            Some(f) => f.get(i).copied().unwrap_or(false),
            None => loops.iter().any(|(src, head)| (*head..=*src).contains(&i)),
        };
        let assigned_in_focus: Vec<usize> = body
            .iter()
            .enumerate()
            .filter(|(i, _)| in_focus(*i))
            .filter_map(|(_, instr)| match &instr.kind {
                InstrKind::Assign(lhs, _) => lvalue_root(lhs).and_then(|s| self.index.get(&s)).copied(),
                _ => None,
            })
            .collect();
        for v in &assigned_in_focus {
            score[*v] += 4;
        }
        for (i, instr) in body.iter().enumerate() {
            match &instr.kind {
                InstrKind::Goto { cond, .. } | InstrKind::Assume(cond) | InstrKind::Assert(cond, _) => {
                    let weight = if in_focus(i) { 2 } else { 1 };
                    self.score_condition(cond, weight, &mut score)
                }
                InstrKind::Assign(lhs, rhs) if !in_focus(i) => {
                    let target = lvalue_root(lhs).and_then(|s| self.index.get(&s));
                    if target.is_some_and(|t| assigned_in_focus.contains(t)) {
                        for v in self.vars_in(rhs) {
                            score[v] += 1;
                        }
                    }
                }
                _ => {}
            }
        }
        let mut order: Vec<usize> = (0..self.vars.len()).filter(|v| score[*v] >= 1 && self.vars[*v].kind.bits > 1).collect();
        order.sort_by_key(|v| std::cmp::Reverse(score[*v]));
        let pick = |limit: usize| -> (Vec<usize>, Vec<Option<usize>>) {
            let chosen: Vec<usize> = order.iter().copied().take(limit).collect();
            let mut slot = vec![None; self.vars.len()];
            for (k, v) in chosen.iter().enumerate() {
                slot[*v] = Some(k);
            }
            (chosen, slot)
        };
        (self.oct_vars, self.oct_slot) = pick(OCTAGON_PACK);
        (self.aff_vars, self.aff_slot) = pick(AFFINE_PACK);
    }

    /// The tracked variables `e` reads.
    fn vars_in(&self, e: &Expr) -> Vec<usize> {
        e.walk()
            .filter_map(|n| match &n.kind {
                ExprKind::Sym(s) => self.index.get(s).copied(),
                _ => None,
            })
            .collect()
    }

    /// Adds `weight` to the variables a condition compares: twice that
    /// when the other side has a variable too.
    fn score_condition(&self, cond: &Expr, weight: u32, score: &mut [u32]) {
        for node in cond.walk() {
            if let ExprKind::Binary(op, a, b) = &node.kind {
                if op.is_comparison() {
                    let (left, right) = (self.vars_in(a), self.vars_in(b));
                    let bonus = if !left.is_empty() && !right.is_empty() { 2 * weight } else { weight };
                    for v in left.into_iter().chain(right) {
                        score[v] += bonus;
                    }
                }
            }
        }
    }
}
