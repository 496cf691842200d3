//! Non-recursive traversal of expression trees (they can be thousands of
//! nodes deep, so every walker uses an explicit stack).

use crate::expr::{Expr, ExprKind};
use crate::program::SymbolId;

/// The direct operands of `kind` (a reference to an [`ExprKind`], shared
/// or mutable), left to right; `iter` is how its item lists are walked.
macro_rules! children_of {
    ($kind:expr, $iter:ident) => {
        match $kind {
            ExprKind::Sym(_)
            | ExprKind::IntConst(_)
            | ExprKind::FloatConst(_)
            | ExprKind::Null
            | ExprKind::Zero
            | ExprKind::Nondet => vec![],
            ExprKind::Unary(_, e)
            | ExprKind::Cast(e)
            | ExprKind::AddrOf(e)
            | ExprKind::Deref(e)
            | ExprKind::Member(e, _)
            | ExprKind::UnionLit(_, e)
            | ExprKind::PointerObject(e)
            | ExprKind::PointerOffset(e)
            | ExprKind::ObjectSize(e)
            | ExprKind::IsDynamic(e)
            | ExprKind::IsInvalid(e) => vec![e],
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => vec![a, b],
            ExprKind::ByteExtract { value, offset } => vec![value, offset],
            ExprKind::Ite(a, b, c) | ExprKind::ByteUpdate { value: a, offset: b, update: c } => vec![a, b, c],
            ExprKind::StructLit(items) | ExprKind::ArrayLit(items) => items.$iter().collect(),
        }
    };
}

impl Expr {
    /// The direct operands of this node, left to right.
    pub fn children(&self) -> Vec<&Expr> {
        children_of!(&self.kind, iter)
    }

    /// The direct operands of this node, left to right, for rewriting.
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        children_of!(&mut self.kind, iter_mut)
    }

    /// Every node of the tree, parents before children.
    pub fn walk(&self) -> ExprWalk<'_> {
        ExprWalk { stack: vec![self] }
    }

    /// Replaces every reference to symbol `from` by the expression `by`.
    pub fn substitute_symbol(&mut self, from: SymbolId, by: &Expr) {
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            if node.kind == ExprKind::Sym(from) {
                *node = by.clone();
                continue;
            }
            stack.extend(node.children_mut());
        }
    }

    /// Makes every reference to symbol `from` one to `to`.
    pub fn replace_symbol(&mut self, from: SymbolId, to: SymbolId) {
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            if node.kind == ExprKind::Sym(from) {
                node.kind = ExprKind::Sym(to);
            }
            stack.extend(node.children_mut());
        }
    }
}

/// Pre-order iterator over an expression tree; see [`Expr::walk`].
pub struct ExprWalk<'a> {
    stack: Vec<&'a Expr>,
}

impl<'a> Iterator for ExprWalk<'a> {
    type Item = &'a Expr;
    fn next(&mut self) -> Option<&'a Expr> {
        let node = self.stack.pop()?;
        self.stack.extend(node.children().into_iter().rev());
        Some(node)
    }
}

#[cfg(test)]
mod tests {
    use crate::expr::{BinOp, Expr};
    use crate::types::TypeId;

    #[test]
    fn walk_visits_parents_before_children_left_to_right() {
        let ty = TypeId(0);
        let e = Expr::binary(
            BinOp::Add,
            Expr::int(1, ty),
            Expr::binary(BinOp::Mul, Expr::int(2, ty), Expr::int(3, ty), ty),
            ty,
        );
        let consts: Vec<String> = e.walk().map(|n| format!("{:?}", n.kind).chars().take(12).collect()).collect();
        assert_eq!(consts.len(), 5);
        assert!(consts[0].starts_with("Binary(Add"));
        assert!(consts[1].starts_with("IntConst(1)"));
        assert!(consts[2].starts_with("Binary(Mul"));
        assert!(consts[4].starts_with("IntConst(3)"));
    }
}
