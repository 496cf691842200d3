//! `memcpy`, `memmove` and `memset` whose byte count `n` is symbolic.
//!
//! The accesses `[dst, dst + n)` and `[src, src + n)` get the checks of any
//! access (null, invalid, dead, bounds), with a symbolic width. The bytes
//! are then written into each possible destination object, from each
//! possible source object (its value before the write, so overlapping
//! blocks behave as `memmove`), by the cheapest exact form the two
//! representations of [`crate::memory`] allow:
//! - flat into flat: the source value shifted so that its byte `s + k`
//!   lands on destination byte `d + k`, blended in under the byte mask
//!   `[d, d + n)` (a few shifters, whatever `n` is);
//! - a byte array into a flat object: each destination byte `j` chooses
//!   between its old value and the selected source byte `s + j - d`;
//! - a flat object into a byte array: each source byte `i` is stored at
//!   `d + i - s` when `s <= i < s + n`;
//! - into a byte array from a byte array or a repeated byte: each byte of
//!   a destination of constant size (up to [`MAX_EXACT_BYTEWISE_BYTES`])
//!   chooses between its old value and the new one; else the first
//!   [`MAX_BYTEWISE_COPY`] bytes one by one, and a longer count is a
//!   conditional approximation, so TRUE is only claimed when it cannot
//!   happen, and a FALSE rests on the interpreter's replay as always.

use crate::exec::Symex;
use crate::memory::{ObjectId, BYTE_INDEX_BITS};
use crate::place::Place;
use crate::{repr, Result, Stop};
use smt::{BvValue, Op, TermId};

/// Most bytes copied one at a time between byte arrays.
const MAX_BYTEWISE_COPY: u64 = 256;

/// Largest byte array of constant size whose every byte a copy of a
/// symbolic count may write (as large as a flat object was allowed to be
/// before objects over [`crate::memory::MAX_OBJECT_BYTES`] became byte arrays).
const MAX_EXACT_BYTEWISE_BYTES: u64 = 1 << 16;

/// Largest flat object copied byte by byte to or from a byte array.
const MAX_PAIRED_FLAT_BYTES: u64 = 1024;

/// What the bytes `[d, d + n)` of a destination receive.
#[derive(Clone, Copy)]
enum Fill {
    /// The bytes of `object` (whose value is `value`) from byte offset `offset`.
    Bytes { object: ObjectId, value: TermId, offset: TermId },
    /// One byte, repeated.
    Repeated(TermId),
}

impl Symex<'_> {
    /// `memcpy`/`memmove(dst, src, n)` for `n` a wide term.
    pub(crate) fn copy_symbolic(&mut self, dst: TermId, src: TermId, n: TermId) -> Result<()> {
        let bits = self.bits_of_bytes(n);
        let from = self.deref_place(src, 1);
        let read_ok = self.check_access_of(&from, bits);
        let to = self.deref_place(dst, 1);
        let write_ok = self.check_access_of(&to, bits);
        self.check_writable(&to);
        self.note_place_copy(&from, &to, None);
        let offset = self.layout.wide_offset_of(self.store, src);
        let mut sources = Vec::new();
        for (t, &ok) in from.targets.iter().zip(&read_ok) {
            if !self.store.is_false(ok) {
                let value = self.object_value(t.object);
                sources.push((Fill::Bytes { object: t.object, value, offset }, ok));
            }
        }
        self.fill_targets(&to, dst, &write_ok, &sources, n, "memcpy")
    }

    /// `memset(dst, byte, n)` for `n` a wide term and `byte` 8 bits.
    pub(crate) fn set_symbolic(&mut self, dst: TermId, byte: TermId, n: TermId) -> Result<()> {
        let bits = self.bits_of_bytes(n);
        let to = self.deref_place(dst, 1);
        let write_ok = self.check_access_of(&to, bits);
        self.check_writable(&to);
        for t in &to.targets {
            self.note_unbounded_write(t.object);
        }
        let always = self.store.true_term();
        self.fill_targets(&to, dst, &write_ok, &[(Fill::Repeated(byte), always)], n, "memset")
    }

    fn bits_of_bytes(&mut self, n: TermId) -> TermId {
        let eight = self.store.bv_u64(self.layout.wide_bits(), 8);
        self.store.bv_mul(n, eight)
    }

    /// Writes `sources` (each valid under its condition) into every target
    /// of `to` where its write is valid (`write_ok`).
    fn fill_targets(&mut self, to: &Place, dst: TermId, write_ok: &[TermId], sources: &[(Fill, TermId)], n: TermId, what: &str) -> Result<()> {
        if !self.options.pointer_checks {
            let reads: Vec<TermId> = sources.iter().map(|&(_, ok)| ok).collect();
            let read = self.store.or(&reads);
            let written = self.store.or(write_ok);
            let both = self.store.and2(read, written);
            let missed = self.store.not(both);
            self.approximate_when(missed, format!("a {what} outside its objects (unchecked) is ignored"));
        }
        let d = self.layout.wide_offset_of(self.store, dst);
        for (t, &ok) in to.targets.iter().zip(write_ok) {
            if self.store.is_false(ok) {
                continue;
            }
            let old = self.object_value(t.object);
            let mut new = old;
            for &(fill, read) in sources.iter().rev() {
                let filled = self.fill_object(t.object, old, d, fill, n, what)?;
                new = self.store.ite(read, filled, new);
            }
            let merged = self.store.ite(ok, new, old);
            self.write_object(t.object, merged);
        }
        Ok(())
    }

    /// The value `old` of `object` with bytes `[d, d + n)` taken from `fill`.
    fn fill_object(&mut self, object: ObjectId, old: TermId, d: TermId, fill: Fill, n: TermId, what: &str) -> Result<TermId> {
        let into_array = self.objects.get(object).byte_array;
        match fill {
            Fill::Repeated(byte) if into_array => self.bytewise_into_array(object, old, d, n, what, |_, _| byte),
            Fill::Repeated(byte) => {
                let width = self.objects.get(object).value_bits();
                let mut span = byte;
                for _ in 1..width / 8 {
                    span = self.store.concat(byte, span);
                }
                self.blend_flat(old, d, span, n)
            }
            Fill::Bytes { object: source, value, offset } => match (into_array, self.objects.get(source).byte_array) {
                (false, false) => {
                    let width = self.objects.get(object).value_bits();
                    let source_bits = self.store.sort(value).bv_width().expect("flat value");
                    // Padded so that any in-bounds offset leaves `width` bits to take.
                    let padded = repr::resize(self.store, value, source_bits + width, false);
                    let eight = self.store.bv_u64(self.layout.wide_bits(), 8);
                    let bit_offset = self.store.bv_mul(offset, eight);
                    let span = self.extract_bits(padded, bit_offset, width)?;
                    self.blend_flat(old, d, span, n)
                }
                (false, true) => self.array_into_flat(old, d, value, offset, n),
                (true, false) => self.flat_into_array(old, d, value, offset, n),
                (true, true) => self.bytewise_into_array(object, old, d, n, what, |symex, k| {
                    let at = symex.store.bv_u64(symex.layout.wide_bits(), k);
                    let index = symex.store.bv_add(offset, at);
                    let index = repr::resize(symex.store, index, BYTE_INDEX_BITS, false);
                    symex.store.select(value, index)
                }),
            },
        }
    }

    /// `old` (a flat value) with bytes `[d, d + n)` replaced by the first
    /// `n` bytes of `span` (as wide as `old`).
    fn blend_flat(&mut self, old: TermId, d: TermId, span: TermId, n: TermId) -> Result<TermId> {
        let width = self.store.sort(old).bv_width().expect("flat value");
        if self.store.as_bv_const(d).is_none() || self.store.as_bv_const(n).is_none() {
            self.check_symbolic_access(width)?;
        }
        let wide = self.layout.wide_bits();
        let eight = self.store.bv_u64(wide, 8);
        let end = self.store.bv_add(d, n);
        // The shift amounts fit in `width` bits on every path where the
        // access is in bounds, the only paths whose result is kept.
        let start_bits = self.store.bv_mul(d, eight);
        let start_bits = repr::resize(self.store, start_bits, width, false);
        let end_bits = self.store.bv_mul(end, eight);
        let end_bits = repr::resize(self.store, end_bits, width, false);
        let ones = self.store.bv_const(BvValue::ones(width));
        let from_start = self.store.mk(Op::BvShl, &[ones, start_bits]);
        let from_end = self.store.mk(Op::BvShl, &[ones, end_bits]);
        let before_end = self.store.bv_not(from_end);
        let mask = self.store.bv_and(from_start, before_end);
        let moved = self.store.mk(Op::BvShl, &[span, start_bits]);
        let kept_mask = self.store.bv_not(mask);
        let kept = self.store.bv_and(old, kept_mask);
        let taken = self.store.bv_and(moved, mask);
        Ok(self.store.bv_or(kept, taken))
    }

    /// Whether byte `j` (a wide constant) lies in `[d, d + n)`.
    fn in_range(&mut self, j: TermId, d: TermId, n: TermId) -> TermId {
        let end = self.store.bv_add(d, n);
        let low = self.store.bv_sle(d, j);
        let high = self.store.bv_slt(j, end);
        self.store.and2(low, high)
    }

    /// A flat value `old` whose bytes `j` in `[d, d + n)` are the source
    /// array's bytes `s + j - d`.
    fn array_into_flat(&mut self, old: TermId, d: TermId, source: TermId, s: TermId, n: TermId) -> Result<TermId> {
        let bytes = u64::from(self.store.sort(old).bv_width().expect("flat value") / 8);
        if bytes > MAX_PAIRED_FLAT_BYTES {
            return Err(Stop::unsupported(format!("copy of a symbolic size into an object of {bytes} bytes"), self.loc));
        }
        let wide = self.layout.wide_bits();
        let mut result: Option<TermId> = None;
        for j in 0..bytes {
            let at = self.store.bv_u64(wide, j);
            let copied = self.in_range(at, d, n);
            let shifted = self.store.bv_add(s, at);
            let index = self.store.bv_sub(shifted, d);
            let index = repr::resize(self.store, index, BYTE_INDEX_BITS, false);
            let new = self.store.select(source, index);
            let low = (8 * j) as u32;
            let kept = self.store.extract(low + 7, low, old);
            let byte = self.store.ite(copied, new, kept);
            result = Some(match result {
                None => byte,
                Some(lower) => self.store.concat(byte, lower),
            });
        }
        Ok(result.expect("a flat value has at least one byte"))
    }

    /// The array `old` with the source's flat bytes `i` in `[s, s + n)`
    /// stored at `d + i - s`.
    fn flat_into_array(&mut self, old: TermId, d: TermId, source: TermId, s: TermId, n: TermId) -> Result<TermId> {
        let bytes = u64::from(self.store.sort(source).bv_width().expect("flat value") / 8);
        if bytes > MAX_PAIRED_FLAT_BYTES {
            return Err(Stop::unsupported(format!("copy of a symbolic size from an object of {bytes} bytes"), self.loc));
        }
        let wide = self.layout.wide_bits();
        let mut array = old;
        for i in 0..bytes {
            let at = self.store.bv_u64(wide, i);
            let copied = self.in_range(at, s, n);
            let shifted = self.store.bv_add(d, at);
            let index = self.store.bv_sub(shifted, s);
            let index = repr::resize(self.store, index, BYTE_INDEX_BITS, false);
            let low = (8 * i) as u32;
            let new = self.store.extract(low + 7, low, source);
            let kept = self.store.select(array, index);
            let byte = self.store.ite(copied, new, kept);
            array = self.store.store(array, index, byte);
        }
        Ok(array)
    }

    /// The array `old` (the value of `object`) with byte `d + k` set to
    /// `byte(k)` for each `k < n`: every byte of an object of constant size
    /// up to [`MAX_EXACT_BYTEWISE_BYTES`] (a valid access ends inside it),
    /// else up to [`MAX_BYTEWISE_COPY`] bytes, a longer `n` being a
    /// conditional approximation.
    fn bytewise_into_array(
        &mut self,
        object: ObjectId,
        old: TermId,
        d: TermId,
        n: TermId,
        what: &str,
        mut byte: impl FnMut(&mut Self, u64) -> TermId,
    ) -> Result<TermId> {
        let wide = self.layout.wide_bits();
        let o = self.objects.get(object);
        let exact = (o.size_term.is_none() && o.size <= MAX_EXACT_BYTEWISE_BYTES).then_some(o.size);
        let count = match exact {
            Some(size) => size,
            None => {
                let limit = self.store.bv_u64(wide, MAX_BYTEWISE_COPY);
                let longer = self.store.bv_ult(limit, n);
                self.approximate_when(longer, format!("a {what} of more than {MAX_BYTEWISE_COPY} bytes into a block of symbolic size writes only the first {MAX_BYTEWISE_COPY}"));
                MAX_BYTEWISE_COPY
            }
        };
        let mut array = old;
        for k in 0..count {
            let at = self.store.bv_u64(wide, k);
            let copied = self.store.bv_ult(at, n);
            if self.store.is_false(copied) {
                break;
            }
            let shifted = self.store.bv_add(d, at);
            let index = repr::resize(self.store, shifted, BYTE_INDEX_BITS, false);
            let new = byte(self, k);
            // The indices `d + k` differ, so the old byte is the one before the copy.
            let kept = self.store.select(old, index);
            let value = self.store.ite(copied, new, kept);
            array = self.store.store(array, index, value);
        }
        Ok(array)
    }
}
