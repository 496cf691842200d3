//! The lexer: splits preprocessed C text into tokens.
//!
//! Tokens are spans into the text (no allocation per token); keywords are
//! classified here, literal values are decoded by the parser. Locations
//! follow the preprocessor's line markers (`# N "file" flags`, `#line N`)
//! back to the original files. `#pragma` lines are skipped except
//! `#pragma pack`, whose effect is recorded in [`Tokens::packs`] because it
//! changes struct layout, and the loop-unrolling pragmas, recorded in
//! [`Tokens::unroll_pragmas`] because they bound the unwinding of a loop.
//! `#define`/`#undef` lines (kept by `cpp -dD`) feed the macro table that
//! resolves an unrolling count written as a name.

use crate::ast::StrPrefix;
use crate::diag::Diagnostics;
use crate::pragma::{self, Macros, UnrollBound};
use ir::{FileId, Loc, SourceFiles};
use std::path::Path;

/// Keywords, with GNU alternate spellings folded into one variant.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Kw {
    Auto,
    Break,
    Case,
    Char,
    Const,
    Continue,
    Default,
    Do,
    Double,
    Else,
    Enum,
    Extern,
    Float,
    For,
    Goto,
    If,
    Inline,
    Int,
    Long,
    Register,
    Restrict,
    Return,
    Short,
    Signed,
    Sizeof,
    Static,
    Struct,
    Switch,
    Typedef,
    Union,
    Unsigned,
    Void,
    Volatile,
    While,
    Alignas,
    Alignof,
    Atomic,
    Bool,
    Complex,
    Generic,
    Imaginary,
    Noreturn,
    StaticAssert,
    ThreadLocal,
    Attribute,
    Extension,
    Asm,
    Typeof,
    TypeofUnqual,
    Int128,
    Float16,
    Float32,
    Float64,
    Float128,
    Float32x,
    Float64x,
    Decimal,
    BitInt,
    VaList,
    VaArg,
    Offsetof,
    TypesCompatible,
    ChooseExpr,
    Real,
    Imag,
    AutoType,
    Label,
}

fn keyword(word: &[u8]) -> Option<Kw> {
    use Kw::*;
    Some(match word {
        b"auto" => Auto,
        b"break" => Break,
        b"case" => Case,
        b"char" => Char,
        b"const" | b"__const" | b"__const__" => Const,
        b"continue" => Continue,
        b"default" => Default,
        b"do" => Do,
        b"double" => Double,
        b"else" => Else,
        b"enum" => Enum,
        b"extern" => Extern,
        b"float" => Float,
        b"for" => For,
        b"goto" => Goto,
        b"if" => If,
        b"inline" | b"__inline" | b"__inline__" => Inline,
        b"int" => Int,
        b"long" => Long,
        b"register" => Register,
        b"restrict" | b"__restrict" | b"__restrict__" => Restrict,
        b"return" => Return,
        b"short" => Short,
        b"signed" | b"__signed" | b"__signed__" => Signed,
        b"sizeof" => Sizeof,
        b"static" => Static,
        b"struct" => Struct,
        b"switch" => Switch,
        b"typedef" => Typedef,
        b"union" => Union,
        b"unsigned" => Unsigned,
        b"void" => Void,
        b"volatile" | b"__volatile" | b"__volatile__" => Volatile,
        b"while" => While,
        b"_Alignas" | b"alignas" => Alignas,
        b"_Alignof" | b"alignof" | b"__alignof" | b"__alignof__" => Alignof,
        b"_Atomic" => Atomic,
        b"_Bool" => Bool,
        b"_Complex" | b"__complex" | b"__complex__" => Complex,
        b"_Generic" => Generic,
        b"_Imaginary" => Imaginary,
        b"_Noreturn" => Noreturn,
        b"_Static_assert" | b"static_assert" => StaticAssert,
        b"_Thread_local" | b"thread_local" | b"__thread" => ThreadLocal,
        b"__attribute__" | b"__attribute" => Attribute,
        b"__extension__" => Extension,
        b"asm" | b"__asm" | b"__asm__" => Asm,
        b"typeof" | b"__typeof" | b"__typeof__" => Typeof,
        b"typeof_unqual" | b"__typeof_unqual" | b"__typeof_unqual__" => TypeofUnqual,
        b"__int128" => Int128,
        b"_Float16" => Float16,
        b"_Float32" => Float32,
        b"_Float64" => Float64,
        b"_Float128" | b"__float128" => Float128,
        b"_Float32x" => Float32x,
        b"_Float64x" => Float64x,
        b"_Decimal32" | b"_Decimal64" | b"_Decimal128" => Decimal,
        b"_BitInt" | b"_ExtInt" => BitInt,
        b"__builtin_va_list" => VaList,
        b"__builtin_va_arg" => VaArg,
        b"__builtin_offsetof" => Offsetof,
        b"__builtin_types_compatible_p" => TypesCompatible,
        b"__builtin_choose_expr" => ChooseExpr,
        b"__real__" | b"__real" => Real,
        b"__imag__" | b"__imag" => Imag,
        b"__auto_type" => AutoType,
        b"__label__" => Label,
        _ => return None,
    })
}

/// Punctuators; digraphs map to the punctuator they spell.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum P {
    LBracket,
    RBracket,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Dot,
    Arrow,
    PlusPlus,
    MinusMinus,
    Amp,
    Star,
    Plus,
    Minus,
    Tilde,
    Bang,
    Slash,
    Percent,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Ne,
    Caret,
    Pipe,
    AmpAmp,
    PipePipe,
    Question,
    Colon,
    ColonColon,
    Semi,
    Ellipsis,
    Assign,
    StarAssign,
    SlashAssign,
    PercentAssign,
    PlusAssign,
    MinusAssign,
    ShlAssign,
    ShrAssign,
    AmpAssign,
    CaretAssign,
    PipeAssign,
    Comma,
    Hash,
    HashHash,
    /// CBMC's implication `==>` (ACSL `⇒`).
    Implies,
    /// CBMC's `<==>` (ACSL `⇔`): `==` with the precedence of a connective.
    Equivalent,
    /// CBMC's logical exclusive or `^^` (ACSL `⊻`).
    LogXor,
    /// ACSL's `\forall` (`∀`), which CBMC accepts in C expressions.
    Forall,
    /// ACSL's `\exists` (`∃`).
    Exists,
}

impl P {
    pub fn spelling(self) -> &'static str {
        use P::*;
        match self {
            LBracket => "[",
            RBracket => "]",
            LParen => "(",
            RParen => ")",
            LBrace => "{",
            RBrace => "}",
            Dot => ".",
            Arrow => "->",
            PlusPlus => "++",
            MinusMinus => "--",
            Amp => "&",
            Star => "*",
            Plus => "+",
            Minus => "-",
            Tilde => "~",
            Bang => "!",
            Slash => "/",
            Percent => "%",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Ne => "!=",
            Caret => "^",
            Pipe => "|",
            AmpAmp => "&&",
            PipePipe => "||",
            Question => "?",
            Colon => ":",
            ColonColon => "::",
            Semi => ";",
            Ellipsis => "...",
            Assign => "=",
            StarAssign => "*=",
            SlashAssign => "/=",
            PercentAssign => "%=",
            PlusAssign => "+=",
            MinusAssign => "-=",
            ShlAssign => "<<=",
            ShrAssign => ">>=",
            AmpAssign => "&=",
            CaretAssign => "^=",
            PipeAssign => "|=",
            Comma => ",",
            Hash => "#",
            HashHash => "##",
            Implies => "==>",
            Equivalent => "<==>",
            LogXor => "^^",
            Forall => "\\forall",
            Exists => "\\exists",
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum TokKind {
    Ident,
    Kw(Kw),
    Punct(P),
    /// A preprocessing number: integer or floating literal, decoded by the parser.
    Number,
    Char(StrPrefix),
    Str(StrPrefix),
    Eof,
}

/// One token: its kind, its byte span in the text, and its original location.
#[derive(Copy, Clone, Debug)]
pub struct Token {
    pub kind: TokKind,
    pub start: u32,
    pub end: u32,
    pub loc: Loc,
}

/// The tokens of one translation unit; the list always ends with `Eof`.
pub struct Tokens<'a> {
    pub src: &'a str,
    pub list: Vec<Token>,
    /// `#pragma pack` state changes: from token index `.0` on, the maximum
    /// member alignment is `.1` (`None`: the default).
    pub packs: Vec<(u32, Option<u32>)>,
    /// The loop-unrolling pragmas, in order.
    pub unroll_pragmas: Vec<UnrollPragma>,
}

/// A loop-unrolling pragma, standing before token index `at`.
#[derive(Clone, Debug)]
pub struct UnrollPragma {
    pub at: u32,
    pub loc: Loc,
    pub bound: UnrollBound,
}

impl<'a> Tokens<'a> {
    pub fn text(&self, tok: &Token) -> &'a str {
        &self.src[tok.start as usize..tok.end as usize]
    }
    /// The `#pragma pack` value in force at token index `index`.
    pub fn pack_at(&self, index: usize) -> Option<u32> {
        let pos = self.packs.partition_point(|&(at, _)| at as usize <= index);
        pos.checked_sub(1).and_then(|p| self.packs[p].1)
    }
}

/// Splits `text` (preprocessed C, from `input`) into tokens.
pub fn tokenize<'a>(
    text: &'a str,
    input: &Path,
    files: &mut SourceFiles,
    diags: &mut Diagnostics,
) -> Option<Tokens<'a>> {
    if text.len() >= u32::MAX as usize {
        diags.error(Loc::NONE, format!("{}: input too large", input.display()));
        return None;
    }
    let file = files.intern(&input.to_string_lossy());
    let mut lexer = Lexer {
        src: text.as_bytes(),
        pos: 0,
        line: 1,
        line_start: 0,
        file,
        files,
        tokens: Vec::with_capacity(text.len() / 4),
        packs: Vec::new(),
        pack_stack: Vec::new(),
        pack: None,
        macros: Macros::default(),
        unroll_pragmas: Vec::new(),
    };
    match lexer.run() {
        Ok(()) => Some(Tokens { src: text, list: lexer.tokens, packs: lexer.packs, unroll_pragmas: lexer.unroll_pragmas }),
        Err((loc, msg)) => {
            diags.error(loc, msg);
            None
        }
    }
}

type LexResult<T> = Result<T, (Loc, String)>;

struct Lexer<'a, 'f> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
    file: FileId,
    files: &'f mut SourceFiles,
    tokens: Vec<Token>,
    packs: Vec<(u32, Option<u32>)>,
    pack_stack: Vec<Option<u32>>,
    pack: Option<u32>,
    macros: Macros,
    unroll_pragmas: Vec<UnrollPragma>,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80
}

fn is_ident_continue(b: u8) -> bool {
    is_ident_start(b) || b.is_ascii_digit()
}

/// The ACSL operator symbols CBMC reads in C expressions, as the
/// punctuator each one spells. None of these characters may appear in a
/// C identifier (C11 Annex D), so reading them as operators changes no
/// program that gcc accepts.
const ACSL_SYMBOLS: &[(&str, P)] = &[
    ("∀", P::Forall),
    ("∃", P::Exists),
    ("⇒", P::Implies),
    ("⇔", P::Equivalent),
    ("⊻", P::LogXor),
    ("≥", P::Ge),
    ("≤", P::Le),
    ("≡", P::EqEq),
    ("≢", P::Ne),
    ("∧", P::AmpAmp),
    ("∨", P::PipePipe),
    ("¬", P::Bang),
    ("−", P::Minus),
];

/// The ACSL operator symbol `text` starts with, and its length in bytes.
fn acsl_symbol(text: &[u8]) -> Option<(P, usize)> {
    ACSL_SYMBOLS.iter().find(|(symbol, _)| text.starts_with(symbol.as_bytes())).map(|&(symbol, p)| (p, symbol.len()))
}

impl<'a, 'f> Lexer<'a, 'f> {
    fn peek(&self, ahead: usize) -> u8 {
        self.src.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn loc_at(&self, pos: usize) -> Loc {
        Loc { file: self.file, line: self.line, col: (pos - self.line_start + 1) as u32 }
    }

    fn newline(&mut self) {
        self.pos += 1;
        self.line = self.line.wrapping_add(1);
        self.line_start = self.pos;
    }

    fn run(&mut self) -> LexResult<()> {
        let mut at_line_start = true;
        loop {
            let b = self.peek(0);
            match b {
                0 if self.pos >= self.src.len() => break,
                b'\n' => {
                    self.newline();
                    at_line_start = true;
                    continue;
                }
                b' ' | b'\t' | b'\r' | b'\x0c' | b'\x0b' => {
                    self.pos += 1;
                    continue;
                }
                b'\\' if self.peek(1) == b'\n' || (self.peek(1) == b'\r' && self.peek(2) == b'\n') => {
                    self.pos += if self.peek(1) == b'\r' { 2 } else { 1 };
                    self.newline();
                    continue;
                }
                b'/' if self.peek(1) == b'/' => {
                    self.skip_line();
                    continue;
                }
                b'/' if self.peek(1) == b'*' => {
                    self.skip_block_comment()?;
                    continue;
                }
                b'#' if at_line_start => {
                    self.directive()?;
                    continue;
                }
                _ => {}
            }
            at_line_start = false;
            self.token()?;
        }
        let loc = self.loc_at(self.pos);
        let end = self.pos as u32;
        self.tokens.push(Token { kind: TokKind::Eof, start: end, end, loc });
        Ok(())
    }

    fn skip_line(&mut self) {
        while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
            self.pos += 1;
        }
    }

    fn skip_block_comment(&mut self) -> LexResult<()> {
        let start = self.loc_at(self.pos);
        self.pos += 2;
        loop {
            match self.peek(0) {
                0 if self.pos >= self.src.len() => {
                    return Err((start, "unterminated comment".into()));
                }
                b'\n' => self.newline(),
                b'*' if self.peek(1) == b'/' => {
                    self.pos += 2;
                    return Ok(());
                }
                _ => self.pos += 1,
            }
        }
    }

    /// A `#` line: a line marker, `#line`, `#pragma`, or (in hand-written
    /// `.i` files) something the preprocessor should have handled.
    fn directive(&mut self) -> LexResult<()> {
        let hash_loc = self.loc_at(self.pos);
        let line_begin = self.pos;
        self.skip_line();
        let line = std::str::from_utf8(&self.src[line_begin + 1..self.pos]).unwrap_or("");
        let rest = line.trim_start();
        let word_end = rest.find(|c: char| !c.is_ascii_alphanumeric() && c != '_').unwrap_or(rest.len());
        let (word, args) = rest.split_at(word_end);
        if word.is_empty() && rest.is_empty() {
            return Ok(()); // the null directive
        }
        if word.is_empty() {
            return Err((hash_loc, "stray `#` in preprocessed input".into()));
        }
        if word.bytes().all(|b| b.is_ascii_digit()) {
            return self.line_marker(rest, hash_loc);
        }
        match word {
            "line" => self.line_marker(args.trim_start(), hash_loc),
            "pragma" => {
                self.pragma(args.trim(), hash_loc);
                Ok(())
            }
            "define" => {
                self.macros.define(args);
                Ok(())
            }
            "undef" => {
                self.macros.undefine(args);
                Ok(())
            }
            "ident" | "sccs" => Ok(()),
            _ => Err((hash_loc, format!("unexpected preprocessor directive `#{word}` in preprocessed input"))),
        }
    }

    /// `N "file" flags`: the next line is line N of `file`.
    fn line_marker(&mut self, text: &str, loc: Loc) -> LexResult<()> {
        let digits_end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
        let number: u32 = text[..digits_end]
            .parse()
            .map_err(|_| (loc, format!("bad line number in line marker `{text}`")))?;
        let rest = text[digits_end..].trim_start();
        if let Some(quoted) = rest.strip_prefix('"') {
            let name = unescape_file_name(quoted).ok_or((loc, "unterminated file name in line marker".to_string()))?;
            self.file = self.files.intern(&name);
        }
        // The marker's own newline is consumed by the main loop, which
        // increments the line: compensate so the next line is `number`.
        self.line = number.wrapping_sub(1);
        Ok(())
    }

    /// Records `#pragma pack(...)` and the unrolling pragmas; every other
    /// pragma is ignored.
    fn pragma(&mut self, args: &str, loc: Loc) {
        if let Some(bound) = pragma::unroll_bound(args, &self.macros) {
            let at = self.tokens.len() as u32;
            self.unroll_pragmas.push(UnrollPragma { at, loc, bound });
            return;
        }
        let Some(spec) = args.strip_prefix("pack") else { return };
        let inner = spec.trim().trim_start_matches('(').trim_end_matches(')');
        let parts: Vec<&str> = inner.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
        let number = parts.iter().find_map(|p| p.parse::<u32>().ok());
        match parts.first().copied() {
            Some("push") => {
                self.pack_stack.push(self.pack);
                if number.is_some() {
                    self.pack = number;
                }
            }
            Some("pop") => self.pack = self.pack_stack.pop().unwrap_or(None),
            None => self.pack = None,
            Some(_) => self.pack = number,
        }
        let index = self.tokens.len() as u32;
        self.packs.push((index, self.pack));
    }

    fn push(&mut self, kind: TokKind, start: usize) {
        let loc = self.loc_at(start);
        self.tokens.push(Token { kind, start: start as u32, end: self.pos as u32, loc });
    }

    fn token(&mut self) -> LexResult<()> {
        let start = self.pos;
        let b = self.peek(0);
        if b.is_ascii_digit() || (b == b'.' && self.peek(1).is_ascii_digit()) {
            self.number();
            self.push(TokKind::Number, start);
            return Ok(());
        }
        if let Some((p, len)) = Some(b).filter(|&b| b >= 0x80).and_then(|_| acsl_symbol(&self.src[start..])) {
            self.pos += len;
            self.push(TokKind::Punct(p), start);
            return Ok(());
        }
        if is_ident_start(b) {
            return self.word(start);
        }
        if b == b'"' || b == b'\'' {
            return self.quoted(start, StrPrefix::None);
        }
        let punct = self.punct().ok_or_else(|| {
            let word_end = self.src[start + 1..].iter().position(|&b| !is_ident_continue(b)).map_or(self.src.len(), |n| start + 1 + n);
            if b == b'\\' && word_end > start + 1 {
                let word = String::from_utf8_lossy(&self.src[start..word_end]);
                return (self.loc_at(start), format!("unsupported: the ACSL construct `{word}`"));
            }
            let ch = std::str::from_utf8(&self.src[start..]).ok().and_then(|s| s.chars().next()).unwrap_or('?');
            (self.loc_at(start), format!("unexpected character `{}`", ch.escape_default()))
        })?;
        self.push(TokKind::Punct(punct), start);
        Ok(())
    }

    /// An identifier, keyword, or the prefix of a string/char literal.
    fn word(&mut self, start: usize) -> LexResult<()> {
        while is_ident_continue(self.peek(0)) && (self.peek(0) < 0x80 || acsl_symbol(&self.src[self.pos..]).is_none()) {
            self.pos += 1;
        }
        let word = &self.src[start..self.pos];
        if matches!(self.peek(0), b'"' | b'\'') {
            let prefix = match word {
                b"u8" => Some(StrPrefix::Utf8),
                b"u" => Some(StrPrefix::Utf16),
                b"U" => Some(StrPrefix::Utf32),
                b"L" => Some(StrPrefix::Wide),
                _ => None,
            };
            if let Some(prefix) = prefix {
                return self.quoted(start, prefix);
            }
        }
        let kind = match keyword(word) {
            Some(kw) => TokKind::Kw(kw),
            None => TokKind::Ident,
        };
        self.push(kind, start);
        Ok(())
    }

    fn quoted(&mut self, start: usize, prefix: StrPrefix) -> LexResult<()> {
        let quote = self.peek(0);
        // Taken now: a backslash-newline inside moves the line start.
        let loc = self.loc_at(start);
        self.pos += 1;
        loop {
            let c = self.peek(0);
            if self.pos >= self.src.len() || c == b'\n' {
                let what = if quote == b'"' { "string literal" } else { "character constant" };
                return Err((loc, format!("unterminated {what}")));
            }
            if c == b'\\' && self.peek(1) == b'\n' {
                self.pos += 1;
                self.newline();
            } else if c == b'\\' {
                self.pos = (self.pos + 2).min(self.src.len());
            } else {
                self.pos += 1;
                if c == quote {
                    break;
                }
            }
        }
        let kind = if quote == b'"' { TokKind::Str(prefix) } else { TokKind::Char(prefix) };
        self.tokens.push(Token { kind, start: start as u32, end: self.pos as u32, loc });
        Ok(())
    }

    /// A preprocessing number (C11 6.4.8): digits, letters, `.`, `_`, and
    /// signs after an exponent letter.
    fn number(&mut self) {
        self.pos += 1;
        loop {
            let b = self.peek(0);
            let exponent_sign = matches!(b, b'+' | b'-') && matches!(self.src[self.pos - 1], b'e' | b'E' | b'p' | b'P');
            let digit_separator = b == b'\'' && self.peek(1).is_ascii_alphanumeric();
            if !(exponent_sign || digit_separator || b.is_ascii_alphanumeric() || b == b'.' || b == b'_') {
                break;
            }
            self.pos += 1;
        }
    }

    /// Whether a backslash and then the whole word `word` stand here
    /// (ACSL's `\\forall`).
    fn acsl_word(&self, word: &str) -> bool {
        let rest = &self.src[self.pos + 1..];
        rest.starts_with(word.as_bytes()) && !rest.get(word.len()).copied().is_some_and(is_ident_continue)
    }

    fn punct(&mut self) -> Option<P> {
        use P::*;
        let (p, len) = match (self.peek(0), self.peek(1), self.peek(2)) {
            (b'<', b'=', b'=') if self.peek(3) == b'>' => (Equivalent, 4),
            (b'=', b'=', b'>') => (Implies, 3),
            (b'^', b'^', _) => (LogXor, 2),
            (b'\\', _, _) if self.acsl_word("forall") => (Forall, 7),
            (b'\\', _, _) if self.acsl_word("exists") => (Exists, 7),
            (b'.', b'.', b'.') => (Ellipsis, 3),
            (b'<', b'<', b'=') => (ShlAssign, 3),
            (b'>', b'>', b'=') => (ShrAssign, 3),
            (b'%', b':', b'%') if self.peek(3) == b':' => (HashHash, 4),
            (b'-', b'>', _) => (Arrow, 2),
            (b'+', b'+', _) => (PlusPlus, 2),
            (b'-', b'-', _) => (MinusMinus, 2),
            (b'<', b'<', _) => (Shl, 2),
            (b'>', b'>', _) => (Shr, 2),
            (b'<', b'=', _) => (Le, 2),
            (b'>', b'=', _) => (Ge, 2),
            (b'=', b'=', _) => (EqEq, 2),
            (b'!', b'=', _) => (Ne, 2),
            (b'&', b'&', _) => (AmpAmp, 2),
            (b'|', b'|', _) => (PipePipe, 2),
            (b'*', b'=', _) => (StarAssign, 2),
            (b'/', b'=', _) => (SlashAssign, 2),
            (b'%', b'=', _) => (PercentAssign, 2),
            (b'+', b'=', _) => (PlusAssign, 2),
            (b'-', b'=', _) => (MinusAssign, 2),
            (b'&', b'=', _) => (AmpAssign, 2),
            (b'^', b'=', _) => (CaretAssign, 2),
            (b'|', b'=', _) => (PipeAssign, 2),
            (b'#', b'#', _) => (HashHash, 2),
            (b':', b':', _) => (ColonColon, 2),
            (b'<', b':', _) => (LBracket, 2),
            (b':', b'>', _) => (RBracket, 2),
            (b'<', b'%', _) => (LBrace, 2),
            (b'%', b'>', _) => (RBrace, 2),
            (b'%', b':', _) => (Hash, 2),
            (b'[', _, _) => (LBracket, 1),
            (b']', _, _) => (RBracket, 1),
            (b'(', _, _) => (LParen, 1),
            (b')', _, _) => (RParen, 1),
            (b'{', _, _) => (LBrace, 1),
            (b'}', _, _) => (RBrace, 1),
            (b'.', _, _) => (Dot, 1),
            (b'&', _, _) => (Amp, 1),
            (b'*', _, _) => (Star, 1),
            (b'+', _, _) => (Plus, 1),
            (b'-', _, _) => (Minus, 1),
            (b'~', _, _) => (Tilde, 1),
            (b'!', _, _) => (Bang, 1),
            (b'/', _, _) => (Slash, 1),
            (b'%', _, _) => (Percent, 1),
            (b'<', _, _) => (Lt, 1),
            (b'>', _, _) => (Gt, 1),
            (b'^', _, _) => (Caret, 1),
            (b'|', _, _) => (Pipe, 1),
            (b'?', _, _) => (Question, 1),
            (b':', _, _) => (Colon, 1),
            (b';', _, _) => (Semi, 1),
            (b'=', _, _) => (Assign, 1),
            (b',', _, _) => (Comma, 1),
            (b'#', _, _) => (Hash, 1),
            _ => return None,
        };
        self.pos += len;
        Some(p)
    }
}

/// The file name of a line marker, after its opening quote, with the
/// preprocessor's backslash escapes undone.
fn unescape_file_name(quoted: &str) -> Option<String> {
    let mut name = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(name),
            '\\' => name.push(chars.next()?),
            _ => name.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex(text: &str) -> (Vec<(TokKind, String, u32, u32)>, SourceFiles) {
        let mut files = SourceFiles::default();
        let mut diags = Diagnostics::default();
        let toks = tokenize(text, Path::new("t.c"), &mut files, &mut diags).expect("lexes");
        let list = toks.list.iter().map(|t| (t.kind, toks.text(t).to_string(), t.loc.line, t.loc.col)).collect();
        (list, files)
    }

    #[test]
    fn punctuators_and_digraphs() {
        let (toks, _) = lex("a<<=b<:c:>%:%: ...->");
        let kinds: Vec<TokKind> = toks.iter().map(|t| t.0).collect();
        use P::*;
        assert_eq!(
            kinds,
            vec![
                TokKind::Ident,
                TokKind::Punct(ShlAssign),
                TokKind::Ident,
                TokKind::Punct(LBracket),
                TokKind::Ident,
                TokKind::Punct(RBracket),
                TokKind::Punct(HashHash),
                TokKind::Punct(Ellipsis),
                TokKind::Punct(Arrow),
                TokKind::Eof
            ]
        );
    }

    #[test]
    fn line_markers_set_file_and_line() {
        let (toks, files) = lex("# 1 \"t.c\"\n# 10 \"dir/x.h\" 1 3\nint x;\n  y\n# 5 \"t.c\" 2\nz");
        assert_eq!(toks[0].1, "int");
        assert_eq!((toks[0].2, toks[0].3), (10, 1));
        assert_eq!((toks[3].2, toks[3].3), (11, 3));
        assert_eq!(toks[4].1, "z");
        assert_eq!(toks[4].2, 5);
        assert!(files.iter().any(|(_, n)| n == "dir/x.h"));
    }

    #[test]
    fn literals_prefixes_and_comments() {
        let (toks, _) = lex("u8\"a\" L'b' 0x1p-3f 1e+5 /* c\n */ x$y // z\n.5");
        let kinds: Vec<TokKind> = toks.iter().map(|t| t.0).collect();
        assert_eq!(
            kinds,
            vec![
                TokKind::Str(StrPrefix::Utf8),
                TokKind::Char(StrPrefix::Wide),
                TokKind::Number,
                TokKind::Number,
                TokKind::Ident,
                TokKind::Number,
                TokKind::Eof
            ]
        );
        assert_eq!(toks[2].1, "0x1p-3f");
        assert_eq!(toks[4].1, "x$y");
        assert_eq!(toks[4].2, 2);
    }

    #[test]
    fn line_splices_and_crlf_count_lines() {
        let (toks, _) = lex("a \\\r\nb\r\nc \\\nd");
        let lines: Vec<u32> = toks.iter().map(|t| t.2).collect();
        assert_eq!(lines, vec![1, 2, 3, 4, 4]);
    }

    #[test]
    fn pragma_pack_is_recorded() {
        let mut files = SourceFiles::default();
        let mut diags = Diagnostics::default();
        let text = "a\n#pragma pack(push, 1)\nb\n#pragma pack(pop)\nc\n#pragma once\n";
        let toks = tokenize(text, Path::new("t.c"), &mut files, &mut diags).unwrap();
        assert_eq!(toks.pack_at(0), None);
        assert_eq!(toks.pack_at(1), Some(1));
        assert_eq!(toks.pack_at(2), None);
    }

    #[test]
    fn errors_have_locations() {
        let mut files = SourceFiles::default();
        let mut diags = Diagnostics::default();
        assert!(tokenize("int x;\n  \"abc\n", Path::new("t.c"), &mut files, &mut diags).is_none());
        assert_eq!((diags.list[0].loc.line, diags.list[0].loc.col), (2, 3));
        assert!(diags.list[0].message.contains("unterminated string"));
        let mut diags = Diagnostics::default();
        assert!(tokenize("a @ b", Path::new("t.c"), &mut files, &mut diags).is_none());
        assert!(diags.list[0].message.contains("unexpected character `@`"));
    }
}
