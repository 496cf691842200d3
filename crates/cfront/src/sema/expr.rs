//! Expressions: typing and lowering to side-effect-free IR expressions.
//!
//! Side effects (assignments, `++`/`--`, calls) become instructions emitted
//! before the expression that uses their result; calls return into fresh
//! temporaries. Conversions (promotions, usual arithmetic conversions,
//! assignment conversions, decay) are explicit `Cast`s. `&&`, `||` and `?:`
//! become control flow whenever an operand could fault or has side effects,
//! so a guarded `p && *p` never evaluates `*p` with a null `p`.

use super::consteval::{fold_value, fold_value_shallow};
use super::ctype::{self, ArraySize, ComplexElem, CType, FloatKind, IntKind, Kind};
use super::scope::Ordinary;
use super::types::float_format;
use super::{Sema, R};
use crate::ast::{self, BinaryOp, ExprKind as A, UnaryOp};
use ir::{BinOp, Expr, ExprKind, Instr, InstrKind, Loc, UnOp};

/// Links of a `&&`/`||` chain lowered into one IR expression before its
/// value goes to a temporary (which bounds the expression's depth).
const LOGICAL_LINKS_PER_TEMP: u32 = 256;

/// A typed, lowered expression.
#[derive(Clone, Debug)]
pub struct Val {
    pub e: Expr,
    pub ty: CType,
    /// Designates an object (may be assigned or have its address taken).
    pub lvalue: bool,
    /// Width of a bit-field member (affects promotions; no address).
    pub bit_width: Option<u32>,
}

impl Val {
    pub(super) fn rv(e: Expr, ty: CType) -> Val {
        Val { e, ty, lvalue: false, bit_width: None }
    }
}

/// (subtract, unsigned) for the x86 saturating lane builtins
/// `__builtin_ia32_p{add,sub}{s,us}{b,w}[128|256]`.
fn x86_saturating(name: &str) -> Option<(bool, bool)> {
    let op = name.strip_prefix("__builtin_ia32_p")?;
    let op = op.strip_suffix("128").or_else(|| op.strip_suffix("256")).unwrap_or(op);
    let op = op.strip_suffix('b').or_else(|| op.strip_suffix('w'))?;
    match op {
        "adds" => Some((false, false)),
        "subs" => Some((true, false)),
        "addus" => Some((false, true)),
        "subus" => Some((true, true)),
        _ => None,
    }
}

/// The width of an integer IR type (`u32::MAX` for any other type).
fn int_bits(types: &ir::TypeTable, ty: ir::TypeId) -> u32 {
    match types.get(ty) {
        ir::Type::Int { bits, .. } => *bits,
        ir::Type::Bool => 1,
        _ => u32::MAX,
    }
}

/// `AddrOf`, folding `&*p` to `p`.
pub(super) fn addr_of(e: Expr, ptr_ty: ir::TypeId) -> Expr {
    match e.kind {
        ExprKind::Deref(p) if p.ty == ptr_ty => *p,
        kind => Expr::new(ExprKind::AddrOf(Box::new(Expr::new(kind, e.ty))), ptr_ty),
    }
}

/// `Deref`, folding `*&x` to `x`.
pub(super) fn deref(p: Expr, ty: ir::TypeId) -> Expr {
    match p.kind {
        ExprKind::AddrOf(x) if x.ty == ty => *x,
        kind => Expr::new(ExprKind::Deref(Box::new(Expr::new(kind, p.ty))), ty),
    }
}

/// Whether evaluating `e` can neither fault nor be undefined, so a value
/// nobody uses need not be computed: constants, variables, their members
/// and their addresses (an array's first element's too: its decay).
fn is_inert(e: &Expr) -> bool {
    let (mut e, addressed) = match &e.kind {
        ExprKind::AddrOf(place) => (&**place, true),
        _ => (e, false),
    };
    loop {
        match &e.kind {
            ExprKind::Member(base, _) => e = base,
            ExprKind::Index(base, i) if addressed && matches!(i.kind, ExprKind::IntConst(0)) => e = base,
            kind => {
                return matches!(
                    kind,
                    ExprKind::Sym(_) | ExprKind::IntConst(_) | ExprKind::FloatConst(_) | ExprKind::Null | ExprKind::Zero | ExprKind::Nondet
                )
            }
        }
    }
}

impl<'a> Sema<'a> {
    /// Whether evaluating `e` may fault, have side effects or emit
    /// instructions, so operands of `&&`, `||` and `?:` that contain it
    /// must only run when selected: a discarded value (a comma's left
    /// operand, a cast to `void`) is computed by an instruction of its own.
    /// Iterative, so deep expressions cannot overflow the stack.
    pub(super) fn needs_control_flow(&self, e: &ast::Expr) -> bool {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match &e.kind {
                A::Call(..)
                | A::Assign(..)
                | A::Index(..)
                | A::StmtExpr(_)
                | A::VaArg(..)
                | A::CompoundLiteral(..)
                | A::Generic(..)
                | A::Quantifier { .. } => {
                    return true
                }
                A::Unary(op, x) => {
                    if matches!(op, UnaryOp::Deref | UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec) {
                        return true;
                    }
                    stack.push(x);
                }
                A::Binary(op, l, r) => {
                    if matches!(op, BinaryOp::Div | BinaryOp::Rem) {
                        return true;
                    }
                    stack.push(l);
                    stack.push(r);
                }
                A::Member { base, arrow, .. } => {
                    if *arrow {
                        return true;
                    }
                    stack.push(base);
                }
                A::Conditional(c, t, f) => {
                    stack.push(c);
                    if let Some(t) = t {
                        stack.push(t);
                    }
                    stack.push(f);
                }
                A::Cast(tn, x) => {
                    if self.may_name_void(tn) {
                        return true;
                    }
                    stack.push(x);
                }
                A::Comma(list) => {
                    if list.len() > 1 {
                        return true;
                    }
                    stack.extend(list.iter());
                }
                A::ChooseExpr(c, a, b) => {
                    stack.push(c);
                    stack.push(a);
                    stack.push(b);
                }
                _ => {}
            }
        }
        false
    }

    /// Whether a cast's type name may be `void` (a `typeof` is not resolved
    /// here, so it may).
    fn may_name_void(&self, tn: &ast::TypeName) -> bool {
        if !tn.declarator.derived.is_empty() {
            return false;
        }
        match &tn.specs.ty {
            ast::TypeSpec::Basic { ty, .. } => *ty == ast::BasicType::Void,
            ast::TypeSpec::TypedefName(name) => matches!(self.scopes.lookup(name), Some(Ordinary::Typedef(t)) if t.is_void()),
            ast::TypeSpec::TypeofExpr(_) | ast::TypeSpec::TypeofType(_) => true,
            _ => false,
        }
    }

    /// Runs `f` and takes back the instructions it emitted (for operands
    /// that are not evaluated, e.g. of `sizeof`, and constant contexts).
    pub(super) fn scratch<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<(T, Vec<Instr>)> {
        let mark = self.mark();
        let result = f(self);
        let instrs = self.rewind(mark);
        Ok((result?, instrs))
    }

    /// Where the current function's lowering stands: (instructions, jump
    /// fixups, hoisted declarations, choices of evaluation order).
    fn mark(&self) -> (usize, usize, usize, usize) {
        (self.fx.instrs.len(), self.fx.fixups.len(), self.fx.hoists.len(), self.fx.evaluation_orders.len())
    }

    /// Takes back what was lowered since `mark`, returning its instructions.
    fn rewind(&mut self, (start, fixups, hoists, orders): (usize, usize, usize, usize)) -> Vec<Instr> {
        let instrs = self.fx.instrs.split_off(start.min(self.fx.instrs.len()));
        self.fx.fixups.truncate(fixups);
        self.fx.hoists.truncate(hoists);
        self.fx.evaluation_orders.truncate(orders);
        instrs
    }

    /// The operand of `sizeof`, evaluated only when its type is a
    /// variable-length array (C11 6.5.3.4p2): `sizeof(m[i++])` increments
    /// `i` when `m[i]` is one.
    fn sizeof_operand(&mut self, x: &ast::Expr) -> R<Val> {
        let mark = self.mark();
        let v = self.expr(x)?;
        if !v.ty.is_vla() {
            self.rewind(mark);
        }
        Ok(v)
    }

    pub(super) fn expr(&mut self, e: &ast::Expr) -> R<Val> {
        self.enter(e.loc)?;
        let result = self.expr_kind(e);
        self.leave();
        result
    }

    /// The value of `e` after lvalue conversion and decay.
    pub(super) fn rvalue(&mut self, e: &ast::Expr) -> R<Val> {
        let v = self.expr(e)?;
        Ok(self.decay(v))
    }

    /// The truth value of a scalar expression, as a `Bool`.
    pub(super) fn cond(&mut self, e: &ast::Expr) -> R<Expr> {
        let v = self.rvalue(e)?;
        self.truth(v, e.loc)
    }

    /// Evaluates `e` for its side effects and its undefined behaviour: a
    /// discarded value is still computed (C11 6.8.3p2), so `x / y;`,
    /// `*p;`, `a[i];` or `x << 40;` get the checks a used value gets.
    pub(super) fn discard(&mut self, e: &ast::Expr) -> R<()> {
        match &e.kind {
            A::Call(f, args) => self.call(f, args, e.loc, false).map(|_| ()),
            A::Comma(list) => list.iter().try_for_each(|x| self.discard(x)),
            A::Assign(op, l, r) => self.assign(*op, l, r, false, e.loc).map(|_| ()),
            // The old value is not needed: no temporary.
            A::Unary(UnaryOp::PostInc | UnaryOp::PreInc, x) => self.inc_dec(x, true, true, false, e.loc).map(|_| ()),
            A::Unary(UnaryOp::PostDec | UnaryOp::PreDec, x) => self.inc_dec(x, false, true, false, e.loc).map(|_| ()),
            _ => {
                let v = self.rvalue(e)?;
                self.keep_evaluation(v, e.loc);
                Ok(())
            }
        }
    }

    /// Keeps the evaluation of a value nobody uses, in a temporary the
    /// checks see, unless evaluating it can go wrong in no way. `*p` of a
    /// `void *` designates no value but is undefined for an invalid `p`
    /// (C11 6.5.3.2p4) and for a pointer one past the end (6.5.6p8): it
    /// reads one byte, GNU C's `sizeof(void)`.
    pub(super) fn keep_evaluation(&mut self, v: Val, loc: Loc) {
        if let Some((e, ty)) = self.evaluation_of(v) {
            self.temp(e, &ty, loc);
        }
    }

    /// What [`Self::keep_evaluation`] computes for `v`, and its type.
    fn evaluation_of(&mut self, v: Val) -> Option<(Expr, CType)> {
        if is_inert(&v.e) {
            return None;
        }
        if !v.ty.is_void() {
            return Some((v.e, v.ty.unqualified()));
        }
        let ExprKind::Deref(p) = v.e.kind else { return None };
        let char = CType::new(Kind::Int(IntKind::Char));
        let (char_ir, char_ptr) = (self.ir_ty(&char), self.ir_ty(&CType::pointer_to(char.clone())));
        Some((deref(Expr::cast(*p, char_ptr), char_ir), char))
    }

    fn expr_kind(&mut self, e: &ast::Expr) -> R<Val> {
        let loc = e.loc;
        match &e.kind {
            A::Ident(name) => self.ident(name, loc),
            A::IntLit { value, suffix, decimal } => self.int_lit(*value, *suffix, *decimal, loc),
            A::FloatLit { text, suffix, imaginary } => {
                let v = self.float_lit(text, *suffix, loc)?;
                Ok(if *imaginary { self.imaginary(v) } else { v })
            }
            A::CharLit { value, prefix } => {
                let ty = CType::new(Kind::Int(char_lit_kind(*prefix)));
                Ok(self.int_val(*value as i128, ty))
            }
            A::StringLit { units, prefix } => Ok(self.string_lit(units, *prefix, loc)),
            A::Unary(op, x) => self.unary(*op, x, loc),
            A::Binary(op, l, r) => self.binary(*op, l, r, loc),
            A::Assign(op, l, r) => self.assign(*op, l, r, true, loc),
            A::Conditional(c, t, f) => self.conditional(c, t.as_deref(), f, loc),
            A::Cast(tn, x) => self.cast_expr(tn, x, loc),
            A::Call(f, args) => self.call(f, args, loc, true),
            A::Member { base, field, arrow } => self.member(base, field, *arrow, loc),
            A::Index(..) if self.alloc_size_entry(e).is_some() => {
                let p = self.alloc_size_entry(e).expect("matched");
                self.alloc_size_read(p, loc)
            }
            A::Index(a, i) => self.index(a, i, loc),
            A::SizeofExpr(x) => {
                let v = self.sizeof_operand(x)?;
                if v.bit_width.is_some() {
                    return Err(self.error(loc, "`sizeof` applied to a bit-field"));
                }
                self.sizeof(&v.ty, loc)
            }
            A::SizeofType(tn) => {
                let ty = self.type_name(tn)?;
                self.sizeof(&ty, loc)
            }
            A::AlignofExpr(x) => {
                let (v, _) = self.scratch(|s| s.expr(x))?;
                self.alignof(&v.ty, loc)
            }
            A::AlignofType(tn) => {
                let ty = self.type_name(tn)?;
                self.alignof(&ty, loc)
            }
            A::Comma(list) => {
                let Some((last, init)) = list.split_last() else {
                    return Err(self.error(loc, "empty comma expression"));
                };
                for x in init {
                    self.discard(x)?;
                }
                self.rvalue(last)
            }
            A::CompoundLiteral(tn, items) => self.compound_literal(tn, items, loc),
            A::StmtExpr(block) => self.stmt_expr(block),
            A::Generic(c, assocs) => self.generic(c, assocs, loc),
            A::VaArg(list, tn) => self.va_arg(list, tn, loc),
            A::Offsetof(tn, parts) => self.offsetof(tn, parts, loc),
            A::TypesCompatible(a, b) => {
                let (ta, tb) = (self.type_name(a)?, self.type_name(b)?);
                let tcx = &self.tcx;
                let same = ctype::compatible_unqualified(&ta, &tb, tcx);
                Ok(self.int_val(i128::from(same), CType::int()))
            }
            A::ChooseExpr(c, a, b) => {
                let pick = self.const_int(c, "`__builtin_choose_expr` condition")?;
                self.expr(if pick != 0 { a } else { b })
            }
            A::LabelAddr(name) => self.label_address(name, loc),
            A::Quantifier { quantifier, bound, body } => self.cprover_quantifier(*quantifier, bound, body, loc),
        }
    }

    // ----- constants and names -----

    pub(super) fn int_val(&mut self, value: i128, ty: CType) -> Val {
        let irty = self.ir_ty(&ty);
        let bits = self.prog.types.int_info(irty).map_or(128, |i| i.0);
        Val::rv(Expr::int(value as u128 & ir::layout::low_mask(bits), irty), ty)
    }

    fn ident(&mut self, name: &str, loc: Loc) -> R<Val> {
        match self.scopes.lookup(name).cloned() {
            Some(Ordinary::Symbol { sym }) => {
                if self.is_enclosing_local(sym) {
                    return Ok(self.captured_variable(sym, loc));
                }
                if let ir::SymbolKind::Function(func) = self.prog.symbols[sym].kind {
                    self.check_nested_function_use(func, loc)?;
                }
                let ty = self.sym_types[&sym].clone();
                let irty = self.prog.symbols[sym].ty;
                Ok(Val { e: Expr::sym(sym, irty), lvalue: !ty.is_function(), ty, bit_width: None })
            }
            Some(Ordinary::View { sym, ty }) => {
                let object = Expr::sym(sym, self.prog.symbols[sym].ty);
                let object_ptr = self.prog.types.pointer_to(object.ty);
                let view_ptr = self.ir_ty(&CType::pointer_to(ty.clone()));
                let address = Expr::cast(addr_of(object, object_ptr), view_ptr);
                let e = deref(address, self.ir_ty(&ty));
                Ok(Val { e, ty, lvalue: true, bit_width: None })
            }
            Some(Ordinary::EnumConst { value, ty }) => Ok(self.int_val(value, ty)),
            Some(Ordinary::Typedef(_)) => Err(self.error(loc, format!("unexpected type name `{name}`"))),
            None if matches!(name, "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__") && !self.saved.is_empty() => {
                let units = self.fx.name.bytes().map(u32::from).collect::<Vec<_>>();
                Ok(self.string_lit(&units, ast::StrPrefix::None, loc))
            }
            // C23 keywords, when no header defined them as macros.
            None if name == "true" || name == "false" => Ok(self.int_val(i128::from(name == "true"), CType::new(Kind::Bool))),
            None if name == "__ESBMC_return_value" && !self.saved.is_empty() && !self.fx.ret.is_void() => {
                Ok(self.return_value_symbol(loc))
            }
            // CBMC's built-in variables: the largest block `malloc` may
            // return (CBMC's own size depends on its pointer encoding; this
            // is tarsier's, of its memory model), and the size of CBMC's
            // unbounded arrays, which this memory model has not.
            None if name == "__CPROVER_max_malloc_size" => {
                let bytes = self.tcx.dm.max_allocation_bytes();
                Ok(self.int_val(i128::from(bytes), self.tcx.size_t()))
            }
            None if name == "__CPROVER_constant_infinity_uint" => {
                Err(self.error(loc, "unsupported: CBMC's unbounded arrays (`__CPROVER_constant_infinity_uint`)"))
            }
            None => Err(self.error(loc, format!("use of undeclared identifier `{name}`"))),
        }
    }

    /// The function's `__ESBMC_return_value` (named in contracts): a local
    /// of the return type, declared at the function's start. Its meaning
    /// belongs to the contract checking, not to the front end.
    fn return_value_symbol(&mut self, loc: Loc) -> Val {
        let ty = self.fx.ret.clone();
        let irty = self.ir_ty(&ty);
        let sym = match self.fx.return_value {
            Some(sym) => sym,
            None => {
                let name = format!("{}::__ESBMC_return_value", self.fx.name);
                let sym = self.prog.add_symbol(&name, irty, ir::SymbolKind::Local(self.fx.func), loc);
                self.sym_types.insert(sym, ty.clone());
                self.fx.hoists.push((0, vec![sym]));
                self.fx.return_value = Some(sym);
                sym
            }
        };
        Val { e: Expr::sym(sym, irty), ty, lvalue: true, bit_width: None }
    }

    fn int_lit(&mut self, value: u128, suffix: ast::IntSuffix, decimal: bool, loc: Loc) -> R<Val> {
        use IntKind::*;
        let candidates: &[IntKind] = match (suffix.unsigned, suffix.long, decimal) {
            (false, 0, true) => &[Int, Long, LongLong],
            (false, 0, false) => &[Int, UInt, Long, ULong, LongLong, ULongLong],
            (false, 1, true) => &[Long, LongLong],
            (false, 1, false) => &[Long, ULong, LongLong, ULongLong],
            (false, _, true) => &[LongLong],
            (false, _, false) => &[LongLong, ULongLong],
            (true, 0, _) => &[UInt, ULong, ULongLong],
            (true, 1, _) => &[ULong, ULongLong],
            (true, _, _) => &[ULongLong],
        };
        let fits = |k: IntKind| {
            let bits = self.tcx.int_bits(k) - u32::from(k.is_signed());
            bits >= 128 || value < (1u128 << bits)
        };
        let kind = match candidates.iter().copied().find(|k| fits(*k)) {
            Some(k) => k,
            None if fits(ULongLong) => {
                self.warn(loc, "integer constant is so large that it is unsigned");
                ULongLong
            }
            None if self.tcx.dm == ir::DataModel::LP64 => {
                if fits(Int128) { Int128 } else { UInt128 }
            }
            None => return Err(self.error(loc, "integer constant is too large for its type")),
        };
        let v = self.int_val(value as i128, CType::new(Kind::Int(kind)));
        Ok(if suffix.imaginary { self.imaginary(v) } else { v })
    }

    fn float_lit(&mut self, text: &str, suffix: ast::FloatSuffix, loc: Loc) -> R<Val> {
        use ast::FloatSuffix as S;
        let kind = match suffix {
            S::None | S::F64 | S::F32x => FloatKind::Double,
            S::F | S::F32 => FloatKind::Float,
            S::L | S::F64x => FloatKind::LongDouble,
            S::F16 => FloatKind::Float16,
            S::F128 => FloatKind::Float128,
        };
        let Ok(bits) = super::floatlit::convert(text, float_format(kind)) else {
            return Err(self.error(loc, format!("invalid floating constant `{text}`")));
        };
        let ty = CType::new(Kind::Float(kind));
        let irty = self.ir_ty(&ty);
        Ok(Val::rv(Expr::new(ExprKind::FloatConst(bits), irty), ty))
    }

    /// The object of a string literal (shared by identical literals),
    /// initialised by the init function.
    pub(super) fn string_lit(&mut self, units: &[u32], prefix: ast::StrPrefix, loc: Loc) -> Val {
        let elem = CType::new(Kind::Int(match prefix {
            ast::StrPrefix::None | ast::StrPrefix::Utf8 => IntKind::Char,
            ast::StrPrefix::Utf16 => IntKind::UShort,
            ast::StrPrefix::Utf32 => IntKind::UInt,
            ast::StrPrefix::Wide => IntKind::Int,
        }));
        let ty = CType::array_of(elem.clone(), ArraySize::Fixed(units.len() as u64 + 1));
        let irty = self.ir_ty(&ty);
        let key = (units.to_vec(), prefix as u8);
        if let Some(&sym) = self.strings.get(&key) {
            return Val { e: Expr::sym(sym, irty), ty, lvalue: true, bit_width: None };
        }
        let name = format!("__string#{}", self.strings.len() + 1);
        let sym = self.prog.add_symbol(&name, irty, ir::SymbolKind::StringLiteral, loc);
        self.sym_types.insert(sym, ty.clone());
        self.strings.insert(key, sym);
        let value = self.string_array_value(units, &elem, units.len() as u64 + 1);
        // Kept apart from the code being lowered (which may be thrown away,
        // e.g. under `sizeof`): the init function starts with these.
        self.string_inits.push(Instr::new(InstrKind::Assign(Expr::sym(sym, irty), value), loc));
        Val { e: Expr::sym(sym, irty), ty, lvalue: true, bit_width: None }
    }

    /// An array value of `len` elements holding `units`, zero-padded or truncated.
    pub(super) fn string_array_value(&mut self, units: &[u32], elem: &CType, len: u64) -> Expr {
        let elem_ir = self.ir_ty(elem);
        let bits = self.prog.types.int_info(elem_ir).map_or(8, |i| i.0);
        let mask = ir::layout::low_mask(bits);
        let items = (0..len)
            .map(|i| Expr::int(units.get(i as usize).map_or(0, |u| u128::from(*u) & mask), elem_ir))
            .collect();
        let arr = CType::array_of(elem.clone(), ArraySize::Fixed(len));
        let irty = self.ir_ty(&arr);
        Expr::new(ExprKind::ArrayLit(items), irty)
    }

    // ----- conversions -----

    pub(super) fn decay(&mut self, v: Val) -> Val {
        match &v.ty.kind {
            Kind::Array(elem, _) => {
                let ptr = CType::pointer_to((**elem).clone());
                let elem_ir = self.ir_ty(elem);
                let ptr_ir = self.ir_ty(&ptr);
                let size_t = self.tcx.size_t();
                let zero = self.int_val(0, size_t).e;
                let first = Expr::new(ExprKind::Index(Box::new(v.e), Box::new(zero)), elem_ir);
                Val::rv(Expr::new(ExprKind::AddrOf(Box::new(first)), ptr_ir), ptr)
            }
            Kind::Function(_) => {
                let ptr = CType::pointer_to(v.ty.clone());
                let ptr_ir = self.ir_ty(&ptr);
                Val::rv(addr_of(v.e, ptr_ir), ptr)
            }
            _ => Val { e: v.e, ty: v.ty.unqualified(), lvalue: false, bit_width: v.bit_width },
        }
    }

    /// The truth value of a scalar (`!= 0`), as a `Bool`.
    pub(super) fn truth(&mut self, v: Val, loc: Loc) -> R<Expr> {
        let b = self.prog.types.bool();
        // The bool inside is moved out, not cloned: a chain of `&&` unwraps
        // one such cast per link, and a clone per link would be quadratic.
        let v = match v.e.kind {
            ExprKind::Cast(inner) if inner.ty == b && v.ty.is_integer() => return Ok(*inner),
            kind => Val { e: Expr { kind, ty: v.e.ty }, ..v },
        };
        if v.ty.is_bool() {
            return Ok(v.e);
        }
        if v.ty.is_pointer() {
            let null = Expr::new(ExprKind::Null, v.e.ty);
            return Ok(Expr::binary(BinOp::Ne, v.e, null, b));
        }
        if v.ty.is_integer() {
            let zero = Expr::int(0, v.e.ty);
            let cmp = Expr::binary(BinOp::Ne, v.e, zero, b);
            return Ok(self.fold_const(cmp));
        }
        if v.ty.is_real_float() {
            let zero = Expr::new(ExprKind::FloatConst(0), v.e.ty);
            return Ok(Expr::binary(BinOp::Ne, v.e, zero, b));
        }
        if matches!(v.ty.kind, Kind::Complex(_)) {
            return self.complex_convert(v, &CType::new(Kind::Bool), loc);
        }
        Err(self.error(loc, "a scalar value is required here"))
    }

    /// Replaces a constant integer expression by its value.
    fn fold_const(&mut self, e: Expr) -> Expr {
        if matches!(e.kind, ExprKind::IntConst(_)) {
            return e;
        }
        match fold_value_shallow(&self.prog.types, &e) {
            Some(v) => {
                let bits = self.prog.types.int_info(e.ty).map_or(128, |i| i.0);
                Expr::int(v as u128 & ir::layout::low_mask(bits), e.ty)
            }
            None => e,
        }
    }

    fn bool_to_int(&mut self, b: Expr) -> Val {
        let int = CType::int();
        let irty = self.ir_ty(&int);
        let e = self.fold_const(Expr::cast(b, irty));
        Val::rv(e, int)
    }

    /// Integer promotion (other types unchanged).
    pub(super) fn promote(&mut self, v: Val) -> Val {
        if !v.ty.is_integer() {
            return v;
        }
        let tcx = &self.tcx;
        let kind = ctype::promoted_kind(tcx.int_kind_of(&v.ty), v.bit_width, |k| tcx.int_bits(k));
        let to = CType::new(Kind::Int(kind));
        if v.ty == to && v.bit_width.is_none() {
            return v;
        }
        let irty = self.ir_ty(&to);
        let e = if irty == v.e.ty { v.e } else { self.fold_const(Expr::cast(v.e, irty)) };
        Val::rv(e, to)
    }

    /// Converts an rvalue to `to` (assignment conversion when `explicit`
    /// is false: dubious conversions get warnings).
    pub(super) fn cast_to(&mut self, v: Val, to: &CType, loc: Loc, explicit: bool) -> R<Expr> {
        let to_ir = self.ir_ty(to);
        let from = &v.ty;
        if matches!(from.kind, Kind::Complex(_)) || matches!(to.kind, Kind::Complex(_)) {
            if v.e.ty == to_ir {
                return Ok(v.e);
            }
            return self.complex_convert(v, to, loc);
        }
        if to.is_record() || from.is_record() {
            return self.record_value(v, to, loc);
        }
        if to.is_vector() || from.is_vector() {
            return self.vector_value(v, to, loc);
        }
        if to.is_bool() && from.is_scalar() {
            return Ok(match self.truth(v, loc)? {
                e if e.ty == to_ir => e,
                e => self.fold_const(Expr::cast(e, to_ir)),
            });
        }
        if v.e.ty == to_ir && (from.is_scalar() || from.is_record()) {
            return Ok(v.e);
        }
        match (from.is_integer(), from.is_pointer(), from.is_real_float()) {
            (true, _, _) if to.is_pointer() => {
                if fold_value(&self.prog.types, &v.e) == Some(0) {
                    return Ok(Expr::new(ExprKind::Null, to_ir));
                }
                if !explicit {
                    self.warn(loc, "integer converted to pointer without a cast");
                }
                Ok(Expr::cast(v.e, to_ir))
            }
            (true, _, _) | (_, _, true) if to.is_arithmetic() => Ok(self.fold_const(Expr::cast(v.e, to_ir))),
            (_, true, _) if to.is_pointer() => {
                if matches!(v.e.kind, ExprKind::Null) {
                    return Ok(Expr::new(ExprKind::Null, to_ir));
                }
                Ok(Expr::cast(v.e, to_ir))
            }
            (_, true, _) if to.is_integer() => {
                if !explicit {
                    self.warn(loc, "pointer converted to integer without a cast");
                }
                Ok(Expr::cast(v.e, to_ir))
            }
            _ => Err(self.error(loc, "incompatible types in conversion")),
        }
    }

    /// A struct/union value as type `to`: the same record, or the same
    /// struct declared in another unit (reinterpreted: equal layout).
    pub(super) fn record_value(&mut self, v: Val, to: &CType, loc: Loc) -> R<Expr> {
        let (Kind::Record(a), Kind::Record(b)) = (&v.ty.kind, &to.kind) else {
            return Err(self.error(loc, "incompatible types: struct or union and a non-record type"));
        };
        if a == b {
            return Ok(v.e);
        }
        if !ctype::TypeEnv::records_compatible(&self.tcx, *a, *b) {
            return Err(self.error(loc, "incompatible struct or union types"));
        }
        let to_ir = self.ir_ty(to);
        let size_t = self.tcx.size_t();
        let zero = self.int_val(0, size_t).e;
        Ok(Expr::new(ExprKind::ByteExtract { value: Box::new(v.e), offset: Box::new(zero) }, to_ir))
    }

    /// The usual arithmetic conversions: the common type of two operands.
    pub(super) fn common_type(&mut self, a: &CType, b: &CType, loc: Loc) -> R<CType> {
        if matches!(a.kind, Kind::Complex(_)) || matches!(b.kind, Kind::Complex(_)) {
            // As GCC does, the integer parts of a complex operand are not
            // promoted (only a real operand is): `_Complex char` plus
            // `_Complex char` is `_Complex char`.
            let tcx = &self.tcx;
            let int_part = |t: &CType| match t.kind {
                Kind::Complex(ComplexElem::Int(k)) => Some(k),
                Kind::Complex(_) | Kind::Float(_) => None,
                _ => Some(ctype::promoted_kind(tcx.int_kind_of(t), None, |k| tcx.int_bits(k))),
            };
            if let (Some(ka), Some(kb)) = (int_part(a), int_part(b)) {
                return Ok(CType::new(Kind::Complex(ComplexElem::Int(ctype::common_int_kind(ka, kb, |k| tcx.int_bits(k))))));
            }
            // The usual arithmetic conversions of the parts' real types.
            let real = |t: &CType| match t.kind {
                Kind::Complex(elem) => elem.part_type(),
                _ => t.unqualified(),
            };
            let (ra, rb) = (real(a), real(b));
            let common = self.common_type(&ra, &rb, loc)?;
            return match ComplexElem::of_real(&common.kind) {
                Some(elem) => Ok(CType::new(Kind::Complex(elem))),
                None => Err(self.error(loc, "invalid complex operands")),
            };
        }
        match (&a.kind, &b.kind) {
            (Kind::Float(x), Kind::Float(y)) => Ok(CType::new(Kind::Float(if x.rank() >= y.rank() { *x } else { *y }))),
            (Kind::Float(_), _) => Ok(a.unqualified()),
            (_, Kind::Float(_)) => Ok(b.unqualified()),
            _ => {
                let tcx = &self.tcx;
                let pa = ctype::promoted_kind(tcx.int_kind_of(a), None, |k| tcx.int_bits(k));
                let pb = ctype::promoted_kind(tcx.int_kind_of(b), None, |k| tcx.int_bits(k));
                Ok(CType::new(Kind::Int(ctype::common_int_kind(pa, pb, |k| tcx.int_bits(k)))))
            }
        }
    }

    fn arith_operands(&mut self, l: Val, r: Val, loc: Loc) -> R<(Expr, Expr, CType)> {
        if !l.ty.is_arithmetic() || !r.ty.is_arithmetic() {
            return Err(self.error(loc, "invalid operands to arithmetic operator"));
        }
        let l = self.promote(l);
        let r = self.promote(r);
        let ty = self.common_type(&l.ty, &r.ty, loc)?;
        let le = self.cast_to(l, &ty, loc, true)?;
        let re = self.cast_to(r, &ty, loc, true)?;
        Ok((le, re, ty))
    }

    // ----- operators -----

    fn unary(&mut self, op: UnaryOp, x: &ast::Expr, loc: Loc) -> R<Val> {
        match op {
            UnaryOp::Plus | UnaryOp::Minus | UnaryOp::BitNot => {
                let v = self.rvalue(x)?;
                if v.ty.is_vector() {
                    return self.vector_unary(op, v, loc);
                }
                if matches!(v.ty.kind, Kind::Complex(_)) {
                    return match op {
                        UnaryOp::Plus => Ok(v),
                        UnaryOp::Minus => self.complex_unary(true, v, loc),
                        _ => self.complex_unary(false, v, loc),
                    };
                }
                let ok = if op == UnaryOp::BitNot { v.ty.is_integer() } else { v.ty.is_arithmetic() };
                if !ok {
                    return Err(self.error(loc, "invalid operand to unary operator"));
                }
                let v = self.promote(v);
                let irop = match op {
                    UnaryOp::Plus => return Ok(v),
                    UnaryOp::Minus => UnOp::Neg,
                    _ => UnOp::BitNot,
                };
                let e = Expr::unary(irop, v.e, self.ir_ty(&v.ty));
                let e = if v.ty.is_integer() { self.fold_const(e) } else { e };
                Ok(Val::rv(e, v.ty))
            }
            UnaryOp::Not => {
                let b = self.cond(x)?;
                let bt = self.prog.types.bool();
                let not = Expr::unary(UnOp::Not, b, bt);
                Ok(self.bool_to_int(not))
            }
            UnaryOp::Deref => {
                let v = self.rvalue(x)?;
                let Some(pointee) = v.ty.pointee().cloned() else {
                    return Err(self.error(loc, "indirection requires a pointer operand"));
                };
                let irty = self.ir_ty(&pointee);
                Ok(Val { e: deref(v.e, irty), lvalue: !pointee.is_function(), ty: pointee, bit_width: None })
            }
            UnaryOp::AddrOf => {
                let v = self.expr(x)?;
                if v.bit_width.is_some() {
                    return Err(self.error(loc, "cannot take the address of a bit-field"));
                }
                if !v.lvalue && !v.ty.is_function() && !v.e.is_lvalue() {
                    return Err(self.error(loc, "cannot take the address of an rvalue"));
                }
                let ptr = CType::pointer_to(v.ty.clone());
                let irty = self.ir_ty(&ptr);
                Ok(Val::rv(addr_of(v.e, irty), ptr))
            }
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                let inc = matches!(op, UnaryOp::PreInc | UnaryOp::PostInc);
                let pre = matches!(op, UnaryOp::PreInc | UnaryOp::PreDec);
                self.inc_dec(x, inc, pre, true, loc)
            }
            UnaryOp::Real | UnaryOp::Imag => {
                let v = self.expr(x)?;
                self.real_imag(v, op == UnaryOp::Imag, loc)
            }
        }
    }

    pub(super) fn modifiable(&mut self, x: &ast::Expr, loc: Loc) -> R<Val> {
        let v = self.expr(x)?;
        if !v.lvalue || v.ty.is_array() || v.ty.is_function() {
            return Err(self.error(loc, "expression is not assignable"));
        }
        if v.ty.quals.is_const {
            self.warn(loc, "assignment to a const-qualified object");
        }
        Ok(v)
    }

    /// `++x`, `--x`, `x++` or `x--`; a caller that drops the value says so
    /// with `value_used`, and gets no temporary for it.
    fn inc_dec(&mut self, x: &ast::Expr, inc: bool, pre: bool, value_used: bool, loc: Loc) -> R<Val> {
        let target = self.modifiable(x, loc)?;
        if !target.ty.is_scalar() {
            return Err(self.error(loc, "cannot increment or decrement this type"));
        }
        let ty = target.ty.unqualified();
        let old = Val { e: target.e.clone(), ty: ty.clone(), lvalue: false, bit_width: target.bit_width };
        let old = if pre || !value_used { old } else { Val { e: self.temp(old.e, &ty, loc), ..old } };
        let one = self.int_val(1, CType::int());
        let op = if inc { BinaryOp::Add } else { BinaryOp::Sub };
        let new = self.arith(op, old.clone(), one, loc)?;
        let value = self.cast_to(new, &ty, loc, true)?;
        if pre {
            return Ok(self.store(target, value, ty, value_used, loc));
        }
        self.emit(InstrKind::Assign(target.e.clone(), value), loc);
        Ok(Val { lvalue: false, ..old })
    }

    /// `l = r` or `l op= r`, its value wanted or not (`value_used`).
    /// The order of the two sides is unspecified (C11 6.5.16p3): where it
    /// may matter, every order is lowered (`order`); otherwise GCC's is
    /// taken: the right side first, except for a simple assignment of a
    /// call returning the left side's type to a place that is not a
    /// bit-field, whose place is evaluated first.
    fn assign(&mut self, op: Option<BinaryOp>, l: &ast::Expr, r: &ast::Expr, value_used: bool, loc: Loc) -> R<Val> {
        if let (None, Some(p)) = (op, self.alloc_size_entry(l)) {
            return self.alloc_size_write(p, r, loc);
        }
        if let Some(v) = self.assign_in_every_order(op, l, r, value_used, loc)? {
            return Ok(v);
        }
        if let Some(bop) = op {
            let v = self.rvalue(r)?;
            let target = self.modifiable(l, loc)?;
            let ty = target.ty.unqualified();
            let cur = Val { e: target.e.clone(), ty: ty.clone(), lvalue: false, bit_width: target.bit_width };
            let result = self.arith(bop, cur, v, loc)?;
            let value = self.cast_to(result, &ty, loc, true)?;
            return Ok(self.store(target, value, ty, value_used, loc));
        }
        let target = self.modifiable(l, loc)?;
        let ty = target.ty.unqualified();
        let mut place = target.e.clone();
        let stable = matches!(place.kind, ExprKind::Sym(_));
        if !stable && target.bit_width.is_none() && self.is_call_returning(r, &ty) {
            place = match self.frozen_place(&place, loc) {
                Some(frozen) => frozen,
                None => {
                    let ptr = CType::pointer_to(ty.clone());
                    let ptr_ir = self.ir_ty(&ptr);
                    let addr = self.temp(addr_of(place, ptr_ir), &ptr, loc);
                    deref(addr, target.e.ty)
                }
            };
        }
        let v = self.rvalue(r)?;
        let value = self.cast_to(v, &ty, loc, false)?;
        Ok(self.store(Val { e: place, ..target }, value, ty, value_used, loc))
    }

    /// Whether `e` is a call whose result has type `ty` (no conversion
    /// between it and the place it is assigned to).
    fn is_call_returning(&mut self, e: &ast::Expr, ty: &CType) -> bool {
        matches!(e.kind, A::Call(..)) && self.scratch(|s| s.rvalue(e)).is_ok_and(|(v, _)| v.ty.unqualified() == *ty)
    }

    /// The lvalue `place` with the pointers and indexes it depends on
    /// evaluated now into temporaries, so that it designates the same
    /// object however later code changes them. The access keeps its shape,
    /// and so the alignment of a member of a packed struct (a pointer to
    /// the member would demand its type's alignment). `None` for a shape
    /// other than variables, members, indexes and dereferences.
    pub(super) fn frozen_place(&mut self, place: &Expr, loc: Loc) -> Option<Expr> {
        let kind = match &place.kind {
            ExprKind::Sym(_) => return Some(place.clone()),
            ExprKind::Member(base, field) => ExprKind::Member(Box::new(self.frozen_place(base, loc)?), *field),
            ExprKind::Index(base, index) => {
                let base = self.frozen_place(base, loc)?;
                let ptrdiff = self.tcx.ptrdiff_t();
                let ptrdiff_ir = self.ir_ty(&ptrdiff);
                // An index wider than ptrdiff_t (`__int128`) is held whole.
                let held = match int_bits(&self.prog.types, index.ty) {
                    bits if bits <= int_bits(&self.prog.types, ptrdiff_ir) => ptrdiff,
                    128 => CType::new(Kind::Int(IntKind::Int128)),
                    _ => return None,
                };
                let index = match index.kind {
                    ExprKind::IntConst(_) => (**index).clone(),
                    _ => {
                        let held_ir = self.ir_ty(&held);
                        self.temp(Expr::cast((**index).clone(), held_ir), &held, loc)
                    }
                };
                ExprKind::Index(Box::new(base), Box::new(index))
            }
            ExprKind::Deref(pointer) => {
                let void_ptr = CType::pointer_to(CType::void());
                let void_ptr_ir = self.ir_ty(&void_ptr);
                let held = self.temp(Expr::cast((**pointer).clone(), void_ptr_ir), &void_ptr, loc);
                ExprKind::Deref(Box::new(Expr::cast(held, pointer.ty)))
            }
            _ => return None,
        };
        Some(Expr::new(kind, place.ty))
    }

    /// Stores `value` (of the lvalue's unqualified type `ty`) into `target`
    /// and gives the value of the assignment expression: the value stored,
    /// converted to the lvalue's type (C11 6.5.16p3), never read back from
    /// the lvalue, whose designation may depend on what was stored
    /// (`x.p->p = 0` with `x.p == &x`, `a[a[0]] = 1`). A variable read back
    /// is the same value; a bit-field's is truncated to its width.
    pub(super) fn store(&mut self, target: Val, value: Expr, ty: CType, value_used: bool, loc: Loc) -> Val {
        let variable = matches!(target.e.kind, ExprKind::Sym(_));
        let literal = matches!(value.kind, ExprKind::IntConst(_) | ExprKind::FloatConst(_) | ExprKind::Null | ExprKind::Zero);
        let kept = if variable || literal || !value_used { value } else { self.temp(value, &ty, loc) };
        self.emit(InstrKind::Assign(target.e.clone(), kept.clone()), loc);
        let e = if variable { target.e } else { self.bit_field_value(kept, &ty, target.bit_width) };
        Val { e, ty, lvalue: false, bit_width: target.bit_width }
    }

    /// `value` as a bit-field of `width` bits and type `ty` holds it.
    fn bit_field_value(&mut self, value: Expr, ty: &CType, width: Option<u32>) -> Expr {
        match width {
            Some(width) if !ty.is_bool() => {
                let (wide, narrow) = (value.ty, self.prog.types.int(width, self.tcx.is_signed(ty)));
                self.fold_const(Expr::cast(Expr::cast(value, narrow), wide))
            }
            _ => value,
        }
    }

    fn binary(&mut self, op: BinaryOp, l: &ast::Expr, r: &ast::Expr, loc: Loc) -> R<Val> {
        if matches!(op, BinaryOp::LogAnd | BinaryOp::LogOr) {
            return self.logical(op == BinaryOp::LogAnd, l, r, loc);
        }
        let operands = [l, r];
        let mut values = self.unordered(&operands, loc, &mut |s, i| s.rvalue(operands[i]))?.into_iter();
        let (Some(lv), Some(rv)) = (values.next(), values.next()) else {
            return Err(self.error(loc, "internal error: a binary operator lost an operand"));
        };
        self.arith(op, lv, rv, loc)
    }

    /// A binary operator on two rvalues.
    pub(super) fn arith(&mut self, op: BinaryOp, l: Val, r: Val, loc: Loc) -> R<Val> {
        use BinaryOp as B;
        if l.ty.is_vector() || r.ty.is_vector() {
            return self.vector_arith(op, l, r, loc);
        }
        let complex = matches!(l.ty.kind, Kind::Complex(_)) || matches!(r.ty.kind, Kind::Complex(_));
        if complex && l.ty.is_arithmetic() && r.ty.is_arithmetic() {
            let Kind::Complex(kind) = self.common_type(&l.ty, &r.ty, loc)?.kind else {
                return Err(self.error(loc, "invalid complex operands"));
            };
            return self.complex_arith(op, l, r, kind, loc);
        }
        match op {
            B::Add if l.ty.is_pointer() && r.ty.is_integer() => self.ptr_add(l, r, false, loc),
            B::Add if l.ty.is_integer() && r.ty.is_pointer() => self.ptr_add(r, l, false, loc),
            B::Sub if l.ty.is_pointer() && r.ty.is_integer() => self.ptr_add(l, r, true, loc),
            B::Sub if l.ty.is_pointer() && r.ty.is_pointer() => {
                let pd = self.tcx.ptrdiff_t();
                let irty = self.ir_ty(&pd);
                let re = if r.e.ty == l.e.ty { r.e } else { Expr::cast(r.e, l.e.ty) };
                Ok(Val::rv(Expr::binary(BinOp::PtrDiff, l.e, re, irty), pd))
            }
            B::Lt | B::Gt | B::Le | B::Ge | B::Eq | B::Ne => self.compare(op, l, r, loc),
            B::Shl | B::Shr => {
                if !l.ty.is_integer() || !r.ty.is_integer() {
                    return Err(self.error(loc, "invalid operands to shift"));
                }
                let l = self.promote(l);
                let r = self.promote(r);
                let irop = if op == B::Shl { BinOp::Shl } else { BinOp::Shr };
                let irty = self.ir_ty(&l.ty);
                let e = self.fold_const(Expr::binary(irop, l.e, r.e, irty));
                Ok(Val::rv(e, l.ty))
            }
            _ => {
                let integer_only = matches!(op, B::Rem | B::BitAnd | B::BitOr | B::BitXor);
                if integer_only && (!l.ty.is_integer() || !r.ty.is_integer()) {
                    return Err(self.error(loc, "invalid operands to integer operator"));
                }
                let (le, re, ty) = self.arith_operands(l, r, loc)?;
                let irop = match op {
                    B::Add => BinOp::Add,
                    B::Sub => BinOp::Sub,
                    B::Mul => BinOp::Mul,
                    B::Div => BinOp::Div,
                    B::Rem => BinOp::Rem,
                    B::BitAnd => BinOp::BitAnd,
                    B::BitOr => BinOp::BitOr,
                    _ => BinOp::BitXor,
                };
                let irty = self.ir_ty(&ty);
                let e = Expr::binary(irop, le, re, irty);
                let e = if ty.is_integer() { self.fold_const(e) } else { e };
                Ok(Val::rv(e, ty))
            }
        }
    }

    fn ptr_add(&mut self, p: Val, i: Val, negate: bool, loc: Loc) -> R<Val> {
        if p.ty.pointee().is_some_and(|t| t.is_function()) {
            self.warn(loc, "arithmetic on a pointer to a function");
        }
        let pd = self.tcx.ptrdiff_t();
        let i = self.promote(i);
        let mut offset = if negate { self.cast_to(i, &pd, loc, true)? } else { i.e };
        if negate {
            let irty = self.ir_ty(&pd);
            offset = self.fold_const(Expr::unary(UnOp::Neg, offset, irty));
        }
        let irty = p.e.ty;
        Ok(Val::rv(Expr::binary(BinOp::PtrAdd, p.e, offset, irty), p.ty))
    }

    fn compare(&mut self, op: BinaryOp, l: Val, r: Val, loc: Loc) -> R<Val> {
        let irop = match op {
            BinaryOp::Lt => BinOp::Lt,
            BinaryOp::Gt => BinOp::Gt,
            BinaryOp::Le => BinOp::Le,
            BinaryOp::Ge => BinOp::Ge,
            BinaryOp::Eq => BinOp::Eq,
            _ => BinOp::Ne,
        };
        let b = self.prog.types.bool();
        let (le, re) = if l.ty.is_pointer() || r.ty.is_pointer() {
            let ptr_ty = if l.ty.is_pointer() { l.ty.clone() } else { r.ty.clone() };
            let le = self.cast_to(l, &ptr_ty, loc, true)?;
            let re = self.cast_to(r, &ptr_ty, loc, true)?;
            (le, re)
        } else {
            let (le, re, _) = self.arith_operands(l, r, loc)?;
            (le, re)
        };
        let cmp = Expr::binary(irop, le, re, b);
        Ok(self.bool_to_int(cmp))
    }

    /// `l && r` or `l || r`. A left-deep chain of the same operator
    /// (`a && b && c ...`) is lowered in one loop, and every
    /// [`LOGICAL_LINKS_PER_TEMP`] links its value so far goes to a
    /// temporary, so neither this walk nor the IR expression grows as deep
    /// as the chain is long.
    fn logical(&mut self, is_and: bool, l: &ast::Expr, r: &ast::Expr, loc: Loc) -> R<Val> {
        let op = if is_and { BinaryOp::LogAnd } else { BinaryOp::LogOr };
        let mut links = vec![(r, loc)];
        let mut first = l;
        while let A::Binary(inner, a, b) = &first.kind {
            if *inner != op {
                break;
            }
            links.push((b, first.loc));
            first = a;
        }
        let (mut acc, mut acc_loc) = (self.rvalue(first)?, first.loc);
        let mut links_since_temp = 0;
        for (r, loc) in links.into_iter().rev() {
            let lb = self.truth(acc, acc_loc)?;
            acc_loc = loc;
            acc = self.logical_link(is_and, lb, r, loc)?;
            links_since_temp += 1;
            if links_since_temp == LOGICAL_LINKS_PER_TEMP {
                links_since_temp = 0;
                acc = Val::rv(self.temp(acc.e, &acc.ty, loc), acc.ty);
            }
        }
        Ok(acc)
    }

    /// One link of a logical chain: the left operand's truth `lb` combined
    /// with `r`, which is evaluated only when `lb` does not decide.
    fn logical_link(&mut self, is_and: bool, lb: Expr, r: &ast::Expr, loc: Loc) -> R<Val> {
        let bt = self.prog.types.bool();
        if !self.needs_control_flow(r) {
            let rb = self.cond(r)?;
            let op = if is_and { BinOp::And } else { BinOp::Or };
            let e = self.fold_const(Expr::binary(op, lb, rb, bt));
            return Ok(self.bool_to_int(e));
        }
        let int = CType::int();
        let init = self.int_val(i128::from(!is_and), int.clone());
        let result = self.temp(init.e, &int, loc);
        let end = self.new_label();
        let skip = if is_and { Expr::unary(UnOp::Not, lb, bt) } else { lb };
        self.goto_if(skip, end, loc);
        let rb = self.cond(r)?;
        let rv = self.bool_to_int(rb);
        self.emit(InstrKind::Assign(result.clone(), rv.e), loc);
        self.place_label(end);
        Ok(Val::rv(result, int))
    }

    /// The type of `c ? t : f` from its operands' (rvalue) types.
    fn conditional_type(&mut self, t: &Val, f: &Val, loc: Loc) -> R<CType> {
        if t.ty.is_arithmetic() && f.ty.is_arithmetic() {
            let (pt, pf) = (self.promote(t.clone()), self.promote(f.clone()));
            return self.common_type(&pt.ty, &pf.ty, loc);
        }
        if t.ty.is_void() || f.ty.is_void() {
            return Ok(CType::void());
        }
        let is_null = |v: &Val, s: &Self| v.ty.is_integer() && fold_value(&s.prog.types, &v.e) == Some(0);
        match (t.ty.is_pointer(), f.ty.is_pointer()) {
            (true, true) => {
                if t.ty.is_void_pointer() || matches!(f.e.kind, ExprKind::Null) {
                    return Ok(if matches!(t.e.kind, ExprKind::Null) { f.ty.clone() } else { t.ty.clone() });
                }
                Ok(if f.ty.is_void_pointer() { f.ty.clone() } else { t.ty.clone() })
            }
            (true, false) if is_null(f, self) || f.ty.is_integer() => Ok(t.ty.clone()),
            (false, true) if is_null(t, self) || t.ty.is_integer() => Ok(f.ty.clone()),
            _ if t.ty.is_record() && t.ty.unqualified() == f.ty.unqualified() => Ok(t.ty.unqualified()),
            _ => Err(self.error(loc, "incompatible operand types in conditional expression")),
        }
    }

    fn conditional(&mut self, c: &ast::Expr, t: Option<&ast::Expr>, f: &ast::Expr, loc: Loc) -> R<Val> {
        let complex = t.is_some_and(|t| self.needs_control_flow(t)) || self.needs_control_flow(f);
        let (cb, gnu_value) = match t {
            Some(_) => (self.cond(c)?, None),
            None => {
                let v = self.rvalue(c)?;
                let saved = Val { e: self.temp(v.e.clone(), &v.ty, loc), ..v };
                (self.truth(saved.clone(), loc)?, Some(saved))
            }
        };
        if !complex {
            let tv = match (t, &gnu_value) {
                (Some(t), _) => self.rvalue(t)?,
                (None, Some(v)) => v.clone(),
                (None, None) => return Err(self.error(loc, "malformed conditional expression")),
            };
            let fv = self.rvalue(f)?;
            let ty = self.conditional_type(&tv, &fv, loc)?;
            if ty.is_void() {
                return Ok(Val::rv(Expr::new(ExprKind::Zero, self.prog.types.void()), ty));
            }
            let te = self.cast_to(tv, &ty, loc, true)?;
            let fe = self.cast_to(fv, &ty, loc, true)?;
            let irty = self.ir_ty(&ty);
            let e = self.fold_const(Expr::new(ExprKind::Ite(Box::new(cb), Box::new(te), Box::new(fe)), irty));
            return Ok(Val::rv(e, ty));
        }
        // Control flow; the result temporary is declared once both arms'
        // types are known, in the placeholders left for it.
        let decl_at = self.fx.instrs.len();
        self.emit(InstrKind::Skip, loc);
        let else_label = self.new_label();
        let end = self.new_label();
        let bt = self.prog.types.bool();
        self.goto_if(Expr::unary(UnOp::Not, cb, bt), else_label, loc);
        let tv = match (t, gnu_value) {
            (Some(t), _) => self.rvalue(t)?,
            (None, Some(v)) => v,
            (None, None) => return Err(self.error(loc, "malformed conditional expression")),
        };
        let t_assign_at = self.fx.instrs.len();
        self.emit(InstrKind::Skip, loc);
        self.goto(end, loc);
        self.place_label(else_label);
        let fv = self.rvalue(f)?;
        let ty = self.conditional_type(&tv, &fv, loc)?;
        if ty.is_void() {
            // Neither value is used, but each arm's is still computed.
            self.keep_evaluation(fv, loc);
            self.place_label(end);
            if let Some((e, arm_ty)) = self.evaluation_of(tv) {
                let target = self.placed_temp("$tmp", &arm_ty, decl_at, loc);
                self.fx.instrs[t_assign_at].kind = InstrKind::Assign(target, e);
            }
            return Ok(Val::rv(Expr::new(ExprKind::Zero, self.prog.types.void()), ty));
        }
        let fe = self.cast_to(fv, &ty, loc, true)?;
        let te = self.cast_to(tv, &ty, loc, true)?;
        let target = self.placed_temp("$cond", &ty, decl_at, loc);
        self.fx.instrs[t_assign_at].kind = InstrKind::Assign(target.clone(), te);
        self.emit(InstrKind::Assign(target.clone(), fe), loc);
        self.place_label(end);
        Ok(Val::rv(target, ty))
    }

    /// A fresh temporary declared at the placeholder `decl_at`, emitted
    /// before a conditional's arms, where both arms see it.
    fn placed_temp(&mut self, display: &str, ty: &CType, decl_at: usize, loc: Loc) -> Expr {
        let sym = self.fresh_local(display, ty, loc);
        // fresh_local emitted its Decl here; move it to the placeholder.
        let decl = self.fx.instrs.pop().map(|i| i.kind).unwrap_or(InstrKind::Skip);
        self.fx.instrs[decl_at].kind = decl;
        Expr::sym(sym, self.prog.symbols[sym].ty)
    }

    fn cast_expr(&mut self, tn: &ast::TypeName, x: &ast::Expr, loc: Loc) -> R<Val> {
        let ty = self.type_name(tn)?;
        if ty.is_void() {
            self.discard(x)?;
            return Ok(Val::rv(Expr::new(ExprKind::Zero, self.prog.types.void()), ty));
        }
        if let Kind::Record(id) = ty.kind {
            return self.cast_to_union(id, &ty, x, loc);
        }
        if !ty.is_scalar() && !ty.is_vector() {
            return Err(self.error(loc, "cast to a non-scalar type"));
        }
        let v = self.rvalue(x)?;
        if !v.ty.is_scalar() && !v.ty.is_vector() {
            return Err(self.error(loc, "cast of a non-scalar value"));
        }
        let e = self.cast_to(v, &ty.unqualified(), loc, true)?;
        Ok(Val::rv(e, ty.unqualified()))
    }

    /// GNU cast to a union: the member of the operand's type gets the value.
    fn cast_to_union(&mut self, id: ir::CompositeId, ty: &CType, x: &ast::Expr, loc: Loc) -> R<Val> {
        let v = self.rvalue(x)?;
        let rec = &self.tcx.records[id.0 as usize];
        if rec.kind != ir::CompositeKind::Union {
            if v.ty.unqualified() == ty.unqualified() {
                return Ok(Val::rv(v.e, ty.unqualified()));
            }
            return Err(self.error(loc, "cast to a struct type"));
        }
        let tcx = &self.tcx;
        let member = rec.fields.iter().position(|f| ctype::compatible_unqualified(&f.ty, &v.ty, tcx));
        let Some(index) = member else {
            return Err(self.error(loc, "cast to a union type that has no member of the operand's type"));
        };
        let irty = self.ir_ty(ty);
        Ok(Val::rv(Expr::new(ExprKind::UnionLit(index as u32, Box::new(v.e)), irty), ty.unqualified()))
    }

    // ----- GCC vectors: element-wise operations -----

    /// A vector value as type `to`, or a value as vector type `to`: the
    /// same type, or the bytes of a same-size vector or integer
    /// reinterpreted (GCC allows both casts).
    fn vector_value(&mut self, v: Val, to: &CType, loc: Loc) -> R<Expr> {
        let to_ir = self.ir_ty(to);
        if v.e.ty == to_ir {
            return Ok(v.e);
        }
        let same_size = self.tcx.size_of(&v.ty).ok() == self.tcx.size_of(to).ok();
        let vector_or_integer = |t: &CType| t.is_vector() || t.is_integer();
        if !(vector_or_integer(&v.ty) && vector_or_integer(to) && same_size) {
            return Err(self.error(loc, "invalid conversion between a vector and another type"));
        }
        let size_t = self.tcx.size_t();
        let zero = self.int_val(0, size_t).e;
        Ok(Expr::new(ExprKind::ByteExtract { value: Box::new(v.e), offset: Box::new(zero) }, to_ir))
    }

    /// Lane `i` of an operand: an element of a vector, or a scalar
    /// converted to the element type.
    fn lane(&mut self, v: &Val, elem: &CType, i: u64) -> Expr {
        let irty = self.ir_ty(elem);
        let size_t = self.tcx.size_t();
        let idx = self.int_val(i128::from(i), size_t).e;
        Expr::new(ExprKind::Index(Box::new(v.e.clone()), Box::new(idx)), irty)
    }

    /// The vector of `items`, kept in a temporary so later lanes read it
    /// once.
    fn vector_result(&mut self, elem: CType, items: Vec<Expr>, loc: Loc) -> Val {
        let ty = CType::new(Kind::Vector(Box::new(elem), items.len() as u64));
        let irty = self.ir_ty(&ty);
        let e = self.temp(Expr::new(ExprKind::ArrayLit(items), irty), &ty, loc);
        Val::rv(e, ty)
    }

    fn vector_arith(&mut self, op: BinaryOp, l: Val, r: Val, loc: Loc) -> R<Val> {
        use BinaryOp as B;
        let vector = if l.ty.is_vector() { l.ty.clone() } else { r.ty.clone() };
        let Kind::Vector(elem, n) = vector.kind.clone() else {
            return Err(self.error(loc, "internal error: vector operation without a vector"));
        };
        let elem = *elem;
        let mut operands = Vec::new();
        for v in [l, r] {
            if v.ty.is_vector() {
                if self.ir_ty(&v.ty) != self.ir_ty(&vector) {
                    return Err(self.error(loc, "vector operands of different types"));
                }
                operands.push(v);
            } else {
                let e = self.cast_to(v, &elem, loc, false)?;
                operands.push(Val::rv(e, elem.clone()));
            }
        }
        let irop = match op {
            B::Add => BinOp::Add,
            B::Sub => BinOp::Sub,
            B::Mul => BinOp::Mul,
            B::Div => BinOp::Div,
            B::Rem => BinOp::Rem,
            B::BitAnd => BinOp::BitAnd,
            B::BitOr => BinOp::BitOr,
            B::BitXor => BinOp::BitXor,
            B::Shl => BinOp::Shl,
            B::Shr => BinOp::Shr,
            B::Lt => BinOp::Lt,
            B::Gt => BinOp::Gt,
            B::Le => BinOp::Le,
            B::Ge => BinOp::Ge,
            B::Eq => BinOp::Eq,
            B::Ne => BinOp::Ne,
            B::LogAnd | B::LogOr => return Err(self.error(loc, "unsupported: logical operators on GCC vectors")),
        };
        let integer_only = matches!(op, B::Rem | B::BitAnd | B::BitOr | B::BitXor | B::Shl | B::Shr);
        if integer_only && !elem.is_integer() {
            return Err(self.error(loc, "invalid operands to a vector integer operator"));
        }
        let elem_ir = self.ir_ty(&elem);
        // Comparisons give -1 (true) or 0 in a signed integer of the element's size.
        let result_elem = if irop.is_comparison() {
            let bytes = self.tcx.size_of(&elem).unwrap_or(4);
            CType::new(Kind::Int(match bytes {
                1 => IntKind::SChar,
                2 => IntKind::Short,
                8 => IntKind::LongLong,
                _ => IntKind::Int,
            }))
        } else {
            elem.clone()
        };
        let result_ir = self.ir_ty(&result_elem);
        let bt = self.prog.types.bool();
        let mut items = Vec::new();
        for i in 0..n {
            let a = if operands[0].ty.is_vector() { self.lane(&operands[0], &elem, i) } else { operands[0].e.clone() };
            let b = if operands[1].ty.is_vector() { self.lane(&operands[1], &elem, i) } else { operands[1].e.clone() };
            items.push(if irop.is_comparison() {
                let cmp = Expr::binary(irop, a, b, bt);
                let all_ones = Expr::int(ir::layout::low_mask(self.tcx.size_of(&result_elem).unwrap_or(4) as u32 * 8), result_ir);
                Expr::new(ExprKind::Ite(Box::new(cmp), Box::new(all_ones), Box::new(Expr::int(0, result_ir))), result_ir)
            } else {
                Expr::binary(irop, a, b, elem_ir)
            });
        }
        Ok(self.vector_result(result_elem, items, loc))
    }

    fn vector_unary(&mut self, op: UnaryOp, v: Val, loc: Loc) -> R<Val> {
        let Kind::Vector(elem, n) = v.ty.kind.clone() else {
            return Err(self.error(loc, "internal error: vector operation without a vector"));
        };
        let irop = match op {
            UnaryOp::Plus => return Ok(v),
            UnaryOp::Minus => UnOp::Neg,
            _ if elem.is_integer() => UnOp::BitNot,
            _ => return Err(self.error(loc, "invalid operand to a vector operator")),
        };
        let elem_ir = self.ir_ty(&elem);
        let items = (0..n).map(|i| Expr::unary(irop, self.lane(&v, &elem, i), elem_ir)).collect();
        Ok(self.vector_result(*elem, items, loc))
    }

    /// `__builtin_convertvector(v, T)`: each lane converted to `T`'s element
    /// type (the type arrives as a typedef name).
    fn convert_vector(&mut self, v: &ast::Expr, t: &ast::Expr, loc: Loc) -> R<Val> {
        let target = match &t.kind {
            A::Ident(name) => match self.scopes.lookup(name) {
                Some(Ordinary::Typedef(ty)) => ty.clone(),
                _ => return Err(self.error(t.loc, "`__builtin_convertvector` needs a vector type name")),
            },
            _ => return Err(self.error(t.loc, "`__builtin_convertvector` needs a vector type name")),
        };
        let value = self.rvalue(v)?;
        let (Kind::Vector(from, n), Kind::Vector(to, m)) = (value.ty.kind.clone(), target.kind.clone()) else {
            return Err(self.error(loc, "`__builtin_convertvector` converts between vector types"));
        };
        if n != m {
            return Err(self.error(loc, "`__builtin_convertvector` between vectors of different lengths"));
        }
        let mut items = Vec::new();
        for i in 0..n {
            let lane = Val::rv(self.lane(&value, &from, i), (*from).clone());
            items.push(self.cast_to(lane, &to, loc, true)?);
        }
        Ok(self.vector_result(*to, items, loc))
    }

    /// The x86 saturating lane additions and subtractions (`paddsb`,
    /// `psubusw`, ...): each lane's exact sum or difference, clamped to the
    /// lane width's signed or unsigned range.
    fn saturating_lanes(&mut self, a: &ast::Expr, b: &ast::Expr, subtract: bool, unsigned: bool, loc: Loc) -> R<Val> {
        let (av, bv) = (self.rvalue(a)?, self.rvalue(b)?);
        let Kind::Vector(elem, n) = av.ty.kind.clone() else {
            return Err(self.error(a.loc, "a saturating vector builtin needs vector operands"));
        };
        let width = self.tcx.int_bits(self.tcx.int_kind_of(&elem).unwrap_or(IntKind::Int));
        if self.ir_ty(&av.ty) != self.ir_ty(&bv.ty) || width > 16 {
            return Err(self.error(b.loc, "a saturating vector builtin needs two vectors of 8- or 16-bit lanes"));
        }
        let lane_ir = self.prog.types.int(width, !unsigned);
        let int = CType::int();
        let int_ir = self.ir_ty(&int);
        let bool_ir = self.prog.types.bool();
        let (lo, hi) = if unsigned { (0, (1i128 << width) - 1) } else { (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1) };
        let (lo, hi) = (self.int_val(lo, int.clone()).e, self.int_val(hi, int).e);
        let elem_ir = self.ir_ty(&elem);
        let items = (0..n)
            .map(|i| {
                let widen = |s: &mut Self, v: &Val| Expr::cast(Expr::cast(s.lane(v, &elem, i), lane_ir), int_ir);
                let (x, y) = (widen(self, &av), widen(self, &bv));
                let exact = Expr::binary(if subtract { BinOp::Sub } else { BinOp::Add }, x, y, int_ir);
                let above = Expr::binary(BinOp::Gt, exact.clone(), hi.clone(), bool_ir);
                let below = Expr::binary(BinOp::Lt, exact.clone(), lo.clone(), bool_ir);
                let upper = Expr::new(ExprKind::Ite(Box::new(above), Box::new(hi.clone()), Box::new(exact)), int_ir);
                let clamped = Expr::new(ExprKind::Ite(Box::new(below), Box::new(lo.clone()), Box::new(upper)), int_ir);
                Expr::cast(clamped, elem_ir)
            })
            .collect();
        Ok(self.vector_result(*elem, items, loc))
    }

    /// `__builtin_shufflevector(a, b, i...)`: lane `i` of the concatenation of `a` and `b`.
    fn shuffle_vector(&mut self, args: &[ast::Expr], loc: Loc) -> R<Val> {
        let [a, b, indices @ ..] = args else {
            return Err(self.error(loc, "`__builtin_shufflevector` needs two vectors and indices"));
        };
        let (av, bv) = (self.rvalue(a)?, self.rvalue(b)?);
        let Kind::Vector(elem, n) = av.ty.kind.clone() else {
            return Err(self.error(a.loc, "`__builtin_shufflevector` operand is not a vector"));
        };
        if self.ir_ty(&av.ty) != self.ir_ty(&bv.ty) {
            return Err(self.error(b.loc, "`__builtin_shufflevector` operands of different types"));
        }
        let mut items = Vec::new();
        for index in indices {
            let i = self.const_int(index, "shuffle index")?;
            let lane = match i {
                -1 => Expr::new(ExprKind::Zero, self.ir_ty(&elem)),
                i if (0..n as i128).contains(&i) => self.lane(&av, &elem, i as u64),
                i if (n as i128..2 * n as i128).contains(&i) => self.lane(&bv, &elem, i as u64 - n),
                _ => return Err(self.error(index.loc, "shuffle index out of range")),
            };
            items.push(lane);
        }
        Ok(self.vector_result(*elem, items, loc))
    }

    // ----- calls -----

    /// Lowers a call; with `want_value`, a non-void result goes into a
    /// fresh temporary.
    pub(super) fn call(&mut self, f: &ast::Expr, args: &[ast::Expr], loc: Loc, want_value: bool) -> R<Val> {
        if let Some(quantifier) = super::quantifier::quantifier_named(match &f.kind {
            A::Ident(name) => name,
            _ => "",
        }) {
            return self.quantifier(quantifier, args, loc);
        }
        let captures = self.call_captures(f);
        let mut designator = None;
        let mut callee = match &f.kind {
            A::Ident(name) if !captures.is_empty() => {
                let Some(Ordinary::Symbol { sym }) = self.scopes.lookup(name).cloned() else {
                    return Err(self.error(loc, "internal error: a nested function lost its name"));
                };
                let v = Val { e: Expr::sym(sym, self.prog.symbols[sym].ty), ty: self.sym_types[&sym].clone(), lvalue: false, bit_width: None };
                self.decay(v)
            }
            A::Ident(name) if self.scopes.lookup(name).is_none() || self.is_implicit_builtin(name) => {
                if let Some(v) = self.builtin_call(name, args, loc)? {
                    return Ok(v);
                }
                let library = super::builtins::library_name(name);
                let (sym, ty) = match self.scopes.lookup(library) {
                    Some(Ordinary::Symbol { sym }) => (*sym, self.sym_types[sym].clone()),
                    _ => self.implicit_function(library, f.loc)?,
                };
                let irty = self.prog.symbols[sym].ty;
                let v = Val { e: Expr::sym(sym, irty), ty, lvalue: false, bit_width: None };
                self.decay(v)
            }
            // A designator that reads something: evaluated with the arguments.
            _ if !self.is_constant_operand(f) => {
                designator = Some(f);
                self.scratch(|s| s.rvalue(f))?.0
            }
            _ => self.rvalue(f)?,
        };
        let Some(fnty) = callee.ty.pointee().and_then(|p| p.fn_type()).cloned() else {
            return Err(self.error(loc, "called object is not a function or function pointer"));
        };
        let (n, m) = (fnty.params.len(), args.len());
        let arity_ok = m == n || (m > n && fnty.variadic);
        let assumed = match &callee.e.kind {
            ExprKind::AddrOf(inner) => matches!(inner.kind, ExprKind::Sym(s) if self.implicit_builtins.contains(&s)),
            _ => false,
        };
        let mut fnty = fnty;
        let relaxed = !fnty.unprototyped && !arity_ok;
        if relaxed {
            if !assumed {
                return Err(self.error(loc, format!("function expects {n} argument(s), {m} given")));
            }
            // C types an undeclared function as `int f()`: the assumed
            // library prototype only applies to calls that fit it.
            self.warn(loc, format!("call does not match the library prototype ({n} argument(s), {m} given)"));
            fnty = std::rc::Rc::new(ctype::FnType { unprototyped: true, params: Vec::new(), ..(*fnty).clone() });
        }
        let (evaluated, mut lowered) = self.call_arguments(&fnty, designator, args, loc)?;
        if let Some(evaluated) = evaluated {
            callee = evaluated;
        }
        if let A::Ident(name) = &f.kind {
            if let Some(v) = self.folded_bit_builtin(name, &lowered, &fnty.ret) {
                return Ok(v);
            }
        }
        for outer in captures {
            lowered.push(self.capture_address(outer, loc));
        }
        let callee_e = match callee.e.kind {
            _ if relaxed => {
                let ptr = CType::pointer_to(CType::new(Kind::Function(fnty.clone())));
                let ptr_ir = self.ir_ty(&ptr);
                Expr::cast(callee.e, ptr_ir)
            }
            ExprKind::AddrOf(inner) if matches!(inner.kind, ExprKind::Sym(_)) => *inner,
            kind => Expr::new(kind, callee.e.ty),
        };
        self.emit_call(callee_e, lowered, fnty.ret.clone(), loc, want_value)
    }

    /// GCC's fixed-width bit built-in `name` (`__builtin_ffs`, `clzl`,
    /// `popcountll`, `bswap32`, ...) on a constant argument, folded as GCC
    /// folds it, so it may stand in an integer constant expression
    /// (`_Static_assert(__builtin_ffs(0) == 0, "")`). `clz` and `ctz` of 0
    /// stay calls (undefined when run; GCC's folder gives the width there,
    /// which only a static assertion could tell apart). `None` otherwise.
    fn folded_bit_builtin(&mut self, name: &str, args: &[Expr], ret: &CType) -> Option<Val> {
        if !name.starts_with("__builtin_") || self.scopes.lookup(name).is_some_and(|o| !matches!(o, Ordinary::Symbol { sym } if self.implicit_builtins.contains(sym))) {
            return None;
        }
        let (op, width) = ir::intrinsics::bit_builtin(name, self.tcx.dm.long_bits())?;
        let [arg] = args else { return None };
        let value = super::consteval::fold_value(&self.prog.types, arg)? as u128 & ir::layout::low_mask(width);
        let result = ir::intrinsics::bit_value(op, value, width)?;
        Some(self.int_val(result as i128, ret.clone()))
    }

    /// The arguments `args` converted as the callee's type `fnty` says:
    /// to the parameter types where it is a prototype (or an unprototyped
    /// definition whose parameters match in number), else by the default
    /// argument promotions; evaluated in every order with the
    /// `designator`'s value when the callee is an expression that reads
    /// something (C11 6.5.2.2p10), returned first.
    fn call_arguments(&mut self, fnty: &ctype::FnType, designator: Option<&ast::Expr>, args: &[ast::Expr], loc: Loc) -> R<(Option<Val>, Vec<Expr>)> {
        let prototyped = !fnty.unprototyped || (!fnty.params.is_empty() && fnty.params.len() == args.len());
        let operands: Vec<&ast::Expr> = designator.into_iter().chain(args).collect();
        let first_argument = usize::from(designator.is_some());
        let mut lower = |s: &mut Self, i: usize| -> R<Val> {
            if i < first_argument {
                return s.rvalue(operands[i]);
            }
            let (i, a) = (i - first_argument, operands[i]);
            let v = s.rvalue(a)?;
            match fnty.params.get(i) {
                Some(p) if prototyped => {
                    let v = if fnty.unprototyped { s.default_promote(v, a.loc)? } else { v };
                    let ty = p.unqualified();
                    Ok(Val::rv(s.cast_to(v, &ty, a.loc, fnty.unprototyped)?, ty))
                }
                _ => s.default_promote(v, a.loc),
            }
        };
        let mut values = self.unordered(&operands, loc, &mut lower)?.into_iter();
        let callee = if designator.is_some() { values.next() } else { None };
        Ok((callee, values.map(|v| v.e).collect()))
    }

    /// Emits the call of `callee` with `args`; with `want_value`, a
    /// non-void result of type `ret` goes into a fresh temporary.
    fn emit_call(&mut self, callee: Expr, args: Vec<Expr>, ret: CType, loc: Loc, want_value: bool) -> R<Val> {
        if ret.is_void() || !want_value {
            self.emit(InstrKind::Call { lhs: None, callee, args }, loc);
            let void = self.prog.types.void();
            return Ok(Val::rv(Expr::new(ExprKind::Zero, void), CType::void()));
        }
        let tmp = self.fresh_local("$ret", &ret, loc);
        let irty = self.prog.symbols[tmp].ty;
        let lhs = Expr::sym(tmp, irty);
        self.emit(InstrKind::Call { lhs: Some(lhs.clone()), callee, args }, loc);
        Ok(Val { e: lhs, ty: ret, lvalue: false, bit_width: None })
    }

    /// Whether `name` was declared by an earlier call of it as a builtin
    /// (so later calls get the builtin's treatment too).
    fn is_implicit_builtin(&self, name: &str) -> bool {
        matches!(self.scopes.lookup(name), Some(Ordinary::Symbol { sym }) if self.implicit_builtins.contains(sym))
    }

    /// Default argument promotions: integer promotions, float to double.
    /// A bit-field whose promotion keeps its own width (wider than `int`)
    /// is passed as its declared type, as GCC extends it.
    fn default_promote(&mut self, v: Val, loc: Loc) -> R<Val> {
        if matches!(v.ty.kind, Kind::Float(FloatKind::Float | FloatKind::Float16)) {
            let d = CType::new(Kind::Float(FloatKind::Double));
            let e = self.cast_to(v, &d, loc, true)?;
            return Ok(Val::rv(e, d));
        }
        let declared = v.ty.unqualified();
        let declared_precise = self.tcx.int_kind_of(&declared).and_then(IntKind::bit_precise_width).is_some();
        let p = self.promote(v);
        match self.tcx.int_kind_of(&p.ty).and_then(IntKind::bit_precise_width) {
            Some(_) if !declared_precise => {
                let e = self.cast_to(p, &declared, loc, true)?;
                Ok(Val::rv(e, declared))
            }
            _ => Ok(p),
        }
    }

    /// Builtins whose meaning is fixed by the language rather than a
    /// model: `__builtin_expect`, `__builtin_constant_p`. `None` for all
    /// other names.
    fn builtin_call(&mut self, name: &str, args: &[ast::Expr], loc: Loc) -> R<Option<Val>> {
        match (name, args) {
            ("__builtin_expect" | "__builtin_expect_with_probability", [value, rest @ ..]) => {
                let v = self.rvalue(value)?;
                for r in rest {
                    self.discard(r)?;
                }
                let long = CType::new(Kind::Int(IntKind::Long));
                let e = self.cast_to(v, &long, loc, true)?;
                Ok(Some(Val::rv(e, long)))
            }
            ("__builtin_object_size", [ptr, size_type]) => self.object_size_builtin(ptr, size_type, loc),
            ("__builtin_shufflevector", _) => self.shuffle_vector(args, loc).map(Some),
            (_, [a, b]) if x86_saturating(name).is_some() => {
                let (subtract, unsigned) = x86_saturating(name).unwrap_or_default();
                self.saturating_lanes(a, b, subtract, unsigned, loc).map(Some)
            }
            ("__builtin_convertvector", [v, t]) => self.convert_vector(v, t, loc).map(Some),
            ("__CPROVER_enum_is_in_range", [x]) => self.enum_is_in_range(x).map(Some),
            ("__builtin_constant_p", [x]) => {
                let errors = self.diags.list.len();
                let scratch = self.scratch(|s| s.rvalue(x));
                self.diags.list.truncate(errors);
                let constant = match scratch {
                    Ok((v, instrs)) => instrs.is_empty() && fold_value(&self.prog.types, &v.e).is_some(),
                    Err(_) => false,
                };
                Ok(Some(self.int_val(i128::from(constant), CType::int())))
            }
            _ => {
                if let Some(v) = self.generic_bit_call(name, args, loc)? {
                    return Ok(Some(v));
                }
                if let Some(v) = self.va_builtin(name, args, loc)? {
                    return Ok(Some(v));
                }
                if let Some(v) = self.atomic_builtin(name, args, loc)? {
                    return Ok(Some(v));
                }
                match self.float_builtin(name, args, loc)? {
                    Some(v) => Ok(Some(v)),
                    None => self.overflow_builtin(name, args, loc),
                }
            }
        }
    }

    /// CBMC's `__CPROVER_enum_is_in_range(e)`: whether the value of `e`,
    /// of a complete enumerated type, is one of its enumerators.
    fn enum_is_in_range(&mut self, x: &ast::Expr) -> R<Val> {
        let v = self.rvalue(x)?;
        let Kind::Enum(id) = v.ty.kind else {
            return Err(self.error(x.loc, "`__CPROVER_enum_is_in_range` needs an operand of enumerated type"));
        };
        if !self.tcx.enums[id].complete {
            return Err(self.error(x.loc, "`__CPROVER_enum_is_in_range` of an incomplete enumerated type"));
        }
        let mut values = self.tcx.enums[id].values.clone();
        values.sort_unstable();
        values.dedup();
        let bool_ty = self.prog.types.bool();
        let mut any = Expr::new(ExprKind::IntConst(0), bool_ty);
        for value in values {
            let constant = self.int_val(value, v.ty.clone()).e;
            let equal = Expr::binary(BinOp::Eq, v.e.clone(), constant, bool_ty);
            any = Expr::binary(BinOp::Or, any, equal, bool_ty);
        }
        let int = CType::int();
        let irty = self.ir_ty(&int);
        Ok(Val::rv(Expr::cast(any, irty), int))
    }

    // ----- members and indexing -----

    fn member(&mut self, base: &ast::Expr, field: &str, arrow: bool, loc: Loc) -> R<Val> {
        let b = if arrow {
            let p = self.rvalue(base)?;
            let Some(pointee) = p.ty.pointee().cloned() else {
                return Err(self.error(loc, "member reference through `->` needs a pointer"));
            };
            let irty = self.ir_ty(&pointee);
            Val { e: deref(p.e, irty), ty: pointee, lvalue: true, bit_width: None }
        } else {
            self.expr(base)?
        };
        let Kind::Record(id) = b.ty.kind else {
            return Err(self.error(loc, format!("member `{field}` of something that is not a struct or union")));
        };
        if !self.tcx.records[id.0 as usize].complete {
            return Err(self.error(loc, format!("member `{field}` of an incomplete type")));
        }
        let Some(path) = self.tcx.find_field(id, field) else {
            let tag = self.tcx.records[id.0 as usize].tag.clone();
            return Err(self.error(loc, format!("no member named `{field}` in `{tag}`")));
        };
        let mut e = b.e;
        let mut rec = id;
        for idx in &path.indices {
            let fty = self.tcx.records[rec.0 as usize].fields[*idx as usize].ty.clone();
            let irty = self.ir_ty(&fty);
            e = Expr::new(ExprKind::Member(Box::new(e), *idx), irty);
            if let Kind::Record(inner) = fty.kind {
                rec = inner;
            }
        }
        let ty = path.field.ty.clone().with_quals(b.ty.quals);
        Ok(Val { e, ty, lvalue: b.lvalue || arrow, bit_width: path.field.bit_width })
    }

    fn index(&mut self, a: &ast::Expr, i: &ast::Expr, loc: Loc) -> R<Val> {
        if let Some((p, idx)) = self.subscript_in_every_order(a, i, loc)? {
            return self.pointer_subscript(p, idx, loc);
        }
        let av = self.expr(a)?;
        if let Kind::Vector(elem, _) = &av.ty.kind {
            let elem = elem.as_ref().clone().with_quals(av.ty.quals);
            let idx = self.rvalue(i)?;
            if !idx.ty.is_integer() {
                return Err(self.error(loc, "vector subscript is not an integer"));
            }
            let irty = self.ir_ty(&elem);
            let e = Expr::new(ExprKind::Index(Box::new(av.e), Box::new(idx.e)), irty);
            return Ok(Val { e, ty: elem, lvalue: av.lvalue, bit_width: None });
        }
        let (arr, idx) = if av.ty.is_array() || av.ty.is_pointer() || !av.ty.is_integer() {
            (av, self.rvalue(i)?)
        } else {
            // `i[a]`
            let iv = self.expr(i)?;
            (iv, self.decay(av))
        };
        if !idx.ty.is_integer() {
            return Err(self.error(loc, "array subscript is not an integer"));
        }
        let idx = self.promote(idx);
        if let Kind::Array(elem, _) = &arr.ty.kind {
            if arr.e.is_lvalue() {
                let elem = elem.as_ref().clone().with_quals(arr.ty.quals);
                let irty = self.ir_ty(&elem);
                let e = Expr::new(ExprKind::Index(Box::new(arr.e), Box::new(idx.e)), irty);
                return Ok(Val { e, ty: elem, lvalue: true, bit_width: None });
            }
        }
        let p = self.decay(arr);
        self.pointer_subscript(p, idx, loc)
    }

    /// `p[idx]` for a pointer `p` and a promoted integer `idx`.
    pub(super) fn pointer_subscript(&mut self, p: Val, idx: Val, loc: Loc) -> R<Val> {
        let Some(elem) = p.ty.pointee().cloned() else {
            return Err(self.error(loc, "subscripted value is not an array or pointer"));
        };
        if self.tcx.size_of(&elem).is_err() && !elem.is_vla() {
            return Err(self.error(loc, "subscript of a pointer to an incomplete type"));
        }
        let irty = self.ir_ty(&elem);
        let sum = Expr::binary(BinOp::PtrAdd, p.e, idx.e, self.ir_ty(&p.ty));
        Ok(Val { e: deref(sum, irty), ty: elem, lvalue: true, bit_width: None })
    }

    // ----- sizeof, alignof, offsetof -----

    fn sizeof(&mut self, ty: &CType, loc: Loc) -> R<Val> {
        let size_t = self.tcx.size_t();
        if ty.is_vla() {
            let e = self.vla_size(ty);
            return Ok(Val::rv(e, size_t));
        }
        match self.tcx.size_of(ty) {
            Ok(n) => Ok(self.int_val(i128::from(n), size_t)),
            // GNU C: sizeof(void) and sizeof of a function are 1.
            Err(super::types::SizeError::Void | super::types::SizeError::Function) => Ok(self.int_val(1, size_t)),
            Err(e) => Err(self.error(loc, format!("invalid application of `sizeof` to an {}", e.describe()))),
        }
    }

    /// The run-time size of a variably modified type.
    pub(super) fn vla_size(&mut self, ty: &CType) -> Expr {
        let size_t = self.tcx.size_t();
        let st = self.ir_ty(&size_t);
        match &ty.kind {
            Kind::Array(elem, size) => {
                let elem_size = self.vla_size(elem);
                let count = match size {
                    ArraySize::Var(sym) => {
                        let sty = self.prog.symbols[*sym].ty;
                        let len = Expr::sym(*sym, sty);
                        if sty == st { len } else { Expr::cast(len, st) }
                    }
                    ArraySize::Fixed(n) => Expr::int(u128::from(*n), st),
                    ArraySize::Unknown => Expr::int(0, st),
                };
                self.fold_const(Expr::binary(BinOp::Mul, count, elem_size, st))
            }
            _ => Expr::int(u128::from(self.tcx.size_of(ty).unwrap_or(1)), st),
        }
    }

    fn alignof(&mut self, ty: &CType, loc: Loc) -> R<Val> {
        let size_t = self.tcx.size_t();
        let base = if ty.is_vla() { innermost_elem(ty) } else { ty.clone() };
        match self.tcx.align_of(&base) {
            Ok(n) => Ok(self.int_val(i128::from(n), size_t)),
            Err(super::types::SizeError::Void | super::types::SizeError::Function) => Ok(self.int_val(1, size_t)),
            Err(e) => Err(self.error(loc, format!("invalid application of `_Alignof` to an {}", e.describe()))),
        }
    }

    fn offsetof(&mut self, tn: &ast::TypeName, parts: &[ast::OffsetofPart], loc: Loc) -> R<Val> {
        let mut ty = self.type_name(tn)?;
        let mut offset: i128 = 0;
        for part in parts {
            match part {
                ast::OffsetofPart::Field(name, floc) => {
                    let Kind::Record(id) = ty.kind else {
                        return Err(self.error(*floc, format!("`offsetof` member `{name}` of a non-record type")));
                    };
                    let Some(path) = self.tcx.find_field(id, name) else {
                        return Err(self.error(*floc, format!("no member named `{name}`")));
                    };
                    if path.field.bit_width.is_some() {
                        return Err(self.error(*floc, format!("`offsetof` of bit-field `{name}`")));
                    }
                    offset += i128::from(path.offset_bits / 8);
                    ty = path.field.ty;
                }
                ast::OffsetofPart::Index(e) => {
                    let Some(elem) = ty.elem().cloned() else {
                        return Err(self.error(e.loc, "`offsetof` subscript of a non-array type"));
                    };
                    let i = self.const_int(e, "`offsetof` subscript")?;
                    let size = self.tcx.size_of(&elem).unwrap_or(0);
                    offset += i * i128::from(size);
                    ty = elem;
                }
            }
        }
        let _ = loc;
        let size_t = self.tcx.size_t();
        Ok(self.int_val(offset, size_t))
    }

    // ----- other primaries -----

    fn generic(&mut self, c: &ast::Expr, assocs: &[(Option<ast::TypeName>, ast::Expr)], loc: Loc) -> R<Val> {
        let (v, _) = self.scratch(|s| s.rvalue(c))?;
        let mut default = None;
        for (tn, e) in assocs {
            match tn {
                None => default = Some(e),
                Some(tn) => {
                    let ty = self.type_name(tn)?;
                    let tcx = &self.tcx;
                    if ctype::compatible(&v.ty.unqualified(), &ty, tcx) {
                        return self.expr(e);
                    }
                }
            }
        }
        match default {
            Some(e) => self.expr(e),
            None => Err(self.error(loc, "`_Generic` selector matches no association")),
        }
    }

    fn compound_literal(&mut self, tn: &ast::TypeName, items: &[ast::InitItem], loc: Loc) -> R<Val> {
        let init = ast::Initializer::List(items.to_vec(), loc);
        let ty = self.type_name(tn)?;
        let ty = self.complete_from_initializer(ty, &init)?;
        let sym = if self.in_static_context() {
            let name = self.unique_name("__compound_literal", "");
            let irty = self.ir_ty(&ty);
            let sym = self.prog.add_symbol(&name, irty, ir::SymbolKind::Global, loc);
            self.sym_types.insert(sym, ty.clone());
            sym
        } else {
            // Automatic storage for the enclosing block (C11 6.5.2.5p5):
            // the object dies when the block is left.
            let sym = self.fresh_local("$literal", &ty, loc);
            if let Some(block) = self.fx.live.last_mut() {
                block.locals.push(sym);
            }
            sym
        };
        let zero_first = !self.in_static_context();
        self.initialize_variable(sym, &ty, &init, zero_first, false, loc)?;
        let target = Expr::sym(sym, self.prog.symbols[sym].ty);
        Ok(Val { e: target, ty, lvalue: true, bit_width: None })
    }
}

fn innermost_elem(ty: &CType) -> CType {
    let mut t = ty;
    while let Some(e) = t.elem() {
        t = e;
    }
    t.clone()
}

fn char_lit_kind(prefix: ast::StrPrefix) -> IntKind {
    match prefix {
        ast::StrPrefix::Utf16 => IntKind::UShort,
        ast::StrPrefix::Utf32 => IntKind::UInt,
        _ => IntKind::Int,
    }
}
