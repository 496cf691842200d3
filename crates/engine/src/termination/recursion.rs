//! Lassos through recursion: a call of a recursive function that enters it
//! with a state an enclosing, still active call of it entered with.
//!
//! Each recursive function `f` whose entry state can be compared gets, at
//! its entry, a count of its active frames (`depth`, one more), a check
//! that fails when a saved state exists and the current one equals it,
//! and a nondeterministic choice to save the state, remembering the depth
//! of the frame that saved it; before each of `f`'s returns the frame
//! that saved clears the flag, and the count goes down. A violation is a
//! call F1 entered with state s and a call F2 nested in it (F1 has not
//! returned) entered with s again: everything from F1's entry to F2's
//! depends only on s and the nondeterministic choices, so F2 makes a call
//! F3 entered with s, and so on: the recursion never ends. The
//! counterexample is replayed by the interpreter like any other.
//!
//! "The state" is what the code from `f`'s entry can read that outlives a
//! frame: `f`'s parameters and the globals the recursion assigns (callees
//! included; the others never change). So the functions `f` can reach
//! must not read or write memory through pointers nor take addresses (a
//! frame's objects are other objects in the next frame), allocate or
//! free, or call a function without a body that does not end the run or
//! a library model that reads the environment (see `lasso`); every
//! compared variable is an integer or `_Bool` (not floating point, where
//! `-0.0 == 0.0`). Locals are fresh in every frame: a read before a write
//! is a nondeterministic value, which the repeated run chooses again.

use super::lasso::calls_environment;
use analysis::modified::ProgramEffects;
use ir::{BinOp, Expr, ExprKind, FuncId, Instr, InstrIdx, InstrKind, Program, Property, PropertyClass, SymbolId, Type, UnOp};

/// The end of every recursion check's message.
const CALLS_ITSELF: &str = "calls itself again with the state an active call of it started with";

/// `program` with its recursion checks skipped (the rest of their code
/// kept), or `None` when it has none.
pub(super) fn without_checks(program: &Program) -> Option<Program> {
    let is_check = |i: &Instr| matches!(&i.kind, InstrKind::Assert(_, p) if p.class == PropertyClass::NonTermination && p.message.ends_with(CALLS_ITSELF));
    if !program.functions.iter().any(|(_, f)| f.body.iter().flatten().any(is_check)) {
        return None;
    }
    let mut plain = program.clone();
    for (_, function) in plain.functions.iter_mut() {
        for instr in function.body.iter_mut().flatten().filter(|i| is_check(i)) {
            instr.kind = InstrKind::Skip;
        }
    }
    Some(plain)
}

/// Instruments every recursive function whose entry state can be compared
/// (see the module comment); returns how many were instrumented.
pub fn instrument(program: &mut Program) -> usize {
    let effects = ProgramEffects::of_program(program);
    let recursive: Vec<FuncId> = effects.recursive.iter().copied().collect();
    let mut count = 0;
    for func in recursive {
        let Some(state) = entry_state(program, &effects, func) else { continue };
        let code = Code::new(program, func, &state);
        insert(program, func, code);
        count += 1;
    }
    count
}

/// The variables to compare at `func`'s entry, or `None` when its entry
/// state cannot be compared.
fn entry_state(program: &Program, effects: &ProgramEffects, func: FuncId) -> Option<Vec<SymbolId>> {
    let summary = effects.of_function(func)?;
    if summary.through_pointers || summary.frees || summary.allocates {
        return None;
    }
    let reached = effects.reachable_from(func);
    let bodies = || reached.iter().filter_map(|&f| program.functions[f].body.as_deref());
    if calls_environment(program, bodies().flatten()) || bodies().flatten().any(|i| uses_memory(program, &i.kind)) {
        return None;
    }
    let params = &program.functions[func].params;
    let globals = summary.variables.iter().copied().filter(|v| !params.contains(v));
    let state: Vec<SymbolId> = params.iter().copied().chain(globals).collect();
    let comparable = |v: &SymbolId| {
        let symbol = &program.symbols[*v];
        !symbol.thread_local && matches!(program.types.get(symbol.ty), Type::Bool | Type::Int { .. })
    };
    state.iter().all(comparable).then_some(state)
}

/// Whether an instruction reads or writes through a pointer, takes an
/// address (of an object: a function's is a constant), or calls through a
/// pointer.
fn uses_memory(program: &Program, kind: &InstrKind) -> bool {
    let exprs: Vec<&Expr> = match kind {
        InstrKind::Assign(l, r) => vec![l, r],
        InstrKind::Assume(c) | InstrKind::Assert(c, _) | InstrKind::Goto { cond: c, .. } => vec![c],
        InstrKind::Call { lhs, callee, args } => lhs.iter().chain(std::iter::once(callee)).chain(args).collect(),
        InstrKind::Return(value) => value.iter().collect(),
        InstrKind::QuantifierBegin { .. } | InstrKind::QuantifierEnd { .. } | InstrKind::Asm(_) => return true,
        _ => Vec::new(),
    };
    let is_function = |e: &Expr| matches!(e.kind, ExprKind::Sym(s) if matches!(program.symbols[s].kind, ir::SymbolKind::Function(_)));
    exprs.into_iter().flat_map(Expr::walk).any(|node| match &node.kind {
        ExprKind::Deref(_) => true,
        ExprKind::AddrOf(place) => !is_function(place),
        _ => false,
    }) || matches!(kind, InstrKind::Call { callee, .. } if !is_function(callee))
}

/// The code inserted into one function.
struct Code {
    /// At the entry: count the frame, check, maybe save.
    entry: Vec<Instr>,
    /// Before each return: the saving frame clears the flag; uncount.
    exit: Vec<Instr>,
}

impl Code {
    fn new(program: &mut Program, func: FuncId, state: &[SymbolId]) -> Code {
        let loc = program.functions[func].body.as_ref().and_then(|b| b.first()).map_or(program.functions[func].loc, |i| i.loc);
        let bool_ty = program.types.bool();
        let count_ty = program.types.int(64, false);
        let name = program.functions[func].name.clone();
        let tag = format!("__tarsier_recursion_{name}");
        let global = |program: &mut Program, what: &str, ty| Expr::sym(program.add_global(&format!("{tag}_{what}"), ty, loc), ty);
        let saved = global(program, "saved", bool_ty);
        let choose = global(program, "choose", bool_ty);
        let depth = global(program, "depth", count_ty);
        let saved_depth = global(program, "saved_depth", count_ty);
        let one = Expr::int(1, count_ty);
        let assign = |l: &Expr, r: Expr| Instr::new(InstrKind::Assign(l.clone(), r), loc);
        let and = |a: Expr, b: Expr| Expr::binary(BinOp::And, a, b, bool_ty);
        let mut repeats = saved.clone();
        let mut saves = Vec::new();
        for &v in state {
            let ty = program.symbols[v].ty;
            let shown = program.symbols[v].display_name.clone();
            let copy = global(program, &format!("{shown}_{}", v.0), ty);
            repeats = and(repeats, Expr::binary(BinOp::Eq, Expr::sym(v, ty), copy.clone(), bool_ty));
            saves.push(assign(&copy, Expr::sym(v, ty)));
        }
        let message = format!("non-termination: {name} {CALLS_ITSELF}");
        let property = Property { class: PropertyClass::NonTermination, message };
        let keep_going = Expr::binary(BinOp::Or, saved.clone(), Expr::unary(UnOp::Not, choose.clone(), bool_ty), bool_ty);
        let mut entry = vec![
            assign(&depth, Expr::binary(BinOp::Add, depth.clone(), one.clone(), count_ty)),
            Instr::new(InstrKind::Assert(Expr::unary(UnOp::Not, repeats, bool_ty), property), loc),
            assign(&choose, Expr::new(ExprKind::Nondet, bool_ty)),
            // Past the save (set below).
            Instr::new(InstrKind::Goto { cond: keep_going, target: InstrIdx(0) }, loc),
            assign(&saved, Expr::int(1, bool_ty)),
            assign(&saved_depth, depth.clone()),
        ];
        entry.extend(saves);
        let past = entry.len() as u32;
        if let InstrKind::Goto { target, .. } = &mut entry[3].kind {
            *target = InstrIdx(past);
        }
        let other_frame = Expr::binary(BinOp::Ne, saved_depth, depth.clone(), bool_ty);
        let exit = vec![
            assign(&saved, and(saved.clone(), other_frame)),
            assign(&depth, Expr::binary(BinOp::Sub, depth.clone(), one, count_ty)),
        ];
        Code { entry, exit }
    }
}

/// Puts `code` into `func`'s body: the entry block first, the exit block
/// before every return (jumps to a return run it too) and at the end when
/// the body can run off it. Jumps keep their targets: one to the first
/// instruction does not rerun the entry block.
fn insert(program: &mut Program, func: FuncId, code: Code) {
    let Some(old) = program.functions[func].body.take() else { return };
    let runs_off = old.last().is_none_or(|i| super::heads::falls_through(&i.kind));
    let exit_at = |out: &mut Vec<Instr>, loc| {
        out.extend(code.exit.iter().cloned().map(|mut i: Instr| {
            i.loc = loc;
            i
        }))
    };
    let end_loc = old.last().map_or(program.functions[func].loc, |i| i.loc);
    let mut out: Vec<Instr> = code.entry.clone();
    let mut new_index: Vec<InstrIdx> = Vec::with_capacity(old.len() + 1);
    for instr in old {
        new_index.push(InstrIdx(out.len() as u32));
        if matches!(instr.kind, InstrKind::Return(_)) {
            exit_at(&mut out, instr.loc);
        }
        out.push(instr);
    }
    new_index.push(InstrIdx(out.len() as u32));
    if runs_off {
        exit_at(&mut out, end_loc);
    }
    let entry_len = new_index[0].0 as usize;
    for instr in &mut out[entry_len..] {
        if let InstrKind::Goto { target, .. } | InstrKind::StartThread(target) = &mut instr.kind {
            *target = new_index[target.0 as usize];
        }
    }
    program.move_instructions(func, &new_index);
    program.functions[func].body = Some(out);
}
