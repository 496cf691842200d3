//! Struct, union and array values larger than a flat object
//! ([`repr::is_large`]): assigned, passed and returned by value, and
//! `memcpy`/`memset` of such whole objects.
//!
//! Such a value is a byte array, the sort of a large object's value (see
//! [`crate::memory`]); its bytes `[0, size)` are the value's and the others
//! are unspecified. An object holding a large value is always a byte array
//! (its size exceeds the flat limit), so the value read from the start of
//! an object is the object's array itself, and a value written into an
//! object of exactly its size becomes that object's array: a copy costs no
//! formula, and a read of a member is selects of the bytes it covers. A
//! large value at another offset of a byte array (a large member of a
//! larger struct, an element of an array of large structs, at a constant
//! or symbolic offset) is copied byte by byte, one select and one store per
//! byte, up to [`MAX_SHIFTED_VALUE_BYTES`]; beyond that it is
//! `unsupported`, never approximated.

use crate::exec::Symex;
use crate::memory::{ObjectId, BYTE_INDEX_BITS};
use crate::place::Place;
use crate::{repr, Result, Stop};
use ir::TypeId;
use smt::{BvValue, TermId};

/// Largest value copied byte by byte to or from another offset of an
/// object (as large as a flat value was allowed to be before values over
/// [`crate::memory::MAX_OBJECT_BYTES`] became byte arrays).
const MAX_SHIFTED_VALUE_BYTES: u64 = 1 << 16;

impl Symex<'_> {
    /// Reads the large value of type `ty` at `place` (checked as any read).
    pub(crate) fn read_large_place(&mut self, place: &Place, ty: TypeId) -> Result<TermId> {
        let size = repr::size_of(self.program, ty, self.loc)?;
        self.read_large_bytes(place, size)
    }

    /// Reads `size` bytes at `place` (checked) as a large value.
    pub(crate) fn read_large_bytes(&mut self, place: &Place, size: u64) -> Result<TermId> {
        let valid = self.check_large_access(place, size);
        let mut value = None;
        for (t, &ok) in place.targets.iter().zip(&valid).rev() {
            if self.store.is_false(ok) {
                continue;
            }
            let whole = self.object_value(t.object);
            let part = match self.is_whole_value_at(t.object, t.bit_offset, size, false) {
                true => whole,
                false => {
                    let first = self.shifted_value_start(t.object, t.bit_offset, size, false)?;
                    let sort = crate::memory::byte_array_sort(self.store);
                    let zero = self.store.bv_u64(8, 0);
                    let empty = self.store.const_array(sort, zero);
                    self.copy_bytes(whole, first, empty, None, size)
                }
            };
            self.note_aggregate_read(t.object, t.bit_offset, u32::try_from(size * 8).unwrap_or(u32::MAX), part);
            value = Some(match value {
                None => part,
                Some(rest) => self.store.ite(ok, part, rest),
            });
        }
        // Without a valid target the read is a reported violation (or an
        // unchecked access, see `check_large_access`): any value will do.
        Ok(value.unwrap_or_else(|| {
            let sort = crate::memory::byte_array_sort(self.store);
            self.store.var("invalid_read", sort)
        }))
    }

    /// Writes the large value `value` (a byte array) of type `ty` to `place`.
    pub(crate) fn write_large_place(&mut self, place: &Place, ty: TypeId, value: TermId) -> Result<()> {
        let size = repr::size_of(self.program, ty, self.loc)?;
        self.write_large_bytes(place, size, value)?;
        self.note_typed_store_at(place, ty, value);
        Ok(())
    }

    /// Writes the large value `value` of `size` bytes to `place` (checked).
    pub(crate) fn write_large_bytes(&mut self, place: &Place, size: u64, value: TermId) -> Result<()> {
        let valid = self.check_large_access(place, size);
        self.check_writable(place);
        // With one target every other path fails a check (see `write_place_bits`).
        let sole_target = place.targets.len() == 1;
        for (t, &ok) in place.targets.iter().zip(&valid) {
            if self.store.is_false(ok) {
                continue;
            }
            let old = self.object_value(t.object);
            let written = match self.is_whole_value_at(t.object, t.bit_offset, size, true) {
                true => value,
                false => {
                    let first = self.shifted_value_start(t.object, t.bit_offset, size, true)?;
                    self.copy_bytes(value, None, old, first, size)
                }
            };
            let new = if sole_target { written } else { self.store.ite(ok, written, old) };
            self.write_object(t.object, new);
        }
        Ok(())
    }

    /// The checks of an access of `size` bytes to `place`, and per target
    /// whether it hits the target validly. With the checks off an access
    /// outside every target is an approximation (the interpreter stops
    /// there, so no replay confirms such a path either).
    fn check_large_access(&mut self, place: &Place, size: u64) -> Vec<TermId> {
        let width = self.store.bv_const(BvValue::from_u128(self.layout.wide_bits(), u128::from(size) * 8));
        let valid = self.check_access_of(place, width);
        let checked = if place.pointer.is_some() { self.options.pointer_checks } else { self.options.bounds_checks };
        if !checked {
            let covered = self.store.or(&valid);
            let outside = self.store.not(covered);
            self.approximate_when(outside, "an access of a large value outside its object (unchecked)");
            self.note_unchecked_access(covered);
        }
        valid
    }

    /// The byte index (of [`BYTE_INDEX_BITS`]) at which a large value of
    /// `size` bytes lies at `bit_offset` of `object`, when it is not the
    /// object's whole value: only byte arrays hold such values, and only
    /// values up to [`MAX_SHIFTED_VALUE_BYTES`] are copied byte by byte.
    fn shifted_value_start(&mut self, object: ObjectId, bit_offset: TermId, size: u64, written: bool) -> Result<Option<TermId>> {
        // An aggregate lies at a whole byte (only bit-fields do not), so the
        // offset's low bits are zero.
        if self.objects.get(object).byte_array && size <= MAX_SHIFTED_VALUE_BYTES {
            let three = self.store.bv_u64(self.layout.wide_bits(), 3);
            let byte_offset = self.store.mk(smt::Op::BvLshr, &[bit_offset, three]);
            return Ok(Some(repr::resize(self.store, byte_offset, BYTE_INDEX_BITS, false)));
        }
        let what = if written { "written into" } else { "read from" };
        let name = &self.objects.get(object).name;
        Err(Stop::unsupported(
            format!("{size} bytes {what} `{name}` other than as the whole object (only values up to {MAX_SHIFTED_VALUE_BYTES} bytes are copied byte by byte)"),
            self.loc,
        ))
    }

    /// `into` with its `size` bytes from index `to` (0 if `None`) replaced
    /// by those of `from` from index `at` (0 if `None`), one select and
    /// one store per byte.
    fn copy_bytes(&mut self, from: TermId, at: Option<TermId>, into: TermId, to: Option<TermId>, size: u64) -> TermId {
        let mut result = into;
        for k in 0..size {
            let delta = self.store.bv_u64(BYTE_INDEX_BITS, k);
            let source = at.map_or(delta, |at| self.store.bv_add(at, delta));
            let target = to.map_or(delta, |to| self.store.bv_add(to, delta));
            let byte = self.store.select(from, source);
            result = self.store.store(result, target, byte);
        }
        result
    }

    /// Whether `size` bytes at `bit_offset` of `object` are the object's
    /// whole value: at offset 0 of a byte array, of exactly that size when
    /// `written` (a read may leave a tail).
    fn is_whole_value_at(&self, object: ObjectId, bit_offset: TermId, size: u64, written: bool) -> bool {
        let o = self.objects.get(object);
        let at_start = self.store.as_bv_const(bit_offset).is_some_and(BvValue::is_zero);
        let fits = !written || o.size_term.is_none() && o.size == size;
        o.byte_array && at_start && fits
    }

    /// Whether every target of `place` holds `size` bytes as its whole
    /// value, so that they can be read or written as a large value.
    pub(crate) fn is_whole_value_place(&self, place: &Place, size: u64, written: bool) -> bool {
        place.targets.iter().all(|t| self.is_whole_value_at(t.object, t.bit_offset, size, written))
    }
}
