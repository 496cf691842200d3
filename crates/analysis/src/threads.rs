//! The instruction shape of a program that starts threads. A thread's step
//! is one instruction (see `symex::threads`), whose reads happen at one
//! time and whose writes at the same time. Another thread may run between
//! a C statement's read and its write (`x = x + 1` loses an update when
//! two threads run it), so every assignment that writes memory another
//! thread may see and also reads memory becomes two steps: the value into
//! a temporary, then the write. The written place's address is computed in
//! a step of its own too when it reads memory (`a[i] = v` with a shared
//! `i`), so the write itself reads nothing another thread can change.
//! Symex and the interpreter see the same instructions.

use ir::{Expr, ExprKind, FuncId, Instr, InstrIdx, InstrKind, Program, SymbolId, SymbolKind};
use std::collections::HashSet;

/// Splits the shared writes of every function of a program that starts
/// threads (other programs are left as they are).
pub fn separate_shared_writes(program: &mut Program) {
    if !program.creates_threads() {
        return;
    }
    let taken = program.address_taken_symbols();
    let funcs: Vec<FuncId> = program.functions.keys().collect();
    for func in funcs {
        let Some(body) = program.functions[func].body.take() else { continue };
        let mut out = Vec::with_capacity(body.len());
        let mut new_index = Vec::with_capacity(body.len() + 1);
        for instr in body {
            new_index.push(InstrIdx(out.len() as u32));
            split(program, func, &taken, instr, &mut out);
        }
        new_index.push(InstrIdx(out.len() as u32));
        ir::instr::retarget(&mut out, &new_index);
        program.functions[func].body = Some(out);
        program.move_instructions(func, &new_index);
    }
}

/// Appends `instr` to `out`, split when it writes shared memory.
fn split(program: &mut Program, func: FuncId, taken: &HashSet<SymbolId>, instr: Instr, out: &mut Vec<Instr>) {
    let loc = instr.loc;
    match instr.kind {
        InstrKind::Assign(lhs, rhs) if !is_private(program, taken, &lhs) => {
            let rhs = match reads_memory(program, &rhs) {
                true => into_temporary(program, func, rhs, out, loc),
                false => rhs,
            };
            let lhs = fixed_place(program, func, lhs, out, loc);
            out.push(Instr::new(InstrKind::Assign(lhs, rhs), loc));
        }
        InstrKind::Call { lhs: Some(lhs), callee, args } if !is_private(program, taken, &lhs) => {
            let temporary = fresh(program, func, lhs.ty, out, loc);
            out.push(Instr::new(InstrKind::Call { lhs: Some(temporary.clone()), callee, args }, loc));
            let lhs = fixed_place(program, func, lhs, out, loc);
            out.push(Instr::new(InstrKind::Assign(lhs, temporary), loc));
        }
        kind => out.push(Instr { kind, ..instr }),
    }
}

/// A local, or a part of a thread-local global (each thread has its
/// own), whose address is never taken: no other thread can see it.
fn is_private(program: &Program, taken: &HashSet<SymbolId>, lhs: &Expr) -> bool {
    match lhs.kind {
        ExprKind::Sym(s) if matches!(program.symbols[s].kind, SymbolKind::Local(_)) => !taken.contains(&s),
        _ => lhs.lvalue_root().is_some_and(|s| program.symbols[s].thread_local && !taken.contains(&s)),
    }
}

/// Whether evaluating `e` may read a variable or memory.
fn reads_memory(program: &Program, e: &Expr) -> bool {
    e.walk().any(|node| match node.kind {
        ExprKind::Sym(s) => !matches!(program.symbols[s].kind, SymbolKind::Function(_)),
        ExprKind::Deref(_) => true,
        _ => false,
    })
}

/// A place whose address reads no memory: a variable, its members and its
/// elements at constant indexes.
fn is_fixed(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Sym(_) => true,
        ExprKind::Member(base, _) => is_fixed(base),
        ExprKind::Index(base, index) => is_fixed(base) && matches!(index.kind, ExprKind::IntConst(_)),
        _ => false,
    }
}

/// `lhs`, with the address of its part that reads memory computed first
/// into a temporary pointer (the member of a struct reached through it is
/// kept as a member, so bit-fields stay writable).
fn fixed_place(program: &mut Program, func: FuncId, lhs: Expr, out: &mut Vec<Instr>, loc: ir::Loc) -> Expr {
    if is_fixed(&lhs) {
        return lhs;
    }
    let ty = lhs.ty;
    match lhs.kind {
        ExprKind::Member(base, field) => {
            let base = fixed_place(program, func, *base, out, loc);
            Expr::new(ExprKind::Member(Box::new(base), field), ty)
        }
        kind => {
            let place = Expr::new(kind, ty);
            let pointer_ty = program.types.pointer_to(ty);
            let address = Expr::new(ExprKind::AddrOf(Box::new(place)), pointer_ty);
            let pointer = into_temporary(program, func, address, out, loc);
            Expr::new(ExprKind::Deref(Box::new(pointer)), ty)
        }
    }
}

/// A new temporary of `func` holding `value`, declared and assigned.
fn into_temporary(program: &mut Program, func: FuncId, value: Expr, out: &mut Vec<Instr>, loc: ir::Loc) -> Expr {
    let temporary = fresh(program, func, value.ty, out, loc);
    out.push(Instr::new(InstrKind::Assign(temporary.clone(), value), loc));
    temporary
}

/// A new declared temporary of `func` of type `ty`.
fn fresh(program: &mut Program, func: FuncId, ty: ir::TypeId, out: &mut Vec<Instr>, loc: ir::Loc) -> Expr {
    let count = program.symbols.len();
    let symbol = program.add_local(func, &format!("{count}::$tmp"), ty, loc);
    out.push(Instr::new(InstrKind::Decl(symbol), loc));
    Expr::new(ExprKind::Sym(symbol), ty)
}
