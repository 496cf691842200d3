//! Code inserted before loop heads, shared by the lasso checks and the
//! ranking functions' shadow state: each instrumented loop gets an entry
//! block, run on every entry from outside the loop (it clears what must
//! not outlive one stay in the loop), then a head block, which becomes the
//! loop's new head: every back edge jumps to it, so it runs at the start
//! of every iteration.

use analysis::loops::Loop;
use ir::{Expr, ExprKind, FuncId, Instr, InstrIdx, InstrKind, Loc, Program};
use std::collections::{BTreeSet, HashMap};

/// The variables declared in the body of loop `l` of `func`: dead at its
/// head, so neither a lasso nor a ranking function reads them there.
pub(super) fn declared_inside(program: &Program, func: FuncId, l: &Loop) -> BTreeSet<ir::SymbolId> {
    let body = program.functions[func].body.as_deref().unwrap_or_default();
    l.body
        .iter()
        .filter_map(|&i| match body.get(i).map(|instr| &instr.kind) {
            Some(InstrKind::Decl(s)) => Some(*s),
            _ => None,
        })
        .collect()
}

/// What is inserted before one loop head.
pub(super) struct HeadCode {
    /// Jump from the last instruction of the body, when it falls through
    /// into the head (a back edge), over the entry block.
    latch_falls_through: bool,
    /// Run on every entry from outside the loop.
    entry: Vec<Instr>,
    /// The loop's new head. A jump in it targets an offset within it (its
    /// length: just past it).
    head: Vec<Instr>,
    /// The loop's body (old indices), to tell back edges from entries.
    body: BTreeSet<usize>,
}

impl HeadCode {
    /// The code for loop `l` of `func` (not yet rebuilt).
    pub(super) fn new(program: &Program, func: FuncId, l: &Loop, entry: Vec<Instr>, head: Vec<Instr>) -> HeadCode {
        let body = program.functions[func].body.as_deref().unwrap_or_default();
        let before = l.head.checked_sub(1);
        let latch_falls_through = before.is_some_and(|b| l.body.contains(&b) && falls_through(&body[b].kind));
        HeadCode { latch_falls_through, entry, head, body: l.body.iter().copied().collect() }
    }
}

/// The location of loop `l`'s head instruction.
pub(super) fn head_loc(program: &Program, func: FuncId, l: &Loop) -> Loc {
    program.functions[func].body.as_ref().and_then(|b| b.get(l.head)).map_or(l.loc, |i| i.loc)
}

/// Whether control can pass from an instruction to the next one.
pub(super) fn falls_through(kind: &InstrKind) -> bool {
    match kind {
        InstrKind::Goto { cond, .. } => !matches!(cond.kind, ExprKind::IntConst(c) if c != 0),
        InstrKind::Return(_) | InstrKind::EndThread => false,
        _ => true,
    }
}

/// Where the pieces of one instrumented head landed in the new body.
struct Placed {
    entry: InstrIdx,
    head: InstrIdx,
    body: BTreeSet<usize>,
}

/// Inserts `code` (keyed by old head index) before its heads in `func`'s
/// body: jumps from a loop's body to its head go to the head block, other
/// jumps to the entry block. Returns each loop's new head.
pub(super) fn rebuild(program: &mut Program, func: FuncId, mut code: HashMap<usize, HeadCode>) -> HashMap<usize, InstrIdx> {
    let Some(old) = program.functions[func].body.take() else { return HashMap::new() };
    let bool_ty = program.types.bool();
    let mut out: Vec<Instr> = Vec::with_capacity(old.len());
    // The old index of each instruction of `out` copied from the old body.
    let mut origin: Vec<Option<usize>> = Vec::with_capacity(old.len());
    let mut new_index: Vec<InstrIdx> = Vec::with_capacity(old.len() + 1);
    let mut placed: HashMap<usize, Placed> = HashMap::new();
    for (i, instr) in old.into_iter().enumerate() {
        if let Some(c) = code.remove(&i) {
            let p = place(&mut out, &mut origin, c, bool_ty, instr.loc);
            new_index.push(p.head);
            placed.insert(i, p);
        } else {
            new_index.push(InstrIdx(out.len() as u32));
        }
        out.push(instr);
        origin.push(Some(i));
    }
    new_index.push(InstrIdx(out.len() as u32));
    for (instr, from) in out.iter_mut().zip(&origin) {
        let Some(from) = from else { continue };
        if let InstrKind::Goto { target, .. } | InstrKind::StartThread(target) = &mut instr.kind {
            let t = target.0 as usize;
            *target = match placed.get(&t) {
                Some(p) if p.body.contains(from) => p.head,
                Some(p) => p.entry,
                None => new_index[t],
            };
        }
    }
    program.move_instructions(func, &new_index);
    program.functions[func].body = Some(out);
    placed.into_iter().map(|(old, p)| (old, p.head)).collect()
}

/// Appends one head's code to `out` (its own jumps resolved).
fn place(out: &mut Vec<Instr>, origin: &mut Vec<Option<usize>>, mut c: HeadCode, bool_ty: ir::TypeId, loc: Loc) -> Placed {
    let at = |out: &Vec<Instr>| InstrIdx(out.len() as u32);
    let jump = c.latch_falls_through.then(|| {
        out.push(Instr::new(InstrKind::Goto { cond: Expr::int(1, bool_ty), target: InstrIdx(0) }, loc));
        out.len() - 1
    });
    let entry = at(out);
    out.append(&mut c.entry);
    let head = at(out);
    for instr in &mut c.head {
        if let InstrKind::Goto { target, .. } = &mut instr.kind {
            target.0 += head.0;
        }
    }
    out.append(&mut c.head);
    if let Some(j) = jump {
        if let InstrKind::Goto { target, .. } = &mut out[j].kind {
            *target = head;
        }
    }
    origin.resize(out.len(), None);
    Placed { entry, head, body: c.body }
}
