//! The program's loops by the names people give them on the command line:
//! `--show-loops` lists them, `--unwindset LOOP:N` bounds one of them.
//! A loop is `FUNCTION.I` (CBMC's id: the I-th loop of the function, in
//! instruction order, from 0) or its number in the listing (ESBMC numbers
//! its loops from 1 across the program). The library models' loops are
//! left out: they are tarsier's, not the program's.

use analysis::ProgramLoops;
use ir::{FuncId, InstrIdx, Loc, Program};

/// One loop of the program as `--show-loops` lists it.
pub struct NamedLoop {
    /// CBMC's id, `main.0`.
    pub id: String,
    /// Its number in the listing, from 1.
    pub number: usize,
    pub function: FuncId,
    pub head: InstrIdx,
    pub loc: Loc,
}

/// The program's loops, in the order of their functions and heads.
pub fn named_loops(program: &Program) -> Vec<NamedLoop> {
    let loops = ProgramLoops::of_program(program);
    let mut named = Vec::new();
    for (function, f) in program.functions.iter() {
        let Some(of_function) = loops.function(function) else { continue };
        let mut heads: Vec<(usize, Loc)> = of_function.loops().iter().map(|l| (l.head, l.loc)).collect();
        heads.sort_by_key(|&(head, _)| head);
        for (index, (head, loc)) in heads.into_iter().enumerate() {
            if program.files.is_library_model(loc) {
                continue;
            }
            let id = format!("{}.{index}", f.name);
            named.push(NamedLoop { id, number: named.len() + 1, function, head: InstrIdx(head as u32), loc });
        }
    }
    named
}

/// The `--show-loops` listing: one line per loop, id, number and place.
pub fn listing(program: &Program) -> String {
    let mut out = String::new();
    for l in named_loops(program) {
        out += &format!("Loop {} (number {}): {}:{}\n", l.id, l.number, program.files.name(l.loc.file), l.loc.line);
    }
    out
}

/// Gives the loops `--unwindset` names their bounds; an unknown name is an
/// error that says where the names come from.
pub fn apply_unwindset(program: &mut Program, unwindset: &[(String, u64)]) -> Result<(), String> {
    let loops = named_loops(program);
    for (name, bound) in unwindset {
        let found = loops.iter().find(|l| l.id == *name || name.parse() == Ok(l.number));
        let Some(l) = found else {
            return Err(format!("--unwindset names no loop '{name}' (run with --show-loops for the loop ids)"));
        };
        program.loop_unwinds.retain(|u| u.function != l.function || u.head != l.head);
        program.loop_unwinds.push(ir::LoopUnwind { function: l.function, head: l.head, bound: Some(*bound) });
    }
    Ok(())
}
