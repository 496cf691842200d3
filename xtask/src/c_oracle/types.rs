//! The C integer types of LP64 as the generator reasons about them:
//! widths, signedness, integer promotions, usual arithmetic conversions,
//! the type of an integer literal, and a value's canonical 64-bit form.
//!
//! A value is carried as its *canonical* form: the value modulo 2^64, so
//! a signed value is sign-extended and an unsigned one zero-extended. The
//! second computation of a case ("alt") works on canonical forms in
//! `unsigned long long` with masks only, so it shares no conversion with
//! the first.

use std::fmt::Write as _;

/// An integer type of C on LP64 (x86-64: plain `char` is signed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum IntTy {
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LLong,
    ULLong,
}

impl IntTy {
    pub const ALL: [IntTy; 12] = [
        IntTy::Bool,
        IntTy::Char,
        IntTy::SChar,
        IntTy::UChar,
        IntTy::Short,
        IntTy::UShort,
        IntTy::Int,
        IntTy::UInt,
        IntTy::Long,
        IntTy::ULong,
        IntTy::LLong,
        IntTy::ULLong,
    ];

    pub fn c_name(self) -> &'static str {
        match self {
            IntTy::Bool => "_Bool",
            IntTy::Char => "char",
            IntTy::SChar => "signed char",
            IntTy::UChar => "unsigned char",
            IntTy::Short => "short",
            IntTy::UShort => "unsigned short",
            IntTy::Int => "int",
            IntTy::UInt => "unsigned int",
            IntTy::Long => "long",
            IntTy::ULong => "unsigned long",
            IntTy::LLong => "long long",
            IntTy::ULLong => "unsigned long long",
        }
    }

    /// The suffix of its `__VERIFIER_nondet_*` function.
    pub fn nondet_suffix(self) -> &'static str {
        match self {
            IntTy::Bool => "bool",
            IntTy::Char => "char",
            IntTy::SChar => "schar",
            IntTy::UChar => "uchar",
            IntTy::Short => "short",
            IntTy::UShort => "ushort",
            IntTy::Int => "int",
            IntTy::UInt => "uint",
            IntTy::Long => "long",
            IntTy::ULong => "ulong",
            IntTy::LLong => "longlong",
            IntTy::ULLong => "ulonglong",
        }
    }

    /// Value bits (1 for `_Bool`).
    pub fn width(self) -> u32 {
        match self {
            IntTy::Bool => 1,
            IntTy::Char | IntTy::SChar | IntTy::UChar => 8,
            IntTy::Short | IntTy::UShort => 16,
            IntTy::Int | IntTy::UInt => 32,
            IntTy::Long | IntTy::ULong | IntTy::LLong | IntTy::ULLong => 64,
        }
    }

    pub fn is_signed(self) -> bool {
        matches!(self, IntTy::Char | IntTy::SChar | IntTy::Short | IntTy::Int | IntTy::Long | IntTy::LLong)
    }

    fn rank(self) -> u32 {
        match self {
            IntTy::Bool => 0,
            IntTy::Char | IntTy::SChar | IntTy::UChar => 1,
            IntTy::Short | IntTy::UShort => 2,
            IntTy::Int | IntTy::UInt => 3,
            IntTy::Long | IntTy::ULong => 4,
            IntTy::LLong | IntTy::ULLong => 5,
        }
    }

    /// The unsigned type of the same rank.
    pub fn to_unsigned(self) -> IntTy {
        match self {
            IntTy::Char | IntTy::SChar => IntTy::UChar,
            IntTy::Short => IntTy::UShort,
            IntTy::Int => IntTy::UInt,
            IntTy::Long => IntTy::ULong,
            IntTy::LLong => IntTy::ULLong,
            other => other,
        }
    }

    /// The integer promotions: every type below `int` fits in `int`.
    pub fn promoted(self) -> IntTy {
        if self.rank() < IntTy::Int.rank() {
            IntTy::Int
        } else {
            self
        }
    }

    /// `<limits.h>`'s name of the minimum of a promoted signed type.
    pub fn min_macro(self) -> &'static str {
        match self {
            IntTy::Int => "INT_MIN",
            IntTy::Long => "LONG_MIN",
            _ => "LLONG_MIN",
        }
    }

    /// The canonical form of the most negative value (0 if unsigned).
    pub fn min_canonical(self) -> u64 {
        if self.is_signed() {
            canonical(self, 1u64 << (self.width() - 1))
        } else {
            0
        }
    }

    /// The canonical form of the largest value.
    pub fn max_canonical(self) -> u64 {
        match (self.width(), self.is_signed()) {
            (64, true) => i64::MAX as u64,
            (64, false) => u64::MAX,
            (w, true) => (1u64 << (w - 1)) - 1,
            (w, false) => (1u64 << w) - 1,
        }
    }
}

/// The usual arithmetic conversions of two operand types.
pub fn common_type(a: IntTy, b: IntTy) -> IntTy {
    let (a, b) = (a.promoted(), b.promoted());
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (unsigned, signed) = if a.is_signed() { (b, a) } else { (a, b) };
    if unsigned.rank() >= signed.rank() {
        unsigned
    } else if signed.width() > unsigned.width() {
        signed
    } else {
        signed.to_unsigned()
    }
}

/// `value` (any canonical form) converted to `ty`, as gcc converts:
/// modulo 2^width, and `_Bool` is "not zero".
pub fn canonical(ty: IntTy, value: u64) -> u64 {
    match ty {
        IntTy::Bool => u64::from(value != 0),
        _ if ty.width() == 64 => value,
        _ => {
            let shift = 64 - ty.width();
            if ty.is_signed() {
                (((value << shift) as i64) >> shift) as u64
            } else {
                (value << shift) >> shift
            }
        }
    }
}

/// The C text, in `unsigned long long` arithmetic with masks only, of
/// `expr` (a canonical form) converted to `ty`.
pub fn alt_convert(ty: IntTy, expr: &str) -> String {
    match ty {
        IntTy::Bool => format!("(unsigned long long)({expr} != 0)"),
        _ if ty.width() == 64 => expr.to_string(),
        _ => {
            let mask = (1u64 << ty.width()) - 1;
            if ty.is_signed() {
                let sign = 1u64 << (ty.width() - 1);
                format!("((({expr} & 0x{mask:x}ull) ^ 0x{sign:x}ull) - 0x{sign:x}ull)")
            } else {
                format!("({expr} & 0x{mask:x}ull)")
            }
        }
    }
}

/// A C constant of type `ty` with canonical value `value`: `(T)0x..ull`.
pub fn typed_constant(ty: IntTy, value: u64) -> String {
    format!("(({})0x{value:x}ull)", ty.c_name())
}

/// An integer literal as a program would write it, and the type C gives
/// it: decimal or hexadecimal, with or without `u`/`l`/`ll` suffixes,
/// optionally negated (`-LIT` has the type of `LIT`, promoted).
pub fn literal(magnitude: u64, hex: bool, suffix: &str, negate: bool) -> Option<(String, IntTy, u64)> {
    let fits = |ty: IntTy| magnitude <= ty.max_canonical();
    let candidates: &[IntTy] = match (suffix, hex) {
        ("", false) => &[IntTy::Int, IntTy::Long],
        ("", true) => &[IntTy::Int, IntTy::UInt, IntTy::Long, IntTy::ULong],
        ("u", _) => &[IntTy::UInt, IntTy::ULong],
        ("l", false) => &[IntTy::Long],
        ("l", true) => &[IntTy::Long, IntTy::ULong],
        ("ul", _) => &[IntTy::ULong],
        ("ll", false) => &[IntTy::LLong],
        ("ll", true) => &[IntTy::LLong, IntTy::ULLong],
        ("ull", _) => &[IntTy::ULLong],
        _ => return None,
    };
    let ty = candidates.iter().copied().find(|&t| fits(t))?;
    let mut text = String::new();
    if hex {
        let _ = write!(text, "0x{magnitude:x}{suffix}");
    } else {
        let _ = write!(text, "{magnitude}{suffix}");
    }
    if negate {
        Some((format!("(-{text})"), ty, canonical(ty, magnitude.wrapping_neg())))
    } else {
        Some((text, ty, magnitude))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_follow_c() {
        assert_eq!(common_type(IntTy::UShort, IntTy::UShort), IntTy::Int);
        assert_eq!(common_type(IntTy::Int, IntTy::UInt), IntTy::UInt);
        assert_eq!(common_type(IntTy::Long, IntTy::UInt), IntTy::Long);
        assert_eq!(common_type(IntTy::LLong, IntTy::ULong), IntTy::ULLong);
        assert_eq!(common_type(IntTy::Bool, IntTy::Char), IntTy::Int);
        assert_eq!(canonical(IntTy::SChar, 200), (-56i64) as u64);
        assert_eq!(canonical(IntTy::UShort, u64::MAX), 0xffff);
        assert_eq!(canonical(IntTy::Bool, 256), 1);
        assert_eq!(IntTy::Int.min_canonical(), 0xffff_ffff_8000_0000);
    }

    #[test]
    fn literals_take_the_first_type_that_holds_them() {
        assert_eq!(literal(2147483648, false, "", false).map(|l| l.1), Some(IntTy::Long));
        assert_eq!(literal(0x8000_0000, true, "", false).map(|l| l.1), Some(IntTy::UInt));
        assert_eq!(literal(1, false, "u", true), Some(("(-1u)".into(), IntTy::UInt, 0xffff_ffff)));
        assert_eq!(literal(u64::MAX, false, "", false), None);
        assert_eq!(literal(u64::MAX, true, "", false).map(|l| l.1), Some(IntTy::ULong));
    }

    #[test]
    fn the_masking_conversion_names_its_constants() {
        assert_eq!(alt_convert(IntTy::UChar, "x"), "(x & 0xffull)");
        assert_eq!(alt_convert(IntTy::Short, "x"), "(((x & 0xffffull) ^ 0x8000ull) - 0x8000ull)");
        assert_eq!(alt_convert(IntTy::ULong, "x"), "x");
    }
}
