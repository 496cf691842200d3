//! How IR values of each type are represented as terms.
//!
//! `Bool` values are `Bool` terms; every other type's value is a
//! bit-vector: integers of their width, pointers of the pointer width
//! (see [`crate::memory`]), floats of their storage width (their IEEE bits;
//! x87 `long double` its 80-bit image; see [`crate::float`]), arrays and structs/unions
//! of `8 * size` bits in the memory layout. In memory every value takes
//! `8 * size` bits; [`to_memory`] and [`from_memory`] convert. A struct,
//! union or array value larger than a flat object ([`is_large`]) is a byte
//! array instead, as a large object's value is (see [`crate::large`]).

use crate::{Result, Stop};
use ir::{ArrayLen, Loc, Program, Type, TypeId};
use smt::{Sort, TermId, TermStore};

/// Size in bytes of a type, or why it has none.
pub fn size_of(program: &Program, ty: TypeId, loc: Loc) -> Result<u64> {
    program.types.size_of(ty, program.data_model).ok_or_else(|| unsized_type(program, ty, loc))
}

/// Why `ty` has no constant size.
pub fn unsized_type(program: &Program, ty: TypeId, loc: Loc) -> Stop {
    let what = match program.types.get(ty) {
        Type::Array(_, ArrayLen::Var(_)) => "variable-length array of non-constant size".to_string(),
        Type::Array(_, ArrayLen::Unknown) => "array of unknown size".to_string(),
        Type::Void => "object of type void".to_string(),
        Type::Function(_) => "function used as an object".to_string(),
        _ => format!("object of incomplete type {}", program.types.display(ty)),
    };
    Stop::unsupported(what, loc)
}

/// Bits of a value of type `ty` in memory. A type of size zero (a GNU
/// empty struct or union, a zero-length array) occupies no memory, but a
/// bit-vector has at least one bit: its value is one placeholder byte,
/// always zero, which accesses never read or write (see [`is_empty`]).
pub fn memory_bits(program: &Program, ty: TypeId, loc: Loc) -> Result<u32> {
    let size = size_of(program, ty, loc)?;
    if size > crate::memory::MAX_OBJECT_BYTES {
        return Err(Stop::unsupported(format!("object of {size} bytes"), loc));
    }
    Ok((size.max(1) * 8) as u32)
}

/// Whether values of `ty` are larger than a flat object may be
/// ([`crate::memory::MAX_OBJECT_BYTES`]): such a value is a byte array
/// (`Array(BV64, BV8)`) whose bytes `[0, size)` are the value's bytes and
/// whose other bytes are unspecified.
pub fn is_large(program: &Program, ty: TypeId) -> bool {
    program.types.size_of(ty, program.data_model).is_some_and(|size| size > crate::memory::MAX_OBJECT_BYTES)
}

/// Whether `v` is a large value (a byte array, see [`is_large`]).
pub fn is_byte_array(store: &TermStore, v: TermId) -> bool {
    matches!(store.sort(v), Sort::Array(_))
}

/// Whether values of `ty` occupy no memory (size zero).
pub fn is_empty(program: &Program, ty: TypeId) -> bool {
    program.types.size_of(ty, program.data_model) == Some(0)
}

/// The sort of a value of type `ty`.
pub fn value_sort(program: &Program, ty: TypeId, loc: Loc) -> Result<Sort> {
    match program.types.get(ty) {
        Type::Bool => Ok(Sort::Bool),
        Type::Int { bits, .. } => Ok(Sort::BitVec(*bits)),
        Type::Pointer(_) => Ok(Sort::BitVec(program.data_model.pointer_bits())),
        Type::Float(format) => Ok(Sort::BitVec(format.storage_bits())),
        _ => Ok(Sort::BitVec(memory_bits(program, ty, loc)?)),
    }
}

/// The memory bits of value `v` of type `ty` (a large value's byte array
/// is its memory already).
pub fn to_memory(program: &Program, store: &mut TermStore, ty: TypeId, v: TermId, loc: Loc) -> Result<TermId> {
    if is_byte_array(store, v) {
        return Ok(v);
    }
    let bits = memory_bits(program, ty, loc)?;
    if store.sort(v) == Sort::Bool {
        let one = store.bv_u64(bits, 1);
        let zero = store.bv_u64(bits, 0);
        return Ok(store.ite(v, one, zero));
    }
    Ok(resize(store, v, bits, program.types.is_signed(ty)))
}

/// The value of type `ty` stored in memory bits `m` (`8 * size` wide, or
/// the byte array of a large value).
pub fn from_memory(program: &Program, store: &mut TermStore, ty: TypeId, m: TermId, loc: Loc) -> Result<TermId> {
    if is_byte_array(store, m) {
        return Ok(m);
    }
    match value_sort(program, ty, loc)? {
        Sort::Bool => {
            let zero = store.bv_u64(store.sort(m).bv_width().expect("memory is a bit-vector"), 0);
            let is_zero = store.eq(m, zero);
            Ok(store.not(is_zero))
        }
        Sort::BitVec(w) => Ok(resize(store, m, w, false)),
        other => unreachable!("value sort {other:?} is never produced"),
    }
}

/// `v` truncated or extended (by `signed`) to `width` bits.
pub fn resize(store: &mut TermStore, v: TermId, width: u32, signed: bool) -> TermId {
    let have = store.sort(v).bv_width().expect("resize of a bit-vector");
    match have.cmp(&width) {
        std::cmp::Ordering::Equal => v,
        std::cmp::Ordering::Greater => store.extract(width - 1, 0, v),
        std::cmp::Ordering::Less if signed => store.sign_extend(width - have, v),
        std::cmp::Ordering::Less => store.zero_extend(width - have, v),
    }
}

/// The all-zero value of `ty` (`false`, 0, NULL, all-zero bytes).
pub fn zero_value(program: &Program, store: &mut TermStore, ty: TypeId, loc: Loc) -> Result<TermId> {
    if is_large(program, ty) {
        let zero = store.bv_u64(8, 0);
        let sort = crate::memory::byte_array_sort(store);
        return Ok(store.const_array(sort, zero));
    }
    Ok(match value_sort(program, ty, loc)? {
        Sort::Bool => store.false_term(),
        Sort::BitVec(w) => store.bv_u64(w, 0),
        other => unreachable!("value sort {other:?} is never produced"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::DataModel;

    #[test]
    fn bool_and_signed_values_round_trip_through_memory() {
        let mut program = Program::new(DataModel::LP64);
        let boolean = program.types.bool();
        let short = program.types.int(16, true);
        let mut store = TermStore::new();
        let t = store.true_term();
        let m = to_memory(&program, &mut store, boolean, t, Loc::NONE).unwrap();
        assert_eq!(m, store.bv_u64(8, 1));
        assert_eq!(from_memory(&program, &mut store, boolean, m, Loc::NONE).unwrap(), t);
        let minus_one = store.bv_u64(16, 0xffff);
        let m = to_memory(&program, &mut store, short, minus_one, Loc::NONE).unwrap();
        assert_eq!(store.sort(m), Sort::BitVec(16));
        assert_eq!(from_memory(&program, &mut store, short, m, Loc::NONE).unwrap(), minus_one);
    }

    #[test]
    fn empty_types_have_a_placeholder_byte() {
        let mut program = Program::new(DataModel::LP64);
        let int = program.types.int(32, true);
        let empty = program.types.intern(Type::Array(int, ArrayLen::Fixed(0)));
        assert!(is_empty(&program, empty));
        assert!(!is_empty(&program, int));
        assert_eq!(memory_bits(&program, empty, Loc::NONE).unwrap(), 8);
    }

    #[test]
    fn values_over_the_flat_limit_are_byte_arrays_that_are_their_own_memory() {
        let mut program = Program::new(DataModel::LP64);
        let byte = program.types.int(8, false);
        let limit = crate::memory::MAX_OBJECT_BYTES;
        let flat = program.types.intern(Type::Array(byte, ArrayLen::Fixed(limit)));
        let large = program.types.intern(Type::Array(byte, ArrayLen::Fixed(limit + 1)));
        assert!(!is_large(&program, flat));
        assert!(is_large(&program, large));
        let mut store = TermStore::new();
        let zero = zero_value(&program, &mut store, large, Loc::NONE).unwrap();
        assert!(is_byte_array(&store, zero));
        assert_eq!(to_memory(&program, &mut store, large, zero, Loc::NONE).unwrap(), zero);
        assert_eq!(from_memory(&program, &mut store, large, zero, Loc::NONE).unwrap(), zero);
        assert!(memory_bits(&program, large, Loc::NONE).is_err());
    }

    #[test]
    fn unsized_types_are_reported() {
        let mut program = Program::new(DataModel::LP64);
        let int = program.types.int(32, true);
        let open = program.types.intern(Type::Array(int, ArrayLen::Unknown));
        let err = memory_bits(&program, open, Loc::NONE).unwrap_err();
        assert!(err.to_string().contains("array of unknown size"), "{err}");
    }
}
