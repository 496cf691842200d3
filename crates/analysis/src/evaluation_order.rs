//! Settles the choices of evaluation order the front end lowered
//! ([`ir::EvaluationOrder`]): where no operand can observe what another
//! does, every order computes the same values, so only one is kept (the
//! choice and the other orders become `Skip`) and the choice leaves the
//! program's list. Operands are independent
//! when nothing one writes (itself or, transitively, through the functions
//! it calls) can be seen by another ([`Footprint::reaches`]), and when
//! none can end the execution early (an
//! assumption, `exit`, `abort`, `longjmp` or an assumption intrinsic on
//! its way) or never return (it reaches a function on a cycle of calls or
//! with a loop [`crate::counted_loops`] does not prove to end, which may
//! run for ever) while an operand after it in the first order does more
//! than copy locals: the early end would hide
//! that in the first order, and with no such operand after it the first
//! order runs everything any other order runs (operands are listed in the
//! first order's sequence). Where the first order hides something and the
//! last one (the reverse sequence) does not, the last one is kept.
//! Allocations count as independent: their order is visible only through
//! the relative order of addresses of different objects, which C leaves
//! undefined.

use crate::modified::{direct_callee, Modified, ProgramEffects};
use ir::{EvaluationOrder, ExprKind, FuncId, InstrKind, Program, SymbolId, SymbolKind};
use std::collections::BTreeSet;

/// Body-less functions that end or divert the execution.
const STOPPING_FUNCTIONS: [&str; 12] =
    ["abort", "exit", "_exit", "_Exit", "longjmp", "_longjmp", "siglongjmp", "pthread_exit", "__builtin_abort", "__builtin_trap", "__builtin_unreachable", "__assert_fail"];

/// Keeps only the first order of every choice whose operands are
/// independent; the other choices stay in `program.evaluation_orders`.
pub fn settle(program: &mut Program) {
    if program.evaluation_orders.is_empty() {
        return;
    }
    let effects = ProgramEffects::of_program(program);
    let mut dependent = Vec::new();
    for order in std::mem::take(&mut program.evaluation_orders) {
        match order_to_keep(program, &effects, &order) {
            Some(Kept::First) => keep_first_order(program, &order),
            Some(Kept::Reversed(start)) => keep_last_order(program, &order, start),
            None => dependent.push(order),
        }
    }
    program.evaluation_orders = dependent;
}

/// The order that runs everything any order runs, when there is one.
enum Kept {
    First,
    /// The last order, which runs the operands in the reverse sequence
    /// (its instructions start here).
    Reversed(ir::InstrIdx),
}

/// Makes the first order the only one.
fn keep_first_order(program: &mut Program, order: &EvaluationOrder) {
    let (start, end) = (order.alternatives.0 .0 as usize, order.alternatives.1 .0 as usize);
    skip(program, order.function, std::iter::once(order.at.0 as usize).chain(start..end));
}

/// Makes the last order, from `start` on, the only one.
fn keep_last_order(program: &mut Program, order: &EvaluationOrder, start: ir::InstrIdx) {
    skip(program, order.function, order.at.0 as usize..start.0 as usize);
}

fn skip(program: &mut Program, function: FuncId, indices: impl Iterator<Item = usize>) {
    let Some(body) = program.functions[function].body.as_mut() else { return };
    for index in indices {
        if let Some(instr) = body.get_mut(index) {
            instr.kind = InstrKind::Skip;
        }
    }
}

/// What one operand's instructions (and the functions they call) touch.
struct Footprint {
    writes: Modified,
    /// Symbols its instructions, or the functions they call, name (read,
    /// written or declared).
    named: BTreeSet<SymbolId>,
    /// It, or a function it calls, dereferences a pointer, or it passes
    /// a pointer to a function without a body.
    dereferences: bool,
    /// It, or a function it calls, calls a function without a body that
    /// may keep a state of its own (stdio, the environment, a call through
    /// a pointer): two such calls may see each other.
    opaque_calls: bool,
}

impl Footprint {
    fn of(program: &Program, effects: &ProgramEffects, function: FuncId, range: std::ops::Range<usize>) -> (Footprint, BTreeSet<FuncId>) {
        let body = &program.functions[function].body.as_deref().unwrap_or_default()[range.clone()];
        let (writes, callees) = effects.of_instructions(program, function, range);
        let reached: BTreeSet<FuncId> = callees.iter().flat_map(|&f| effects.reachable_from(f)).collect();
        let mut named = names(body);
        let mut dereferences = reads_through_pointers(program, body);
        let mut opaque_calls = calls_opaque(program, body);
        for &f in &reached {
            let callee_body = program.functions[f].body.as_deref().unwrap_or_default();
            // A callee's locals live in its own frames, even when it is this function.
            named.extend(names(callee_body).into_iter().filter(|&v| !matches!(program.symbols[v].kind, SymbolKind::Local(_))));
            dereferences |= reads_through_pointers(program, callee_body);
            opaque_calls |= calls_opaque(program, callee_body);
        }
        (Footprint { writes, named, dereferences, opaque_calls }, callees)
    }

    /// Whether what `self` writes may change what `other` reads or writes:
    /// a variable `other` (or a function it calls) names or writes, an
    /// object whose address is taken that it may read through a pointer;
    /// memory through a pointer, which its dereferences or the objects
    /// whose address is taken that it names may see.
    fn reaches(&self, other: &Footprint, escaped: &BTreeSet<SymbolId>) -> bool {
        let variable_seen =
            |v: &SymbolId| other.named.contains(v) || other.writes.variables.contains(v) || (escaped.contains(v) && other.dereferences);
        let memory = self.writes.through_pointers || self.writes.frees;
        let touches_escaped = other.named.iter().any(|v| escaped.contains(v));
        self.writes.variables.iter().any(variable_seen)
            || (memory && (other.dereferences || other.writes.through_pointers || touches_escaped))
            || (self.opaque_calls && other.opaque_calls)
    }
}

/// Whether the instructions call a function without a body other than a
/// nondeterministic-value function, a pointer intrinsic or a math
/// function (which have no state), or call through a pointer.
fn calls_opaque(program: &Program, body: &[ir::Instr]) -> bool {
    body.iter().any(|instr| {
        let InstrKind::Call { callee, args, .. } = &instr.kind else { return false };
        let Some(f) = direct_callee(program, callee) else { return true };
        let function = &program.functions[f];
        let name = function.name.as_str();
        let stateless = ir::external::is_nondet_value_call(program, name, args)
            || ir::intrinsics::pointer_intrinsic(name).is_some()
            || ir::intrinsics::exact_math_function(name).is_some()
            || ir::libm::Inexact::of_name(name).is_some();
        function.body.is_none() && !stateless
    })
}

/// Whether the instructions dereference a pointer or pass one to a
/// function without a body (which may read through it).
fn reads_through_pointers(program: &Program, body: &[ir::Instr]) -> bool {
    body.iter().any(|instr| {
        let body_less_call = matches!(&instr.kind, InstrKind::Call { callee, args, .. }
            if direct_callee(program, callee).is_none_or(|f| program.functions[f].body.is_none())
                && args.iter().any(|a| program.types.pointee(a.ty).is_some() || program.types.holds_pointer(a.ty, true)));
        body_less_call || instr.kind.exprs().iter().any(|e| e.walk().any(|n| matches!(n.kind, ExprKind::Deref(_))))
    })
}

/// Whether `v` is a local of `function` whose address is never taken:
/// only names in `function` reach it.
fn is_unescaped_local(program: &Program, effects: &ProgramEffects, function: FuncId, v: SymbolId) -> bool {
    matches!(program.symbols[v].kind, SymbolKind::Local(f) if f == function) && !effects.escaped.contains(&v)
}

/// The order to keep when no operand can observe another's effects: the
/// first when no operand that may end the execution comes before one that
/// does more than copy locals, else the reversed one when that holds of it.
fn order_to_keep(program: &Program, effects: &ProgramEffects, order: &EvaluationOrder) -> Option<Kept> {
    let mut footprints = Vec::new();
    let mut stopping = Vec::new();
    for &(start, end) in &order.operands {
        let range = start.0 as usize..end.0 as usize;
        let (footprint, callees) = Footprint::of(program, effects, order.function, range.clone());
        stopping.push(may_stop(program, effects, order.function, range.clone(), &callees));
        footprints.push((footprint, is_inert(program, effects, order.function, range)));
    }
    // An operand that stops the run hides, in the orders that run it
    // earlier, what the others do; an order hides nothing when every
    // operand after a stopping one does nothing.
    let busy: Vec<bool> = footprints.iter().map(|(_, inert)| !inert).collect();
    let first_hides = (0..busy.len()).any(|i| stopping[i] && busy[i + 1..].contains(&true));
    let reversed_hides = (0..busy.len()).any(|i| stopping[i] && busy[..i].contains(&true));
    let kept = match (first_hides, order.reversed) {
        (false, _) => Kept::First,
        (true, Some(start)) if !reversed_hides => Kept::Reversed(start),
        _ => return None,
    };
    let footprints: Vec<Footprint> = footprints.into_iter().map(|(f, _)| f).collect();
    let independent =
        footprints.iter().enumerate().all(|(i, a)| footprints.iter().enumerate().all(|(j, b)| i == j || !a.reaches(b, &effects.escaped)));
    independent.then_some(kept)
}

/// Whether the instructions at `range` only copy unescaped locals and
/// constants into unescaped locals (casts and addresses included): they
/// can neither fail nor be seen by anything but a name.
fn is_inert(program: &Program, effects: &ProgramEffects, function: FuncId, range: std::ops::Range<usize>) -> bool {
    let body = program.functions[function].body.as_deref().unwrap_or_default();
    let local = |e: &ir::Expr| match e.kind {
        ExprKind::Sym(v) => is_unescaped_local(program, effects, function, v),
        _ => false,
    };
    let plain = |e: &ir::Expr| {
        e.walk().all(|n| match &n.kind {
            ExprKind::Sym(v) => is_unescaped_local(program, effects, function, *v) || matches!(program.symbols[*v].kind, SymbolKind::Function(_)),
            kind => matches!(kind, ExprKind::IntConst(_) | ExprKind::FloatConst(_) | ExprKind::Null | ExprKind::Zero | ExprKind::Cast(_) | ExprKind::AddrOf(_)),
        })
    };
    body[range].iter().all(|instr| match &instr.kind {
        InstrKind::Decl(v) => is_unescaped_local(program, effects, function, *v),
        InstrKind::Assign(lhs, rhs) => local(lhs) && plain(rhs),
        InstrKind::Skip => true,
        _ => false,
    })
}

/// The symbols the instructions name.
fn names(instrs: &[ir::Instr]) -> BTreeSet<SymbolId> {
    let mut named = BTreeSet::new();
    for instr in instrs {
        if let InstrKind::Decl(sym) | InstrKind::Dead(sym) = instr.kind {
            named.insert(sym);
        }
        for expr in instr.kind.exprs() {
            named.extend(expr.walk().filter_map(|e| match e.kind {
                ExprKind::Sym(sym) => Some(sym),
                _ => None,
            }));
        }
    }
    named
}

/// Whether the instructions at `range` of `function`, or the functions
/// they reach through `callees`, may end the execution early or never
/// return.
fn may_stop(program: &Program, effects: &ProgramEffects, function: FuncId, range: std::ops::Range<usize>, callees: &BTreeSet<FuncId>) -> bool {
    let body = program.functions[function].body.as_deref().unwrap_or_default();
    if body[range].iter().any(|instr| stops(program, effects, &instr.kind)) {
        return true;
    }
    let reached: BTreeSet<FuncId> = callees.iter().flat_map(|&f| effects.reachable_from(f)).collect();
    reached.iter().any(|&f| may_run_forever(program, effects, f) || program.functions[f].body.iter().flatten().any(|instr| stops(program, effects, &instr.kind)))
}

/// Whether a call of `f` (a function with a body) may not come back
/// by itself: `f` is on a cycle of calls or has a loop whose end
/// [`crate::counted_loops`] does not prove.
fn may_run_forever(program: &Program, effects: &ProgramEffects, f: FuncId) -> bool {
    effects.recursive.contains(&f) || !crate::counted_loops::every_loop_ends(program, effects, f)
}

fn stops(program: &Program, effects: &ProgramEffects, kind: &InstrKind) -> bool {
    let stopping = |f: FuncId| {
        let function = &program.functions[f];
        function.body.is_none() && (STOPPING_FUNCTIONS.contains(&function.name.as_str()) || function.name.contains("assume"))
    };
    match kind {
        InstrKind::Assume(_) => true,
        InstrKind::Call { callee, .. } => match direct_callee(program, callee) {
            Some(f) => stopping(f),
            None => effects.address_taken_functions.iter().any(|&f| stopping(f)),
        },
        _ => false,
    }
}
