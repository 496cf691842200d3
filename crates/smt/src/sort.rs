//! Sorts of terms and the interning table for array sorts.
//!
//! [`Sort`] is a small `Copy` enum so that sort checks and comparisons are
//! free. Array sorts nest (arrays of arrays), so their index and element
//! sorts are interned once in a [`SortTable`] (owned by the term store) and
//! an array sort is a `u32` handle into it: two array sorts are equal exactly
//! when their handles are.

use std::collections::HashMap;
use std::fmt;

/// The sort (type) of a term.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Sort {
    Bool,
    /// A bit-vector of the given width (≥ 1, no upper limit).
    BitVec(u32),
    /// An IEEE-754 binary format: `exp` exponent bits, `sig` significand bits
    /// *including* the hidden bit (SMT-LIB convention: Float32 is (8, 24)).
    /// Both are ≥ 2.
    Float {
        exp: u32,
        sig: u32,
    },
    RoundingMode,
    /// An array sort interned in the store's [`SortTable`].
    Array(ArraySortId),
}

/// Handle of an interned array sort.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ArraySortId(pub u32);

impl Sort {
    pub fn is_bool(self) -> bool {
        self == Sort::Bool
    }

    /// The width of a bit-vector sort.
    pub fn bv_width(self) -> Option<u32> {
        match self {
            Sort::BitVec(w) => Some(w),
            _ => None,
        }
    }

    /// `(exp, sig)` of a floating-point sort.
    pub fn float_format(self) -> Option<(u32, u32)> {
        match self {
            Sort::Float { exp, sig } => Some((exp, sig)),
            _ => None,
        }
    }

    /// Widths are in range: bit-vectors ≥ 1 bit, floats ≥ 2 exponent and
    /// significand bits (array sorts are valid by construction).
    pub fn is_valid(self) -> bool {
        match self {
            Sort::BitVec(w) => w >= 1,
            Sort::Float { exp, sig } => exp >= 2 && sig >= 2 && exp.checked_add(sig).is_some(),
            Sort::Bool | Sort::RoundingMode | Sort::Array(_) => true,
        }
    }

    pub fn float32() -> Sort {
        Sort::Float { exp: 8, sig: 24 }
    }

    pub fn float64() -> Sort {
        Sort::Float { exp: 11, sig: 53 }
    }
}

/// IEEE-754 rounding modes (SMT-LIB names).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum RoundingMode {
    /// Round to nearest, ties to even.
    Rne,
    /// Round to nearest, ties away from zero.
    Rna,
    /// Round toward positive infinity.
    Rtp,
    /// Round toward negative infinity.
    Rtn,
    /// Round toward zero.
    Rtz,
}

impl RoundingMode {
    pub const ALL: [RoundingMode; 5] = [
        RoundingMode::Rne,
        RoundingMode::Rna,
        RoundingMode::Rtp,
        RoundingMode::Rtn,
        RoundingMode::Rtz,
    ];

    pub fn smtlib_name(self) -> &'static str {
        match self {
            RoundingMode::Rne => "RNE",
            RoundingMode::Rna => "RNA",
            RoundingMode::Rtp => "RTP",
            RoundingMode::Rtn => "RTN",
            RoundingMode::Rtz => "RTZ",
        }
    }
}

/// Interning table for array sorts.
#[derive(Clone, Debug, Default)]
pub struct SortTable {
    arrays: Vec<(Sort, Sort)>,
    lookup: HashMap<(Sort, Sort), ArraySortId>,
}

impl SortTable {
    /// The array sort from `index` to `elem` (the same handle every time).
    ///
    /// # Panics
    /// If `index` or `elem` is not [`Sort::is_valid`] (a bug in the caller).
    pub fn array(&mut self, index: Sort, elem: Sort) -> Sort {
        assert!(
            index.is_valid() && elem.is_valid(),
            "invalid array sort ({index:?}, {elem:?})"
        );
        let next = ArraySortId(self.arrays.len() as u32);
        let id = *self.lookup.entry((index, elem)).or_insert(next);
        if id == next {
            self.arrays.push((index, elem));
        }
        Sort::Array(id)
    }

    /// `(index, elem)` of an array sort, `None` for other sorts.
    pub fn array_parts(&self, sort: Sort) -> Option<(Sort, Sort)> {
        match sort {
            Sort::Array(id) => Some(self.arrays[id.0 as usize]),
            _ => None,
        }
    }

    /// A printable view of `sort` in SMT-LIB syntax.
    pub fn display(&self, sort: Sort) -> SortDisplay<'_> {
        SortDisplay { table: self, sort }
    }
}

/// SMT-LIB rendering of a sort, e.g. `(Array (_ BitVec 32) Bool)`.
pub struct SortDisplay<'a> {
    table: &'a SortTable,
    sort: Sort,
}

impl fmt::Display for SortDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Arrays nest only as deep as the C types that produced them, so this
        // recursion is bounded by type depth, not by term depth.
        match self.sort {
            Sort::Bool => write!(f, "Bool"),
            Sort::BitVec(w) => write!(f, "(_ BitVec {w})"),
            Sort::Float { exp, sig } => write!(f, "(_ FloatingPoint {exp} {sig})"),
            Sort::RoundingMode => write!(f, "RoundingMode"),
            Sort::Array(_) => {
                let (index, elem) = self.table.array_parts(self.sort).expect("array sort");
                write!(
                    f,
                    "(Array {} {})",
                    self.table.display(index),
                    self.table.display(elem)
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_sorts_are_interned() {
        let mut table = SortTable::default();
        let a = table.array(Sort::BitVec(32), Sort::BitVec(8));
        let b = table.array(Sort::BitVec(32), Sort::BitVec(8));
        let c = table.array(Sort::BitVec(64), Sort::BitVec(8));
        assert_eq!(a, b);
        assert_ne!(a, c);
        let nested = table.array(Sort::Bool, a);
        assert_eq!(
            table.display(nested).to_string(),
            "(Array Bool (Array (_ BitVec 32) (_ BitVec 8)))"
        );
    }
}
