//! Reads and writes of object values at bit offsets, for both
//! representations of [`crate::memory`]: bit-ranges of a flat bit-vector,
//! or selects and stores of the bytes an access covers in a byte array.

use crate::exec::Symex;
use crate::memory::{ObjectId, BYTE_INDEX_BITS};
use crate::{repr, Result};
use smt::TermId;

/// The bytes of a byte array that an access covers.
struct ByteSpan {
    /// Index of the first byte.
    first: TermId,
    count: u32,
    /// Bit offset of the access inside the covered bytes (wide width), or
    /// `None` when the access is whole bytes starting at `first`.
    shift: Option<TermId>,
}

impl<'a> Symex<'a> {
    /// `bits` bits at `bit_offset` (wide width) of `whole`, the value of `object`.
    pub(crate) fn read_object_bits(&mut self, object: ObjectId, whole: TermId, bit_offset: TermId, bits: u32) -> Result<TermId> {
        if !self.objects.get(object).byte_array {
            return self.extract_bits(whole, bit_offset, bits);
        }
        self.read_array_bits(whole, bit_offset, bits)
    }

    /// `bits` bits at `bit_offset` (wide width) of the byte array `array`.
    pub(crate) fn read_array_bits(&mut self, array: TermId, bit_offset: TermId, bits: u32) -> Result<TermId> {
        let span = self.byte_span(bit_offset, bits);
        let covered = self.read_bytes(array, &span);
        match span.shift {
            None => Ok(covered),
            Some(shift) => self.extract_bits(covered, shift, bits),
        }
    }

    /// `whole`, the value of `object`, with the bits at `bit_offset` (wide
    /// width) replaced by `part`.
    pub(crate) fn write_object_bits(&mut self, object: ObjectId, whole: TermId, bit_offset: TermId, part: TermId) -> Result<TermId> {
        let always = self.store.true_term();
        self.write_object_bits_if(object, whole, bit_offset, part, always)
    }

    /// `whole` written as [`Self::write_object_bits`] where `condition`
    /// holds, else `whole`. A byte array keeps the choice inside the stored
    /// bytes, so its value stays a chain of stores: a choice of arrays
    /// under every conditional write would make each later read walk both
    /// sides, exponentially in the number of writes.
    pub(crate) fn write_object_bits_if(
        &mut self,
        object: ObjectId,
        whole: TermId,
        bit_offset: TermId,
        part: TermId,
        condition: TermId,
    ) -> Result<TermId> {
        let bits = self.store.sort(part).bv_width().expect("memory bits");
        let settled = self.settle_cut_pointers(object, whole, bit_offset, bits)?;
        if !self.objects.get(object).byte_array {
            let new = self.insert_bits(settled, bit_offset, part)?;
            return Ok(self.store.ite(condition, new, whole));
        }
        self.write_array_bits_if(whole, bit_offset, part, condition)
    }

    /// The byte array `whole` with the bits at `bit_offset` (wide width)
    /// replaced by `part` where `condition` holds.
    pub(crate) fn write_array_bits_if(&mut self, whole: TermId, bit_offset: TermId, part: TermId, condition: TermId) -> Result<TermId> {
        let bits = self.store.sort(part).bv_width().expect("memory bits");
        let span = self.byte_span(bit_offset, bits);
        let bytes = match span.shift {
            None => part,
            Some(shift) => {
                let covered = self.read_bytes(whole, &span);
                self.insert_bits(covered, shift, part)?
            }
        };
        let mut array = whole;
        for i in 0..span.count {
            let index = self.byte_index(span.first, i);
            let byte = self.store.extract(8 * i + 7, 8 * i, bytes);
            let old = self.store.select(whole, index);
            let byte = self.store.ite(condition, byte, old);
            array = self.store.store(array, index, byte);
        }
        Ok(array)
    }

    fn byte_span(&mut self, bit_offset: TermId, bits: u32) -> ByteSpan {
        let wide = self.layout.wide_bits();
        let three = self.store.bv_u64(wide, 3);
        let byte_offset = self.store.mk(smt::Op::BvLshr, &[bit_offset, three]);
        let first = repr::resize(self.store, byte_offset, BYTE_INDEX_BITS, false);
        let low = self.store.extract(2, 0, bit_offset);
        let aligned = self.store.as_bv_const(low).is_some_and(|v| v.is_zero()) && bits.is_multiple_of(8);
        if aligned {
            return ByteSpan { first, count: bits / 8, shift: None };
        }
        let shift = repr::resize(self.store, low, wide, false);
        ByteSpan { first, count: bits.div_ceil(8) + 1, shift: Some(shift) }
    }

    /// The covered bytes as one bit-vector (first byte lowest).
    fn read_bytes(&mut self, array: TermId, span: &ByteSpan) -> TermId {
        let mut value: Option<TermId> = None;
        for i in 0..span.count {
            let index = self.byte_index(span.first, i);
            let byte = self.store.select(array, index);
            value = Some(match value {
                None => byte,
                Some(low) => self.store.concat(byte, low),
            });
        }
        value.expect("an access covers at least one byte")
    }

    fn byte_index(&mut self, first: TermId, i: u32) -> TermId {
        let delta = self.store.bv_u64(BYTE_INDEX_BITS, u64::from(i));
        self.store.bv_add(first, delta)
    }
}
