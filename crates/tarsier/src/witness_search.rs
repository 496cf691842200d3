//! Validation of a violation witness by search. A witness states only
//! some of the run's values: a nondeterministic call's result or an
//! uninitialised scalar's initial value, but not an uninitialised array's
//! contents, heap memory or a NaN, and SV-COMP's validators look for what
//! it leaves free. When the replay (zero for every free value) ends
//! without the violation, the program is constrained to the witness and
//! verified: each value the witness states is assumed at its line, in the
//! witness's order per line, and an assertion fails only once every
//! waypoint has been passed. A counterexample of the constrained program
//! is replayed as every FALSE is, so it is a run that follows the witness.

use ir::{BinOp, Expr, ExprKind, FuncId, Instr, InstrIdx, InstrKind, Program, SymbolId, Type, TypeId};
use report::witness::{self, lines::InputLines, Waypoint};
use std::collections::BTreeMap;

/// Where the witness states values: a line, and for an assumption the
/// variable it is about.
type Site = (u32, Option<String>);

/// One site's values, in the witness's order, and the counter of how many
/// the run has passed.
struct Stated {
    values: Vec<String>,
    counter: Option<SymbolId>,
}

/// Constrains `program` to the waypoints `path` (the witness without its
/// target); an error for a waypoint whose place the program lacks.
pub fn constrain(program: &mut Program, lines: &InputLines, path: &[Waypoint]) -> Result<(), String> {
    let mut sites: BTreeMap<Site, Stated> = BTreeMap::new();
    for waypoint in path {
        let (site, value) = match waypoint {
            Waypoint::Return { location, value, .. } => ((location.line, None), value),
            Waypoint::Assumption { location, variable, value } => ((location.line, Some(variable.clone())), value),
            // The search finds its own schedule.
            Waypoint::Target { .. } | Waypoint::Step { .. } => continue,
        };
        sites.entry(site).or_insert(Stated { values: Vec::new(), counter: None }).values.push(value.clone());
    }
    let counter_ty = program.types.int(32, false);
    let funcs: Vec<FuncId> = program.functions.keys().collect();
    for func in funcs {
        let Some(body) = program.functions[func].body.take() else { continue };
        let mut out = Vec::with_capacity(body.len());
        let mut new_index = Vec::with_capacity(body.len() + 1);
        for instr in body {
            new_index.push(InstrIdx(out.len() as u32));
            let site = stated_site(program, lines, &instr);
            out.push(instr);
            let Some((site, place)) = site else { continue };
            let Some(stated) = sites.get_mut(&site) else { continue };
            let loc = out[out.len() - 1].loc;
            let counter = *stated.counter.get_or_insert_with(|| program.add_global(&format!("$witness_site_{}", site.0), counter_ty, loc));
            let counted = Expr::sym(counter, counter_ty);
            for (k, text) in stated.values.iter().enumerate() {
                let value = constant(program, place.ty, text).ok_or_else(|| format!("the value `{text}` at line {} is not a constant of its type", site.0))?;
                let other_time = Expr::binary(BinOp::Ne, counted.clone(), Expr::int(k as u128, counter_ty), program.types.bool());
                let holds = Expr::binary(BinOp::Eq, place.clone(), value, program.types.bool());
                let constraint = Expr::binary(BinOp::Or, other_time, holds, program.types.bool());
                out.push(Instr::new(InstrKind::Assume(constraint), loc));
            }
            let next = Expr::binary(BinOp::Add, counted.clone(), Expr::int(1, counter_ty), counter_ty);
            out.push(Instr::new(InstrKind::Assign(counted, next), loc));
        }
        new_index.push(InstrIdx(out.len() as u32));
        ir::instr::retarget(&mut out, &new_index);
        program.functions[func].body = Some(out);
        program.move_instructions(func, &new_index);
    }
    if let Some(((line, _), _)) = sites.iter().find(|(_, stated)| stated.counter.is_none()) {
        return Err(format!("the program has no nondeterministic value at the waypoint's line {line}"));
    }
    let counters: Vec<(SymbolId, usize)> = sites.values().filter_map(|s| Some((s.counter?, s.values.len()))).collect();
    start_counters(program, &counters, counter_ty);
    gate_assertions(program, &counters, counter_ty);
    Ok(())
}

/// The site an instruction gives a value at, with the place that holds
/// it: a nondeterministic value assigned, or a declared local.
fn stated_site(program: &Program, lines: &InputLines, instr: &Instr) -> Option<(Site, Expr)> {
    let line = |loc: ir::Loc| lines.locate(program.files.name(loc.file), loc.line).1;
    match &instr.kind {
        InstrKind::Assign(lhs, rhs) if rhs.kind == ExprKind::Nondet => Some(((line(instr.loc), None), lhs.clone())),
        InstrKind::Decl(symbol) => {
            let symbol_data = &program.symbols[*symbol];
            Some(((line(instr.loc), Some(symbol_data.display_name.clone())), Expr::sym(*symbol, symbol_data.ty)))
        }
        _ => None,
    }
}

/// The witness's value `text` as a constant of type `ty`.
fn constant(program: &Program, ty: TypeId, text: &str) -> Option<Expr> {
    let size = program.types.size_of(ty, program.data_model)? as usize;
    let float = matches!(program.types.get(ty), Type::Float(_));
    if !float && !matches!(program.types.get(ty), Type::Int { .. } | Type::Bool) {
        return None;
    }
    let bytes = witness::constant_bytes(text, size, float)?;
    let bits = bytes.iter().rev().fold(0u128, |acc, &b| acc << 8 | u128::from(b));
    Some(Expr::new(if float { ExprKind::FloatConst(bits) } else { ExprKind::IntConst(bits) }, ty))
}

/// Sets every counter to 0 before the program's own initialisation.
fn start_counters(program: &mut Program, counters: &[(SymbolId, usize)], counter_ty: TypeId) {
    let Some(func) = program.init.or(program.entry) else { return };
    let Some(body) = program.functions[func].body.take() else { return };
    let loc = ir::Loc::NONE;
    let mut out: Vec<Instr> = counters.iter().map(|&(c, _)| Instr::new(InstrKind::Assign(Expr::sym(c, counter_ty), Expr::int(0, counter_ty)), loc)).collect();
    let shift = out.len() as u32;
    let new_index: Vec<InstrIdx> = (0..=body.len() as u32).map(|i| InstrIdx(i + shift)).collect();
    out.extend(body);
    ir::instr::retarget(&mut out, &new_index);
    program.functions[func].body = Some(out);
    program.move_instructions(func, &new_index);
}

/// Makes every assertion fail only once each site has given all its values.
fn gate_assertions(program: &mut Program, counters: &[(SymbolId, usize)], counter_ty: TypeId) {
    let bool_ty = program.types.bool();
    let passed = counters.iter().fold(Expr::int(1, bool_ty), |all, &(c, n)| {
        let done = Expr::binary(BinOp::Ge, Expr::sym(c, counter_ty), Expr::int(n as u128, counter_ty), bool_ty);
        Expr::binary(BinOp::And, all, done, bool_ty)
    });
    let not_passed = Expr::unary(ir::UnOp::Not, passed, bool_ty);
    for (_, function) in program.functions.iter_mut() {
        for instr in function.body.iter_mut().flatten() {
            if let InstrKind::Assert(condition, _) = &mut instr.kind {
                let held = std::mem::replace(condition, Expr::int(1, bool_ty));
                *condition = Expr::binary(BinOp::Or, held, not_passed.clone(), bool_ty);
            }
        }
    }
}
