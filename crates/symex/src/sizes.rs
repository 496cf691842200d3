//! Run-time sizes: the size of a type as a term (variable-length arrays
//! are sized by the current values of their length variables), and the
//! sizing of new objects whose size may be symbolic.
//!
//! An object of symbolic size keeps the flat bit-vector representation of
//! [`crate::memory`] with a fixed capacity of [`SYMBOLIC_OBJECT_BYTES`]; its
//! real size is a term that the bounds checks compare against. A path on
//! which the size exceeds the capacity is cut off like a loop bound (an
//! unwinding assertion, or an assumption that makes TRUE bounded), so the
//! capacity never silently hides an access.

use crate::exec::Symex;
use crate::memory::MAX_OBJECT_BYTES;
use crate::{repr, Result, Stop};
use ir::{ArrayLen, Expr, PropertyClass, Type, TypeId};
use smt::{BvValue, TermId};

/// Capacity of an object of symbolic size.
pub const SYMBOLIC_OBJECT_BYTES: u64 = 1 << 10;

/// Run-time sizes saturate here: far above any object that can be
/// modelled, and low enough that a product of two saturated factors still
/// fits the wide offset width without wrapping.
const SATURATED_SIZE_LOG2: u32 = 66;

/// The size of a new object: its modelled capacity in bytes and, when the
/// size is not a constant, the size term (at most the capacity on every
/// path that continues).
pub(crate) struct ObjectSize {
    pub capacity: u64,
    pub symbolic: Option<TermId>,
}

/// Whether `ty` is (or has as elements) a variable-length array.
pub fn is_variably_modified(types: &ir::TypeTable, ty: TypeId) -> bool {
    let mut t = ty;
    while let Type::Array(elem, len) = types.get(t) {
        if matches!(len, ArrayLen::Var(_)) {
            return true;
        }
        t = *elem;
    }
    false
}

impl<'a> Symex<'a> {
    /// The size of `ty` in bytes, in the wide offset width.
    pub(crate) fn type_size(&mut self, ty: TypeId) -> Result<TermId> {
        let wide = self.layout.wide_bits();
        let mut factor = self.store.bv_u64(wide, 1);
        let mut t = ty;
        loop {
            if let Some(size) = self.program.types.size_of(t, self.program.data_model) {
                let size = self.store.bv_u64(wide, size);
                return Ok(self.saturating_mul(factor, size));
            }
            let count = match self.program.types.get(t).clone() {
                Type::Array(elem, ArrayLen::Var(len)) => {
                    t = elem;
                    self.vla_length(len)?
                }
                Type::Array(elem, ArrayLen::Fixed(n)) => {
                    t = elem;
                    self.store.bv_u64(wide, n)
                }
                _ => return Err(repr::unsized_type(self.program, t, self.loc)),
            };
            factor = self.saturating_mul(factor, count);
        }
    }

    /// The element count of a variable-length array: the current value of
    /// its length variable, in the wide width.
    pub(crate) fn vla_length(&mut self, len: ir::SymbolId) -> Result<TermId> {
        let ty = self.program.symbols[len].ty;
        let value = self.eval(&Expr::sym(len, ty))?;
        Ok(self.widen_index(value, ty))
    }

    /// Asserts that every length of the variable-length array type `ty` is
    /// positive (C11 6.7.6.2p5), read as a signed value as `ir::interp` does,
    /// and ends the paths where one is not (the violation is reported; what
    /// follows undefined behaviour is not explored).
    pub(crate) fn check_array_lengths(&mut self, ty: TypeId) -> Result<()> {
        if !self.options.bounds_checks {
            return Ok(());
        }
        let mut t = ty;
        while let Type::Array(elem, len) = self.program.types.get(t).clone() {
            if let ArrayLen::Var(len) = len {
                let len_ty = self.program.symbols[len].ty;
                let value = self.eval(&Expr::sym(len, len_ty))?;
                let zero = self.store.bv_u64(self.store.sort(value).bv_width().expect("integer length"), 0);
                let positive = self.store.bv_slt(zero, value);
                self.assert(positive, PropertyClass::ArrayBounds, "array bounds violated: variable-length array length is not positive");
                self.assume(positive);
            }
            t = elem;
        }
        Ok(())
    }

    /// `a * b` for sizes, saturated at 2^[`SATURATED_SIZE_LOG2`].
    fn saturating_mul(&mut self, a: TermId, b: TermId) -> TermId {
        let wide = self.layout.wide_bits();
        let limit = self.store.bv_const(BvValue::from_u128(wide, 1u128 << SATURATED_SIZE_LOG2));
        let product = self.store.bv_mul(a, b);
        let fits = self.store.bv_ult(product, limit);
        self.store.ite(fits, product, limit)
    }

    /// The size of a new object of the constant-size type `ty`.
    pub(crate) fn constant_object_size(&self, ty: TypeId, loc: ir::Loc) -> Result<u64> {
        let size = repr::size_of(self.program, ty, loc)?;
        if size > MAX_OBJECT_BYTES {
            return Err(Stop::unsupported(format!("object of {size} bytes"), loc));
        }
        Ok(size)
    }

    /// Sizes a new object of `size` bytes (a wide term) that is created
    /// when `created` holds. A constant size is exact; a symbolic one gets
    /// the capacity [`SYMBOLIC_OBJECT_BYTES`] and paths where it is larger
    /// are cut off as a bound.
    pub(crate) fn size_new_object(&mut self, size: TermId, created: TermId, what: &str) -> Result<ObjectSize> {
        if let Some(c) = self.store.as_bv_const(size) {
            return match c.to_u64() {
                Some(c) if c <= MAX_OBJECT_BYTES => Ok(ObjectSize { capacity: c, symbolic: None }),
                Some(c) => Err(Stop::unsupported(format!("{what} of {c} bytes"), self.loc)),
                None => Err(Stop::unsupported(format!("{what} of more than 2^64 bytes"), self.loc)),
            };
        }
        let cap = self.store.bv_u64(self.layout.wide_bits(), SYMBOLIC_OBJECT_BYTES);
        let too_big = self.store.bv_ult(cap, size);
        let cut = self.store.and(&[self.state.guard, created, too_big]);
        self.bound_exceeded(cut, &format!("{what} of more than {SYMBOLIC_OBJECT_BYTES} bytes"));
        Ok(ObjectSize { capacity: SYMBOLIC_OBJECT_BYTES, symbolic: Some(size) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::{DataModel, Program};

    #[test]
    fn arrays_with_a_variable_length_anywhere_in_the_chain_are_variably_modified() {
        let mut program = Program::new(DataModel::LP64);
        let int = program.types.int(32, true);
        // Only the shape of the type matters, not the length variable.
        let row = program.types.intern(Type::Array(int, ArrayLen::Var(ir::SymbolId(0))));
        let matrix = program.types.intern(Type::Array(row, ArrayLen::Fixed(3)));
        let fixed = program.types.intern(Type::Array(int, ArrayLen::Fixed(3)));
        let pointer = program.types.pointer_to(row);
        assert!(is_variably_modified(&program.types, row));
        assert!(is_variably_modified(&program.types, matrix));
        assert!(!is_variably_modified(&program.types, fixed));
        // A pointer to a VLA is sized like any pointer.
        assert!(!is_variably_modified(&program.types, pointer));
    }
}
