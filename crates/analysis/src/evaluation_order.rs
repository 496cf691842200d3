//! Settles the choices of evaluation order the front end lowered
//! ([`ir::EvaluationOrder`]): where no operand can observe what another
//! does, every order computes the same values and ends the same way, so
//! only the first is kept (the choice and the other orders become `Skip`)
//! and the choice leaves the program's list. An operand is independent of
//! the others when everything it writes (itself and, transitively, the
//! functions it calls) is a local of the function that no other operand
//! names and whose address the program never takes, and when it cannot
//! end the execution early (no assumption, no `exit`, `abort`, `longjmp`
//! or assumption intrinsic on its way), which would hide what a later
//! operand does in the other orders. Allocations count as independent:
//! their order is visible only through the relative order of addresses of
//! different objects, which C leaves undefined. A call that never returns
//! (a loop or recursion without end) is not looked for.

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
    let orders = std::mem::take(&mut program.evaluation_orders);
    let (independent, dependent): (Vec<_>, Vec<_>) = orders.into_iter().partition(|o| operands_independent(program, &effects, o));
    for order in &independent {
        keep_first_order(program, order);
    }
    program.evaluation_orders = dependent;
}

/// Makes the first order the only one.
fn keep_first_order(program: &mut Program, order: &EvaluationOrder) {
    let Some(body) = program.functions[order.function].body.as_mut() else { return };
    let (start, end) = (order.alternatives.0 .0 as usize, order.alternatives.1 .0 as usize);
    for index in std::iter::once(order.at.0 as usize).chain(start..end) {
        if let Some(instr) = body.get_mut(index) {
            instr.kind = InstrKind::Skip;
        }
    }
}

fn operands_independent(program: &Program, effects: &ProgramEffects, order: &EvaluationOrder) -> bool {
    let Some(body) = program.functions[order.function].body.as_deref() else { return false };
    let named: Vec<BTreeSet<SymbolId>> = order.operands.iter().map(|&(s, e)| names(&body[s.0 as usize..e.0 as usize])).collect();
    order.operands.iter().enumerate().all(|(i, &(start, end))| {
        let range = start.0 as usize..end.0 as usize;
        let (modified, callees) = effects.of_instructions(program, order.function, range.clone());
        let named_elsewhere = |v: &SymbolId| named.iter().enumerate().any(|(j, n)| j != i && n.contains(v));
        let private = |v: &SymbolId| {
            matches!(program.symbols[*v].kind, SymbolKind::Local(f) if f == order.function) && !effects.escaped.contains(v) && !named_elsewhere(v)
        };
        writes_only_privately(&modified) && modified.variables.iter().all(private) && !may_stop(program, effects, order.function, range, &callees)
    })
}

fn writes_only_privately(modified: &Modified) -> bool {
    !modified.through_pointers && !modified.frees
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
/// they reach through `callees`, may end the execution early.
fn may_stop(program: &Program, effects: &ProgramEffects, function: FuncId, range: std::ops::Range<usize>, callees: &BTreeSet<FuncId>) -> bool {
    let body = program.functions[function].body.as_deref().unwrap_or_default();
    if body[range].iter().any(|instr| stops(program, effects, &instr.kind)) {
        return true;
    }
    let reached: BTreeSet<FuncId> = callees.iter().flat_map(|&f| effects.reachable_from(f)).collect();
    reached.iter().any(|&f| program.functions[f].body.iter().flatten().any(|instr| stops(program, effects, &instr.kind)))
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
