//! Small function bodies for the tests of the graph analyses: each
//! instruction given by its shape (its jumps), with placeholder operands.

use ir::{Expr, ExprKind, Instr, InstrIdx, InstrKind, Loc, SymbolId, TypeId};

/// The control-flow shape of one instruction.
#[derive(Copy, Clone, Debug)]
pub enum Shape {
    /// Falls through.
    Plain,
    /// `if (c) goto t`, with a condition that is no constant.
    Branch(u32),
    /// `goto t`.
    Jump(u32),
    /// `if (0) goto t`.
    Never(u32),
    Return,
}

/// A body with one instruction per shape, each at line index + 1.
pub fn body(shapes: &[Shape]) -> Vec<Instr> {
    let ty = TypeId(0);
    let goto = |cond: ExprKind, target: u32| InstrKind::Goto { cond: Expr::new(cond, ty), target: InstrIdx(target) };
    shapes
        .iter()
        .enumerate()
        .map(|(i, shape)| {
            let kind = match *shape {
                Shape::Plain => InstrKind::Skip,
                Shape::Branch(t) => goto(ExprKind::Sym(SymbolId(0)), t),
                Shape::Jump(t) => goto(ExprKind::IntConst(1), t),
                Shape::Never(t) => goto(ExprKind::IntConst(0), t),
                Shape::Return => InstrKind::Return(None),
            };
            Instr::new(kind, Loc { line: i as u32 + 1, ..Loc::NONE })
        })
        .collect()
}
