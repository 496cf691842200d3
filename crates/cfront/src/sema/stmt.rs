//! Statements: blocks with `Decl`/`Dead` at scope entry and exit, `if`,
//! loops as gotos whose head is the back edge's target, `switch` as a
//! chain of conditional gotos placed after the body, labels and `goto`,
//! `return` with conversion to the return type, statement expressions,
//! inline `asm` (kept as text; its outputs become nondeterministic), and
//! the loops' own unwinding bounds (`#pragma unroll`, `__ESBMC_unroll`).

use super::expr::Val;
use super::{JumpTarget, Label, Sema, SwitchCtx, R};
use crate::ast::{self, StmtKind};
use ir::{BinOp, Expr, ExprKind, InstrKind, Loc, UnOp};

/// The prefix of CBMC's thread-spawn labels (`__CPROVER_ASYNC_1:`).
const THREAD_SPAWN_LABEL: &str = "__CPROVER_ASYNC_";

impl<'a> Sema<'a> {
    /// Lowers the items of a block in the current scope, continuing after
    /// errors so all of them are reported.
    pub(super) fn block_items(&mut self, items: &[ast::Stmt]) -> R<()> {
        let mut result = Ok(());
        for (i, s) in items.iter().enumerate() {
            let lowered = match unroll_intrinsic_args(s) {
                Some(args) => self.unroll_intrinsic(args, s.loc, items.get(i + 1)),
                None => self.stmt(s),
            };
            if let Err(e) = lowered {
                result = Err(e);
            }
        }
        result
    }

    /// `__ESBMC_unroll(N);` gives the loop right after it (`next`) the
    /// unwinding bound N, as `#pragma unroll N` does; anything else after
    /// it leaves the call without effect, with a warning (as in ESBMC).
    fn unroll_intrinsic(&mut self, args: &[ast::Expr], loc: Loc, next: Option<&ast::Stmt>) -> R<()> {
        let [count] = args else {
            return Err(self.error(loc, "`__ESBMC_unroll` takes one argument, the loop bound"));
        };
        let bound = self.const_int(count, "`__ESBMC_unroll` bound")?;
        let Some(bound) = u64::try_from(bound).ok().filter(|&b| b > 0) else {
            return Err(self.error(count.loc, format!("unsupported: `__ESBMC_unroll` bound {bound} is not positive")));
        };
        let loop_follows = next.is_some_and(|s| {
            matches!(s.kind, StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::For { .. } | StmtKind::Unrolled { .. })
        });
        if loop_follows {
            self.fx.unroll = Some(Some(bound));
        } else {
            self.warn(loc, "`__ESBMC_unroll` is not directly followed by a loop: it bounds nothing");
        }
        Ok(())
    }

    /// A `while` or `for` loop with its own unwinding bound, tested at the
    /// bottom (`if (!c) goto exit; head: body; step; if (c) goto head;`).
    /// Its back edge is then taken only when another iteration runs, so a
    /// bound of N allows exactly N iterations, as ESBMC counts
    /// `#pragma unroll N`; tested at the top, the N-th back edge would be
    /// reached even when the test is about to end the loop.
    fn bottom_tested_loop(
        &mut self,
        c: Option<&ast::Expr>,
        step: Option<&ast::Expr>,
        body: &ast::Stmt,
        bound: Option<u64>,
        loc: Loc,
    ) -> R<()> {
        let exit = self.new_label();
        let next = self.new_label();
        if let Some(c) = c {
            let cond = self.cond(c)?;
            let stop = self.not(cond);
            self.goto_if(stop, exit, c.loc);
        }
        let head = self.new_label();
        self.fx.loop_unwinds.push((head, bound));
        self.place_label(head);
        let result = self.loop_body(body, exit, next);
        self.place_label(next);
        if let Some(s) = step {
            self.discard(s)?;
        }
        match c {
            Some(c) => {
                let cond = self.cond(c)?;
                self.goto_if(cond, head, loc);
            }
            None => self.goto(head, loc),
        }
        self.place_label(exit);
        result
    }

    pub(super) fn open_scope(&mut self) {
        self.scopes.push();
        self.fx.live.push(super::OpenBlock::new());
    }

    pub(super) fn close_scope(&mut self, loc: Loc) {
        if let Some(block) = self.fx.live.pop() {
            for sym in block.locals.iter().rev() {
                self.emit(InstrKind::Dead(*sym), loc);
            }
            block.close_into(&mut self.fx.hoists);
        }
        self.scopes.pop();
    }

    /// `Dead` for every local of the scopes deeper than `depth`, for a
    /// jump that leaves them.
    pub(super) fn emit_scope_exits(&mut self, depth: usize) {
        let dying: Vec<_> = self.fx.live.iter().skip(depth).flat_map(|b| b.locals.iter()).rev().copied().collect();
        for sym in dying {
            self.emit(InstrKind::Dead(sym), Loc::NONE);
        }
    }

    fn block(&mut self, b: &ast::Block) -> R<()> {
        self.open_scope();
        let result = self.block_items(&b.items);
        self.close_scope(b.loc);
        result
    }

    pub(super) fn stmt(&mut self, s: &ast::Stmt) -> R<()> {
        self.enter(s.loc)?;
        let result = self.stmt_kind(s);
        self.leave();
        result
    }

    fn stmt_kind(&mut self, s: &ast::Stmt) -> R<()> {
        let loc = s.loc;
        match &s.kind {
            StmtKind::Compound(b) => self.block(b),
            StmtKind::Decl(d) => self.declaration(d),
            StmtKind::NestedFunction(f) => self.nested_function(f),
            StmtKind::LocalLabels(names) => {
                for name in names {
                    self.fx.counter += 1;
                    let unique = format!("{name}#{}", self.fx.counter);
                    if let Some(block) = self.fx.live.last_mut() {
                        block.local_labels.push((name.clone(), unique));
                    }
                }
                Ok(())
            }
            StmtKind::StaticAssert(sa) => self.static_assert(sa),
            StmtKind::Expr(Some(e)) => self.discard(e),
            StmtKind::Expr(None) => Ok(()),
            StmtKind::If(c, then, els) => self.if_stmt(c, then, els.as_deref(), loc),
            StmtKind::While(c, body) => self.while_stmt(c, body, loc),
            StmtKind::DoWhile(body, c) => self.do_while(body, c, loc),
            StmtKind::For { init, cond, step, body } => self.for_stmt(init, cond.as_ref(), step.as_ref(), body, loc),
            StmtKind::Unrolled { bound, body } => {
                self.fx.unroll = Some(*bound);
                self.stmt(body)
            }
            StmtKind::Switch(c, body) => self.switch_stmt(c, body, loc),
            StmtKind::Case(lo, hi, body) => self.case_stmt(lo, hi.as_ref(), body, loc),
            StmtKind::Default(body) => {
                let label = self.new_label();
                let Some(sw) = self.fx.switches.last_mut() else {
                    return Err(self.error(loc, "`default` label not within a switch statement"));
                };
                if sw.default.is_some() {
                    return Err(self.error(loc, "multiple default labels in one switch"));
                }
                sw.default = Some(label);
                self.mark_case();
                self.place_label(label);
                self.stmt(body)
            }
            StmtKind::Labeled(name, body) => {
                let name = &self.label_in_scope(name);
                let label = self.user_label(name, None);
                if self.fx.label_pos[label.0].is_some() {
                    return Err(self.error(loc, format!("redefinition of label `{name}`")));
                }
                self.mark_label(0, 0);
                self.place_label(label);
                if name.starts_with(THREAD_SPAWN_LABEL) {
                    return self.spawned_statement(body, loc);
                }
                // A label on an empty statement gets an instruction of its
                // own: else it names the next one, where the paths around
                // the label meet too (`if (c) { goto E; E: ; }` would reach
                // E whatever c).
                let empty = match &body.kind {
                    StmtKind::Expr(None) => true,
                    StmtKind::Compound(block) => block.items.is_empty(),
                    _ => false,
                };
                if empty {
                    self.emit(InstrKind::Skip, loc);
                }
                self.stmt(body)
            }
            StmtKind::Goto(name) => {
                let name = &self.label_in_scope(name);
                let label = self.user_label(name, Some(loc));
                self.goto(label, loc);
                Ok(())
            }
            StmtKind::ComputedGoto(target) => self.computed_goto(target, loc),
            StmtKind::Break => {
                let Some(t) = self.fx.breaks.last().copied() else {
                    return Err(self.error(loc, "`break` not in a loop or switch"));
                };
                self.jump_out(t, loc);
                Ok(())
            }
            StmtKind::Continue => {
                let Some(t) = self.fx.continues.last().copied() else {
                    return Err(self.error(loc, "`continue` not in a loop"));
                };
                self.jump_out(t, loc);
                Ok(())
            }
            StmtKind::Return(value) => self.return_stmt(value.as_ref(), loc),
            StmtKind::Asm(a) => self.asm_stmt(a, loc),
        }
    }

    /// CBMC's `__CPROVER_ASYNC_n: stmt;`: `stmt` runs in a new thread while
    /// the current one goes on after it. Lowered as such (`StartThread` of
    /// the statement, which ends with `EndThread`), so symex runs it as a
    /// thread, never as the statement run in line.
    fn spawned_statement(&mut self, body: &ast::Stmt, loc: Loc) -> R<()> {
        let (thread, after) = (self.new_label(), self.new_label());
        self.start_thread(thread, loc);
        self.goto(after, loc);
        self.place_label(thread);
        self.stmt(body)?;
        self.emit(InstrKind::EndThread, loc);
        self.place_label(after);
        Ok(())
    }

    /// A label is being placed: jumps from the blocks from `depth` on
    /// out may enter the open blocks mid-way; declarations move to `at`.
    fn mark_label(&mut self, depth: usize, at: usize) {
        for block in self.fx.live.iter_mut().skip(depth) {
            block.hoist_to = Some(block.hoist_to.map_or(at, |p| p.min(at)));
        }
    }

    /// A `case` or `default`: jumped to from the switch's start.
    fn mark_case(&mut self) {
        if let Some(sw) = self.fx.switches.last() {
            let (depth, start) = (sw.depth, sw.start);
            self.mark_label(depth, start);
        }
    }

    fn jump_out(&mut self, t: JumpTarget, loc: Loc) {
        self.emit_scope_exits(t.scope_depth);
        self.goto(t.label, loc);
    }

    /// The function-wide name of label `name` here: a `__label__` of an
    /// open block names that block's own label.
    pub(super) fn label_in_scope(&self, name: &str) -> String {
        let local = self.fx.live.iter().rev().flat_map(|b| b.local_labels.iter()).find(|(n, _)| n == name);
        local.map_or_else(|| name.to_string(), |(_, unique)| unique.clone())
    }

    /// The label named `name`, created on first mention (labels have
    /// function scope; `goto` may precede the label).
    pub(super) fn user_label(&mut self, name: &str, used_at: Option<Loc>) -> Label {
        if let Some((label, used)) = self.fx.user_labels.get_mut(name) {
            if used.is_none() {
                *used = used_at;
            }
            return *label;
        }
        let label = self.new_label();
        self.fx.user_labels.insert(name.to_string(), (label, used_at));
        label
    }

    fn not(&mut self, b: Expr) -> Expr {
        let bt = self.prog.types.bool();
        match b.kind {
            ExprKind::Unary(UnOp::Not, inner) => *inner,
            ExprKind::IntConst(v) if b.ty == bt => Expr::int(u128::from(v == 0), bt),
            kind => Expr::unary(UnOp::Not, Expr::new(kind, bt), bt),
        }
    }

    fn if_stmt(&mut self, c: &ast::Expr, then: &ast::Stmt, els: Option<&ast::Stmt>, loc: Loc) -> R<()> {
        let cond = self.cond(c)?;
        let else_label = self.new_label();
        let skip = self.not(cond);
        self.goto_if(skip, else_label, loc);
        let r1 = self.scoped_stmt(then);
        let r2 = match els {
            Some(e) => {
                let end = self.new_label();
                self.goto(end, loc);
                self.place_label(else_label);
                let r = self.scoped_stmt(e);
                self.place_label(end);
                r
            }
            None => {
                self.place_label(else_label);
                Ok(())
            }
        };
        r1.and(r2)
    }

    /// A sub-statement of a selection or iteration statement is a block
    /// of its own (C11 6.8.4p3, 6.8.5p5).
    fn scoped_stmt(&mut self, s: &ast::Stmt) -> R<()> {
        self.open_scope();
        let result = self.stmt(s);
        self.close_scope(s.loc);
        result
    }

    /// Lowers a loop body with its break and continue targets.
    fn loop_body(&mut self, body: &ast::Stmt, brk: Label, cont: Label) -> R<()> {
        let depth = self.fx.live.len();
        self.fx.breaks.push(JumpTarget { label: brk, scope_depth: depth });
        self.fx.continues.push(JumpTarget { label: cont, scope_depth: depth });
        let result = self.scoped_stmt(body);
        self.fx.breaks.pop();
        self.fx.continues.pop();
        result
    }

    fn while_stmt(&mut self, c: &ast::Expr, body: &ast::Stmt, loc: Loc) -> R<()> {
        if let Some(bound) = self.fx.unroll.take() {
            return self.bottom_tested_loop(Some(c), None, body, bound, loc);
        }
        let head = self.new_label();
        let exit = self.new_label();
        self.place_label(head);
        let cond = self.cond(c)?;
        let stop = self.not(cond);
        self.goto_if(stop, exit, c.loc);
        let result = self.loop_body(body, exit, head);
        self.goto(head, loc);
        self.place_label(exit);
        result
    }

    fn do_while(&mut self, body: &ast::Stmt, c: &ast::Expr, loc: Loc) -> R<()> {
        let head = self.new_label();
        if let Some(bound) = self.fx.unroll.take() {
            self.fx.loop_unwinds.push((head, bound));
        }
        let check = self.new_label();
        let exit = self.new_label();
        self.place_label(head);
        let result = self.loop_body(body, exit, check);
        self.place_label(check);
        let cond = self.cond(c)?;
        self.goto_if(cond, head, loc);
        self.place_label(exit);
        result
    }

    fn for_stmt(
        &mut self,
        init: &ast::ForInit,
        cond: Option<&ast::Expr>,
        step: Option<&ast::Expr>,
        body: &ast::Stmt,
        loc: Loc,
    ) -> R<()> {
        // Taken before the initialisation, which may hold loops of its own.
        let unroll = self.fx.unroll.take();
        self.open_scope();
        let result = self.for_parts(init, cond, step, body, unroll, loc);
        self.close_scope(loc);
        result
    }

    fn for_parts(
        &mut self,
        init: &ast::ForInit,
        cond: Option<&ast::Expr>,
        step: Option<&ast::Expr>,
        body: &ast::Stmt,
        unroll: Option<Option<u64>>,
        loc: Loc,
    ) -> R<()> {
        match init {
            ast::ForInit::None => {}
            ast::ForInit::Expr(e) => self.discard(e)?,
            ast::ForInit::Decl(d) => self.declaration(d)?,
        }
        if let Some(bound) = unroll {
            return self.bottom_tested_loop(cond, step, body, bound, loc);
        }
        let head = self.new_label();
        let next = self.new_label();
        let exit = self.new_label();
        self.place_label(head);
        if let Some(c) = cond {
            let b = self.cond(c)?;
            let stop = self.not(b);
            self.goto_if(stop, exit, c.loc);
        }
        let result = self.loop_body(body, exit, next);
        self.place_label(next);
        if let Some(s) = step {
            self.discard(s)?;
        }
        self.goto(head, loc);
        self.place_label(exit);
        result
    }

    fn switch_stmt(&mut self, c: &ast::Expr, body: &ast::Stmt, loc: Loc) -> R<()> {
        let start = self.fx.instrs.len();
        let v = self.rvalue(c)?;
        if !v.ty.is_integer() {
            return Err(self.error(c.loc, "switch quantity is not an integer"));
        }
        let v = self.promote(v);
        let value_signed = self.tcx.is_signed(&v.ty);
        let value = self.temp(v.e, &v.ty, c.loc);
        let dispatch = self.new_label();
        let exit = self.new_label();
        self.goto(dispatch, loc);
        let depth = self.fx.live.len();
        self.fx.switches.push(SwitchCtx { value, cases: Vec::new(), default: None, value_signed, start, depth });
        self.fx.breaks.push(JumpTarget { label: exit, scope_depth: depth });
        let result = self.scoped_stmt(body);
        self.fx.breaks.pop();
        let Some(sw) = self.fx.switches.pop() else {
            return Err(self.error(loc, "internal error: lost the switch context"));
        };
        self.goto(exit, loc);
        self.place_label(dispatch);
        self.dispatch(&sw, exit, loc);
        self.place_label(exit);
        result
    }

    /// The comparison chain that selects a case.
    fn dispatch(&mut self, sw: &SwitchCtx, exit: Label, loc: Loc) {
        let bt = self.prog.types.bool();
        let ty = sw.value.ty;
        let bits = self.prog.types.int_info(ty).map_or(32, |i| i.0);
        let mask = ir::layout::low_mask(bits);
        // A constant of a type wider than 128 bits is zero-extended, so a
        // negative label of such a type is a cast from `__int128`.
        let wide = (bits > 128).then(|| self.prog.types.int(128, true));
        let constant = |value: i128| match wide {
            Some(int128) => Expr::cast(Expr::int(value as u128, int128), ty),
            None => Expr::int(value as u128 & mask, ty),
        };
        for (lo, hi, label) in &sw.cases {
            let lo_e = constant(*lo);
            let cond = if lo == hi {
                Expr::binary(BinOp::Eq, sw.value.clone(), lo_e, bt)
            } else {
                let hi_e = constant(*hi);
                let ge = Expr::binary(BinOp::Ge, sw.value.clone(), lo_e, bt);
                let le = Expr::binary(BinOp::Le, sw.value.clone(), hi_e, bt);
                Expr::binary(BinOp::And, ge, le, bt)
            };
            self.goto_if(cond, *label, loc);
        }
        self.goto(sw.default.unwrap_or(exit), loc);
    }

    fn case_stmt(&mut self, lo: &ast::Expr, hi: Option<&ast::Expr>, body: &ast::Stmt, loc: Loc) -> R<()> {
        let lo_v = self.const_int(lo, "case label")?;
        let hi_v = match hi {
            Some(h) => self.const_int(h, "case label")?,
            None => lo_v,
        };
        let Some(sw) = self.fx.switches.last() else {
            return Err(self.error(loc, "`case` label not within a switch statement"));
        };
        // The constant converts to the promoted controlling type.
        let bits = self.prog.types.int_info(sw.value.ty).map_or(32, |i| i.0);
        let (lo_v, hi_v) = (wrap(lo_v, bits, sw.value_signed), wrap(hi_v, bits, sw.value_signed));
        let overlaps = sw.cases.iter().any(|(a, b, _)| lo_v <= *b && *a <= hi_v);
        if hi_v < lo_v {
            self.warn(loc, "empty case range");
        }
        if overlaps {
            return Err(self.error(loc, "duplicate case value"));
        }
        let label = self.new_label();
        if let Some(sw) = self.fx.switches.last_mut() {
            sw.cases.push((lo_v, hi_v, label));
        }
        self.mark_case();
        self.place_label(label);
        self.stmt(body)
    }

    fn return_stmt(&mut self, value: Option<&ast::Expr>, loc: Loc) -> R<()> {
        let ret = self.fx.ret.clone();
        let lowered = match value {
            Some(e) if ret.is_void() => {
                self.discard(e)?;
                None
            }
            Some(e) => {
                let v = self.rvalue(e)?;
                Some(self.cast_to(v, &ret, e.loc, false)?)
            }
            None if ret.is_void() => None,
            None => {
                self.warn(loc, "non-void function returns no value");
                let irty = self.ir_ty(&ret);
                Some(Expr::new(ExprKind::Nondet, irty))
            }
        };
        // The value is computed before the locals die.
        let lowered = match lowered {
            Some(e) if !self.fx.live.iter().all(|b| b.locals.is_empty()) && !is_constant(&e) => Some(self.temp(e, &ret, loc)),
            other => other,
        };
        self.emit_scope_exits(0);
        self.emit(InstrKind::Return(lowered), loc);
        Ok(())
    }

    fn asm_stmt(&mut self, a: &ast::AsmStmt, loc: Loc) -> R<()> {
        self.warn(loc, "inline assembly is not modelled; its outputs become nondeterministic");
        self.emit(InstrKind::Asm(a.template.clone()), loc);
        for out in &a.outputs {
            let v = self.expr(&out.expr)?;
            if !v.lvalue {
                return Err(self.error(out.expr.loc, "asm output operand is not an lvalue"));
            }
            let nondet = Expr::new(ExprKind::Nondet, v.e.ty);
            self.emit(InstrKind::Assign(v.e, nondet), loc);
        }
        for input in &a.inputs {
            self.discard(&input.expr)?;
        }
        Ok(())
    }

    /// A GNU statement expression: its value is that of the last
    /// expression statement, copied out before the block's locals die.
    pub(super) fn stmt_expr(&mut self, b: &ast::Block) -> R<Val> {
        self.open_scope();
        let result = self.stmt_expr_items(b);
        self.close_scope(b.loc);
        result
    }

    fn stmt_expr_items(&mut self, b: &ast::Block) -> R<Val> {
        let void = self.prog.types.void();
        let void_val = Val { e: Expr::new(ExprKind::Zero, void), ty: super::ctype::CType::void(), lvalue: false, bit_width: None };
        let Some((last, init)) = b.items.split_last() else {
            return Ok(void_val);
        };
        self.block_items(init)?;
        let StmtKind::Expr(Some(e)) = &last.kind else {
            self.stmt(last)?;
            return Ok(void_val);
        };
        let v = self.rvalue(e)?;
        if v.ty.is_void() {
            return Ok(void_val);
        }
        let ty = v.ty.clone();
        let copy = self.temp(v.e, &ty, e.loc);
        Ok(Val { e: copy, ty, lvalue: false, bit_width: None })
    }
}

fn is_constant(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::IntConst(_) | ExprKind::FloatConst(_) | ExprKind::Null | ExprKind::Zero | ExprKind::Nondet)
}

/// `value` converted to a `bits`-wide integer of the given signedness.
fn wrap(value: i128, bits: u32, signed: bool) -> i128 {
    let m = value as u128 & ir::layout::low_mask(bits);
    if signed {
        super::consteval::sign_extend(m, bits)
    } else {
        m as i128
    }
}

/// The arguments of `s` when it is the statement `__ESBMC_unroll(...);`.
fn unroll_intrinsic_args(s: &ast::Stmt) -> Option<&[ast::Expr]> {
    let StmtKind::Expr(Some(e)) = &s.kind else { return None };
    let ast::ExprKind::Call(callee, args) = &e.kind else { return None };
    matches!(&callee.kind, ast::ExprKind::Ident(name) if name == "__ESBMC_unroll").then_some(args.as_slice())
}
