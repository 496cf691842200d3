//! Expressions: precedence climbing for binary operators, casts and
//! compound literals, unary and postfix operators, primary expressions and
//! the builtins that take type names (`__builtin_va_arg`, `__builtin_offsetof`,
//! `__builtin_types_compatible_p`, `__builtin_choose_expr`, `_Generic`),
//! and CBMC's extensions of C expressions: its connectives (`==>`, `<==>`,
//! `^^`) and quantifiers (`__CPROVER_forall { int i; body }`, ACSL's
//! `∀ int i; body`).

use super::{PResult, Parser};
use crate::ast::*;
use crate::lex::{Kw, TokKind, Token, P};
use ir::Loc;

/// A binary operator as written: C's, or one of CBMC's connectives, which
/// are C operators in disguise (see [`Connective`]).
#[derive(Copy, Clone)]
enum Written {
    C(BinaryOp),
    Connective(Connective),
}

/// CBMC's logical connectives (its `ansi-c/parser.y`): `a ==> b` is
/// `!a || b` (right associative, binding more loosely than `||`; `b` runs
/// only when `a` holds, as CBMC's conversion evaluates it), `a <==> b` is
/// `a == b` binding more loosely than `==>`, `a ^^ b` is `!a != !b`
/// (both evaluated) between `&&` and `||`.
#[derive(Copy, Clone, PartialEq)]
enum Connective {
    Implies,
    Equivalent,
    LogXor,
}

/// The operator and its precedence (larger binds tighter).
fn binary_op(p: P) -> Option<(Written, u8)> {
    use BinaryOp::*;
    use Written::C;
    Some(match p {
        P::Equivalent => (Written::Connective(Connective::Equivalent), 1),
        P::Implies => (Written::Connective(Connective::Implies), 2),
        P::PipePipe => (C(LogOr), 3),
        P::LogXor => (Written::Connective(Connective::LogXor), 4),
        P::AmpAmp => (C(LogAnd), 5),
        P::Pipe => (C(BitOr), 6),
        P::Caret => (C(BitXor), 7),
        P::Amp => (C(BitAnd), 8),
        P::EqEq => (C(Eq), 9),
        P::Ne => (C(Ne), 9),
        P::Lt => (C(Lt), 10),
        P::Gt => (C(Gt), 10),
        P::Le => (C(Le), 10),
        P::Ge => (C(Ge), 10),
        P::Shl => (C(Shl), 11),
        P::Shr => (C(Shr), 11),
        P::Plus => (C(Add), 12),
        P::Minus => (C(Sub), 12),
        P::Star => (C(Mul), 13),
        P::Slash => (C(Div), 13),
        P::Percent => (C(Rem), 13),
        _ => return None,
    })
}

/// `l op r` as the AST's C operators.
fn combine(op: Written, l: Expr, r: Expr, loc: Loc) -> Expr {
    let not = |e: Expr| Box::new(Expr { kind: ExprKind::Unary(UnaryOp::Not, Box::new(e)), loc });
    let kind = match op {
        Written::C(op) => ExprKind::Binary(op, Box::new(l), Box::new(r)),
        Written::Connective(Connective::Implies) => ExprKind::Binary(BinaryOp::LogOr, not(l), Box::new(r)),
        Written::Connective(Connective::Equivalent) => ExprKind::Binary(BinaryOp::Eq, Box::new(l), Box::new(r)),
        Written::Connective(Connective::LogXor) => ExprKind::Binary(BinaryOp::Ne, not(l), not(r)),
    };
    Expr { kind, loc }
}

fn assign_op(p: P) -> Option<Option<BinaryOp>> {
    use BinaryOp::*;
    Some(match p {
        P::Assign => None,
        P::StarAssign => Some(Mul),
        P::SlashAssign => Some(Div),
        P::PercentAssign => Some(Rem),
        P::PlusAssign => Some(Add),
        P::MinusAssign => Some(Sub),
        P::ShlAssign => Some(Shl),
        P::ShrAssign => Some(Shr),
        P::AmpAssign => Some(BitAnd),
        P::CaretAssign => Some(BitXor),
        P::PipeAssign => Some(BitOr),
        _ => return None,
    })
}

impl<'t, 'a> Parser<'t, 'a> {
    /// A full expression, comma operator included.
    pub(super) fn expr(&mut self) -> PResult<Expr> {
        let first = self.assign_expr()?;
        if !self.is(P::Comma) {
            return Ok(first);
        }
        let loc = first.loc;
        let mut list = vec![first];
        while self.eat(P::Comma) {
            list.push(self.assign_expr()?);
        }
        Ok(Expr { kind: ExprKind::Comma(list), loc })
    }

    pub(super) fn assign_expr(&mut self) -> PResult<Expr> {
        self.nested(|p| {
            if p.is(P::Forall) || p.is(P::Exists) {
                return p.acsl_binding();
            }
            let lhs = p.conditional_expr()?;
            let op = match p.kind() {
                TokKind::Punct(punct) => assign_op(punct),
                _ => None,
            };
            let Some(op) = op else { return Ok(lhs) };
            let op_loc = p.bump().loc;
            let rhs = p.assign_expr()?;
            Ok(Expr { kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)), loc: op_loc })
        })
    }

    /// ACSL's `∀ int i; body` (`\\forall`, `∃`, `\\exists`), which CBMC
    /// reads where an assignment expression may stand: the body extends
    /// as far as a conditional expression (or another binding) goes.
    fn acsl_binding(&mut self) -> PResult<Expr> {
        let tok = self.bump();
        let quantifier = if tok.kind == TokKind::Punct(P::Forall) { ir::Quantifier::Forall } else { ir::Quantifier::Exists };
        self.push_scope();
        let bound = self.quantifier_bound(tok);
        let body = bound.and_then(|bound| {
            let body = if self.is(P::Forall) || self.is(P::Exists) { self.nested(|p| p.acsl_binding())? } else { self.conditional_expr()? };
            Ok((bound, body))
        });
        self.pop_scope();
        let (bound, body) = body?;
        Ok(Expr { kind: ExprKind::Quantifier { quantifier, bound: Box::new(bound), body: Box::new(body) }, loc: tok.loc })
    }

    /// CBMC's `__CPROVER_forall { int i; body }` (`__CPROVER_exists`), at
    /// the `{` after the keyword `tok`.
    fn cprover_quantifier(&mut self, tok: &Token, quantifier: ir::Quantifier) -> PResult<ExprKind> {
        if !self.is(P::LBrace) {
            return Err(self.expected(&format!("`{{` after `{}`", self.text(tok))));
        }
        self.bump();
        self.push_scope();
        let parts = self.quantifier_bound(tok).and_then(|bound| {
            let body = self.expr()?;
            self.expect(P::RBrace)?;
            Ok((bound, body))
        });
        self.pop_scope();
        let (bound, body) = parts?;
        Ok(ExprKind::Quantifier { quantifier, bound: Box::new(bound), body: Box::new(body) })
    }

    /// The declaration of a quantifier's variables, `;` included.
    fn quantifier_bound(&mut self, tok: &Token) -> PResult<Declaration> {
        if !self.starts_decl_specs() {
            return Err(self.expected(&format!("the declaration of the variable that `{}` binds", self.text(tok))));
        }
        self.declaration()
    }

    pub(super) fn conditional_expr(&mut self) -> PResult<Expr> {
        let cond = self.binary_expr(1)?;
        if !self.is(P::Question) {
            return Ok(cond);
        }
        let loc = self.bump().loc;
        let then = if self.is(P::Colon) { None } else { Some(Box::new(self.expr()?)) };
        self.expect(P::Colon)?;
        let otherwise = self.nested(|p| p.conditional_expr())?;
        Ok(Expr { kind: ExprKind::Conditional(Box::new(cond), then, Box::new(otherwise)), loc })
    }

    /// Binary operators of precedence `min_prec` and tighter, left
    /// associative: a loop, so long chains do not recurse.
    fn binary_expr(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut links = 0;
        let chain = self.binary_chain(min_prec, &mut links);
        self.release_chain(links);
        chain
    }

    fn binary_chain(&mut self, min_prec: u8, links: &mut u32) -> PResult<Expr> {
        let mut lhs = self.cast_expr()?;
        loop {
            let Some((op, prec)) = (match self.kind() {
                TokKind::Punct(p) => binary_op(p),
                _ => None,
            }) else {
                return Ok(lhs);
            };
            if prec < min_prec {
                return Ok(lhs);
            }
            let loc = self.bump().loc;
            self.charge_chain_link(links)?;
            let right_associative = matches!(op, Written::Connective(Connective::Implies));
            let rhs = if right_associative { self.nested(|p| p.binary_expr(prec))? } else { self.binary_expr(prec + 1)? };
            lhs = combine(op, lhs, rhs, loc);
        }
    }

    pub(super) fn cast_expr(&mut self) -> PResult<Expr> {
        self.nested(|p| p.cast_expr_inner())
    }

    fn cast_expr_inner(&mut self) -> PResult<Expr> {
        if !(self.is(P::LParen) && self.starts_type_name_at(1)) {
            return self.unary_expr();
        }
        let loc = self.bump().loc;
        let ty = Box::new(self.type_name()?);
        self.expect(P::RParen)?;
        if self.is(P::LBrace) {
            let literal = self.compound_literal(ty, loc)?;
            return self.postfix_ops(literal);
        }
        let operand = self.cast_expr()?;
        Ok(Expr { kind: ExprKind::Cast(ty, Box::new(operand)), loc })
    }

    /// After `(type)`, at `{`.
    fn compound_literal(&mut self, ty: Box<TypeName>, loc: Loc) -> PResult<Expr> {
        self.bump();
        let items = self.nested(|p| p.init_list_items())?;
        Ok(Expr { kind: ExprKind::CompoundLiteral(ty, items), loc })
    }

    fn unary_expr(&mut self) -> PResult<Expr> {
        let tok = self.peek();
        let loc = tok.loc;
        let op = match tok.kind {
            TokKind::Punct(P::PlusPlus) => UnaryOp::PreInc,
            TokKind::Punct(P::MinusMinus) => UnaryOp::PreDec,
            TokKind::Punct(P::Amp) => UnaryOp::AddrOf,
            TokKind::Punct(P::Star) => UnaryOp::Deref,
            TokKind::Punct(P::Plus) => UnaryOp::Plus,
            TokKind::Punct(P::Minus) => UnaryOp::Minus,
            TokKind::Punct(P::Tilde) => UnaryOp::BitNot,
            TokKind::Punct(P::Bang) => UnaryOp::Not,
            TokKind::Kw(Kw::Real) => UnaryOp::Real,
            TokKind::Kw(Kw::Imag) => UnaryOp::Imag,
            TokKind::Punct(P::AmpAmp) if self.kind_at(1) == TokKind::Ident => {
                self.bump();
                let (label, _) = self.expect_ident()?;
                return Ok(Expr { kind: ExprKind::LabelAddr(label), loc });
            }
            TokKind::Kw(Kw::Sizeof) => return self.sizeof_or_alignof(true),
            TokKind::Kw(Kw::Alignof) => return self.sizeof_or_alignof(false),
            TokKind::Kw(Kw::Extension) => {
                self.bump();
                return self.cast_expr();
            }
            _ => {
                let primary = self.primary_expr()?;
                return self.postfix_ops(primary);
            }
        };
        self.bump();
        let operand = if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) { self.unary_operand()? } else { self.cast_expr()? };
        Ok(Expr { kind: ExprKind::Unary(op, Box::new(operand)), loc })
    }

    /// The operand of prefix `++`/`--`: a unary expression.
    fn unary_operand(&mut self) -> PResult<Expr> {
        self.nested(|p| p.unary_expr())
    }

    fn sizeof_or_alignof(&mut self, is_sizeof: bool) -> PResult<Expr> {
        let loc = self.bump().loc;
        if self.is(P::LParen) && self.starts_type_name_at(1) {
            self.bump();
            let ty = Box::new(self.type_name()?);
            self.expect(P::RParen)?;
            if self.is(P::LBrace) {
                // `sizeof (T){...}`: the operand is a compound literal.
                let literal = self.compound_literal(ty, loc)?;
                let operand = self.postfix_ops(literal)?;
                let kind = if is_sizeof { ExprKind::SizeofExpr(Box::new(operand)) } else { ExprKind::AlignofExpr(Box::new(operand)) };
                return Ok(Expr { kind, loc });
            }
            let kind = if is_sizeof { ExprKind::SizeofType(ty) } else { ExprKind::AlignofType(ty) };
            return Ok(Expr { kind, loc });
        }
        let operand = Box::new(self.unary_operand()?);
        let kind = if is_sizeof { ExprKind::SizeofExpr(operand) } else { ExprKind::AlignofExpr(operand) };
        Ok(Expr { kind, loc })
    }

    /// Postfix operators. A call is located at its callee (where a reader
    /// looks for it), the other operators at their operator token.
    fn postfix_ops(&mut self, expr: Expr) -> PResult<Expr> {
        let mut links = 0;
        let chain = self.postfix_chain(expr, &mut links);
        self.release_chain(links);
        chain
    }

    fn postfix_chain(&mut self, mut expr: Expr, links: &mut u32) -> PResult<Expr> {
        loop {
            self.charge_chain_link(links)?;
            let mut loc = self.loc();
            let kind = match self.kind() {
                TokKind::Punct(P::LBracket) => {
                    self.bump();
                    let index = self.expr()?;
                    self.expect(P::RBracket)?;
                    ExprKind::Index(Box::new(expr), Box::new(index))
                }
                TokKind::Punct(P::LParen) => {
                    self.bump();
                    let args = self.call_args()?;
                    loc = expr.loc;
                    ExprKind::Call(Box::new(expr), args)
                }
                TokKind::Punct(p @ (P::Dot | P::Arrow)) => {
                    self.bump();
                    let (field, _) = self.expect_ident()?;
                    ExprKind::Member { base: Box::new(expr), field, arrow: p == P::Arrow }
                }
                TokKind::Punct(P::PlusPlus) => {
                    self.bump();
                    ExprKind::Unary(UnaryOp::PostInc, Box::new(expr))
                }
                TokKind::Punct(P::MinusMinus) => {
                    self.bump();
                    ExprKind::Unary(UnaryOp::PostDec, Box::new(expr))
                }
                _ => return Ok(expr),
            };
            expr = Expr { kind, loc };
        }
    }

    /// After `(`: arguments through `)`.
    fn call_args(&mut self) -> PResult<Vec<Expr>> {
        let mut args = Vec::new();
        if self.eat(P::RParen) {
            return Ok(args);
        }
        loop {
            args.push(self.assign_expr()?);
            if !self.eat(P::Comma) {
                break;
            }
        }
        self.expect(P::RParen)?;
        Ok(args)
    }

    fn primary_expr(&mut self) -> PResult<Expr> {
        let tok = self.peek();
        let loc = tok.loc;
        let kind = match tok.kind {
            TokKind::Ident => {
                self.bump();
                match self.text(tok) {
                    "__CPROVER_forall" => self.cprover_quantifier(tok, ir::Quantifier::Forall)?,
                    "__CPROVER_exists" => self.cprover_quantifier(tok, ir::Quantifier::Exists)?,
                    name => ExprKind::Ident(name.to_string()),
                }
            }
            TokKind::Number => {
                self.bump();
                super::literal::number(self.text(tok)).map_err(|msg| self.error_at(loc, msg))?
            }
            TokKind::Char(prefix) => {
                self.bump();
                super::literal::char_constant(self.text(tok), prefix).map_err(|msg| self.error_at(loc, msg))?
            }
            TokKind::Str(_) => self.string_literal()?,
            TokKind::Punct(P::LParen) if self.is_at(1, P::LBrace) => {
                self.bump();
                let block = self.block()?;
                self.expect(P::RParen)?;
                ExprKind::StmtExpr(block)
            }
            TokKind::Punct(P::LParen) => {
                self.bump();
                let inner = self.expr()?;
                self.expect(P::RParen)?;
                return Ok(inner);
            }
            TokKind::Kw(Kw::Generic) => self.generic_selection()?,
            TokKind::Kw(Kw::VaArg) => {
                self.bump();
                self.expect(P::LParen)?;
                let list = self.assign_expr()?;
                self.expect(P::Comma)?;
                let ty = self.type_name()?;
                self.expect(P::RParen)?;
                ExprKind::VaArg(Box::new(list), Box::new(ty))
            }
            TokKind::Kw(Kw::Offsetof) => self.offsetof()?,
            TokKind::Kw(Kw::TypesCompatible) => {
                self.bump();
                self.expect(P::LParen)?;
                let first = self.type_name()?;
                self.expect(P::Comma)?;
                let second = self.type_name()?;
                self.expect(P::RParen)?;
                ExprKind::TypesCompatible(Box::new(first), Box::new(second))
            }
            TokKind::Kw(Kw::ChooseExpr) => {
                self.bump();
                self.expect(P::LParen)?;
                let cond = self.assign_expr()?;
                self.expect(P::Comma)?;
                let then = self.assign_expr()?;
                self.expect(P::Comma)?;
                let otherwise = self.assign_expr()?;
                self.expect(P::RParen)?;
                ExprKind::ChooseExpr(Box::new(cond), Box::new(then), Box::new(otherwise))
            }
            _ => return Err(self.expected("an expression")),
        };
        Ok(Expr { kind, loc })
    }

    /// Adjacent string literals, concatenated.
    fn string_literal(&mut self) -> PResult<ExprKind> {
        let mut pieces = Vec::new();
        while let TokKind::Str(prefix) = self.kind() {
            let tok = self.bump();
            pieces.push((self.text(tok), prefix, tok.loc));
        }
        super::literal::string(&pieces).map_err(|(loc, msg)| self.error_at(loc, msg))
    }

    /// A string literal where the grammar wants text (asm templates,
    /// `_Static_assert` messages, asm labels), as UTF-8 (lossy).
    pub(super) fn string_text(&mut self) -> PResult<String> {
        if !matches!(self.kind(), TokKind::Str(_)) {
            return Err(self.expected("a string literal"));
        }
        match self.string_literal()? {
            ExprKind::StringLit { units, prefix: StrPrefix::None | StrPrefix::Utf8 } => {
                let bytes: Vec<u8> = units.iter().map(|&u| u as u8).collect();
                Ok(String::from_utf8_lossy(&bytes).into_owned())
            }
            ExprKind::StringLit { units, .. } => Ok(units.iter().filter_map(|&u| char::from_u32(u)).collect()),
            _ => Err(self.expected("a string literal")),
        }
    }

    fn generic_selection(&mut self) -> PResult<ExprKind> {
        self.bump();
        self.expect(P::LParen)?;
        let controlling = self.assign_expr()?;
        let mut associations = Vec::new();
        while self.eat(P::Comma) {
            let ty = if self.eat_kw(Kw::Default) { None } else { Some(self.type_name()?) };
            self.expect(P::Colon)?;
            associations.push((ty, self.assign_expr()?));
        }
        self.expect(P::RParen)?;
        Ok(ExprKind::Generic(Box::new(controlling), associations))
    }

    /// `__builtin_offsetof(T, a.b[i].c)`
    fn offsetof(&mut self) -> PResult<ExprKind> {
        self.bump();
        self.expect(P::LParen)?;
        let ty = self.type_name()?;
        self.expect(P::Comma)?;
        let (first, first_loc) = self.expect_ident()?;
        let mut parts = vec![OffsetofPart::Field(first, first_loc)];
        loop {
            if self.eat(P::Dot) {
                let (name, loc) = self.expect_ident()?;
                parts.push(OffsetofPart::Field(name, loc));
            } else if self.eat(P::LBracket) {
                parts.push(OffsetofPart::Index(self.expr()?));
                self.expect(P::RBracket)?;
            } else {
                break;
            }
        }
        self.expect(P::RParen)?;
        Ok(ExprKind::Offsetof(Box::new(ty), parts))
    }
}
