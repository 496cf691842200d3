//! Running the handlers registered with `atexit` where the program ends
//! normally (C11 7.22.4.3–4): at a call of `exit` and when the entry
//! function returns. The model (`stdlib.c`) keeps the handlers and defines
//! `__tarsier_exit`, which runs them, the latest first, and then exits;
//! this pass makes the program use it: every reference to `exit` becomes
//! one to `__tarsier_exit`, and every return of the entry function first
//! calls `__tarsier_run_atexit_handlers`. `_Exit` and `abort` run no
//! handlers. Symex and the interpreter then run the handlers as ordinary
//! calls, so a replay takes the same steps.

use ir::{Expr, FuncId, Instr, InstrIdx, InstrKind, Program};

/// The model that exits after running the handlers.
pub const EXIT_MODEL: &str = "__tarsier_exit";
/// The model that runs the handlers.
const RUN_HANDLERS: &str = "__tarsier_run_atexit_handlers";

/// Rewrites `program` so that its normal ends run the `atexit` handlers;
/// does nothing unless the models are linked.
pub fn run_handlers_at_exit(program: &mut Program) {
    let (Some(exit_model), Some(run_handlers), Some(entry)) = (
        defined(program, EXIT_MODEL),
        defined(program, RUN_HANDLERS),
        program.entry,
    ) else {
        return;
    };
    if let Some(exit) = program.function("exit") {
        let from = program.functions[exit].symbol;
        let to = program.functions[exit_model].symbol;
        let ids: Vec<FuncId> = program
            .functions
            .keys()
            .filter(|&f| f != exit_model)
            .collect();
        for id in ids {
            for instr in program.functions[id].body.iter_mut().flatten() {
                for expr in instr.kind.exprs_mut() {
                    expr.replace_symbol(from, to);
                }
            }
        }
    }
    call_before_returns(program, entry, run_handlers);
}

/// `name` if the program defines it.
fn defined(program: &Program, name: &str) -> Option<FuncId> {
    program
        .function(name)
        .filter(|&f| program.functions[f].body.is_some())
}

/// Makes every return of `func` call `callee` first. A returned value is
/// computed into a fresh local before the call, as the return would
/// compute it.
fn call_before_returns(program: &mut Program, func: FuncId, callee: FuncId) {
    let Some(body) = program.functions[func].body.take() else {
        return;
    };
    let callee_expr = Expr::sym(
        program.functions[callee].symbol,
        program.functions[callee].ty,
    );
    let call = |loc| {
        Instr::new(
            InstrKind::Call {
                lhs: None,
                callee: callee_expr.clone(),
                args: vec![],
            },
            loc,
        )
    };
    let mut result_local = None;
    let mut out = Vec::with_capacity(body.len() + 4);
    let mut new_index = Vec::with_capacity(body.len() + 1);
    for instr in body {
        new_index.push(InstrIdx(out.len() as u32));
        match instr.kind {
            InstrKind::Return(Some(value)) => {
                let local = *result_local.get_or_insert_with(|| {
                    program.add_local(func, "__tarsier_returned", value.ty, instr.loc)
                });
                let target = Expr::sym(local, value.ty);
                out.push(Instr::new(InstrKind::Decl(local), instr.loc));
                out.push(Instr::new(
                    InstrKind::Assign(target.clone(), value),
                    instr.loc,
                ));
                out.push(call(instr.loc));
                out.push(Instr::new(InstrKind::Return(Some(target)), instr.loc));
            }
            InstrKind::Return(None) => {
                out.push(call(instr.loc));
                out.push(instr);
            }
            _ => out.push(instr),
        }
    }
    // Valid IR never runs past its last instruction: every path ends at a
    // return (or jumps to the end, which stays the end).
    new_index.push(InstrIdx(out.len() as u32));
    ir::instr::retarget(&mut out, &new_index);
    program.move_instructions(func, &new_index);
    program.functions[func].body = Some(out);
}
