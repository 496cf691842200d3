//! The stored bytes of one interpreter object, kept sparsely: only pages
//! holding a nonzero byte exist, every other byte reads as zero. An
//! object's size therefore costs nothing until its bytes are written, so a
//! program may declare a terabyte array and touch three of its bytes.
//! Every page that exists is charged to a [`Budget`] (the run's memory
//! limit), so a program that really writes gigabytes stops cleanly.
//!
//! The ranges handed to these functions are checked by the caller
//! (`memory`) against the object's bounds.

use super::memory::{pointers_overlapping, Bytes, Pointer};
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

/// Bytes per page (the last page of an object may be shorter, so a small
/// object costs only its own size).
const PAGE_BYTES: u64 = 4096;
/// What a page costs beyond its bytes (its place in the page map), so
/// that many small pages count as the memory they take.
const PAGE_OVERHEAD: u64 = 64;

/// Bytes of pages that exist, against the run's limit.
#[derive(Clone, Debug)]
pub struct Budget {
    pub used: u64,
    pub limit: u64,
}

/// Materialising a page would exceed the memory limit.
#[derive(Debug, PartialEq, Eq)]
pub struct OverBudget;

impl Budget {
    pub(super) fn charge(&mut self, bytes: u64) -> Result<(), OverBudget> {
        self.used = self.used.checked_add(bytes).filter(|used| *used <= self.limit).ok_or(OverBudget)?;
        Ok(())
    }
}

/// A range's nonzero-capable parts, as (offset relative to the range's
/// start, bytes); the rest of the range is zero. Stored pointers wholly
/// inside the range come along, rebased.
#[derive(Clone, Debug, Default)]
pub struct Image {
    runs: Vec<(u64, Vec<u8>)>,
    pointers: BTreeMap<u64, (Pointer, u64)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contents {
    size: u64,
    /// Page number → the page's bytes.
    pages: BTreeMap<u64, Box<[u8]>>,
    /// Offset of a stored pointer's first byte → the pointer and its width.
    pointers: BTreeMap<u64, (Pointer, u64)>,
}

impl Contents {
    /// `size` zero bytes (no page exists yet).
    pub fn zeroed(size: u64) -> Contents {
        Contents { size, pages: BTreeMap::new(), pointers: BTreeMap::new() }
    }

    /// What the pages that exist cost (see [`Budget`]).
    pub fn stored_cost(&self) -> u64 {
        self.pages.keys().map(|&page| self.page_len(page) + PAGE_OVERHEAD).sum()
    }

    pub fn pointers(&self) -> impl Iterator<Item = &(Pointer, u64)> {
        self.pointers.values()
    }

    /// The stored pointers with a byte in `[offset, offset + len)`.
    pub fn pointers_touching(&self, offset: u64, len: u64) -> impl Iterator<Item = Pointer> + '_ {
        pointers_overlapping(&self.pointers, offset, offset + len).map(|(_, pointer, _)| pointer)
    }

    fn page_len(&self, page: u64) -> u64 {
        PAGE_BYTES.min(self.size - page * PAGE_BYTES)
    }

    /// The pages `[offset, offset + len)` touches, each with the part of
    /// the range inside it: (page, start within the page, length).
    fn pages_of(offset: u64, len: u64) -> impl Iterator<Item = (u64, u64, u64)> {
        let end = offset + len;
        let pages = if len == 0 { 1..1 } else { offset / PAGE_BYTES..(end - 1) / PAGE_BYTES + 1 };
        pages.map(move |page| {
            let from = offset.max(page * PAGE_BYTES);
            let to = end.min((page + 1) * PAGE_BYTES);
            (page, from - page * PAGE_BYTES, to - from)
        })
    }

    /// The bytes `[offset, offset + len)` as one dense value.
    pub fn read(&self, offset: u64, len: u64) -> Bytes {
        let mut data = vec![0u8; len as usize];
        self.copy_out(offset, &mut data);
        let pointers = self.pointers_inside(offset, len).collect();
        Bytes { data, pointers }
    }

    /// The little-endian integer in `[offset, offset + len)`, `len` at most
    /// 16: a scalar's load, which builds no [`Bytes`] (the interpreter's
    /// most frequent access).
    pub fn read_u128(&self, offset: u64, len: u64) -> u128 {
        let mut buffer = [0u8; 16];
        self.copy_out(offset, &mut buffer[..len as usize]);
        u128::from_le_bytes(buffer)
    }

    /// The pointer stored exactly over `[offset, offset + len)`, if any.
    pub fn pointer_at(&self, offset: u64, len: u64) -> Option<Pointer> {
        self.pointers.get(&offset).filter(|(_, width)| *width == len).map(|(pointer, _)| *pointer)
    }

    /// Copies the bytes from `offset` on into `out` (zero where no page exists).
    fn copy_out(&self, offset: u64, out: &mut [u8]) {
        let end = offset + out.len() as u64;
        for (page, bytes) in self.pages.range(offset / PAGE_BYTES..end.div_ceil(PAGE_BYTES)) {
            let page_start = page * PAGE_BYTES;
            let from = offset.max(page_start);
            let to = end.min(page_start + bytes.len() as u64);
            if from < to {
                out[(from - offset) as usize..(to - offset) as usize]
                    .copy_from_slice(&bytes[(from - page_start) as usize..(to - page_start) as usize]);
            }
        }
    }

    fn pointers_inside(&self, offset: u64, len: u64) -> impl Iterator<Item = (u64, (Pointer, u64))> + '_ {
        self.pointers
            .range(offset..offset + len)
            .filter(move |(start, (_, width))| **start + *width <= offset + len)
            .map(move |(start, entry)| (start - offset, *entry))
    }

    /// Overwrites `[offset, offset + src.len())`. Stored pointers that the
    /// write touches lose their provenance.
    pub fn write(&mut self, offset: u64, src: &Bytes, budget: &mut Budget) -> Result<(), OverBudget> {
        self.clear_pointers(offset, offset + src.len());
        self.write_data(offset, &src.data, budget)?;
        self.pointers.extend(src.pointers.iter().map(|(start, entry)| (start + offset, *entry)));
        Ok(())
    }

    /// Overwrites `[offset, offset + len)`, `len` at most 16, with the
    /// little-endian `value` and, when given, the provenance of the
    /// pointer it is the address of: a scalar's store without building
    /// its [`Bytes`].
    pub fn write_u128(&mut self, offset: u64, len: u64, value: u128, pointer: Option<Pointer>, budget: &mut Budget) -> Result<(), OverBudget> {
        self.clear_pointers(offset, offset + len);
        self.write_data(offset, &value.to_le_bytes()[..len as usize], budget)?;
        if let Some(pointer) = pointer {
            self.pointers.insert(offset, (pointer, len));
        }
        Ok(())
    }

    fn write_data(&mut self, offset: u64, data: &[u8], budget: &mut Budget) -> Result<(), OverBudget> {
        let mut consumed = 0usize;
        for (page, from, len) in Contents::pages_of(offset, data.len() as u64) {
            let part = &data[consumed..consumed + len as usize];
            consumed += len as usize;
            let from = from as usize;
            if self.pages.contains_key(&page) || part.iter().any(|b| *b != 0) {
                self.page_mut(page, budget)?[from..from + part.len()].copy_from_slice(part);
            }
        }
        Ok(())
    }

    /// The page's bytes, creating it (zero, charged to `budget`) if needed.
    fn page_mut(&mut self, page: u64, budget: &mut Budget) -> Result<&mut [u8], OverBudget> {
        let len = self.page_len(page);
        match self.pages.entry(page) {
            Entry::Occupied(entry) => Ok(entry.into_mut()),
            Entry::Vacant(entry) => {
                budget.charge(len + PAGE_OVERHEAD)?;
                Ok(entry.insert(vec![0u8; len as usize].into_boxed_slice()))
            }
        }
    }

    fn clear_pointers(&mut self, start: u64, end: u64) {
        let touched: Vec<u64> = pointers_overlapping(&self.pointers, start, end).map(|(at, _, _)| at).collect();
        for at in touched {
            self.pointers.remove(&at);
        }
    }

    /// Sets `[offset, offset + len)` to `byte`. Zeroing frees the pages it
    /// covers wholly, so it costs nothing however long the range.
    pub fn fill(&mut self, offset: u64, len: u64, byte: u8, budget: &mut Budget) -> Result<(), OverBudget> {
        self.clear_pointers(offset, offset + len);
        if byte != 0 {
            for (page, from, part) in Contents::pages_of(offset, len) {
                let bytes = self.page_mut(page, budget)?;
                bytes[from as usize..(from + part) as usize].fill(byte);
            }
            return Ok(());
        }
        let present: Vec<u64> = self.pages.range(offset / PAGE_BYTES..(offset + len).div_ceil(PAGE_BYTES)).map(|(p, _)| *p).collect();
        for page in present {
            let page_start = page * PAGE_BYTES;
            let page_len = self.page_len(page);
            let from = offset.max(page_start) - page_start;
            let to = (offset + len).min(page_start + page_len) - page_start;
            if from == 0 && to == page_len {
                self.pages.remove(&page);
                budget.used -= page_len + PAGE_OVERHEAD;
            } else if let Some(bytes) = self.pages.get_mut(&page) {
                bytes[from as usize..to as usize].fill(0);
            }
        }
        Ok(())
    }

    /// The parts of `[offset, offset + len)` that lie in existing pages,
    /// relative to `offset`, in increasing order.
    fn stored_parts(&self, offset: u64, len: u64) -> Vec<(u64, u64)> {
        let end = offset + len;
        self.pages
            .range(offset / PAGE_BYTES..end.div_ceil(PAGE_BYTES))
            .filter_map(|(page, bytes)| {
                let from = offset.max(page * PAGE_BYTES);
                let to = end.min(page * PAGE_BYTES + bytes.len() as u64);
                (from < to).then(|| (from - offset, to - from))
            })
            .collect()
    }

    /// `[offset, offset + len)` as an image (what `memcpy` carries).
    pub fn image(&self, offset: u64, len: u64) -> Image {
        let runs = self
            .stored_parts(offset, len)
            .into_iter()
            .map(|(at, part)| (at, self.read(offset + at, part).data))
            .collect();
        Image { runs, pointers: self.pointers_inside(offset, len).collect() }
    }

    /// Overwrites `[offset, offset + len)` with `image`.
    pub fn write_image(&mut self, offset: u64, len: u64, image: &Image, budget: &mut Budget) -> Result<(), OverBudget> {
        self.fill(offset, len, 0, budget)?;
        for (at, data) in &image.runs {
            self.write_data(offset + at, data, budget)?;
        }
        self.pointers.extend(image.pointers.iter().map(|(start, entry)| (start + offset, *entry)));
        Ok(())
    }
}

/// `memcmp` of `[a_offset, +len)` in `a` and `[b_offset, +len)` in `b`:
/// the difference of the first unequal bytes (0 when equal). Only ranges
/// where either side has a page are looked at; elsewhere both are zero.
pub fn compare(a: &Contents, a_offset: u64, b: &Contents, b_offset: u64, len: u64) -> i32 {
    let mut parts = a.stored_parts(a_offset, len);
    parts.extend(b.stored_parts(b_offset, len));
    parts.sort_unstable();
    for (at, part) in parts {
        let left = a.read(a_offset + at, part).data;
        let right = b.read(b_offset + at, part).data;
        if let Some((x, y)) = left.iter().zip(&right).find(|(x, y)| x != y) {
            return i32::from(*x) - i32::from(*y);
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::memory::ObjectId;

    fn budget(limit: u64) -> Budget {
        Budget { used: 0, limit }
    }

    #[test]
    fn a_huge_object_costs_only_the_pages_written() {
        let mut b = budget(1 << 20);
        let mut c = Contents::zeroed(1 << 40);
        for offset in [0, 1 << 30, (1 << 40) - 2] {
            c.write(offset, &Bytes::from_u128(0xbeef, 2), &mut b).unwrap();
        }
        assert_eq!(b.used, 3 * (PAGE_BYTES + PAGE_OVERHEAD));
        assert_eq!(c.stored_cost(), b.used);
        assert_eq!(c.read((1 << 40) - 2, 2).to_u128(), 0xbeef);
        assert_eq!(c.read((1 << 30) - 1, 4).data, [0, 0xef, 0xbe, 0]);
        assert_eq!(c.read(12345, 8).data, [0; 8]);
    }

    #[test]
    fn small_objects_cost_their_size_and_zero_writes_cost_nothing() {
        let mut b = budget(100);
        let mut c = Contents::zeroed(10);
        c.write(0, &Bytes::zeroed(10), &mut b).unwrap();
        assert_eq!(b.used, 0);
        c.write(9, &Bytes::from_u128(1, 1), &mut b).unwrap();
        assert_eq!(b.used, 10 + PAGE_OVERHEAD);
    }

    #[test]
    fn writes_beyond_the_budget_fail_and_zeroing_returns_pages() {
        let mut b = budget(2 * (PAGE_BYTES + PAGE_OVERHEAD));
        let mut c = Contents::zeroed(1 << 40);
        assert_eq!(c.fill(0, 1 << 40, 0xff, &mut b), Err(OverBudget));
        assert_eq!(b.used, 2 * (PAGE_BYTES + PAGE_OVERHEAD));
        c.fill(0, 1 << 40, 0, &mut b).unwrap();
        assert_eq!(b.used, 0);
        assert_eq!(c.stored_cost(), 0);
        c.fill(10, 3 * PAGE_BYTES, 0, &mut b).unwrap();
        c.fill(PAGE_BYTES - 1, 2, 7, &mut b).unwrap();
        assert_eq!(c.read(PAGE_BYTES - 2, 4).data, [0, 7, 7, 0]);
        c.fill(PAGE_BYTES, 1, 0, &mut b).unwrap();
        assert_eq!(c.read(PAGE_BYTES - 2, 4).data, [0, 7, 0, 0]);
    }

    #[test]
    fn images_carry_bytes_and_pointers_to_another_offset() {
        let mut b = budget(1 << 20);
        let mut src = Contents::zeroed(1 << 32);
        let mut stored = Bytes::from_u128(0x1000, 8);
        let target = Pointer { object: ObjectId(5), offset: 0 };
        stored.pointers.insert(0, (target, 8));
        src.write(3 * PAGE_BYTES - 4, &stored, &mut b).unwrap();
        let mut dest = Contents::zeroed(1 << 32);
        dest.fill(100, 50, 0x11, &mut b).unwrap();
        let image = src.image(PAGE_BYTES, 1 << 31);
        dest.write_image(7, 1 << 31, &image, &mut b).unwrap();
        assert_eq!(dest.read(100, 1).data, [0], "the copy overwrites the whole range");
        let moved = dest.read(2 * PAGE_BYTES + 3, 8);
        assert_eq!(moved.to_u128(), 0x1000);
        assert_eq!(moved.pointers.get(&0), Some(&(target, 8)));
    }

    #[test]
    fn compare_finds_the_first_difference_in_either_object() {
        let mut b = budget(1 << 20);
        let mut x = Contents::zeroed(1 << 40);
        let mut y = Contents::zeroed(1 << 40);
        assert_eq!(compare(&x, 0, &y, 0, 1 << 40), 0);
        x.write(1 << 35, &Bytes::from_u128(3, 1), &mut b).unwrap();
        y.write(1 << 36, &Bytes::from_u128(9, 1), &mut b).unwrap();
        assert_eq!(compare(&x, 0, &y, 0, 1 << 40), 3);
        assert_eq!(compare(&y, 0, &x, 0, 1 << 40), -3);
        assert_eq!(compare(&x, 1, &y, 1, 1 << 30), 0);
        y.write((1 << 35) + 1, &Bytes::from_u128(3, 1), &mut b).unwrap();
        assert_eq!(compare(&x, 0, &y, 1, (1 << 36) - 1), 0);
        assert_eq!(compare(&x, 0, &y, 1, 1 << 36), -9);
    }
}
