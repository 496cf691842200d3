//! C types as the type checker sees them (qualifiers, `char` vs `signed
//! char`, enums, typedef alignment), with the rules that relate them:
//! integer ranks, promotions, the usual arithmetic conversions,
//! compatibility and composite types. Sizes and IR mapping live in
//! [`super::types`].

use crate::ast::Qualifiers;
use ir::{CompositeId, SymbolId};
use std::rc::Rc;

/// The integer types of C, in rank order within each signedness.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum IntKind {
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Int128,
    UInt128,
    /// C23 `_BitInt(N)` (clang's `_ExtInt(N)`), N in 2..=65535.
    BitInt(u32),
    /// C23 `unsigned _BitInt(N)`, N in 1..=65535.
    UBitInt(u32),
}

impl IntKind {
    /// Conversion rank among the standard integer types (C11 6.3.1.1);
    /// `_Bool` is below all of these. Bit-precise types rank by width
    /// (see [`rank_key`]); here they only sit above `int`.
    pub fn rank(self) -> u8 {
        use IntKind::*;
        match self {
            Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong => 4,
            LongLong | ULongLong => 5,
            Int128 | UInt128 => 6,
            BitInt(_) | UBitInt(_) => 7,
        }
    }
    /// Plain `char` is signed on x86.
    pub fn is_signed(self) -> bool {
        use IntKind::*;
        matches!(self, Char | SChar | Short | Int | Long | LongLong | Int128 | BitInt(_))
    }
    /// The width N of a bit-precise `_BitInt(N)` type.
    pub fn bit_precise_width(self) -> Option<u32> {
        match self {
            IntKind::BitInt(n) | IntKind::UBitInt(n) => Some(n),
            _ => None,
        }
    }
    pub fn to_unsigned(self) -> IntKind {
        use IntKind::*;
        match self {
            Char | SChar | UChar => UChar,
            Short | UShort => UShort,
            Int | UInt => UInt,
            Long | ULong => ULong,
            LongLong | ULongLong => ULongLong,
            Int128 | UInt128 => UInt128,
            BitInt(n) | UBitInt(n) => UBitInt(n),
        }
    }
}

/// A total order that agrees with integer conversion rank (C23 6.3.1.1):
/// wider types rank higher; at equal width a standard type ranks above a
/// bit-precise one, and standard types keep their rank order.
fn rank_key(k: IntKind, bits: &impl Fn(IntKind) -> u32) -> (u32, u8) {
    (bits(k), if k.bit_precise_width().is_some() { 0 } else { k.rank() })
}

/// Real floating types (the `_FloatN` aliases map onto these by format).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FloatKind {
    Float16,
    Float,
    Double,
    LongDouble,
    Float128,
}

impl FloatKind {
    /// Conversion rank among real floating types.
    pub fn rank(self) -> u8 {
        match self {
            FloatKind::Float16 => 0,
            FloatKind::Float => 1,
            FloatKind::Double => 2,
            FloatKind::LongDouble => 3,
            FloatKind::Float128 => 4,
        }
    }
}

/// The element type of a complex type: GCC allows integer elements too.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ComplexElem {
    Float(FloatKind),
    Int(IntKind),
}

impl ComplexElem {
    /// The real type of each part.
    pub fn part_type(self) -> CType {
        CType::new(match self {
            ComplexElem::Float(k) => Kind::Float(k),
            ComplexElem::Int(k) => Kind::Int(k),
        })
    }
    /// The element kind of a real arithmetic type of that domain (`None`
    /// for `_Bool`, enums and non-arithmetic types).
    pub fn of_real(kind: &Kind) -> Option<ComplexElem> {
        match kind {
            Kind::Float(k) => Some(ComplexElem::Float(*k)),
            Kind::Int(k) => Some(ComplexElem::Int(*k)),
            _ => None,
        }
    }
}

/// The size of an array type.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ArraySize {
    Fixed(u64),
    /// `[]`: incomplete (completed by an initializer or another declaration).
    Unknown,
    /// A variable-length array whose element count is held by this symbol.
    Var(SymbolId),
}

/// A function type.
#[derive(Clone, PartialEq, Debug)]
pub struct FnType {
    pub ret: CType,
    pub params: Vec<CType>,
    pub variadic: bool,
    /// Declared without a prototype (`int f()`).
    pub unprototyped: bool,
}

/// An enum's identity; its integer type lives in the enum table.
pub type EnumId = usize;

#[derive(Clone, PartialEq, Debug)]
pub enum Kind {
    Void,
    Bool,
    Int(IntKind),
    Float(FloatKind),
    Complex(ComplexElem),
    Pointer(Box<CType>),
    Array(Box<CType>, ArraySize),
    Function(Rc<FnType>),
    Record(CompositeId),
    Enum(EnumId),
    /// A GCC vector (`vector_size` attribute): element type and count.
    /// Only its layout is supported; operations on it are reported.
    Vector(Box<CType>, u64),
}

/// A qualified C type. `align` is an explicit alignment from an
/// `aligned` attribute on a typedef (0: the type's natural alignment).
#[derive(Clone, PartialEq, Debug)]
pub struct CType {
    pub kind: Kind,
    pub quals: Qualifiers,
    pub align: u64,
}

impl CType {
    pub fn new(kind: Kind) -> CType {
        CType { kind, quals: Qualifiers::default(), align: 0 }
    }
    pub fn int() -> CType {
        CType::new(Kind::Int(IntKind::Int))
    }
    pub fn void() -> CType {
        CType::new(Kind::Void)
    }
    pub fn pointer_to(pointee: CType) -> CType {
        CType::new(Kind::Pointer(Box::new(pointee)))
    }
    pub fn array_of(elem: CType, size: ArraySize) -> CType {
        CType::new(Kind::Array(Box::new(elem), size))
    }
    /// The same type without qualifiers or typedef alignment.
    pub fn unqualified(&self) -> CType {
        CType::new(self.kind.clone())
    }
    pub fn with_quals(mut self, quals: Qualifiers) -> CType {
        self.quals = merge_quals(self.quals, quals);
        self
    }

    pub fn is_void(&self) -> bool {
        matches!(self.kind, Kind::Void)
    }
    pub fn is_bool(&self) -> bool {
        matches!(self.kind, Kind::Bool)
    }
    /// Integer types include `_Bool` and enums.
    pub fn is_integer(&self) -> bool {
        matches!(self.kind, Kind::Bool | Kind::Int(_) | Kind::Enum(_))
    }
    pub fn is_real_float(&self) -> bool {
        matches!(self.kind, Kind::Float(_))
    }
    pub fn is_arithmetic(&self) -> bool {
        self.is_integer() || matches!(self.kind, Kind::Float(_) | Kind::Complex(_))
    }
    pub fn is_pointer(&self) -> bool {
        matches!(self.kind, Kind::Pointer(_))
    }
    pub fn is_scalar(&self) -> bool {
        self.is_arithmetic() || self.is_pointer()
    }
    pub fn is_array(&self) -> bool {
        matches!(self.kind, Kind::Array(..))
    }
    pub fn is_function(&self) -> bool {
        matches!(self.kind, Kind::Function(_))
    }
    pub fn is_record(&self) -> bool {
        matches!(self.kind, Kind::Record(_))
    }
    pub fn pointee(&self) -> Option<&CType> {
        match &self.kind {
            Kind::Pointer(p) => Some(p),
            _ => None,
        }
    }
    pub fn elem(&self) -> Option<&CType> {
        match &self.kind {
            Kind::Array(e, _) => Some(e),
            _ => None,
        }
    }
    pub fn fn_type(&self) -> Option<&Rc<FnType>> {
        match &self.kind {
            Kind::Function(f) => Some(f),
            _ => None,
        }
    }
    pub fn is_void_pointer(&self) -> bool {
        self.pointee().is_some_and(|p| p.is_void())
    }
    pub fn is_vector(&self) -> bool {
        matches!(self.kind, Kind::Vector(..))
    }
    pub fn is_vla(&self) -> bool {
        match &self.kind {
            Kind::Array(e, size) => matches!(size, ArraySize::Var(_)) || e.is_vla(),
            _ => false,
        }
    }
}

pub fn merge_quals(a: Qualifiers, b: Qualifiers) -> Qualifiers {
    Qualifiers {
        is_const: a.is_const || b.is_const,
        is_volatile: a.is_volatile || b.is_volatile,
        is_restrict: a.is_restrict || b.is_restrict,
        is_atomic: a.is_atomic || b.is_atomic,
    }
}

/// The integer kind an integer type behaves as (enums through their
/// compatible type); `None` for `_Bool` and non-integers.
pub fn int_kind(ty: &CType, enum_kind: impl Fn(EnumId) -> IntKind) -> Option<IntKind> {
    match ty.kind {
        Kind::Int(k) => Some(k),
        Kind::Enum(e) => Some(enum_kind(e)),
        _ => None,
    }
}

/// Integer promotion of a type of the given kind (`None`: `_Bool`).
/// `bit_width` is the width of a bit-field operand, whose promotion
/// depends on whether `int` holds all its values (C11 6.3.1.1p2); `bits`
/// gives the widths of the data model. A bit-field wider than `int` and
/// narrower than its declared type has, as in GCC, an integer type of its
/// own width (implementation-defined, C11 6.7.2.1p5): `s.f + 1` on an
/// `unsigned long long f : 40` holding 2^40 - 1 is 0, as for an
/// `unsigned _BitInt(40)`, whose rules of conversion GCC's type follows.
/// Bit-precise types are never promoted (C23 6.3.1.1p2).
pub fn promoted_kind(kind: Option<IntKind>, bit_width: Option<u32>, bits: impl Fn(IntKind) -> u32) -> IntKind {
    if let Some(k) = kind.filter(|k| k.bit_precise_width().is_some()) {
        return k;
    }
    if let (Some(w), Some(k)) = (bit_width, kind) {
        if k.rank() <= IntKind::Int.rank() || w <= 32 {
            return if w < 32 || k.is_signed() { IntKind::Int } else { IntKind::UInt };
        }
        if w < bits(k) {
            return if k.is_signed() { IntKind::BitInt(w) } else { IntKind::UBitInt(w) };
        }
        return k;
    }
    match kind {
        None => IntKind::Int,
        Some(k) if k.rank() < IntKind::Int.rank() => IntKind::Int,
        Some(k) => k,
    }
}

/// The common integer type of two promoted integer kinds (C11 6.3.1.8),
/// given the bit widths of the data model.
pub fn common_int_kind(a: IntKind, b: IntKind, bits: impl Fn(IntKind) -> u32) -> IntKind {
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if rank_key(a, &bits) >= rank_key(b, &bits) { a } else { b };
    }
    let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
    if rank_key(u, &bits) >= rank_key(s, &bits) {
        u
    } else if bits(s) > bits(u) {
        s
    } else {
        s.to_unsigned()
    }
}

/// What compatibility needs to know about named types.
pub trait TypeEnv {
    /// An enum's compatible integer type.
    fn enum_kind(&self, e: EnumId) -> IntKind;
    /// Whether two distinct records are compatible (same tag and members:
    /// the same struct declared in two translation units).
    fn records_compatible(&self, a: CompositeId, b: CompositeId) -> bool;
}

/// Type compatibility (C11 6.2.7), qualifiers included.
pub fn compatible(a: &CType, b: &CType, env: &dyn TypeEnv) -> bool {
    if a.quals != b.quals {
        return false;
    }
    compatible_unqualified(a, b, env)
}

/// Type compatibility ignoring top-level qualifiers.
pub fn compatible_unqualified(a: &CType, b: &CType, env: &dyn TypeEnv) -> bool {
    match (&a.kind, &b.kind) {
        (Kind::Enum(x), Kind::Enum(y)) => x == y,
        (Kind::Enum(e), Kind::Int(k)) | (Kind::Int(k), Kind::Enum(e)) => env.enum_kind(*e) == *k,
        (Kind::Record(x), Kind::Record(y)) => x == y || env.records_compatible(*x, *y),
        (Kind::Pointer(x), Kind::Pointer(y)) => compatible(x, y, env),
        (Kind::Array(x, sx), Kind::Array(y, sy)) => {
            let sizes_ok = match (sx, sy) {
                (ArraySize::Fixed(m), ArraySize::Fixed(n)) => m == n,
                _ => true,
            };
            sizes_ok && compatible(x, y, env)
        }
        (Kind::Function(f), Kind::Function(g)) => compatible_fns(f, g, env),
        (x, y) => x == y,
    }
}

fn compatible_fns(f: &FnType, g: &FnType, env: &dyn TypeEnv) -> bool {
    if !compatible(&f.ret, &g.ret, env) {
        return false;
    }
    if f.unprototyped || g.unprototyped {
        // An old-style declaration is compatible with any prototype whose
        // parameters survive default promotions; we accept it and let the
        // definition's prototype win.
        return true;
    }
    f.variadic == g.variadic
        && f.params.len() == g.params.len()
        && f.params.iter().zip(&g.params).all(|(p, q)| compatible_unqualified(p, q, env))
}

/// The composite of two compatible types (C11 6.2.7p3): array sizes and
/// prototypes are taken from whichever side has them.
pub fn composite(a: &CType, b: &CType) -> CType {
    match (&a.kind, &b.kind) {
        (Kind::Array(x, sx), Kind::Array(y, sy)) => {
            let size = if matches!(sx, ArraySize::Unknown) { *sy } else { *sx };
            CType { kind: Kind::Array(Box::new(composite(x, y)), size), ..a.clone() }
        }
        (Kind::Function(f), Kind::Function(g)) => {
            if f.unprototyped && !g.unprototyped {
                return b.clone();
            }
            a.clone()
        }
        (Kind::Pointer(x), Kind::Pointer(y)) => CType { kind: Kind::Pointer(Box::new(composite(x, y))), ..a.clone() },
        _ => a.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lp64_bits(k: IntKind) -> u32 {
        match k.rank() {
            1 => 8,
            2 => 16,
            3 => 32,
            4 | 5 => 64,
            _ => 128,
        }
    }

    fn ilp32_bits(k: IntKind) -> u32 {
        match k.rank() {
            4 => 32,
            r => lp64_bits(match r {
                1 => IntKind::Char,
                2 => IntKind::Short,
                3 => IntKind::Int,
                5 => IntKind::LongLong,
                _ => IntKind::Int128,
            }),
        }
    }

    #[test]
    fn promotions_of_small_types_give_int() {
        assert_eq!(promoted_kind(Some(IntKind::UChar), None, lp64_bits), IntKind::Int);
        assert_eq!(promoted_kind(Some(IntKind::UShort), None, lp64_bits), IntKind::Int);
        assert_eq!(promoted_kind(None, None, lp64_bits), IntKind::Int);
        assert_eq!(promoted_kind(Some(IntKind::UInt), None, lp64_bits), IntKind::UInt);
        assert_eq!(promoted_kind(Some(IntKind::ULong), None, lp64_bits), IntKind::ULong);
    }

    #[test]
    fn bit_fields_promote_by_width() {
        use IntKind::*;
        assert_eq!(promoted_kind(Some(UInt), Some(31), lp64_bits), Int);
        assert_eq!(promoted_kind(Some(UInt), Some(32), lp64_bits), UInt);
        assert_eq!(promoted_kind(Some(ULong), Some(12), lp64_bits), Int);
        assert_eq!(promoted_kind(Some(ULongLong), Some(32), lp64_bits), UInt);
        assert_eq!(promoted_kind(Some(LongLong), Some(32), lp64_bits), Int);
    }

    #[test]
    fn bit_fields_wider_than_int_keep_their_own_width_as_in_gcc() {
        use IntKind::*;
        assert_eq!(promoted_kind(Some(ULong), Some(33), lp64_bits), UBitInt(33));
        assert_eq!(promoted_kind(Some(LongLong), Some(40), ilp32_bits), BitInt(40));
        assert_eq!(promoted_kind(Some(ULongLong), Some(63), lp64_bits), UBitInt(63));
        assert_eq!(promoted_kind(Some(ULongLong), Some(64), lp64_bits), ULongLong, "the full width is the declared type");
        assert_eq!(promoted_kind(Some(Long), Some(64), lp64_bits), Long);
    }

    #[test]
    fn usual_arithmetic_conversions_follow_the_data_model() {
        use IntKind::*;
        assert_eq!(common_int_kind(Int, UInt, lp64_bits), UInt);
        assert_eq!(common_int_kind(Long, UInt, lp64_bits), Long);
        assert_eq!(common_int_kind(Long, UInt, ilp32_bits), ULong);
        assert_eq!(common_int_kind(LongLong, ULong, lp64_bits), ULongLong);
        assert_eq!(common_int_kind(LongLong, ULong, ilp32_bits), LongLong);
        assert_eq!(common_int_kind(Int, Long, lp64_bits), Long);
    }

    fn bit_precise_bits(k: IntKind) -> u32 {
        k.bit_precise_width().unwrap_or_else(|| lp64_bits(k))
    }

    #[test]
    fn bit_precise_types_are_not_promoted_and_convert_by_width() {
        use IntKind::*;
        assert_eq!(promoted_kind(Some(BitInt(10)), None, lp64_bits), BitInt(10));
        assert_eq!(promoted_kind(Some(UBitInt(3)), None, lp64_bits), UBitInt(3));
        let common = |a, b| common_int_kind(a, b, bit_precise_bits);
        assert_eq!(common(BitInt(10), BitInt(37)), BitInt(37));
        assert_eq!(common(BitInt(10), UBitInt(10)), UBitInt(10));
        // int holds every value of unsigned _BitInt(10).
        assert_eq!(common(Int, UBitInt(10)), Int);
        assert_eq!(common(BitInt(10), Int), Int);
        // At equal width the standard type ranks higher.
        assert_eq!(common(BitInt(32), UInt), UInt);
        assert_eq!(common(UBitInt(32), Int), UInt);
        assert_eq!(common(UBitInt(32), UInt), UInt);
        assert_eq!(common(BitInt(33), UInt), BitInt(33));
        assert_eq!(common(BitInt(64), ULong), ULong);
        assert_eq!(common(BitInt(65), ULong), BitInt(65));
        assert_eq!(common(UBitInt(64), Long), ULong);
    }

    struct UnsignedEnums;
    impl TypeEnv for UnsignedEnums {
        fn enum_kind(&self, _: EnumId) -> IntKind {
            IntKind::UInt
        }
        fn records_compatible(&self, _: CompositeId, _: CompositeId) -> bool {
            false
        }
    }

    #[test]
    fn compatibility_distinguishes_char_kinds_and_qualifiers() {
        let ek = UnsignedEnums;
        let c = CType::new(Kind::Int(IntKind::Char));
        let sc = CType::new(Kind::Int(IntKind::SChar));
        assert!(!compatible(&c, &sc, &ek));
        let cc = c.clone().with_quals(Qualifiers { is_const: true, ..Default::default() });
        assert!(!compatible(&c, &cc, &ek));
        assert!(compatible(&CType::new(Kind::Enum(0)), &CType::new(Kind::Int(IntKind::UInt)), &ek));
        let a3 = CType::array_of(CType::int(), ArraySize::Fixed(3));
        let au = CType::array_of(CType::int(), ArraySize::Unknown);
        assert!(compatible(&a3, &au, &ek));
        assert_eq!(composite(&au, &a3), a3);
    }
}
