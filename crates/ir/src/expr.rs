//! Typed, side-effect-free IR expressions.
//!
//! Arithmetic follows the C semantics the front end made explicit: both
//! operands of a binary arithmetic operator have the result type (the usual
//! arithmetic conversions are `Cast`s), integer arithmetic wraps, and
//! undefined behaviour (overflow, division by zero, oversized shifts, invalid
//! dereferences) is not part of an operator's meaning: the property
//! instrumentation pass adds `Assert`s for it. The definitions below give
//! every operator a total meaning so the interpreter and symex agree.

use crate::program::SymbolId;
use crate::types::{CompositeKind, Type, TypeId, TypeTable};

/// Unary operators.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum UnOp {
    /// Two's-complement (integers) or sign-flip (floats) negation.
    Neg,
    /// Bitwise complement of an integer.
    BitNot,
    /// Logical negation of a `Bool`.
    Not,
}

/// Binary operators.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Integer division truncates towards zero; `x / 0` is 0 (checked separately).
    /// Signed `MIN / -1` wraps to `MIN`.
    Div,
    /// Remainder with the sign of the dividend; `x % 0` is `x`.
    Rem,
    /// Left shift. The right operand may have any integer type; a shift by
    /// at least the width (or negative) gives 0.
    Shl,
    /// Right shift: arithmetic for signed left operands, logical for
    /// unsigned. A shift by at least the width gives 0 or -1 (sign fill).
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    /// Comparisons: operands of the same type (integer, float or pointer);
    /// the result is `Bool`. Float comparisons are IEEE (NaN is unordered).
    /// `Eq` and `Ne` also compare structs, unions and arrays, byte by byte
    /// (the GNU front ends accept a union as a condition: it is compared
    /// with its all-zero value).
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Logical connectives on `Bool` operands (no short-circuit: expressions
    /// have no side effects; the front end lowers C's `&&`/`||` to control
    /// flow where the right side has side effects).
    And,
    Or,
    /// Pointer plus integer, scaled by the pointee size: the left operand is
    /// a pointer, the right any integer type (sign by its type).
    PtrAdd,
    /// Difference of two pointers to the same type, in elements; the result
    /// type is `ptrdiff_t`.
    PtrDiff,
}

impl BinOp {
    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
    }
}

/// A typed expression.
#[derive(Clone, PartialEq, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: TypeId,
}

#[derive(Clone, PartialEq, Debug)]
pub enum ExprKind {
    /// A variable or function (lvalue).
    Sym(SymbolId),
    /// An integer constant: the value's two's-complement bits, truncated
    /// to the type's width (also used for `Bool`: 0 or 1). For a type
    /// wider than 128 bits the bits are zero-extended: other values of
    /// such a type are casts of narrower constants.
    IntConst(u128),
    /// A floating-point constant: its IEEE bit pattern (x87: the 80-bit
    /// pattern in the low bits).
    FloatConst(u128),
    /// The null pointer of a pointer type.
    Null,
    /// The all-zero value of any type (static initialisation, `= {0}`).
    Zero,
    /// A nondeterministic value of the expression's type.
    Nondet,
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Conversion to `self.ty`: integer↔integer (truncate / extend by the
    /// source's signedness), to `Bool` (`!= 0`), integer↔float (C rules:
    /// float→int truncates towards zero), float↔float (rounding mode of
    /// the program state), pointer↔pointer, pointer↔integer.
    Cast(Box<Expr>),
    /// `cond ? then : else` with a `Bool` condition, both branches of `self.ty`.
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Address of an lvalue (`Sym`, `Deref`, `Member`, `Index`).
    AddrOf(Box<Expr>),
    /// The object a pointer points to (lvalue).
    Deref(Box<Expr>),
    /// Field `index` of a struct/union lvalue or value.
    Member(Box<Expr>, u32),
    /// Element of an array lvalue or value; the index has any integer type.
    Index(Box<Expr>, Box<Expr>),
    /// A struct value from all its fields' values, in field order.
    StructLit(Vec<Expr>),
    /// A union value whose field `index` holds the value (other bytes zero).
    UnionLit(u32, Box<Expr>),
    /// An array value from all its elements.
    ArrayLit(Vec<Expr>),
    /// Pointer primitives of the memory model, each of the type the front
    /// end gives (an unsigned/signed integer, or `Bool` for predicates).
    PointerObject(Box<Expr>),
    PointerOffset(Box<Expr>),
    ObjectSize(Box<Expr>),
    IsDynamic(Box<Expr>),
    IsInvalid(Box<Expr>),
    /// Reinterpret the bytes of `value` starting at byte `offset` as
    /// `self.ty` (little-endian).
    ByteExtract { value: Box<Expr>, offset: Box<Expr> },
    /// `value` with the bytes at `offset` replaced by the bytes of `update`.
    ByteUpdate { value: Box<Expr>, offset: Box<Expr>, update: Box<Expr> },
}

impl Expr {
    /// The symbol at the root of an lvalue (`a` in `a.f[i]`), unless the
    /// lvalue goes through a pointer.
    pub fn lvalue_root(&self) -> Option<crate::SymbolId> {
        let mut e = self;
        loop {
            match &e.kind {
                ExprKind::Sym(s) => return Some(*s),
                ExprKind::Member(base, _) | ExprKind::Index(base, _) => e = base,
                _ => return None,
            }
        }
    }

    pub fn new(kind: ExprKind, ty: TypeId) -> Expr {
        Expr { kind, ty }
    }
    pub fn sym(sym: SymbolId, ty: TypeId) -> Expr {
        Expr::new(ExprKind::Sym(sym), ty)
    }
    pub fn int(value: u128, ty: TypeId) -> Expr {
        Expr::new(ExprKind::IntConst(value), ty)
    }
    pub fn binary(op: BinOp, lhs: Expr, rhs: Expr, ty: TypeId) -> Expr {
        Expr::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), ty)
    }
    pub fn unary(op: UnOp, operand: Expr, ty: TypeId) -> Expr {
        Expr::new(ExprKind::Unary(op, Box::new(operand)), ty)
    }
    pub fn cast(operand: Expr, ty: TypeId) -> Expr {
        Expr::new(ExprKind::Cast(Box::new(operand)), ty)
    }
    /// True for expressions that denote an object (may appear as an
    /// assignment's left side or under `AddrOf`).
    pub fn is_lvalue(&self) -> bool {
        match &self.kind {
            ExprKind::Sym(_) | ExprKind::Deref(_) => true,
            ExprKind::Member(base, _) | ExprKind::Index(base, _) => base.is_lvalue(),
            _ => false,
        }
    }
    /// Whether indexing the array `self` may run past its declared length
    /// and on through the rest of its object, so that only the object's
    /// bounds apply: GCC allows it for a union member (punning) and for a
    /// struct's last member (the struct hack). The interpreter and symex
    /// both check indexes by this one rule.
    pub fn array_may_extend_its_object(&self, types: &TypeTable) -> bool {
        let ExprKind::Member(base, index) = &self.kind else { return false };
        match types.get(base.ty) {
            Type::Composite(id) => {
                let composite = &types.composites[*id];
                composite.kind == CompositeKind::Union || *index as usize + 1 == composite.fields.len()
            }
            _ => false,
        }
    }
}
