//! Operands whose order of evaluation C leaves open: the arguments of a
//! call and its callee (C11 6.5.2.2p10), the operands of a binary operator
//! other than `&&`, `||` and the comma (6.5p3), the two of a subscript,
//! the place and the value of an assignment (6.5.16p3), the initializers
//! of a braced list (6.7.9p23). gcc evaluates arguments
//! right to left, clang left to right, and either may interleave a call in
//! one operand with the reads of another; a verdict must hold for every
//! order. When some operand has side effects (a call, an assignment,
//! `++`/`--`, `va_arg`) and another operand is more than a constant, each
//! order is lowered in turn and a chain of `Goto`s on `Nondet` picks one:
//! each operand's value goes to a temporary where its evaluation ends, so
//! reads of one operand see exactly the effects of the operands before it.
//! Up to three such operands get every order; more get the two compilers'
//! orders, and beyond [`MAX_LOWERED_ORDERS`] lowered copies one order:
//! those paths are then an approximation for TRUE
//! ([`ir::EvaluationOrder::complete`]). A later pass
//! (`analysis::evaluation_order`) keeps only the first order where the
//! operands cannot observe each other's effects, so pure calls cost nothing.

use super::ctype::CType;
use super::expr::{addr_of, deref, Val};
use super::scope::Ordinary;
use super::{Label, Sema, R};
use crate::ast::{self, ExprKind as A, UnaryOp};
use ir::{Expr, ExprKind, InstrIdx, InstrKind, Loc};

/// The most copies of one operand that nested choices may lower (the
/// product of their numbers of orders).
const MAX_LOWERED_ORDERS: usize = 36;

/// Operands up to this many get every order.
const MAX_PERMUTED: usize = 3;

/// The temporaries, one per slot, in which the blocks of a choice leave
/// values for the code after it.
pub(super) struct Held(Vec<Option<(ir::SymbolId, ir::TypeId)>>);

impl Held {
    pub(super) fn new(slots: usize) -> Held {
        Held(vec![None; slots])
    }
}

/// A choice being lowered, in labels (positions move until the function
/// is finished).
pub(super) struct PendingOrder {
    pub at: Label,
    pub operands: Vec<(Label, Label)>,
    pub alternatives: (Label, Label),
    /// The start of the last order, when there are several: every caller
    /// lowers the reverse of the first order's sequence last.
    pub reversed: Option<Label>,
    pub complete: bool,
}

impl<'a> Sema<'a> {
    /// Lowers `operands`, whose evaluations C leaves unordered, each by
    /// `lower` (its index to its final value), under every order when
    /// their side effects may make the order matter (see the module
    /// comment); the values are returned in the operands' order.
    pub(super) fn unordered(&mut self, operands: &[&ast::Expr], loc: Loc, lower: &mut dyn FnMut(&mut Self, usize) -> R<Val>) -> R<Vec<Val>> {
        let effects: Vec<bool> = operands.iter().map(|e| self.has_side_effects(e)).collect();
        let ordered: Vec<usize> = (0..operands.len()).filter(|&i| effects[i] || !self.is_constant_operand(operands[i])).collect();
        if !effects.contains(&true) || ordered.len() < 2 {
            return (0..operands.len()).map(|i| lower(self, i)).collect();
        }
        let mut values: Vec<Option<Val>> = vec![None; operands.len()];
        for i in (0..operands.len()).filter(|i| !ordered.contains(i)) {
            values[i] = Some(lower(self, i)?);
        }
        let relowerable = !operands.iter().any(|e| contains_statement(e));
        let (orders, complete) = self.orders_to_lower(&ordered, relowerable);
        self.fx.lowered_orders *= orders.len();
        let lowered = self.lower_orders(&orders, &ordered, loc, lower, &mut values);
        self.fx.lowered_orders /= orders.len();
        let pending = lowered?;
        self.fx.evaluation_orders.push(PendingOrder { complete, ..pending });
        Ok(values.into_iter().map(|v| v.expect("every operand lowered")).collect())
    }

    /// The orders of `ordered` to lower, and whether they are all of them.
    fn orders_to_lower(&self, ordered: &[usize], relowerable: bool) -> (Vec<Vec<usize>>, bool) {
        let left_to_right = ordered.to_vec();
        let right_to_left: Vec<usize> = ordered.iter().rev().copied().collect();
        let budget = MAX_LOWERED_ORDERS / self.fx.lowered_orders.max(1);
        let all = permutations(ordered);
        match () {
            _ if !relowerable => (vec![left_to_right], false),
            _ if ordered.len() <= MAX_PERMUTED && all.len() <= budget => (all, true),
            _ if budget >= 2 => (vec![left_to_right, right_to_left], false),
            _ => (vec![left_to_right], false),
        }
    }

    /// Emits each order of `orders` after a choice, each operand's value
    /// held where its evaluation ends, in a temporary every order shares.
    fn lower_orders(
        &mut self,
        orders: &[Vec<usize>],
        ordered: &[usize],
        loc: Loc,
        lower: &mut dyn FnMut(&mut Self, usize) -> R<Val>,
        values: &mut [Option<Val>],
    ) -> R<PendingOrder> {
        let mut held = Held::new(values.len());
        let mut ranges = vec![None; values.len()];
        let pending = self.choose(orders.len(), loc, &mut |s, k| {
            for &i in &orders[k] {
                let start = s.placed_label();
                let v = lower(s, i)?;
                values[i] = Some(s.hold(&mut held, i, v, loc)?);
                let stop = s.placed_label();
                ranges[i].get_or_insert((start, stop));
            }
            Ok(())
        })?;
        let operands = ordered.iter().filter_map(|&i| ranges[i]).collect();
        Ok(PendingOrder { operands, ..pending })
    }

    /// Emits `count` blocks, the `k`-th lowered by `block(k)`, behind a
    /// chain of `Goto`s on `Nondet` that runs exactly one (a `Skip` marks
    /// the place when there is one block).
    pub(super) fn choose(&mut self, count: usize, loc: Loc, block: &mut dyn FnMut(&mut Self, usize) -> R<()>) -> R<PendingOrder> {
        let at = self.placed_label();
        let end = self.new_label();
        let alternatives_start = self.new_label();
        if count == 1 {
            self.emit(InstrKind::Skip, loc);
        }
        let mut reversed = None;
        for k in 0..count {
            let next = (k + 1 < count).then(|| self.new_label());
            if let Some(next) = next {
                let choice = Expr::new(ExprKind::Nondet, self.prog.types.bool());
                self.goto_if(choice, next, loc);
            }
            if k > 0 && k + 1 == count {
                reversed = Some(self.placed_label());
            }
            block(self, k)?;
            if let Some(next) = next {
                self.goto(end, loc);
                if k == 0 {
                    self.place_label(alternatives_start);
                }
                self.place_label(next);
            }
        }
        if count == 1 {
            self.place_label(alternatives_start);
        }
        self.place_label(end);
        Ok(PendingOrder { at, operands: Vec::new(), alternatives: (alternatives_start, end), reversed, complete: false })
    }

    /// A label placed here.
    pub(super) fn placed_label(&mut self) -> Label {
        let label = self.new_label();
        self.place_label(label);
        label
    }

    /// Stores `v` in the temporary of slot `slot` that every block of a
    /// choice shares (declared again in each), and reads it.
    pub(super) fn hold(&mut self, held: &mut Held, slot: usize, v: Val, loc: Loc) -> R<Val> {
        let (sym, irty) = match held.0[slot] {
            Some((sym, irty)) => {
                self.emit(InstrKind::Decl(sym), loc);
                (sym, irty)
            }
            None => {
                let sym = self.fresh_local("$operand", &v.ty.unqualified(), loc);
                (sym, self.prog.symbols[sym].ty)
            }
        };
        if v.e.ty != irty {
            return Err(self.error(loc, "internal error: an operand lowered twice changed its type"));
        }
        held.0[slot] = Some((sym, irty));
        let target = Expr::sym(sym, irty);
        self.emit(InstrKind::Assign(target.clone(), v.e), loc);
        Ok(Val { e: target, ty: v.ty, lvalue: false, bit_width: v.bit_width })
    }

    /// The pointer and the promoted index of `a[i]` (or `i[a]`), each
    /// evaluated in every order when their side effects may make it
    /// matter (C11 6.5.2.1: `a[i]` is `*(a + i)`, whose operands are
    /// unordered); `None` when they cannot (the place then keeps the
    /// shape of an index into a named array), or when the subscripted
    /// value is a vector (one holding a statement expression is taken
    /// for a pointer).
    pub(super) fn subscript_in_every_order(&mut self, a: &ast::Expr, i: &ast::Expr, loc: Loc) -> R<Option<(Val, Val)>> {
        if !(self.has_side_effects(a) || self.has_side_effects(i)) || self.is_constant_operand(a) || self.is_constant_operand(i) {
            return Ok(None);
        }
        if self.is_named_array(a) || self.is_named_array(i) {
            return Ok(None);
        }
        // The type, from a lowering thrown away: not for statements, whose labels cannot be lowered twice.
        if !contains_statement(a) && !contains_statement(i) {
            let (a_type, _) = self.scratch(|s| s.expr(a))?;
            if a_type.ty.is_vector() || (a_type.ty.is_integer() && self.scratch(|s| s.expr(i))?.0.ty.is_vector()) {
                return Ok(None);
            }
        }
        let operands = [a, i];
        let mut values = self.unordered(&operands, loc, &mut |s, k| s.rvalue(operands[k]))?.into_iter();
        let (Some(av), Some(iv)) = (values.next(), values.next()) else {
            return Err(self.error(loc, "internal error: a subscript lost an operand"));
        };
        let (p, idx) = if av.ty.is_pointer() { (av, iv) } else { (iv, av) };
        if !idx.ty.is_integer() {
            return Err(self.error(loc, "array subscript is not an integer"));
        }
        Ok(Some((p, self.promote(idx))))
    }

    /// Whether `e` names an array object (a variable or a member of one):
    /// its address, all a subscript takes from it, is fixed.
    fn is_named_array(&mut self, e: &ast::Expr) -> bool {
        is_named_place(e) && self.scratch(|s| s.expr(e)).is_ok_and(|(v, _)| v.ty.is_array())
    }

    /// `l = r` or `l op= r` in every order of its steps when they may
    /// matter (C11 6.5.16p3: the designation of `l`, the read of its old
    /// value for `op=`, and the value of `r` are unsequenced; the store
    /// comes last): the designation's pointers and indexes are held where
    /// it is evaluated, so the store goes where it designated. `None` when
    /// no side effect can make the order matter.
    pub(super) fn assign_in_every_order(&mut self, op: Option<ast::BinaryOp>, l: &ast::Expr, r: &ast::Expr, value_used: bool, loc: Loc) -> R<Option<Val>> {
        let place_constant = op.is_none() && is_named_place(l);
        if !(self.has_side_effects(l) || self.has_side_effects(r)) || place_constant || self.is_constant_operand(r) {
            return Ok(None);
        }
        // Steps: 0 designates `l`, 1 reads its old value, 2 evaluates `r`.
        let orders: Vec<Vec<usize>> = match op {
            None => vec![vec![0, 2], vec![2, 0]],
            Some(_) => vec![vec![0, 1, 2], vec![0, 2, 1], vec![2, 0, 1]],
        };
        let budget = MAX_LOWERED_ORDERS / self.fx.lowered_orders.max(1);
        let relowerable = !contains_statement(l) && !contains_statement(r);
        let (orders, complete) = match relowerable && orders.len() <= budget {
            true => (orders, true),
            false => (vec![orders[orders.len() - 1].clone()], false),
        };
        let mut held = Held::new(1);
        let mut result = None;
        let mut ranges = [None, None];
        self.fx.lowered_orders *= orders.len();
        let lowered = self.choose(orders.len(), loc, &mut |s, k| {
            let record = if k == 0 { Some(&mut ranges) } else { None };
            let stored = s.assignment_steps(op, l, r, &orders[k], value_used, loc, record)?;
            result = Some(if value_used && !stored.ty.is_void() { s.hold(&mut held, 0, stored, loc)? } else { stored });
            Ok(())
        });
        self.fx.lowered_orders /= orders.len();
        let pending = lowered?;
        let operands = ranges.iter().flatten().copied().collect();
        self.fx.evaluation_orders.push(PendingOrder { operands, complete, ..pending });
        Ok(result)
    }

    /// One order of an assignment's steps (see [`Self::assign_in_every_order`]),
    /// then the store; the assignment's value. With `ranges` (the first
    /// order), records where the designation (with the read) and the
    /// right side lie.
    #[allow(clippy::too_many_arguments)]
    fn assignment_steps(
        &mut self,
        op: Option<ast::BinaryOp>,
        l: &ast::Expr,
        r: &ast::Expr,
        order: &[usize],
        value_used: bool,
        loc: Loc,
        mut ranges: Option<&mut [Option<(Label, Label)>; 2]>,
    ) -> R<Val> {
        let (mut place, mut old, mut value) = (None, None, None);
        for &step in order {
            let start = self.placed_label();
            match step {
                0 => place = Some(self.designation(l, loc)?),
                1 => {
                    let target: &Val = place.as_ref().expect("designated before its value is read");
                    let ty = target.ty.unqualified();
                    let held = self.temp(target.e.clone(), &ty, loc);
                    old = Some(Val { e: held, ty, lvalue: false, bit_width: target.bit_width });
                }
                _ => {
                    let v = self.rvalue(r)?;
                    value = Some(Val { e: self.temp(v.e.clone(), &v.ty.unqualified(), loc), ..v });
                }
            }
            let stop = self.placed_label();
            if let Some(ranges) = ranges.as_deref_mut() {
                // The read follows the designation in the first order: one range.
                match &mut ranges[usize::from(step == 2)] {
                    Some((_, end)) => *end = stop,
                    range => *range = Some((start, stop)),
                }
            }
        }
        let (Some(target), Some(v)) = (place, value) else {
            return Err(self.error(loc, "internal error: an assignment lost a side"));
        };
        let ty = target.ty.unqualified();
        let new = match (op, old) {
            (Some(bop), Some(old)) => self.arith(bop, old, v, loc)?,
            _ => v,
        };
        let stored = self.cast_to(new, &ty, loc, op.is_some())?;
        Ok(self.store(target, stored, ty, value_used, loc))
    }

    /// The place `l` designates, its pointers and indexes held now.
    fn designation(&mut self, l: &ast::Expr, loc: Loc) -> R<Val> {
        let target = self.modifiable(l, loc)?;
        let frozen = match self.frozen_place(&target.e, loc) {
            Some(frozen) => frozen,
            None if target.bit_width.is_none() => {
                let ptr = CType::pointer_to(target.ty.unqualified());
                let ptr_ir = self.ir_ty(&ptr);
                let addr = self.temp(addr_of(target.e.clone(), ptr_ir), &ptr, loc);
                deref(addr, target.e.ty)
            }
            None => target.e.clone(),
        };
        Ok(Val { e: frozen, ..target })
    }

    /// Whether evaluating `e` reads nothing that another operand could
    /// change: literals, `sizeof`, enumeration constants, functions and
    /// the addresses of named objects, combined by operators.
    pub(super) fn is_constant_operand(&self, e: &ast::Expr) -> bool {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match &e.kind {
                A::IntLit { .. } | A::FloatLit { .. } | A::CharLit { .. } | A::StringLit { .. } => {}
                A::SizeofType(_) | A::AlignofType(_) | A::AlignofExpr(_) | A::Offsetof(..) | A::TypesCompatible(..) => {}
                A::Ident(name) => match self.scopes.lookup(name) {
                    Some(Ordinary::EnumConst { .. }) => {}
                    Some(Ordinary::Symbol { sym }) if self.sym_types.get(sym).is_some_and(|t| t.fn_type().is_some()) => {}
                    _ => return false,
                },
                A::Unary(UnaryOp::AddrOf, x) if matches!(x.kind, A::Ident(_)) => {}
                A::Unary(UnaryOp::Plus | UnaryOp::Minus | UnaryOp::BitNot | UnaryOp::Not, x) | A::Cast(_, x) => stack.push(x),
                A::Binary(_, l, r) => {
                    stack.push(l);
                    stack.push(r);
                }
                _ => return false,
            }
        }
        true
    }

    /// Whether evaluating `e` may have a side effect: a call (other than
    /// of GCC's pure bit built-ins, `__builtin_popcount` and the like, which
    /// read only their arguments), an assignment, `++`/`--`, `va_arg`, a
    /// statement expression or a compound literal (whose initializer this
    /// walk does not enter) (operands of `sizeof` and `_Alignof` are not
    /// evaluated, except a variable-length array's, which counts).
    pub(super) fn has_side_effects(&self, e: &ast::Expr) -> bool {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match &e.kind {
                A::Call(callee, args) if self.is_pure_builtin(callee) => stack.extend(args),
                A::Call(..) | A::Assign(..) | A::StmtExpr(_) | A::VaArg(..) | A::Quantifier { .. } | A::CompoundLiteral(..) => return true,
                A::Unary(UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec, _) => return true,
                _ => push_children(e, &mut stack),
            }
        }
        false
    }

    /// Whether `callee` names one of GCC's bit built-ins (`__builtin_ffs`,
    /// `clz`, `popcount`, `bswap32`, ...) the program does not declare
    /// itself: a function of its argument only.
    fn is_pure_builtin(&self, callee: &ast::Expr) -> bool {
        let A::Ident(name) = &callee.kind else { return false };
        name.starts_with("__builtin_")
            && ir::intrinsics::bit_builtin(name, self.tcx.dm.long_bits()).is_some()
            && self.scopes.lookup(name).is_none_or(|o| matches!(o, Ordinary::Symbol { sym } if self.implicit_builtins.contains(sym)))
    }
}

/// Whether `e` holds statements (a statement expression), whose labels
/// and declarations cannot be lowered twice.
fn contains_statement(e: &ast::Expr) -> bool {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            A::StmtExpr(_) | A::Quantifier { .. } => return true,
            _ => push_children(e, &mut stack),
        }
    }
    false
}

/// The evaluated sub-expressions of `e` (those of `sizeof` only when it
/// may be a variable-length array's).
fn push_children<'e>(e: &'e ast::Expr, stack: &mut Vec<&'e ast::Expr>) {
    match &e.kind {
        A::Unary(_, x) | A::Cast(_, x) | A::Member { base: x, .. } | A::SizeofExpr(x) | A::VaArg(x, _) => stack.push(x),
        A::Binary(_, l, r) | A::Assign(_, l, r) | A::Index(l, r) => {
            stack.push(l);
            stack.push(r);
        }
        A::Conditional(c, t, f) => {
            stack.push(c);
            stack.extend(t.as_deref());
            stack.push(f);
        }
        A::Call(f, args) => {
            stack.push(f);
            stack.extend(args.iter());
        }
        A::Comma(list) => stack.extend(list.iter()),
        A::Generic(c, assocs) => {
            stack.push(c);
            stack.extend(assocs.iter().map(|(_, x)| x));
        }
        A::ChooseExpr(c, a, b) => {
            stack.push(c);
            stack.push(a);
            stack.push(b);
        }
        _ => {}
    }
}

/// Whether `e` names an object without reading anything: a variable or
/// a member of one.
fn is_named_place(e: &ast::Expr) -> bool {
    match &e.kind {
        A::Ident(_) => true,
        A::Member { base, arrow: false, .. } => is_named_place(base),
        _ => false,
    }
}

/// Every order of `items`.
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut all = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        let rest: Vec<usize> = items.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x).collect();
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            all.push(tail);
        }
    }
    all
}

/// The resolved position of a pending choice's labels; `None` when one
/// was never placed (the lowering failed).
pub(super) fn resolve(pending: &PendingOrder, function: ir::FuncId, label_pos: &[Option<u32>], body: &[ir::Instr]) -> Option<ir::EvaluationOrder> {
    let pos = |l: Label| label_pos[l.0].map(InstrIdx);
    let mut at = pos(pending.at)?;
    // Declarations repeated at a block's start may precede the choice.
    while body.get(at.0 as usize).is_some_and(|i| matches!(i.kind, InstrKind::Decl(_))) {
        at = InstrIdx(at.0 + 1);
    }
    let operands = pending.operands.iter().map(|&(s, e)| Some((pos(s)?, pos(e)?))).collect::<Option<Vec<_>>>()?;
    let alternatives = (pos(pending.alternatives.0)?, pos(pending.alternatives.1)?);
    let reversed = match pending.reversed {
        Some(label) => Some(pos(label)?),
        None => None,
    };
    Some(ir::EvaluationOrder { function, at, operands, alternatives, reversed, complete: pending.complete })
}
