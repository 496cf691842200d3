//! The parser: a hand-written recursive-descent parser from tokens to an
//! [`ast::TranslationUnit`](crate::ast::TranslationUnit), for C11/C17 with
//! the GNU extensions real code uses.
//!
//! This module owns the parser state (token cursor, the scoped table that
//! tells typedef names from ordinary identifiers, the nesting-depth guard)
//! and the top level. Declarations live in [`decl`], statements in [`stmt`],
//! expressions in [`expr`], literal decoding in [`literal`]. The first
//! syntax error stops the parse: one precise error beats a cascade.

mod decl;
mod expr;
mod literal;
mod stmt;

use crate::ast::*;
use crate::diag::Diagnostics;
use crate::lex::{Kw, TokKind, Token, Tokens, P};
use ir::Loc;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Nesting limit for expressions, statements, declarators and initializers.
const MAX_DEPTH: u32 = 1000;
/// Left-deep chains (`a + b + c ...`, `p->next->next ...`) are built by
/// loops, not recursion, but every this many links cost one nesting level:
/// the tree's depth then stays below `MAX_DEPTH * CHAIN_LINKS_PER_LEVEL`,
/// which later stages can walk and drop on an ordinary thread's stack.
const CHAIN_LINKS_PER_LEVEL: u32 = 16;
/// The parse runs on its own thread with this stack, so that `MAX_DEPTH`
/// nested constructs fit whatever the caller's stack is.
const PARSE_STACK_BYTES: usize = 256 << 20;

/// Parses one translation unit. Returns `None` after reporting the first
/// syntax error in `diags`.
pub fn parse(tokens: &Tokens, diags: &mut Diagnostics) -> Option<TranslationUnit> {
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("parser".into())
            .stack_size(PARSE_STACK_BYTES)
            .spawn_scoped(scope, || Parser::new(tokens).translation_unit())
            .map(|handle| handle.join())
    });
    match outcome {
        Ok(Ok(Ok(unit))) => Some(unit),
        Ok(Ok(Err(err))) => {
            diags.error(err.loc, err.message);
            None
        }
        Ok(Err(_)) => {
            diags.error(Loc::NONE, "internal error: the parser panicked");
            None
        }
        Err(spawn_error) => {
            diags.error(Loc::NONE, format!("{} cannot start the parser thread: {spawn_error}", crate::diag::OUT_OF_MEMORY));
            None
        }
    }
}

pub(crate) struct ParseError {
    loc: Loc,
    message: String,
}

type PResult<T> = Result<T, ParseError>;

/// One scope of ordinary identifiers: `true` for a typedef name.
type Scope = HashMap<String, bool, BuildHasherDefault<IdentHasher>>;

/// A multiplicative hash for identifiers: every identifier token is looked
/// up, and SipHash's flooding resistance buys nothing for source text.
#[derive(Default)]
struct IdentHasher(u64);

impl Hasher for IdentHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) struct Parser<'t, 'a> {
    tokens: &'t Tokens<'a>,
    list: &'t [Token],
    pos: usize,
    scopes: Vec<Scope>,
    depth: u32,
    /// The first of `tokens.unroll_pragmas` not yet attached to a loop.
    next_unroll: usize,
}

impl<'t, 'a> Parser<'t, 'a> {
    fn new(tokens: &'t Tokens<'a>) -> Self {
        Parser { tokens, list: &tokens.list, pos: 0, scopes: vec![Scope::default()], depth: 0, next_unroll: 0 }
    }

    fn translation_unit(&mut self) -> PResult<TranslationUnit> {
        let mut items = Vec::new();
        while !self.at_eof() {
            self.external_decl(&mut items)?;
        }
        self.unroll_pragma()?;
        Ok(TranslationUnit { items })
    }

    // ---- token cursor ----

    fn peek(&self) -> &'t Token {
        &self.list[self.pos]
    }
    fn peek_at(&self, ahead: usize) -> &'t Token {
        let last = self.list.len() - 1;
        &self.list[(self.pos + ahead).min(last)]
    }
    fn kind(&self) -> TokKind {
        self.peek().kind
    }
    fn kind_at(&self, ahead: usize) -> TokKind {
        self.peek_at(ahead).kind
    }
    fn loc(&self) -> Loc {
        self.peek().loc
    }
    fn at_eof(&self) -> bool {
        self.kind() == TokKind::Eof
    }
    fn bump(&mut self) -> &'t Token {
        let tok = &self.list[self.pos];
        if tok.kind != TokKind::Eof {
            self.pos += 1;
        }
        tok
    }
    fn text(&self, tok: &Token) -> &'a str {
        self.tokens.text(tok)
    }
    fn is(&self, p: P) -> bool {
        self.kind() == TokKind::Punct(p)
    }
    fn is_at(&self, ahead: usize, p: P) -> bool {
        self.kind_at(ahead) == TokKind::Punct(p)
    }
    fn is_kw(&self, kw: Kw) -> bool {
        self.kind() == TokKind::Kw(kw)
    }
    fn eat(&mut self, p: P) -> bool {
        let found = self.is(p);
        if found {
            self.pos += 1;
        }
        found
    }
    fn eat_kw(&mut self, kw: Kw) -> bool {
        let found = self.is_kw(kw);
        if found {
            self.pos += 1;
        }
        found
    }
    fn expect(&mut self, p: P) -> PResult<&'t Token> {
        if self.is(p) {
            Ok(self.bump())
        } else {
            Err(self.expected(&format!("`{}`", p.spelling())))
        }
    }
    fn expect_ident(&mut self) -> PResult<(String, Loc)> {
        if self.kind() == TokKind::Ident {
            let tok = self.bump();
            Ok((self.text(tok).to_string(), tok.loc))
        } else {
            Err(self.expected("an identifier"))
        }
    }

    /// `expected WHAT, found TOKEN` at the current token; a contract
    /// clause (CBMC's `__CPROVER_requires`, ...) found where C expects
    /// something else is a construct tarsier does not handle, said so.
    fn expected(&self, what: &str) -> ParseError {
        let tok = self.peek();
        if tok.kind == TokKind::Ident && is_contract_clause(self.text(tok)) {
            return self.error_at(tok.loc, format!("unsupported: function contracts (`{}`)", self.text(tok)));
        }
        let found = match tok.kind {
            TokKind::Eof => "end of file".to_string(),
            _ => format!("`{}`", self.text(tok)),
        };
        self.error_at(tok.loc, format!("expected {what}, found {found}"))
    }
    fn error_at(&self, loc: Loc, message: impl Into<String>) -> ParseError {
        ParseError { loc, message: message.into() }
    }

    /// Two identifiers in a row where a declaration or statement starts:
    /// the first must be a type name nobody declared (a missing header or
    /// typedef), which says more than "expected `;`".
    fn unknown_type_name(&self) -> Option<ParseError> {
        let (first, second) = (self.peek(), self.peek_at(1));
        if first.kind != TokKind::Ident || second.kind != TokKind::Ident || self.ident_names_type(0) {
            return None;
        }
        let name = self.text(first);
        let message = match self.lookup(name) {
            Some(_) => format!("`{name}` is not a type name"),
            None => format!("unknown type name `{name}`"),
        };
        Some(self.error_at(first.loc, message))
    }

    /// Runs `f` one nesting level deeper, failing cleanly past [`MAX_DEPTH`].
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_DEPTH {
            return Err(self.too_deep());
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    /// Counts one more link of a left-deep chain (see [`CHAIN_LINKS_PER_LEVEL`]).
    fn charge_chain_link(&mut self, links: &mut u32) -> PResult<()> {
        if (*links + 1).is_multiple_of(CHAIN_LINKS_PER_LEVEL) {
            if self.depth >= MAX_DEPTH {
                return Err(self.too_deep());
            }
            self.depth += 1;
        }
        *links += 1;
        Ok(())
    }

    fn too_deep(&self) -> ParseError {
        let chain_limit = MAX_DEPTH * CHAIN_LINKS_PER_LEVEL;
        let message = format!(
            "unsupported: nesting deeper than {MAX_DEPTH} levels (an operator chain of {CHAIN_LINKS_PER_LEVEL} links counts as one; at most {chain_limit})"
        );
        self.error_at(self.loc(), message)
    }

    /// Gives back the nesting levels a finished chain of `links` was charged.
    fn release_chain(&mut self, links: u32) {
        self.depth -= links / CHAIN_LINKS_PER_LEVEL;
    }

    // ---- scopes: typedef names versus ordinary identifiers ----

    fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }
    fn pop_scope(&mut self) {
        self.scopes.pop();
    }
    fn declare(&mut self, name: &str, is_typedef: bool) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_string(), is_typedef);
        }
    }
    /// Whether `name` is an identifier declared in some scope.
    fn lookup(&self, name: &str) -> Option<bool> {
        self.scopes.iter().rev().find_map(|scope| scope.get(name).copied())
    }
    /// Whether the token at `ahead` names a type as an identifier: a typedef
    /// name in scope, or a predefined type name not shadowed.
    fn ident_names_type(&self, ahead: usize) -> bool {
        let tok = self.peek_at(ahead);
        if tok.kind != TokKind::Ident {
            return false;
        }
        let name = self.text(tok);
        match self.lookup(name) {
            Some(is_typedef) => is_typedef,
            None => predefined_type(name).is_some(),
        }
    }
}

/// Type names that are identifiers rather than keywords: GCC's predefined
/// 128-bit typedefs, C23's `bool` when no declaration shadows it, and
/// CBMC's built-in types: `__CPROVER_bool` (its one-bit Boolean: a
/// conversion to it is `!= 0`, as `_Bool`'s) and `__CPROVER_size_t`,
/// `__CPROVER_ssize_t` (the data model's `size_t` and its signed
/// counterpart, which the type checker resolves).
fn predefined_type(name: &str) -> Option<TypeSpec> {
    let basic = |ty| Some(TypeSpec::Basic { ty, complex: false });
    match name {
        "__int128_t" => basic(BasicType::Int128),
        "__uint128_t" => basic(BasicType::UInt128),
        "bool" | "__CPROVER_bool" => basic(BasicType::Bool),
        "__CPROVER_size_t" | "__CPROVER_ssize_t" => Some(TypeSpec::TypedefName(name.to_string())),
        _ => None,
    }
}

#[cfg(test)]
mod tests;

/// Whether `name` is a clause of a CBMC or ESBMC function contract.
fn is_contract_clause(name: &str) -> bool {
    const CLAUSES: &[&str] = &["requires", "ensures", "assigns", "frees"];
    let clause = name.strip_prefix("__CPROVER_").or_else(|| name.strip_prefix("__ESBMC_"));
    clause.is_some_and(|clause| CLAUSES.contains(&clause))
}
