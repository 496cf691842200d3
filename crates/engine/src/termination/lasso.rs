//! Lassos: the instrumentation that turns "a loop maps a reachable state
//! at its head back to itself" into an assertion BMC can violate.
//!
//! At the head of a loop the program gets, in this order: a check that
//! fails when a saved state exists and the current state equals it, then a
//! nondeterministic choice to save the current state (once per stay in the
//! loop). Every edge entering the loop from outside first clears the saved
//! flag, so the saved state and the compared one belong to the same stay,
//! with only iterations of this loop between them. A violation is a lasso:
//! the stem reaches the head with state s_j, the loop runs to s_k = s_j
//! (j < k). Repeating the same iterations with the same nondeterministic
//! choices then runs forever, so the program has a run that never ends.
//! The counterexample is replayed by the interpreter like any other, which
//! runs the stem and the loop's turns and sees the state repeat.
//!
//! "The state" must be everything the loop can change: the variables
//! `analysis::modified` says it assigns (callees included). A loop is only
//! instrumented when that is all of it: no write through a pointer, no
//! `free`, no allocation, every such variable a scalar (integer, `_Bool`
//! or pointer; not floating point, where `-0.0 == 0.0` compares equal
//! states that differ), its function not recursive (a deeper frame's
//! variables are other objects), the loop reducible (only through its
//! head can a path come back into it), and no call in it or its callees
//! of a function without a body other than those that end the run, nor
//! of a library model that reads the environment (a nondeterministic
//! value): the environment may keep state of its own that the models
//! leave out (`while (clock() < t)` ends).
//! Variables declared inside the loop body are dead at the head and left
//! out. Everything else is unchanged by the loop, so equal variables mean
//! equal states.

use super::heads::{self, HeadCode};
use analysis::loops::{FunctionLoops, Loop};
use analysis::modified::ProgramEffects;
use ir::{BinOp, Expr, ExprKind, FuncId, Instr, InstrIdx, InstrKind, Program, Property, PropertyClass, SymbolId, SymbolKind, Type, UnOp};
use std::collections::{BTreeSet, HashMap};

/// The message of a lasso check: the loop whose state repeats.
fn message(program: &Program, l: &Loop) -> String {
    format!("non-termination: the loop at {}:{} returns to a state it had before", program.files.name(l.loc.file), l.loc.line)
}

/// Instruments every loop of `program` whose state can be compared (see
/// the module comment); returns how many loops were instrumented.
pub fn instrument(program: &mut Program) -> usize {
    let effects = ProgramEffects::of_program(program);
    let funcs: Vec<FuncId> = program.functions.keys().collect();
    let mut count = 0;
    for func in funcs {
        if effects.recursive.contains(&func) {
            continue;
        }
        let Some(body) = program.functions[func].body.as_ref() else { continue };
        let loops = FunctionLoops::of_body(body);
        let mut code: HashMap<usize, HeadCode> = HashMap::new();
        for (id, l) in loops.iter() {
            let Some(state) = compared_state(program, &effects, func, &loops, id) else { continue };
            let head = head_code(program, func, l, &state);
            code.insert(l.head, head);
        }
        count += code.len();
        if !code.is_empty() {
            heads::rebuild(program, func, code);
        }
    }
    count
}

/// The variables to compare at the head of loop `id`, or `None` when the
/// loop's state cannot be compared.
fn compared_state(program: &Program, effects: &ProgramEffects, func: FuncId, loops: &FunctionLoops, id: analysis::loops::LoopId) -> Option<Vec<SymbolId>> {
    let l = loops.get(id);
    if !l.is_reducible() {
        return None;
    }
    let body = program.functions[func].body.as_deref().unwrap_or_default();
    if calls_environment(program, l.body.iter().filter_map(|&i| body.get(i))) {
        return None;
    }
    let modified = effects.of_loop(program, func, loops, id);
    if modified.through_pointers || modified.frees || modified.allocates {
        return None;
    }
    let declared_inside = heads::declared_inside(program, func, l);
    let mut state = Vec::new();
    for &v in &modified.variables {
        let symbol = &program.symbols[v];
        let own = match symbol.kind {
            SymbolKind::Global => true,
            SymbolKind::Local(f) => f == func,
            _ => false,
        };
        if !own || symbol.thread_local {
            return None;
        }
        if declared_inside.contains(&v) {
            continue;
        }
        if !matches!(program.types.get(symbol.ty), Type::Bool | Type::Int { .. } | Type::Pointer(_)) {
            return None;
        }
        state.push(v);
    }
    Some(state)
}

/// Body-less functions whose call ends the run: a lasso never passes them.
const ENDS_THE_RUN: [&str; 6] = ["abort", "exit", "_Exit", "_exit", "__assert_fail", "pthread_exit"];

/// Whether `instrs` or the functions they call (transitively) call a
/// function without a body that does not end the run, or call through a
/// pointer.
pub(super) fn calls_environment<'a>(program: &Program, instrs: impl Iterator<Item = &'a Instr>) -> bool {
    let mut work: Vec<&Instr> = instrs.collect();
    let mut seen: BTreeSet<FuncId> = BTreeSet::new();
    while let Some(instr) = work.pop() {
        let InstrKind::Call { callee, .. } = &instr.kind else { continue };
        let ExprKind::Sym(s) = callee.kind else { return true };
        let SymbolKind::Function(f) = program.symbols[s].kind else { return true };
        let function = &program.functions[f];
        match &function.body {
            Some(body) if reads_environment(program, body) => return true,
            Some(body) if seen.insert(f) => work.extend(body.iter()),
            Some(_) => {}
            None if ENDS_THE_RUN.contains(&function.name.as_str()) => {}
            None => return true,
        }
    }
    false
}

/// Whether a library model's body takes a nondeterministic value.
fn reads_environment(program: &Program, body: &[Instr]) -> bool {
    body.iter().any(|i| match &i.kind {
        InstrKind::Assign(_, rhs) => program.files.is_library_model(i.loc) && rhs.walk().any(|e| matches!(e.kind, ExprKind::Nondet)),
        _ => false,
    })
}

/// The flag, the saved copies and the check for loop `l` comparing `state`.
fn head_code(program: &mut Program, func: FuncId, l: &Loop, state: &[SymbolId]) -> HeadCode {
    let loc = heads::head_loc(program, func, l);
    let bool_ty = program.types.bool();
    let tag = format!("__tarsier_lasso_{}_{}", program.functions[func].name, l.head);
    let saved = program.add_global(&format!("{tag}_saved"), bool_ty, loc);
    let choose = program.add_global(&format!("{tag}_choose"), bool_ty, loc);
    let flag = Expr::sym(saved, bool_ty);
    let mut repeats = flag.clone();
    let mut saves = Vec::new();
    for &v in state {
        let ty = program.symbols[v].ty;
        let name = program.symbols[v].display_name.clone();
        let copy = program.add_global(&format!("{tag}_{name}_{}", v.0), ty, loc);
        let equal = Expr::binary(BinOp::Eq, Expr::sym(v, ty), Expr::sym(copy, ty), bool_ty);
        repeats = Expr::binary(BinOp::And, repeats, equal, bool_ty);
        saves.push(Instr::new(InstrKind::Assign(Expr::sym(copy, ty), Expr::sym(v, ty)), loc));
    }
    let property = Property { class: PropertyClass::NonTermination, message: message(program, l) };
    let yes = Expr::int(1, bool_ty);
    let keep_going = Expr::binary(BinOp::Or, flag.clone(), Expr::unary(UnOp::Not, Expr::sym(choose, bool_ty), bool_ty), bool_ty);
    let mut head = vec![
        Instr::new(InstrKind::Assert(Expr::unary(UnOp::Not, repeats, bool_ty), property), loc),
        Instr::new(InstrKind::Assign(Expr::sym(choose, bool_ty), Expr::new(ExprKind::Nondet, bool_ty)), loc),
        // Past the save (set below).
        Instr::new(InstrKind::Goto { cond: keep_going, target: InstrIdx(0) }, loc),
        Instr::new(InstrKind::Assign(flag.clone(), yes), loc),
    ];
    head.extend(saves);
    let past = head.len() as u32;
    if let InstrKind::Goto { target, .. } = &mut head[2].kind {
        *target = InstrIdx(past);
    }
    let entry = vec![Instr::new(InstrKind::Assign(flag, Expr::int(0, bool_ty)), loc)];
    HeadCode::new(program, func, l, entry, head)
}
