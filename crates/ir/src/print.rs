//! The textual form of the IR (`--show-ir`): types, expressions,
//! instructions, functions and whole programs.
//!
//! The output is deterministic (tests compare it as text) and meant to be
//! read next to the C source: one instruction per line with its index (the
//! jump targets), its `file:line`, symbols by their source names, and types
//! where they carry meaning (casts, constants, declarations). Expressions are
//! printed with an explicit work stack, so arbitrarily deep ones cannot
//! overflow the call stack.

use crate::expr::{BinOp, Expr, ExprKind, UnOp};
use crate::instr::{Instr, InstrKind, PropertyClass};
use crate::loc::Loc;
use crate::program::{FuncId, Program, SymbolId, SymbolKind};
use crate::types::{ArrayLen, CompositeKind, FloatFormat, Type, TypeId, TypeTable};
use std::collections::{HashMap, HashSet};
use std::fmt::{self, Display, Formatter, Write};

/// Column at which an instruction line's source location starts.
const LOC_COLUMN: usize = 46;

impl PropertyClass {
    /// The stable kebab-case name used in reports and the printer.
    pub fn name(self) -> &'static str {
        match self {
            PropertyClass::UserAssertion => "user-assertion",
            PropertyClass::ReachError => "reach-error",
            PropertyClass::ArrayBounds => "array-bounds",
            PropertyClass::PointerDereference => "pointer-dereference",
            PropertyClass::PointerRelation => "pointer-relation",
            PropertyClass::DivisionByZero => "division-by-zero",
            PropertyClass::SignedOverflow => "signed-overflow",
            PropertyClass::UnsignedOverflow => "unsigned-overflow",
            PropertyClass::Shift => "shift",
            PropertyClass::FloatToInt => "float-to-int",
            PropertyClass::BitCount => "bit-count",
            PropertyClass::NaN => "nan",
            PropertyClass::InvalidFree => "invalid-free",
            PropertyClass::MemoryLeak => "memory-leak",
            PropertyClass::MemoryCleanup => "memory-cleanup",
            PropertyClass::UnwindingAssertion => "unwinding-assertion",
            PropertyClass::DataRace => "data-race",
            PropertyClass::Deadlock => "deadlock",
            PropertyClass::NonTermination => "non-termination",
        }
    }
}

impl Display for PropertyClass {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl BinOp {
    /// The operator's symbol in printed expressions.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::PtrAdd => "+ptr",
            BinOp::PtrDiff => "-ptr",
        }
    }
}

impl UnOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::BitNot => "~",
            UnOp::Not => "!",
        }
    }
}

/// A type printed in postfix form: `int32*` is a pointer to `int32`,
/// `int32[4]*` a pointer to an array of four.
pub struct TypeDisplay<'a> {
    types: &'a TypeTable,
    ty: TypeId,
}

impl TypeTable {
    pub fn display(&self, ty: TypeId) -> TypeDisplay<'_> {
        TypeDisplay { types: self, ty }
    }
}

fn float_format_name(format: FloatFormat) -> &'static str {
    match format {
        FloatFormat::Half => "f16",
        FloatFormat::Single => "float",
        FloatFormat::Double => "double",
        FloatFormat::X87Extended => "f80",
        FloatFormat::Quad => "f128",
    }
}

impl Display for TypeDisplay<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        // Walk from the outermost constructor inwards; the suffixes are
        // written innermost first.
        let mut suffixes = Vec::new();
        let mut ty = self.ty;
        loop {
            match self.types.get(ty) {
                Type::Pointer(inner) => {
                    suffixes.push("*".to_string());
                    ty = *inner;
                }
                Type::Array(elem, len) => {
                    suffixes.push(match len {
                        ArrayLen::Fixed(n) => format!("[{n}]"),
                        ArrayLen::Var(sym) => format!("[{sym}]"),
                        ArrayLen::Unknown => "[]".to_string(),
                    });
                    ty = *elem;
                }
                _ => break,
            }
        }
        let types = self.types;
        match types.get(ty) {
            Type::Void => f.write_str("void")?,
            Type::Bool => f.write_str("bool")?,
            Type::Int { bits, signed } => write!(f, "{}int{bits}", if *signed { "" } else { "u" })?,
            Type::Float(format) => f.write_str(float_format_name(*format))?,
            Type::Composite(id) => {
                let composite = &types.composites[*id];
                let keyword = match composite.kind {
                    CompositeKind::Struct => "struct",
                    CompositeKind::Union => "union",
                };
                write!(f, "{keyword} {}", composite.name)?
            }
            Type::Function(sig) => {
                f.write_str(if suffixes.is_empty() { "fn(" } else { "(fn(" })?;
                for (i, param) in sig.params.iter().enumerate() {
                    let sep = if i > 0 { ", " } else { "" };
                    write!(f, "{sep}{}", types.display(*param))?;
                }
                if sig.variadic {
                    f.write_str(if sig.params.is_empty() { "..." } else { ", ..." })?;
                }
                write!(f, ") -> {}", types.display(sig.ret))?;
                if !suffixes.is_empty() {
                    f.write_str(")")?;
                }
            }
            Type::Pointer(_) | Type::Array(..) => unreachable!("peeled by the loop above"),
        }
        for suffix in suffixes.iter().rev() {
            f.write_str(suffix)?;
        }
        Ok(())
    }
}

/// Names symbols for printing: by their source name, or by their unique
/// name where the source name is shared by two symbols of one scope
/// (shadowed locals, file-static globals of different files).
#[derive(Clone, Copy)]
struct Namer<'a> {
    program: &'a Program,
    ambiguous: Option<&'a HashSet<SymbolId>>,
}

impl<'a> Namer<'a> {
    fn name(self, sym: SymbolId) -> &'a str {
        match self.program.symbols.get(sym) {
            Some(symbol) if self.ambiguous.is_some_and(|set| set.contains(&sym)) => &symbol.name,
            _ => self.program.symbol_display_name(sym),
        }
    }
}

/// The symbols whose source name is not unique in their scope.
fn ambiguous_symbols(program: &Program) -> HashSet<SymbolId> {
    let mut by_scope_and_name: HashMap<(Option<FuncId>, &str), Vec<SymbolId>> = HashMap::new();
    for (sym, symbol) in program.symbols.iter() {
        let scope = match symbol.kind {
            SymbolKind::Local(func) => Some(func),
            _ => None,
        };
        by_scope_and_name.entry((scope, program.symbol_display_name(sym))).or_default().push(sym);
    }
    by_scope_and_name.into_values().filter(|syms| syms.len() > 1).flatten().collect()
}

/// An expression printed with the program's symbol names and types.
pub struct ExprDisplay<'a> {
    namer: Namer<'a>,
    expr: &'a Expr,
}

/// One instruction without its index or location.
pub struct InstrDisplay<'a> {
    namer: Namer<'a>,
    instr: &'a Instr,
}

/// A function header and its numbered body.
pub struct FunctionDisplay<'a> {
    program: &'a Program,
    func: FuncId,
    /// Computed by the program printer once for all functions.
    ambiguous: Option<&'a HashSet<SymbolId>>,
}

/// A source location as `file:line` (empty for generated code).
pub struct LocDisplay<'a> {
    program: &'a Program,
    loc: Loc,
}

impl Program {
    pub fn display_expr<'a>(&'a self, expr: &'a Expr) -> ExprDisplay<'a> {
        ExprDisplay { namer: Namer { program: self, ambiguous: None }, expr }
    }
    pub fn display_instr<'a>(&'a self, instr: &'a Instr) -> InstrDisplay<'a> {
        InstrDisplay { namer: Namer { program: self, ambiguous: None }, instr }
    }
    /// A function as `--show-ir` prints it (shadowed locals by unique name).
    pub fn display_function(&self, func: FuncId) -> FunctionDisplay<'_> {
        FunctionDisplay { program: self, func, ambiguous: None }
    }
    pub fn display_loc(&self, loc: Loc) -> LocDisplay<'_> {
        LocDisplay { program: self, loc }
    }
    /// The name a person knows the symbol by.
    pub fn symbol_display_name(&self, sym: SymbolId) -> &str {
        match self.symbols.get(sym) {
            Some(symbol) if !symbol.display_name.is_empty() => &symbol.display_name,
            Some(symbol) => &symbol.name,
            None => "<unknown symbol>",
        }
    }
}

impl Display for LocDisplay<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.loc.is_none() {
            return Ok(());
        }
        write!(f, "{}:{}", self.program.files.name(self.loc.file), self.loc.line)
    }
}

/// A unit of printing work: text, or an expression still to be expanded.
enum Piece<'a> {
    Text(&'static str),
    Owned(String),
    Expr(&'a Expr),
}

/// Pieces printing `operand`, parenthesised when it is itself an operator
/// application, so the printed form needs no precedence rules.
fn operand(expr: &Expr) -> [Piece<'_>; 3] {
    parenthesised_if(expr, matches!(expr.kind, ExprKind::Binary(..) | ExprKind::Ite(..)))
}

/// Pieces printing the operand of a prefix operator or cast; constants are
/// parenthesised too, so `-(1i32)` stays distinct from the constant `-1i32`.
fn prefix_operand(expr: &Expr) -> [Piece<'_>; 3] {
    let constant = matches!(expr.kind, ExprKind::IntConst(_) | ExprKind::FloatConst(_));
    parenthesised_if(expr, constant || matches!(expr.kind, ExprKind::Binary(..) | ExprKind::Ite(..)))
}

fn parenthesised_if(expr: &Expr, parens: bool) -> [Piece<'_>; 3] {
    if parens {
        [Piece::Text("("), Piece::Expr(expr), Piece::Text(")")]
    } else {
        [Piece::Text(""), Piece::Expr(expr), Piece::Text("")]
    }
}

/// Pieces printing the base of a member or index access, parenthesised
/// unless it is already a primary or postfix expression.
fn postfix_base(expr: &Expr) -> [Piece<'_>; 3] {
    let is_postfix = matches!(expr.kind, ExprKind::Sym(_) | ExprKind::Member(..) | ExprKind::Index(..));
    if is_postfix {
        [Piece::Text(""), Piece::Expr(expr), Piece::Text("")]
    } else {
        [Piece::Text("("), Piece::Expr(expr), Piece::Text(")")]
    }
}

fn call_pieces<'a>(name: &'static str, args: &[&'a Expr]) -> Vec<Piece<'a>> {
    let mut pieces = vec![Piece::Text(name), Piece::Text("(")];
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            pieces.push(Piece::Text(", "));
        }
        pieces.push(Piece::Expr(arg));
    }
    pieces.push(Piece::Text(")"));
    pieces
}

fn list_pieces<'a>(head: String, items: &'a [Expr]) -> Vec<Piece<'a>> {
    let mut pieces = vec![Piece::Owned(head), Piece::Text("{")];
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            pieces.push(Piece::Text(", "));
        }
        pieces.push(Piece::Expr(item));
    }
    pieces.push(Piece::Text("}"));
    pieces
}

fn int_const_text(types: &TypeTable, value: u128, ty: TypeId) -> String {
    match types.get(ty) {
        Type::Bool if value <= 1 => (if value == 1 { "true" } else { "false" }).to_string(),
        Type::Int { bits, signed: true } if *bits > 0 && *bits <= 128 => {
            let shift = 128 - bits;
            let signed_value = ((value << shift) as i128) >> shift;
            format!("{signed_value}i{bits}")
        }
        Type::Int { bits, signed: false } => format!("{value}u{bits}"),
        _ => format!("{value}:{}", types.display(ty)),
    }
}

fn float_const_text(types: &TypeTable, bits: u128, ty: TypeId) -> String {
    match types.get(ty) {
        Type::Float(FloatFormat::Single) if f32::from_bits(bits as u32).is_finite() => {
            format!("{:?}f32", f32::from_bits(bits as u32))
        }
        Type::Float(FloatFormat::Double) if f64::from_bits(bits as u64).is_finite() => {
            format!("{:?}f64", f64::from_bits(bits as u64))
        }
        _ => format!("{}(0x{bits:x})", types.display(ty)),
    }
}

fn member_name(types: &TypeTable, base: &Expr, index: u32) -> String {
    let field = match types.get(base.ty) {
        Type::Composite(id) => types.composites[*id].fields.get(index as usize),
        _ => None,
    };
    match field {
        Some(field) if !field.name.is_empty() => field.name.clone(),
        _ => format!("#{index}"),
    }
}

/// The pieces that print one expression node (children left as `Expr` pieces).
fn expr_pieces<'a>(namer: Namer<'_>, expr: &'a Expr) -> Vec<Piece<'a>> {
    let types = &namer.program.types;
    let ty_text = || types.display(expr.ty).to_string();
    match &expr.kind {
        ExprKind::Sym(sym) => vec![Piece::Owned(namer.name(*sym).to_string())],
        ExprKind::IntConst(value) => vec![Piece::Owned(int_const_text(types, *value, expr.ty))],
        ExprKind::FloatConst(bits) => vec![Piece::Owned(float_const_text(types, *bits, expr.ty))],
        ExprKind::Null => vec![Piece::Text("NULL")],
        ExprKind::Zero => vec![Piece::Owned(format!("zero({})", ty_text()))],
        ExprKind::Nondet => vec![Piece::Owned(format!("nondet({})", ty_text()))],
        ExprKind::Unary(op, inner) => {
            let mut pieces = vec![Piece::Text(op.symbol())];
            pieces.extend(prefix_operand(inner));
            pieces
        }
        ExprKind::Binary(op, lhs, rhs) => {
            let mut pieces: Vec<Piece> = operand(lhs).into();
            pieces.push(Piece::Owned(format!(" {} ", op.symbol())));
            pieces.extend(operand(rhs));
            pieces
        }
        ExprKind::Cast(inner) => {
            let mut pieces = vec![Piece::Owned(format!("({})", ty_text()))];
            pieces.extend(prefix_operand(inner));
            pieces
        }
        ExprKind::Ite(cond, then, other) => {
            let mut pieces: Vec<Piece> = operand(cond).into();
            pieces.push(Piece::Text(" ? "));
            pieces.extend(operand(then));
            pieces.push(Piece::Text(" : "));
            pieces.extend(operand(other));
            pieces
        }
        ExprKind::AddrOf(inner) => {
            let mut pieces = vec![Piece::Text("&")];
            pieces.extend(operand(inner));
            pieces
        }
        ExprKind::Deref(inner) => {
            let mut pieces = vec![Piece::Text("*")];
            pieces.extend(operand(inner));
            pieces
        }
        ExprKind::Member(base, index) => {
            let name = member_name(types, base, *index);
            match &base.kind {
                ExprKind::Deref(pointer) => {
                    let mut pieces: Vec<Piece> = operand(pointer).into();
                    pieces.push(Piece::Owned(format!("->{name}")));
                    pieces
                }
                _ => {
                    let mut pieces: Vec<Piece> = postfix_base(base).into();
                    pieces.push(Piece::Owned(format!(".{name}")));
                    pieces
                }
            }
        }
        ExprKind::Index(base, index) => {
            let mut pieces: Vec<Piece> = postfix_base(base).into();
            pieces.extend([Piece::Text("["), Piece::Expr(index), Piece::Text("]")]);
            pieces
        }
        ExprKind::StructLit(fields) => list_pieces(ty_text(), fields),
        ExprKind::ArrayLit(elems) => list_pieces(ty_text(), elems),
        ExprKind::UnionLit(index, value) => {
            let name = member_name(types, expr, *index);
            vec![Piece::Owned(format!("{}{{.{name} = ", ty_text())), Piece::Expr(value), Piece::Text("}")]
        }
        ExprKind::PointerObject(p) => call_pieces("pointer_object", &[p]),
        ExprKind::PointerOffset(p) => call_pieces("pointer_offset", &[p]),
        ExprKind::ObjectSize(p) => call_pieces("object_size", &[p]),
        ExprKind::IsDynamic(p) => call_pieces("is_dynamic", &[p]),
        ExprKind::IsInvalid(p) => call_pieces("is_invalid", &[p]),
        ExprKind::ByteExtract { value, offset } => {
            let mut pieces = call_pieces("", &[value, offset]);
            pieces[0] = Piece::Owned(format!("byte_extract<{}>", ty_text()));
            pieces
        }
        ExprKind::ByteUpdate { value, offset, update } => call_pieces("byte_update", &[value, offset, update]),
    }
}

/// Writes `expr` with an explicit stack of pending pieces.
fn write_expr(f: &mut impl Write, namer: Namer<'_>, expr: &Expr) -> fmt::Result {
    let mut stack = vec![Piece::Expr(expr)];
    while let Some(piece) = stack.pop() {
        match piece {
            Piece::Text(text) => f.write_str(text)?,
            Piece::Owned(text) => f.write_str(&text)?,
            Piece::Expr(e) => stack.extend(expr_pieces(namer, e).into_iter().rev()),
        }
    }
    Ok(())
}

impl Display for ExprDisplay<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_expr(f, self.namer, self.expr)
    }
}

fn is_true_const(program: &Program, expr: &Expr) -> bool {
    matches!(expr.kind, ExprKind::IntConst(1)) && program.types.is_bool(expr.ty)
}

impl Display for InstrDisplay<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let namer = self.namer;
        let program = namer.program;
        let expr = |expr| ExprDisplay { namer, expr };
        match &self.instr.kind {
            InstrKind::Decl(sym) => {
                let ty = program.symbols.get(*sym).map(|s| s.ty);
                let ty_text = ty.map_or("<unknown type>".to_string(), |t| program.types.display(t).to_string());
                write!(f, "decl {}: {ty_text}", namer.name(*sym))
            }
            InstrKind::Dead(sym) => write!(f, "dead {}", namer.name(*sym)),
            InstrKind::Assign(lhs, rhs) => write!(f, "{} = {}", expr(lhs), expr(rhs)),
            InstrKind::Assume(cond) => write!(f, "assume({})", expr(cond)),
            InstrKind::Assert(cond, property) => {
                write!(f, "assert({}) [{}: {:?}]", expr(cond), property.class, property.message)
            }
            InstrKind::Goto { cond, target } if is_true_const(program, cond) => write!(f, "goto {}", target.0),
            InstrKind::Goto { cond, target } => write!(f, "if {} goto {}", expr(cond), target.0),
            InstrKind::Call { lhs, callee, args } => {
                f.write_str("call ")?;
                if let Some(lhs) = lhs {
                    write!(f, "{} = ", expr(lhs))?;
                }
                write!(f, "{}(", expr(callee))?;
                for (i, arg) in args.iter().enumerate() {
                    let sep = if i > 0 { ", " } else { "" };
                    write!(f, "{sep}{}", expr(arg))?;
                }
                f.write_str(")")
            }
            InstrKind::Return(Some(value)) => write!(f, "return {}", expr(value)),
            InstrKind::Return(None) => f.write_str("return"),
            InstrKind::Skip => f.write_str("skip"),
            InstrKind::Asm(text) => write!(f, "asm {text:?}"),
            InstrKind::StartThread(target) => write!(f, "start_thread {}", target.0),
            InstrKind::EndThread => f.write_str("end_thread"),
            InstrKind::AtomicBegin => f.write_str("atomic_begin"),
            InstrKind::AtomicEnd => f.write_str("atomic_end"),
            InstrKind::QuantifierBegin { quantifier, bound } => write!(f, "{}_begin {}", quantifier.intrinsic(), expr(bound)),
            InstrKind::QuantifierEnd { lhs, body } => write!(f, "{} = quantifier_end {}", expr(lhs), expr(body)),
        }
    }
}

/// Writes `text` padded to the location column, then the location.
fn write_with_loc(f: &mut Formatter<'_>, text: &str, loc: LocDisplay<'_>) -> fmt::Result {
    let loc = loc.to_string();
    if loc.is_empty() {
        return writeln!(f, "{text}");
    }
    let width = text.chars().count();
    let pad = LOC_COLUMN.saturating_sub(width).max(2);
    writeln!(f, "{text}{:pad$}{loc}", "")
}

impl Display for FunctionDisplay<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let program = self.program;
        let Some(func) = program.functions.get(self.func) else {
            return writeln!(f, "<unknown function {}>", self.func);
        };
        let computed;
        let ambiguous = match self.ambiguous {
            Some(set) => set,
            None => {
                computed = ambiguous_symbols(program);
                &computed
            }
        };
        let namer = Namer { program, ambiguous: Some(ambiguous) };
        let types = &program.types;
        let mut header = String::new();
        let keyword = if func.body.is_some() { "fn" } else { "declare fn" };
        write!(header, "{keyword} {}(", func.name)?;
        let sig = match types.get(func.ty) {
            Type::Function(sig) => Some(sig),
            _ => None,
        };
        for (i, param) in func.params.iter().enumerate() {
            let sep = if i > 0 { ", " } else { "" };
            let ty = program.symbols.get(*param).map(|s| types.display(s.ty).to_string()).unwrap_or_default();
            write!(header, "{sep}{}: {ty}", namer.name(*param))?;
        }
        if func.params.is_empty() {
            let params = sig.map(|s| s.params.as_slice()).unwrap_or_default();
            for (i, ty) in params.iter().enumerate() {
                let sep = if i > 0 { ", " } else { "" };
                write!(header, "{sep}{}", types.display(*ty))?;
            }
        }
        if sig.is_some_and(|s| s.variadic) {
            header.push_str(if header.ends_with('(') { "..." } else { ", ..." });
        }
        header.push(')');
        if let Some(sig) = sig {
            write!(header, " -> {}", types.display(sig.ret))?;
        }
        let role = if program.entry == Some(self.func) {
            " [entry]"
        } else if program.init == Some(self.func) {
            " [init]"
        } else {
            ""
        };
        let loc = program.display_loc(func.loc).to_string();
        if loc.is_empty() {
            writeln!(f, "{header}{role}")?;
        } else {
            writeln!(f, "{header}{role}   // {loc}")?;
        }
        for (index, instr) in func.body.iter().flatten().enumerate() {
            let labels = program.labels.iter().filter(|l| l.function == self.func && l.at.0 as usize == index);
            for label in labels {
                writeln!(f, "{}:", label.name)?;
            }
            let unwinds = program.loop_unwinds.iter().filter(|l| l.function == self.func && l.head.0 as usize == index);
            for lp in unwinds {
                match lp.bound {
                    Some(bound) => writeln!(f, "      // loop head: unwind {bound}")?,
                    None => writeln!(f, "      // loop head: unwind until it exits")?,
                }
            }
            let text = format!("{index:>4}: {}", InstrDisplay { namer, instr });
            write_with_loc(f, &text, program.display_loc(instr.loc))?;
        }
        Ok(())
    }
}

impl Display for Program {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(f, "// data model: {:?}", self.data_model)?;
        let ambiguous = ambiguous_symbols(self);
        let namer = Namer { program: self, ambiguous: Some(&ambiguous) };
        for (sym, symbol) in self.symbols.iter() {
            let keyword = match symbol.kind {
                SymbolKind::Global if symbol.thread_local => "thread_local global",
                SymbolKind::Global => "global",
                SymbolKind::StringLiteral => "string",
                SymbolKind::Local(_) | SymbolKind::Function(_) => continue,
            };
            let mut text = format!("{keyword} {}: {}", namer.name(sym), self.types.display(symbol.ty));
            if symbol.trailing_bytes > 0 {
                text += &format!(" + {} bytes", symbol.trailing_bytes);
            }
            write_with_loc(f, &text, self.display_loc(symbol.loc))?;
        }
        for func in self.functions.keys() {
            writeln!(f)?;
            write!(f, "{}", FunctionDisplay { program: self, func, ambiguous: Some(&ambiguous) })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instr::{InstrIdx, Property};
    use crate::program::{DataModel, Label};
    use crate::types::{Composite, Field};

    fn loc(program: &mut Program, line: u32) -> Loc {
        Loc { file: program.files.intern("main.c"), line, col: 1 }
    }

    #[test]
    fn prints_a_function_with_locations_and_jump_targets() {
        let mut p = Program::new(DataModel::LP64);
        let l = |p: &mut Program, line| loc(p, line);
        let int = p.types.int(32, true);
        let boolean = p.types.bool();
        let l1 = l(&mut p, 1);
        let foo = p.declare_function("foo", int, &[("a", int)], false, l1);
        let l3 = l(&mut p, 3);
        let main = p.declare_function("main", int, &[], false, l3);
        let x = p.add_local(main, "x", int, l3);
        let r1 = p.add_local(main, "r1", int, l3);
        let xs = Expr::sym(x, int);
        let r1s = Expr::sym(r1, int);
        let gt = Expr::binary(BinOp::Gt, xs.clone(), Expr::int(0, int), boolean);
        let not = Expr::unary(UnOp::Not, gt, boolean);
        let ne = Expr::binary(BinOp::Ne, r1s.clone(), Expr::int(0, int), boolean);
        let foo_sym = p.functions[foo].symbol;
        let foo_ty = p.functions[foo].ty;
        let prop = Property { class: PropertyClass::UserAssertion, message: "r1 != 0".into() };
        let body = vec![
            Instr::new(InstrKind::Decl(x), l(&mut p, 4)),
            Instr::new(InstrKind::Assign(xs.clone(), Expr::new(ExprKind::Nondet, int)), l(&mut p, 4)),
            Instr::new(InstrKind::Goto { cond: not, target: InstrIdx(5) }, l(&mut p, 5)),
            Instr::new(
                InstrKind::Call { lhs: Some(r1s), callee: Expr::sym(foo_sym, foo_ty), args: vec![xs] },
                l(&mut p, 6),
            ),
            Instr::new(InstrKind::Assert(ne, prop), l(&mut p, 7)),
            Instr::new(InstrKind::Return(Some(Expr::int(u128::from(u32::MAX), int))), l(&mut p, 9)),
        ];
        p.set_body(main, body);
        p.entry = Some(main);
        p.labels.push(Label { function: main, name: "out".into(), at: InstrIdx(5) });
        let expected = "\
// data model: LP64

declare fn foo(a: int32) -> int32   // main.c:1

fn main() -> int32 [entry]   // main.c:3
   0: decl x: int32                           main.c:4
   1: x = nondet(int32)                       main.c:4
   2: if !(x > 0i32) goto 5                   main.c:5
   3: call r1 = foo(x)                        main.c:6
   4: assert(r1 != 0i32) [user-assertion: \"r1 != 0\"]  main.c:7
out:
   5: return -1i32                            main.c:9
";
        assert_eq!(p.to_string(), expected);
    }

    #[test]
    fn prints_types_constants_and_member_access() {
        let mut p = Program::new(DataModel::ILP32);
        let int = p.types.int(32, true);
        let uchar = p.types.int(8, false);
        let dbl = p.types.intern(Type::Float(FloatFormat::Double));
        let ld = p.types.intern(Type::Float(FloatFormat::X87Extended));
        let comp = p.types.composites.push(Composite {
            kind: CompositeKind::Struct,
            name: "point".into(),
            fields: vec![
                Field { name: "x".into(), ty: int, offset_bits: 0, bit_width: None },
                Field { name: "".into(), ty: int, offset_bits: 32, bit_width: Some(3) },
            ],
            size: 8,
            align: 4,
            complete: true,
        });
        let point = p.types.intern(Type::Composite(comp));
        let ptr = p.types.pointer_to(point);
        let arr = p.types.intern(Type::Array(ptr, ArrayLen::Fixed(4)));
        let fnty = p.types.intern(Type::Function(crate::types::FnSig {
            ret: int,
            params: vec![uchar],
            variadic: true,
            unprototyped: false,
        }));
        let fnptr = p.types.pointer_to(fnty);
        assert_eq!(p.types.display(arr).to_string(), "struct point*[4]");
        assert_eq!(p.types.display(fnptr).to_string(), "(fn(uint8, ...) -> int32)*");
        let g = p.add_global("g", ptr, Loc::NONE);
        let deref = Expr::new(ExprKind::Deref(Box::new(Expr::sym(g, ptr))), point);
        let field = Expr::new(ExprKind::Member(Box::new(deref.clone()), 0), int);
        let unnamed = Expr::new(ExprKind::Member(Box::new(deref), 1), int);
        let sum = Expr::binary(BinOp::Add, field, unnamed, int);
        let cast = Expr::cast(sum, uchar);
        assert_eq!(p.display_expr(&cast).to_string(), "(uint8)(g->x + g->#1)");
        let half = Expr::new(ExprKind::FloatConst(0.5f64.to_bits() as u128), dbl);
        let nan = Expr::new(ExprKind::FloatConst(u128::from(f64::NAN.to_bits())), dbl);
        let wide = Expr::new(ExprKind::FloatConst(0x3fff_8000_0000_0000_0000), ld);
        assert_eq!(p.display_expr(&half).to_string(), "0.5f64");
        assert_eq!(p.display_expr(&nan).to_string(), "double(0x7ff8000000000000)");
        assert_eq!(p.display_expr(&wide).to_string(), "f80(0x3fff8000000000000000)");
        assert_eq!(p.display_expr(&Expr::int(200, uchar)).to_string(), "200u8");
    }

    #[test]
    fn deep_expressions_print_without_recursion() {
        let mut p = Program::new(DataModel::LP64);
        let int = p.types.int(32, true);
        let mut e = Expr::int(1, int);
        for _ in 0..100_000 {
            e = Expr::unary(UnOp::Neg, e, int);
        }
        let text = p.display_expr(&e).to_string();
        // Dropping a deep Box chain recurses; unlink it iteratively before
        // any assertion can fail and unwind.
        let mut node = e;
        while let ExprKind::Unary(_, inner) = node.kind {
            node = *inner;
        }
        assert_eq!(text.len(), 100_000 + "(1i32)".len());
        assert!(text.starts_with("---") && text.ends_with("-(1i32)"));
    }

    #[test]
    fn shadowed_locals_print_by_unique_name() {
        let mut p = Program::new(DataModel::LP64);
        let int = p.types.int(32, true);
        let main = p.declare_function("main", int, &[], false, Loc::NONE);
        let outer = p.add_local(main, "x", int, Loc::NONE);
        let inner = p.add_local(main, "1::x", int, Loc::NONE);
        let other = p.add_local(main, "y", int, Loc::NONE);
        let body = vec![
            Instr::new(InstrKind::Assign(Expr::sym(inner, int), Expr::sym(outer, int)), Loc::NONE),
            Instr::new(InstrKind::Assign(Expr::sym(other, int), Expr::sym(inner, int)), Loc::NONE),
            Instr::new(InstrKind::Return(Some(Expr::sym(other, int))), Loc::NONE),
        ];
        p.set_body(main, body);
        let text = p.display_function(main).to_string();
        assert!(text.contains("   0: main::1::x = main::x\n"), "{text}");
        assert!(text.contains("   1: y = main::1::x\n"), "{text}");
    }
}
