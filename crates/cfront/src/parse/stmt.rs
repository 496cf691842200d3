//! Statements and blocks, including GNU inline assembly, case ranges,
//! computed goto and local `__label__` declarations.

use super::{PResult, ParseError, Parser};
use crate::ast::*;
use crate::lex::{Kw, TokKind, P};
use std::cmp::Ordering;

impl<'t, 'a> Parser<'t, 'a> {
    /// `{ ... }` with its own scope.
    pub(super) fn block(&mut self) -> PResult<Block> {
        self.push_scope();
        let block = self.block_in_current_scope();
        self.pop_scope();
        block
    }

    /// `{ ... }` in the caller's scope (a function body shares the scope of
    /// its parameters).
    pub(super) fn block_in_current_scope(&mut self) -> PResult<Block> {
        let loc = self.expect(P::LBrace)?.loc;
        let mut items = Vec::new();
        while !self.eat(P::RBrace) {
            if self.at_eof() {
                return Err(self.expected("`}`"));
            }
            if let Some(item) = self.block_item()? {
                items.push(item);
            }
        }
        Ok(Block { items, loc })
    }

    /// A declaration or a statement.
    fn block_item(&mut self) -> PResult<Option<Stmt>> {
        let loc = self.loc();
        if self.eat_kw(Kw::Label) {
            let mut names = Vec::new();
            loop {
                names.push(self.expect_ident()?.0);
                if !self.eat(P::Comma) {
                    break;
                }
            }
            self.expect(P::Semi)?;
            return Ok(Some(Stmt { kind: StmtKind::LocalLabels(names), loc }));
        }
        if self.is_kw(Kw::StaticAssert) {
            return Ok(Some(Stmt { kind: StmtKind::StaticAssert(self.static_assert()?), loc }));
        }
        if let Some(error) = self.unknown_type_name() {
            return Err(error);
        }
        let is_label = self.kind() == TokKind::Ident && self.is_at(1, P::Colon);
        if !is_label && self.starts_decl_specs() && !self.is_attribute_statement() {
            return Ok(Some(Stmt { kind: self.block_declaration()?, loc }));
        }
        Ok(Some(self.statement()?))
    }

    /// `__attribute__((fallthrough));`: attributes on an empty statement.
    fn is_attribute_statement(&self) -> bool {
        if !self.is_kw(Kw::Attribute) && !self.is(P::LBracket) {
            return false;
        }
        let mut index = self.pos;
        let mut depth = 0usize;
        while let Some(tok) = self.list.get(index) {
            match tok.kind {
                TokKind::Punct(P::LParen | P::LBracket) => depth += 1,
                TokKind::Punct(P::RParen | P::RBracket) => depth = depth.saturating_sub(1),
                TokKind::Kw(Kw::Attribute) => {}
                TokKind::Punct(P::Semi) if depth == 0 => return true,
                _ if depth == 0 => return false,
                TokKind::Eof => return false,
                _ => {}
            }
            index += 1;
        }
        false
    }

    pub(super) fn statement(&mut self) -> PResult<Stmt> {
        self.nested(|p| p.statement_inner())
    }

    fn statement_inner(&mut self) -> PResult<Stmt> {
        let loc = self.loc();
        if let Some(bound) = self.unroll_pragma()? {
            let body = Box::new(self.statement_inner()?);
            return Ok(Stmt { kind: StmtKind::Unrolled { bound, body }, loc });
        }
        let kind = match self.kind() {
            TokKind::Punct(P::LBrace) => StmtKind::Compound(self.block()?),
            TokKind::Punct(P::Semi) => {
                self.bump();
                StmtKind::Expr(None)
            }
            TokKind::Ident if self.is_at(1, P::Colon) => {
                let (name, _) = self.expect_ident()?;
                self.bump();
                self.attributes_into(&mut Vec::new())?;
                StmtKind::Labeled(name, Box::new(self.labeled_body()?))
            }
            TokKind::Kw(Kw::Attribute) | TokKind::Punct(P::LBracket) if self.is_attribute_statement() => {
                self.attributes_into(&mut Vec::new())?;
                self.expect(P::Semi)?;
                StmtKind::Expr(None)
            }
            TokKind::Kw(kw) => match self.keyword_statement(kw)? {
                Some(kind) => kind,
                None => self.expression_statement()?,
            },
            _ => self.expression_statement()?,
        };
        Ok(Stmt { kind, loc })
    }

    /// The bound of the unrolling pragma that stands right here, which must
    /// be followed by a loop (as gcc and clang require); an error for one
    /// left behind, which stood where no statement starts. Of several
    /// pragmas before one loop, the last counts.
    pub(super) fn unroll_pragma(&mut self) -> PResult<Option<Option<u64>>> {
        let mut found = None;
        while let Some(pragma) = self.tokens.unroll_pragmas.get(self.next_unroll) {
            let misplaced = || ParseError {
                loc: pragma.loc,
                message: "an unrolling pragma must be followed by a `for`, `while` or `do` loop".into(),
            };
            match (pragma.at as usize).cmp(&self.pos) {
                Ordering::Greater => break,
                Ordering::Less => return Err(misplaced()),
                Ordering::Equal if !matches!(self.kind(), TokKind::Kw(Kw::For | Kw::While | Kw::Do)) => {
                    return Err(misplaced())
                }
                Ordering::Equal => {}
            }
            let bound = pragma.bound.clone().map_err(|message| ParseError { loc: pragma.loc, message })?;
            found = Some(bound);
            self.next_unroll += 1;
        }
        Ok(found)
    }

    /// The statement after a label; C23 allows a label before `}` or a
    /// declaration.
    fn labeled_body(&mut self) -> PResult<Stmt> {
        let loc = self.loc();
        if self.is(P::RBrace) {
            return Ok(Stmt { kind: StmtKind::Expr(None), loc });
        }
        if self.starts_decl_specs() && !self.is_attribute_statement() {
            return Ok(Stmt { kind: self.block_declaration()?, loc });
        }
        self.statement()
    }

    fn expression_statement(&mut self) -> PResult<StmtKind> {
        let expr = self.expr()?;
        self.expect(P::Semi)?;
        Ok(StmtKind::Expr(Some(expr)))
    }

    fn paren_expr(&mut self) -> PResult<Expr> {
        self.expect(P::LParen)?;
        let expr = self.expr()?;
        self.expect(P::RParen)?;
        Ok(expr)
    }

    /// Statements introduced by a keyword; `None` when `kw` starts an
    /// expression (`sizeof`, `__builtin_va_arg`, ...).
    fn keyword_statement(&mut self, kw: Kw) -> PResult<Option<StmtKind>> {
        let kind = match kw {
            Kw::If => {
                self.bump();
                let cond = self.paren_expr()?;
                let then = Box::new(self.statement()?);
                let otherwise = if self.eat_kw(Kw::Else) { Some(Box::new(self.statement()?)) } else { None };
                StmtKind::If(cond, then, otherwise)
            }
            Kw::Switch => {
                self.bump();
                let cond = self.paren_expr()?;
                StmtKind::Switch(cond, Box::new(self.statement()?))
            }
            Kw::While => {
                self.bump();
                let cond = self.paren_expr()?;
                StmtKind::While(cond, Box::new(self.statement()?))
            }
            Kw::Do => {
                self.bump();
                let body = Box::new(self.statement()?);
                if !self.eat_kw(Kw::While) {
                    return Err(self.expected("`while`"));
                }
                let cond = self.paren_expr()?;
                self.expect(P::Semi)?;
                StmtKind::DoWhile(body, cond)
            }
            Kw::For => {
                self.bump();
                self.push_scope();
                let result = self.for_statement();
                self.pop_scope();
                result?
            }
            Kw::Goto => {
                self.bump();
                let kind = if self.eat(P::Star) {
                    StmtKind::ComputedGoto(self.expr()?)
                } else {
                    StmtKind::Goto(self.expect_ident()?.0)
                };
                self.expect(P::Semi)?;
                kind
            }
            Kw::Continue | Kw::Break => {
                self.bump();
                self.expect(P::Semi)?;
                if kw == Kw::Continue {
                    StmtKind::Continue
                } else {
                    StmtKind::Break
                }
            }
            Kw::Return => {
                self.bump();
                let value = if self.is(P::Semi) { None } else { Some(self.expr()?) };
                self.expect(P::Semi)?;
                StmtKind::Return(value)
            }
            Kw::Case => {
                self.bump();
                let lo = self.conditional_expr()?;
                let hi = if self.eat(P::Ellipsis) { Some(self.conditional_expr()?) } else { None };
                self.expect(P::Colon)?;
                StmtKind::Case(lo, hi, Box::new(self.labeled_body()?))
            }
            Kw::Default => {
                self.bump();
                self.expect(P::Colon)?;
                StmtKind::Default(Box::new(self.labeled_body()?))
            }
            Kw::Asm => StmtKind::Asm(self.asm_statement()?),
            _ => return Ok(None),
        };
        Ok(Some(kind))
    }

    /// After `for`, inside the loop's own scope.
    fn for_statement(&mut self) -> PResult<StmtKind> {
        self.expect(P::LParen)?;
        while self.is_kw(Kw::Extension) {
            self.bump();
        }
        let init = if self.eat(P::Semi) {
            ForInit::None
        } else if self.starts_decl_specs() {
            ForInit::Decl(self.declaration()?)
        } else {
            let expr = self.expr()?;
            self.expect(P::Semi)?;
            ForInit::Expr(expr)
        };
        let cond = if self.is(P::Semi) { None } else { Some(self.expr()?) };
        self.expect(P::Semi)?;
        let step = if self.is(P::RParen) { None } else { Some(self.expr()?) };
        self.expect(P::RParen)?;
        let body = Box::new(self.statement()?);
        Ok(StmtKind::For { init, cond, step, body })
    }

    /// `asm volatile goto ("template" : outputs : inputs : clobbers : labels);`
    fn asm_statement(&mut self) -> PResult<AsmStmt> {
        self.bump();
        let mut is_volatile = false;
        loop {
            match self.kind() {
                TokKind::Kw(Kw::Volatile) => is_volatile = true,
                TokKind::Kw(Kw::Inline) => {}
                // Treating it as opaque would drop the jumps to its labels.
                TokKind::Kw(Kw::Goto) => return Err(self.error_at(self.loc(), "unsupported: `asm goto` (jumps out of inline assembly)")),
                _ => break,
            }
            self.bump();
        }
        self.expect(P::LParen)?;
        let template = self.string_text()?;
        let mut sections: [Vec<AsmOperand>; 2] = [Vec::new(), Vec::new()];
        let mut section = 0;
        let mut pending_colons = 0;
        loop {
            if self.eat(P::Colon) {
                pending_colons += 1;
            } else if self.eat(P::ColonColon) {
                pending_colons += 2;
            } else {
                break;
            }
            while pending_colons > 0 {
                pending_colons -= 1;
                section += 1;
                if pending_colons == 0 {
                    self.asm_section(section, &mut sections)?;
                }
            }
        }
        self.expect(P::RParen)?;
        self.expect(P::Semi)?;
        let [outputs, inputs] = sections;
        Ok(AsmStmt { template, outputs, inputs, is_volatile })
    }

    /// One colon-separated section: operands (1, 2), clobbers (3) or goto
    /// labels (4).
    fn asm_section(&mut self, section: usize, operands: &mut [Vec<AsmOperand>; 2]) -> PResult<()> {
        if self.is(P::Colon) || self.is(P::ColonColon) || self.is(P::RParen) {
            return Ok(());
        }
        loop {
            match section {
                1 | 2 => {
                    if self.eat(P::LBracket) {
                        self.expect_ident()?;
                        self.expect(P::RBracket)?;
                    }
                    let constraint = self.string_text()?;
                    self.expect(P::LParen)?;
                    let expr = self.expr()?;
                    self.expect(P::RParen)?;
                    operands[section - 1].push(AsmOperand { constraint, expr });
                }
                3 => {
                    self.string_text()?;
                }
                _ => {
                    self.expect_ident()?;
                }
            }
            if !self.eat(P::Comma) {
                return Ok(());
            }
        }
    }
}
