//! Run-time sizes: the size of a type as a term (variable-length arrays
//! are sized by the current values of their length variables), and the
//! creation of objects whose size may be symbolic.
//!
//! A new object of constant size up to [`MAX_OBJECT_BYTES`] is a flat
//! bit-vector of exactly its size; a larger one, or one whose size is only
//! known as a term, is a byte array (see [`crate::memory`]) whose size term
//! the bounds checks compare against.

use crate::exec::Symex;
use crate::memory::{ObjectId, ObjectKind, MAX_OBJECT_BYTES};
use crate::{repr, Result};
use ir::{ArrayLen, Expr, PropertyClass, Type, TypeId};
use smt::{BvValue, TermId};

/// Largest variable-length array a counterexample prefers, so that the
/// interpreter's replay stays within its memory limit.
const REPLAYABLE_VLA_BYTES: u64 = 1 << 16;

/// Run-time sizes saturate here: far above any object that can be
/// modelled, and low enough that a product of two saturated factors still
/// fits the wide offset width without wrapping.
const SATURATED_SIZE_LOG2: u32 = 66;

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
    /// and that the array's size in bytes is representable in `size_t` (its
    /// `sizeof` would wrap: ESBMC reports such an array too), and ends the
    /// paths where one fails (the violation is reported; what follows
    /// undefined behaviour is not explored). Without `vla_length_checks`
    /// nothing is reported: a zero length is an empty array, as gcc makes
    /// it, and the paths with a negative length or an oversized array,
    /// which no model follows, are an approximation.
    pub(crate) fn check_array_lengths(&mut self, ty: TypeId) -> Result<()> {
        let checked = self.options.vla_length_checks;
        let mut negative = self.store.false_term();
        let mut t = ty;
        while let Type::Array(elem, len) = self.program.types.get(t).clone() {
            if let ArrayLen::Var(len) = len {
                let len_ty = self.program.symbols[len].ty;
                let value = self.eval(&Expr::sym(len, len_ty))?;
                let zero = self.store.bv_u64(self.store.sort(value).bv_width().expect("integer length"), 0);
                if checked {
                    let positive = self.store.bv_slt(zero, value);
                    self.assert(positive, PropertyClass::ArrayBounds, "array bounds violated: variable-length array length is not positive");
                    self.assume(positive);
                } else {
                    let below_zero = self.store.bv_slt(value, zero);
                    negative = self.store.or2(negative, below_zero);
                }
            }
            t = elem;
        }
        let fits = self.size_fits_size_t(ty)?;
        if checked {
            self.assert(fits, PropertyClass::ArrayBounds, "array bounds violated: the size of a variable-length array does not fit in size_t");
            self.assume(fits);
        } else {
            let unmodelled = self.store.not(fits);
            let unmodelled = self.store.or2(negative, unmodelled);
            self.approximate_when(unmodelled, "a variable-length array of negative length or of more than SIZE_MAX bytes (undefined behaviour no model follows)");
        }
        Ok(())
    }

    /// Whether the size of `ty` in bytes is at most `SIZE_MAX`, checked
    /// the way C programs guard against overflow: each length, innermost
    /// first, must be at most `SIZE_MAX / element_size / inner lengths...`
    /// (exact for positive lengths, since nested floor divisions compose).
    /// A product of two symbolic lengths is beyond what the SAT solver
    /// relates to a program's own guard `n < SIZE_MAX / sizeof(int) / m`;
    /// the quotient is the very term that guard builds.
    fn size_fits_size_t(&mut self, ty: TypeId) -> Result<TermId> {
        let model = self.program.data_model;
        let (max, pointer_bits) = (model.max_object_bytes(), model.pointer_bits());
        let mut fits = self.store.true_term();
        let mut lengths = Vec::new();
        let mut t = ty;
        let element_size = loop {
            if let Some(size) = self.program.types.size_of(t, model) {
                break size;
            }
            let length = match self.program.types.get(t).clone() {
                Type::Array(elem, ArrayLen::Var(len)) => {
                    t = elem;
                    self.eval(&Expr::sym(len, self.program.symbols[len].ty))?
                }
                Type::Array(_, ArrayLen::Fixed(0)) => return Ok(self.store.true_term()),
                Type::Array(elem, ArrayLen::Fixed(n)) => {
                    t = elem;
                    self.store.bv_const(BvValue::from_u128(128, u128::from(n)))
                }
                _ => return Err(repr::unsized_type(self.program, t, self.loc)),
            };
            let width = self.store.sort(length).bv_width().expect("integer length");
            if width > pointer_bits {
                let limit = self.store.bv_const(BvValue::from_u128(width, u128::from(max)));
                let small = self.store.bv_ule(length, limit);
                fits = self.store.and2(fits, small);
            }
            lengths.push(repr::resize(self.store, length, pointer_bits, false));
        };
        if element_size == 0 {
            return Ok(fits);
        }
        let mut limit = self.store.bv_u64(pointer_bits, max / element_size);
        for length in lengths.into_iter().rev() {
            let small = self.store.bv_ule(length, limit);
            fits = self.store.and2(fits, small);
            limit = crate::arith::div(self.store, limit, length, false);
        }
        Ok(fits)
    }

    /// `a * b` for sizes, saturated at 2^[`SATURATED_SIZE_LOG2`].
    fn saturating_mul(&mut self, a: TermId, b: TermId) -> TermId {
        let wide = self.layout.wide_bits();
        let limit = self.store.bv_const(BvValue::from_u128(wide, 1u128 << SATURATED_SIZE_LOG2));
        let product = self.store.bv_mul(a, b);
        let fits = self.store.bv_ult(product, limit);
        self.store.ite(fits, product, limit)
    }

    /// A new object of `size` bytes (a wide term), flat when the size is a
    /// small constant and a byte array otherwise.
    ///
    /// An object whose one-past-the-end offset the pointer's offset field
    /// cannot hold is still made (programs allocate such blocks and use
    /// their start), but a pointer moved past the field names the invalid
    /// object, so two such pointers may compare equal when they differ. A
    /// TRUE verdict is not trusted on paths where an object of such a
    /// constant size exists; for a symbolic size, on paths where a pointer
    /// into the object is moved past the field while the size may reach it
    /// (see [`Self::move_pointer`]): accesses through the object itself use
    /// the wide offset and are exact. A FALSE is replayed as always.
    pub(crate) fn add_object(&mut self, kind: ObjectKind, name: String, size: TermId) -> Result<ObjectId> {
        if let Some(o) = self.take_early_object(&kind, size) {
            self.note_creation(o);
            return Ok(o);
        }
        let o = self.add_new_object(kind, name, size)?;
        self.note_creation(o);
        Ok(o)
    }

    fn add_new_object(&mut self, kind: ObjectKind, name: String, size: TermId) -> Result<ObjectId> {
        let constant = self.store.as_bv_const(size).and_then(BvValue::to_u64);
        let variable_length_array = matches!(kind, ObjectKind::Local { .. });
        let o = self.objects.add(kind, name, constant.unwrap_or(0));
        let large = self.end_misses_offsets(size);
        if let Some(c) = constant {
            let what = format!("an object of {c} bytes, {}", self.beyond_offsets());
            self.approximate_when(large, what);
        } else {
            self.objects.set_symbolic_size(o, size);
            let large = self.store.and2(self.state.guard, large);
            if !self.store.is_false(large) {
                self.possibly_large_objects.push((o, large));
            }
        }
        if constant.is_none() && variable_length_array {
            // The interpreter replays a counterexample within a memory limit.
            let replayable_size = self.store.bv_u64(self.layout.wide_bits(), REPLAYABLE_VLA_BYTES);
            let replayable = self.store.bv_ule(size, replayable_size);
            let replayable = self.store.implies(self.state.guard, replayable);
            self.equation.preferences.push(replayable);
        }
        if constant.is_none_or(|c| c > MAX_OBJECT_BYTES) {
            self.objects.set_byte_array(o);
        }
        Ok(o)
    }

    /// Whether an object of `size` bytes (a wide term) ends beyond what
    /// the signed offset field holds (its one-past-the-end offset included).
    fn end_misses_offsets(&mut self, size: TermId) -> TermId {
        let first_misfit = 1u64 << (self.layout.offset_bits() - 1);
        let limit = self.store.bv_u64(self.layout.wide_bits(), first_misfit);
        self.store.bv_ule(limit, size)
    }

    fn beyond_offsets(&self) -> String {
        format!("beyond the {} bytes pointer offsets reach", (1u64 << (self.layout.offset_bits() - 1)) - 1)
    }

    /// `pointer` with its offset replaced by `wide_offset` (see
    /// `PointerLayout::with_wide_offset`); a move past the offset field
    /// inside an object of symbolic size that may be that large is an
    /// approximation.
    pub(crate) fn move_pointer(&mut self, pointer: TermId, wide_offset: TermId) -> TermId {
        if !self.possibly_large_objects.is_empty() {
            let fits = self.layout.offset_fits(self.store, wide_offset);
            let misfit = self.store.not(fits);
            let into_large = self.names_possibly_large_object(pointer);
            let condition = self.store.and2(misfit, into_large);
            let what = format!("a pointer moved inside an object of symbolic size {}", self.beyond_offsets());
            self.approximate_when(condition, what);
        }
        self.layout.with_wide_offset(self.store, pointer, wide_offset)
    }

    /// Whether `pointer` names an object of symbolic size on a path where
    /// that object's end misses the offset field.
    pub(crate) fn names_possibly_large_object(&mut self, pointer: TermId) -> TermId {
        let object = self.layout.object_of(self.store, pointer);
        let mut cases = Vec::new();
        for (o, large) in self.possibly_large_objects.clone() {
            let Some(number) = self.objects.get(o).number else { continue };
            let number = self.layout.object_number_term(self.store, number);
            let names_it = self.store.eq(object, number);
            cases.push(self.store.and2(names_it, large));
        }
        self.store.or(&cases)
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
        assert!(program.types.is_variably_modified(row));
        assert!(program.types.is_variably_modified(matrix));
        assert!(!program.types.is_variably_modified(fixed));
        // A pointer to a VLA is sized like any pointer.
        assert!(!program.types.is_variably_modified(pointer));
    }
}
