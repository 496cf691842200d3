//! The inductive step of k-induction: symbolic execution of the program in
//! which every loop may start from any state it can reach at its head.
//!
//! Each time a loop is entered, a fresh Boolean chooses how this entry is
//! seen. *Short*: as it runs, at most k-1 back edges, every check
//! asserted (what the base case explores). *Long*: the loop's modified
//! state ([`analysis::modified`]) is havocked (it stands for the state at
//! the head k iterations before the one checked), the certified
//! invariants of the head are assumed, the first k iterations (the window)
//! run with every check assumed rather than asserted and may not leave the
//! loop, and iteration k+1 is checked (its back edge is cut, it may leave
//! the loop and run on). Every real execution is one of these paths: take
//! each loop entry long when it ran at least k back edges (the window then
//! covers the k iterations before the one of interest, whose checks held
//! since no violation came earlier) and short otherwise; so when no path
//! violates a check, no execution does, whatever the base case says. The
//! assumed window checks are what make the step inductive.
//!
//! Loops that allocate memory are not supported (objects made by the
//! skipped iterations have no stand-in), nor is recursion (the engine does
//! not run the step then).

use crate::exec::Symex;
use crate::memory::{ObjectId, ObjectKind};
use analysis::modified::{Modified, ProgramEffects};
use analysis::LoopId;
use ir::{Expr, FuncId, SymbolId, SymbolKind};
use smt::TermId;
use std::collections::{BTreeSet, HashMap};

/// The parameters of the inductive step (`Options::step`).
#[derive(Debug, Default)]
pub struct InductiveStep {
    /// The window: iterations whose checks a long entry assumes.
    pub k: u64,
    /// What functions and loops may modify.
    pub effects: std::sync::Arc<ProgramEffects>,
    /// Certified invariants, assumed whenever control reaches the head.
    pub invariants: HashMap<(FuncId, usize), Vec<HeadInvariant>>,
}

/// A certified invariant at a loop head: `expr`, or `∀bound. expr` when
/// `bound` is set (a local of the function that no instruction names).
#[derive(Clone, Debug)]
pub struct HeadInvariant {
    pub expr: Expr,
    pub bound: Option<SymbolId>,
}

/// A state at a loop head that the inductive step found to lead to a
/// violation within its k+1 iterations (bidirectional k-induction): the
/// values of the variables a long entry havocked, as the step's model gave
/// them. Reaching it in a base case makes a deeper bound worth checking.
#[derive(Clone, Debug)]
pub struct Target {
    pub func: FuncId,
    pub head: usize,
    pub values: Vec<(SymbolId, smt::Value)>,
}

impl<'a> Symex<'a> {
    /// At the head `pc` of an active loop of the current frame: records the
    /// condition under which the current state is a target's state.
    pub(crate) fn note_target_hits(&mut self, pc: usize) -> crate::Result<()> {
        let frame = self.frames.last().expect("inside a frame");
        let func = frame.func;
        if frame.flow.loops.headed_at(pc).is_none() {
            return Ok(());
        }
        let targets: Vec<Target> = self.options.targets.iter().filter(|t| t.func == func && t.head == pc).cloned().collect();
        for target in targets {
            let mut conditions = vec![self.state.guard];
            for (symbol, value) in &target.values {
                let o = self.variable_object(*symbol)?;
                let current = self.object_value(o);
                let expected = match value {
                    smt::Value::Bool(b) => self.store.bool_const(*b),
                    smt::Value::Bv(bits) => self.store.bv_const(bits.clone()),
                    _ => continue,
                };
                if self.store.sort(current) == self.store.sort(expected) {
                    conditions.push(self.store.eq(current, expected));
                }
            }
            let hit = self.store.and(&conditions);
            if !self.store.is_false(hit) {
                self.equation.target_hits.push(hit);
            }
        }
        Ok(())
    }

    /// In the inductive step, loop `id` of the current frame is being
    /// entered: chooses long or short (the returned Boolean is "long") and
    /// havocs what the loop modifies on the long side, in every state
    /// about to enter it. `None` outside the step.
    pub(crate) fn step_entry(&mut self, id: LoopId) -> Option<TermId> {
        let step = self.options.step.clone()?;
        let frame = self.frames.last().expect("inside a frame");
        let (func, loops) = (frame.func, std::rc::Rc::clone(&frame.flow.loops));
        let modified = step.effects.of_loop(self.program, func, &loops, id);
        let bool_sort = smt::Sort::Bool;
        let long = self.store.var("k-induction long entry", bool_sort);
        let targets = self.havoc_targets(&modified, &step.effects.escaped);
        let fresh: Vec<(ObjectId, TermId)> = targets
            .iter()
            .map(|&o| {
                let sort = self.objects.get(o).value_sort(self.store);
                let name = format!("{}!havoc", self.objects.get(o).name);
                (o, self.store.var(&name, sort))
            })
            .collect();
        let freed: Vec<(ObjectId, TermId)> = match modified.frees {
            true => self
                .objects
                .iter()
                .filter(|(_, object)| object.is_dynamic())
                .map(|(o, _)| o)
                .collect::<Vec<_>>()
                .into_iter()
                .map(|o| (o, self.store.var("still-alive!havoc", bool_sort)))
                .collect(),
            false => Vec::new(),
        };
        let range = self.frames.last().expect("inside a frame").flow.range(id);
        let mut entering = self.frames.last_mut().expect("inside a frame").flow.take_pending_in(range.clone());
        let current_rank = loops.rank(self.frames.last().expect("inside a frame").pc);
        if range.contains(&current_rank) {
            let current = std::mem::replace(&mut self.state, crate::state::State::new(self.store.false_term()));
            entering.push((usize::MAX, current));
        }
        for (_, state) in &mut entering {
            std::mem::swap(&mut self.state, state);
            self.havoc_current(long, &fresh, &freed);
            std::mem::swap(&mut self.state, state);
        }
        if let Some(pos) = entering.iter().position(|(rank, _)| *rank == usize::MAX) {
            self.state = entering.swap_remove(pos).1;
        }
        self.frames.last_mut().expect("inside a frame").flow.restore_pending(entering);
        let frame_id = self.frames.last().expect("inside a frame").id;
        let havocked = fresh
            .iter()
            .filter_map(|&(o, value)| match self.objects.get(o).kind {
                ObjectKind::Global(symbol) => Some((symbol, value)),
                ObjectKind::Local { symbol, frame } if frame == frame_id => Some((symbol, value)),
                _ => None,
            })
            .collect();
        let head = loops.get(id).head;
        self.equation.long_entries.push(crate::equation::LongEntry { func, head, long, havocked });
        Some(long)
    }

    /// Gives the current state, on its long side, the values `fresh` and
    /// the liveness `freed` (a block alive may have been freed).
    fn havoc_current(&mut self, long: TermId, fresh: &[(ObjectId, TermId)], freed: &[(ObjectId, TermId)]) {
        if self.store.is_false(self.state.guard) {
            return;
        }
        for &(o, value) in fresh {
            let old = self.object_value(o);
            let new = self.store.ite(long, value, old);
            self.state.set_value(o, new);
        }
        for &(o, still) in freed {
            let old = self.object_alive(o);
            let kept = self.store.and2(old, still);
            let new = self.store.ite(long, kept, old);
            self.set_alive(o, new);
        }
    }

    /// The objects a loop that modifies `modified` may change: its
    /// variables in the current frame or global, and with writes through
    /// pointers every escaped variable of an active frame, every global
    /// whose address escapes and every allocated or environment object;
    /// each gets a pointer number, so that a havocked pointer can name it.
    /// Read-only objects stay.
    fn havoc_targets(&mut self, modified: &Modified, escaped: &BTreeSet<SymbolId>) -> Vec<ObjectId> {
        let mut targets: Vec<ObjectId> = modified.variables.iter().filter_map(|&s| self.variable_object(s).ok()).collect();
        if modified.through_pointers {
            let current = self.frames.last().expect("inside a frame").func;
            for &s in escaped {
                match self.program.symbols[s].kind {
                    SymbolKind::Global => targets.extend(self.variable_object(s).ok()),
                    SymbolKind::Local(f) if f == current => targets.extend(self.variable_object(s).ok()),
                    _ => {}
                }
                targets.extend(self.frames.iter().filter_map(|frame| frame.locals.get(&s).copied()));
            }
            let allocated = self.objects.iter().filter(|(_, object)| {
                matches!(object.kind, ObjectKind::Heap { .. } | ObjectKind::Stack { .. } | ObjectKind::Environment)
            });
            targets.extend(allocated.map(|(o, _)| o));
            for &o in &targets {
                self.objects.number(o, &self.layout);
            }
        }
        targets.sort_unstable();
        targets.dedup();
        targets.retain(|&o| !self.is_read_only(o));
        targets
    }

    /// The condition under which the current point is inside the window of
    /// some long loop entry (of any frame): its checks are assumed there.
    pub(crate) fn window(&mut self) -> Option<TermId> {
        let k = self.options.step.as_ref()?.k;
        let longs: Vec<TermId> = self
            .frames
            .iter()
            .flat_map(|frame| frame.flow.active.iter())
            .filter(|a| a.count < k)
            .filter_map(|a| a.long)
            .collect();
        Some(self.store.or(&longs))
    }

    /// `guard` of a state moving to rank `to_rank` of the current frame
    /// (forward, or back to an enclosing loop's head), without the paths
    /// that leave a long entry's window: its window iterations all come
    /// back to its own head.
    pub(crate) fn leave_windows(&mut self, guard: TermId, to_rank: usize) -> TermId {
        let Some(k) = self.options.step.as_ref().map(|s| s.k) else { return guard };
        let flow = &self.frames.last().expect("inside a frame").flow;
        let left: Vec<TermId> = flow
            .active
            .iter()
            .filter(|a| a.count < k && !flow.range(a.id).contains(&to_rank))
            .filter_map(|a| a.long)
            .collect();
        let mut guard = guard;
        for long in left {
            let short = self.store.not(long);
            guard = self.store.and2(guard, short);
        }
        guard
    }

    /// Whether the current state, about to start iteration `count` of the
    /// innermost active loop (entry kind `long`), runs in the step: a short
    /// entry has k iterations, a long one k+1.
    pub(crate) fn step_iteration(&mut self, count: u64, k: u64, long: Option<TermId>) -> bool {
        if count > k {
            return false;
        }
        if count == k {
            let long = long.expect("step entries choose long or short");
            self.state.guard = self.store.and2(self.state.guard, long);
        }
        !self.store.is_false(self.state.guard)
    }

    /// In the inductive step, at the head of an active loop: assumes its
    /// certified invariants.
    pub(crate) fn assume_head_invariants(&mut self, pc: usize) -> crate::Result<()> {
        let Some(step) = self.options.step.clone() else { return Ok(()) };
        let frame = self.frames.last().expect("inside a frame");
        let Some(invariants) = step.invariants.get(&(frame.func, pc)) else { return Ok(()) };
        if frame.flow.loops.headed_at(pc).is_none() {
            return Ok(());
        }
        for invariant in invariants {
            let holds = match invariant.bound {
                Some(bound) => self.eval_forall(bound, &invariant.expr)?,
                None => self.eval(&invariant.expr)?,
            };
            self.assume(holds);
        }
        Ok(())
    }

    /// `∀bound. expr` in the current state: `expr` is evaluated with a
    /// fresh variable in `bound`'s object, which is then restored.
    fn eval_forall(&mut self, bound: SymbolId, expr: &Expr) -> crate::Result<TermId> {
        let ty = self.program.symbols[bound].ty;
        let object = self.variable_object(bound)?;
        let sort = crate::repr::value_sort(self.program, ty, self.loc)?;
        let name = format!("{}!forall", self.program.symbols[bound].display_name);
        let var = self.store.var(&name, sort);
        let memory = crate::repr::to_memory(self.program, self.store, ty, var, self.loc)?;
        self.equation.quantified_vars.push(crate::QuantifiedVar { var, memory, loc: self.loc, nested: false, decided_alone: None });
        let saved = self.state.clone();
        let checks = self.equation.assertions.len();
        self.write_object(object, memory);
        let holds = self.eval(expr);
        self.state = saved;
        // Reading the invariant is no step of the program: its reads are
        // not checked (certification proved the formula, reads and all).
        self.equation.assertions.truncate(checks);
        Ok(self.store.quantified(smt::Quantifier::Forall, var, holds?))
    }
}
