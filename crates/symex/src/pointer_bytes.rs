//! The bytes of stored pointers read with a non-pointer type.
//!
//! Memory keeps a pointer as its (object, offset) encoding, while the
//! interpreter's bytes hold its address. A read of a non-pointer scalar
//! (an integer, a float, a `char` of a pointer's bytes) must see the
//! address, as a `(uintptr_t)` cast does (see [`crate::address`]), and
//! only those reads pay for it:
//! - per object, over all paths, symex marks the bit positions where a
//!   pointer may have been stored ([`Positions`]: from the type of every
//!   typed write, from the source of every block copy, from the value
//!   of an aggregate write: a struct or array read from memory carries the
//!   marks of the bytes it was read from, whatever type it is written
//!   with, so that a copy through another struct type keeps them);
//! - it remembers the terms stored as pointers and as other scalars;
//! - a non-pointer read that overlaps a mark takes each overlapping
//!   pointer-wide window of the object's value (whole, so that a constant
//!   pointer folded into a larger constant comes out whole again) and
//!   rebuilds it with every stored pointer term replaced by its address,
//!   through the operators that only move bits (`ite` branches, concat,
//!   extract, the masks and shifts of writes at symbolic offsets).
//!
//! A window holding bits symex cannot classify (a pointer partly
//! overwritten, a value no typed write stored, a read at an offset or
//! into a byte array it cannot cut windows from) makes the read a declared
//! approximation instead of a silent wrong value.

use crate::exec::Symex;
use crate::memory::ObjectId;
use crate::place::Place;
use crate::Result;
use ir::{ArrayLen, Type, TypeId};
use smt::{Op, TermId, TermStore};
use std::collections::{HashMap, HashSet};

/// Most term nodes one window's rebuild visits before it gives up (the
/// read then becomes an approximation).
const REBUILD_NODE_LIMIT: usize = 4096;

/// Deepest offset term [`positions_of`] looks into.
const POSITION_DEPTH_LIMIT: u32 = 32;

const APPROXIMATION: &str = "a pointer's bytes read as an integer";

/// Most offsets [`offset_values`] lists.
const OFFSET_VALUES_LIMIT: usize = 64;

/// The values a wide offset term built from constants by `ite`, sums,
/// products with constants and extensions can take (at most
/// [`OFFSET_VALUES_LIMIT`], all nonnegative and small), or `None`.
fn offset_values(store: &TermStore, term: TermId) -> Option<Vec<i128>> {
    offset_values_at_depth(store, term, 0)
}

fn offset_values_at_depth(store: &TermStore, term: TermId, depth: u32) -> Option<Vec<i128>> {
    if let Some(value) = store.as_bv_const(term) {
        return value.to_u64().filter(|&v| v <= u64::from(u32::MAX)).map(|v| vec![i128::from(v)]);
    }
    if depth > POSITION_DEPTH_LIMIT {
        return None;
    }
    let args = store.args(term);
    let of = |t: TermId| offset_values_at_depth(store, t, depth + 1);
    let mut values = match store.op(term)? {
        Op::Ite => [of(args[1])?, of(args[2])?].concat(),
        Op::BvAdd => {
            let mut sums = vec![0];
            for &a in args {
                let terms = of(a)?;
                sums = sums.iter().flat_map(|s| terms.iter().map(move |t| s + t)).collect();
                if sums.len() > OFFSET_VALUES_LIMIT {
                    return None;
                }
            }
            sums
        }
        Op::BvMul if args.len() == 2 => {
            let (left, right) = (of(args[0])?, of(args[1])?);
            left.iter().flat_map(|l| right.iter().map(move |r| l * r)).collect()
        }
        Op::ZeroExtend(_) => of(args[0])?,
        // Unchanged by a sign extension or a slice from bit 0 while their
        // sign bit there is clear.
        Op::SignExtend(_) => {
            let width = store.sort(args[0]).bv_width()?;
            of(args[0]).filter(|values| values.iter().all(|&v| v < 1i128 << (width - 1).min(64)))?
        }
        Op::Extract { hi, lo: 0 } => of(args[0]).filter(|values| values.iter().all(|&v| v < 1i128 << hi.min(64)))?,
        _ => return None,
    };
    values.sort_unstable();
    values.dedup();
    (values.len() <= OFFSET_VALUES_LIMIT && values.iter().all(|&v| v <= i128::from(u32::MAX))).then_some(values)
}

/// A set of bit offsets `residue + k * modulus` (every integer `k`), or
/// exactly `residue` when `modulus` is 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Positions {
    residue: i128,
    modulus: i128,
}

impl Positions {
    pub(crate) fn exactly(offset: i128) -> Positions {
        Positions { residue: offset, modulus: 0 }
    }
    const ANYWHERE: Positions = Positions { residue: 0, modulus: 1 };

    fn normalized(residue: i128, modulus: i128) -> Positions {
        match modulus {
            0 => Positions { residue, modulus },
            m => Positions { residue: residue.rem_euclid(m), modulus: m },
        }
    }
    fn shifted(self, by: Positions) -> Positions {
        Positions::normalized(self.residue + by.residue, gcd(self.modulus, by.modulus))
    }
    fn scaled(self, factor: i128) -> Positions {
        Positions::normalized(self.residue * factor, self.modulus * factor)
    }
    fn join(self, other: Positions) -> Positions {
        let modulus = gcd(gcd(self.modulus, other.modulus), (self.residue - other.residue).abs());
        Positions::normalized(self.residue, modulus)
    }
    /// Whether some `d` in `self - other` lies in `[low, high]`.
    fn difference_meets(self, other: Positions, low: i128, high: i128) -> bool {
        if low > high {
            return false;
        }
        let step = gcd(self.modulus, other.modulus);
        let d = self.residue - other.residue;
        if step == 0 {
            return (low..=high).contains(&d);
        }
        low + (d - low).rem_euclid(step) <= high
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The offsets a wide offset term can take, as far as its shape tells.
pub(crate) fn positions_of(store: &TermStore, term: TermId) -> Positions {
    positions_at_depth(store, term, 0)
}

fn positions_at_depth(store: &TermStore, term: TermId, depth: u32) -> Positions {
    if let Some(value) = store.as_bv_const(term) {
        return match value.to_u64() {
            Some(v) if v <= u64::MAX >> 1 => Positions::exactly(i128::from(v)),
            _ => Positions::ANYWHERE,
        };
    }
    if depth > POSITION_DEPTH_LIMIT {
        return Positions::ANYWHERE;
    }
    let args = store.args(term);
    let of = |t: TermId| positions_at_depth(store, t, depth + 1);
    let constant = |t: TermId| store.as_bv_const(t).and_then(|v| v.to_u64()).filter(|&v| v <= u32::MAX as u64);
    match store.op(term) {
        Some(Op::BvAdd) => args.iter().map(|&a| of(a)).reduce(Positions::shifted).unwrap_or(Positions::ANYWHERE),
        Some(Op::BvMul) if args.len() == 2 => match (constant(args[0]), constant(args[1])) {
            (_, Some(k)) => of(args[0]).scaled(i128::from(k)),
            (Some(k), _) => of(args[1]).scaled(i128::from(k)),
            _ => Positions::ANYWHERE,
        },
        Some(Op::BvShl) => match constant(args[1]) {
            Some(k) if k < 64 => of(args[0]).scaled(1 << k),
            _ => Positions::ANYWHERE,
        },
        // The rewriter writes `x << k` as `concat(x[..], 0^k)`.
        Some(Op::Concat) if args.len() == 2 => match store.sort(args[1]) {
            smt::Sort::BitVec(low_bits) if low_bits < 64 => of(args[0]).scaled(1 << low_bits).shifted(of(args[1])),
            _ => Positions::ANYWHERE,
        },
        Some(Op::Ite) => of(args[1]).join(of(args[2])),
        Some(Op::ZeroExtend(_) | Op::SignExtend(_) | Op::Extract { lo: 0, .. }) => of(args[0]),
        _ => Positions::ANYWHERE,
    }
}

/// What symex knows about the pointers stored in memory.
#[derive(Default)]
pub(crate) struct PointerBytes {
    /// Per object, where a pointer may have been stored (bit offsets of
    /// its first bit), over all paths.
    marks: HashMap<ObjectId, Vec<Positions>>,
    /// Terms stored with a pointer type.
    pointers: HashSet<TermId>,
    /// The bits of the constants among `pointers`.
    pointer_constants: HashSet<u128>,
    /// Terms stored with a non-pointer scalar type.
    scalars: HashSet<TermId>,
    /// Some write or copy covered part of a pointer only: a constant in a
    /// window may then be a pointer's bits folded with others.
    fragmented: bool,
    /// Per type, the bit offsets of the pointers inside it.
    type_pointers: HashMap<TypeId, Vec<Positions>>,
    /// Per aggregate value read from memory, where pointers may sit in it
    /// (bit offsets from its first bit).
    value_marks: HashMap<TermId, Vec<Positions>>,
}

impl PointerBytes {
    fn note_pointer(&mut self, pointer: TermId, store: &TermStore) {
        self.pointers.insert(pointer);
        if let Some(bits) = store.as_bv_const(pointer).and_then(|v| v.to_u128()) {
            self.pointer_constants.insert(bits);
        }
    }
    fn mark(&mut self, object: ObjectId, at: Positions) {
        let marks = self.marks.entry(object).or_default();
        if !marks.contains(&at) {
            marks.push(at);
        }
    }
}

impl Symex<'_> {
    fn pointer_width(&self) -> i128 {
        i128::from(self.layout.pointer_bits)
    }

    /// Bit offsets of the pointers inside a value of type `ty`.
    fn pointers_in_type(&mut self, ty: TypeId) -> Vec<Positions> {
        if let Some(known) = self.pointer_bytes.type_pointers.get(&ty) {
            return known.clone();
        }
        let types = &self.program.types;
        let found = match types.get(ty) {
            Type::Pointer(_) => vec![Positions::exactly(0)],
            Type::Array(elem, length) => {
                let (elem, length) = (*elem, *length);
                let elem_bits = types.size_of(elem, self.program.data_model).unwrap_or(0) as i128 * 8;
                let inner = self.pointers_in_type(elem);
                match length {
                    ArrayLen::Fixed(1) => inner,
                    _ => inner.into_iter().map(|p| p.shifted(Positions { residue: 0, modulus: elem_bits.max(1) })).collect(),
                }
            }
            Type::Composite(id) => {
                let fields: Vec<(TypeId, u64)> =
                    types.composites[*id].fields.iter().filter(|f| f.bit_width.is_none()).map(|f| (f.ty, f.offset_bits)).collect();
                let mut found = Vec::new();
                for (field_ty, offset) in fields {
                    let at = Positions::exactly(i128::from(offset));
                    found.extend(self.pointers_in_type(field_ty).into_iter().map(|p| p.shifted(at)));
                }
                found
            }
            _ => Vec::new(),
        };
        self.pointer_bytes.type_pointers.insert(ty, found.clone());
        found
    }

    /// Records a value of type `ty` (memory bits `bits`) stored at
    /// `bit_offset` of `object`: where it puts pointers, and the term
    /// itself for the reads that classify windows.
    pub(crate) fn note_typed_store(&mut self, object: ObjectId, bit_offset: TermId, ty: TypeId, bits: TermId) {
        let types = &self.program.types;
        if types.is_pointer(ty) {
            self.pointer_bytes.note_pointer(bits, self.store);
        } else if matches!(types.get(ty), Type::Bool | Type::Int { .. } | Type::Float(_)) {
            self.pointer_bytes.scalars.insert(bits);
        }
        let mut inside = self.pointers_in_type(ty);
        if matches!(self.program.types.get(ty), Type::Composite(_) | Type::Array(..)) {
            let width = self.program.types.size_of(ty, self.program.data_model).unwrap_or(0) as i128 * 8;
            inside.extend(self.pointers_in_value(bits, width));
        }
        if inside.is_empty() {
            return;
        }
        let at = positions_of(self.store, bit_offset);
        for p in inside {
            self.pointer_bytes.mark(object, p.shifted(at));
        }
    }

    /// Records where the pointers of `object` that an aggregate read of
    /// `bits` bits at `bit_offset` covers sit in the value read, `value`:
    /// whatever type it is written with later, its marks go along.
    pub(crate) fn note_aggregate_read(&mut self, object: ObjectId, bit_offset: TermId, bits: u32, value: TermId) {
        let Some(marks) = self.pointer_bytes.marks.get(&object).cloned() else { return };
        let read = positions_of(self.store, bit_offset);
        let (n, pw) = (i128::from(bits), self.pointer_width());
        let back = Positions::normalized(-read.residue, read.modulus);
        let mut inside = Vec::new();
        for m in marks.into_iter().filter(|m| m.difference_meets(read, 1 - pw, n - 1)) {
            if cuts(m, read, n, pw) {
                self.pointer_bytes.fragmented = true;
            }
            inside.push(m.shifted(back));
        }
        if inside.is_empty() {
            return;
        }
        let known = self.pointer_bytes.value_marks.entry(value).or_default();
        for p in inside {
            if !known.contains(&p) {
                known.push(p);
            }
        }
    }

    /// Where pointers may sit in `value`, `width` bits (bit offsets from
    /// its first bit), from the aggregate reads its bits come from, through
    /// the operators that only move bits; a value too large to walk may
    /// hold one anywhere.
    fn pointers_in_value(&self, value: TermId, width: i128) -> Vec<Positions> {
        let bytes = &self.pointer_bytes;
        if bytes.value_marks.is_empty() {
            return Vec::new();
        }
        let mut found = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![(value, 0i128)];
        while let Some((term, base)) = stack.pop() {
            if !seen.insert((term, base)) {
                continue;
            }
            if seen.len() > REBUILD_NODE_LIMIT {
                return vec![Positions::ANYWHERE];
            }
            if let Some(marks) = bytes.value_marks.get(&term) {
                found.extend(marks.iter().map(|m| m.shifted(Positions::exactly(base))));
            }
            let args = self.store.args(term);
            match self.store.op(term) {
                Some(Op::Ite) => stack.extend([(args[1], base), (args[2], base)]),
                Some(Op::Concat) => {
                    let mut at = base;
                    for &part in args.iter().rev() {
                        stack.push((part, at));
                        at += i128::from(self.store.sort(part).bv_width().unwrap_or(0));
                    }
                }
                Some(Op::Extract { lo, .. }) => stack.push((args[0], base - i128::from(lo))),
                Some(Op::ZeroExtend(_) | Op::SignExtend(_)) => stack.push((args[0], base)),
                _ => {}
            }
        }
        let pw = self.pointer_width();
        found.retain(|m| m.difference_meets(Positions::exactly(0), 1 - pw, width - 1));
        found.sort_unstable_by_key(|m| (m.residue, m.modulus));
        found.dedup();
        found
    }

    /// Records the pointer `pointer` stored without a type (by the
    /// environment or a library function) at `bit_offset` of `object`.
    pub(crate) fn note_pointer_store(&mut self, object: ObjectId, bit_offset: TermId, pointer: TermId) {
        self.pointer_bytes.note_pointer(pointer, self.store);
        let at = positions_of(self.store, bit_offset);
        self.pointer_bytes.mark(object, at);
    }

    /// [`Self::note_pointer_store`] for every target of `place`.
    pub(crate) fn note_pointer_store_at(&mut self, place: &Place, pointer: TermId) {
        for t in &place.targets {
            self.note_pointer_store(t.object, t.bit_offset, pointer);
        }
    }

    /// Records `bits`, stored by a library function as data (a `memset`
    /// byte, printed text, a count): they hold no pointer.
    pub(crate) fn note_data_store(&mut self, bits: TermId) {
        self.pointer_bytes.scalars.insert(bits);
    }

    /// Whether `term` was stored with a non-pointer scalar type only (its
    /// bits, read as a pointer, are an address).
    pub(crate) fn stored_as_scalar_only(&self, term: TermId) -> bool {
        self.pointer_bytes.scalars.contains(&term) && !self.pointer_bytes.pointers.contains(&term)
    }

    /// [`Self::note_typed_store`] for every target of `place`.
    pub(crate) fn note_typed_store_at(&mut self, place: &Place, ty: TypeId, bits: TermId) {
        for t in &place.targets {
            self.note_typed_store(t.object, t.bit_offset, ty, bits);
        }
    }

    /// A write of `width` bits at `bit_offset` into `object` (whose value
    /// is `whole`): a stored pointer it covers in part stops being one, as
    /// in the interpreter, and its other bytes become its address's bytes.
    /// Returns `whole` with those windows converted; where that cannot be
    /// done, constants in windows are no longer trusted.
    pub(crate) fn settle_cut_pointers(&mut self, object: ObjectId, whole: TermId, bit_offset: TermId, width: u32) -> Result<TermId> {
        let Some(marks) = self.pointer_bytes.marks.get(&object) else { return Ok(whole) };
        let at = positions_of(self.store, bit_offset);
        let (n, pw) = (i128::from(width), self.pointer_width());
        let cut: Vec<Positions> = marks.iter().copied().filter(|&m| cuts(m, at, n, pw)).collect();
        if cut.is_empty() {
            return Ok(whole);
        }
        let windows = match self.objects.get(object).byte_array || at.modulus != 0 {
            true => None,
            false => window_starts(&cut, at.residue, n, pw),
        };
        let Some(windows) = windows else {
            self.pointer_bytes.fragmented = true;
            return Ok(whole);
        };
        let partial: Vec<i128> = windows.into_iter().filter(|&w| w < at.residue || w + pw > at.residue + n).collect();
        let (settled, exact) = self.addresses_in_windows(whole, &partial)?;
        if !exact {
            self.pointer_bytes.fragmented = true;
        }
        Ok(settled)
    }

    /// A write of an unknown number of bytes into `object`.
    pub(crate) fn note_unbounded_write(&mut self, object: ObjectId) {
        if self.pointer_bytes.marks.contains_key(&object) {
            self.pointer_bytes.fragmented = true;
        }
    }

    /// Bytes of `source` from `from` copied to `target` at `to` (wide bit
    /// offsets), `width` bits or an unknown count: the pointers go along.
    pub(crate) fn note_copy(&mut self, source: ObjectId, from: TermId, target: ObjectId, to: TermId, width: Option<u32>) {
        let Some(marks) = self.pointer_bytes.marks.get(&source).cloned() else { return };
        let read = positions_of(self.store, from);
        let shift = positions_of(self.store, to).shifted(Positions::normalized(-read.residue, read.modulus));
        let pw = self.pointer_width();
        for m in marks {
            let cut = width.is_none_or(|n| cuts(m, read, i128::from(n), pw));
            if cut {
                self.pointer_bytes.fragmented = true;
            }
            self.pointer_bytes.mark(target, m.shifted(shift));
        }
    }

    /// [`Self::note_copy`] from every target of `from` to every target of `to`.
    pub(crate) fn note_place_copy(&mut self, from: &Place, to: &Place, width: Option<u32>) {
        for source in &from.targets {
            for target in &to.targets {
                self.note_copy(source.object, source.bit_offset, target.object, target.bit_offset, width);
            }
        }
    }

    /// `whole`, the value of `object`, with the stored pointers in the
    /// windows a non-pointer read of `bits` bits at `bit_offset` overlaps
    /// replaced by their addresses; where that cannot be done, `whole` as
    /// it is and an approximation under `hits` (the read hits `object`).
    pub(crate) fn with_pointer_addresses(&mut self, object: ObjectId, whole: TermId, bit_offset: TermId, bits: u32, hits: TermId) -> Result<TermId> {
        let Some(marks) = self.pointer_bytes.marks.get(&object).cloned() else { return Ok(whole) };
        let read = positions_of(self.store, bit_offset);
        let (n, pw) = (i128::from(bits), self.pointer_width());
        let overlapping: Vec<Positions> = marks.into_iter().filter(|m| m.difference_meets(read, 1 - pw, n - 1)).collect();
        if overlapping.is_empty() {
            return Ok(whole);
        }
        let windows = match (self.objects.get(object).byte_array, read.modulus) {
            (true, _) => None,
            (false, 0) => window_starts(&overlapping, read.residue, n, pw),
            // An index merged over a few iterations: the windows of each offset it may have.
            (false, _) => offset_values(self.store, bit_offset).and_then(|starts| {
                let per_start: Option<Vec<Vec<i128>>> = starts.into_iter().map(|s| window_starts(&overlapping, s, n, pw)).collect();
                let mut all: Vec<i128> = per_start?.concat();
                all.sort_unstable();
                all.dedup();
                Some(all)
            }),
        };
        let Some(windows) = windows else {
            let meets = self.may_meet_marks(&overlapping, bit_offset, bits);
            let condition = self.store.and2(hits, meets);
            self.approximate_when(condition, APPROXIMATION);
            return Ok(whole);
        };
        let (converted, exact) = self.addresses_in_windows(whole, &windows)?;
        if !exact {
            self.approximate_when(hits, APPROXIMATION);
        }
        Ok(converted)
    }

    /// When an access of `bits` bits at the wide bit offset `bit_offset`
    /// overlaps a pointer at one of `marks` (true for strided marks).
    fn may_meet_marks(&mut self, marks: &[Positions], bit_offset: TermId, bits: u32) -> TermId {
        let mut meets = Vec::new();
        for m in marks {
            let Ok(start) = u64::try_from(m.residue) else { return self.store.true_term() };
            if m.modulus != 0 {
                return self.store.true_term();
            }
            let wide = self.layout.wide_bits();
            let access_end = self.store.bv_u64(wide, u64::from(bits));
            let access_end = self.store.bv_add(bit_offset, access_end);
            let mark = self.store.bv_u64(wide, start);
            let mark_end = self.store.bv_u64(wide, start + u64::from(self.layout.pointer_bits));
            let before_end = self.store.bv_slt(bit_offset, mark_end);
            let reaches = self.store.bv_slt(mark, access_end);
            meets.push(self.store.and2(before_end, reaches));
        }
        self.store.or(&meets)
    }

    /// `whole` (a flat value) with the stored pointers in the pointer-wide
    /// windows starting at `starts` replaced by their addresses, and
    /// whether every window could be converted.
    fn addresses_in_windows(&mut self, whole: TermId, starts: &[i128]) -> Result<(TermId, bool)> {
        let width = i128::from(self.store.sort(whole).bv_width().expect("a flat object's value"));
        let pw = self.pointer_width();
        let mut result = whole;
        let mut exact = true;
        for &start in starts {
            let (low, high) = (start.max(0), (start + pw).min(width));
            if low >= high {
                continue;
            }
            let window = self.slice(whole, low as u32, high as u32);
            match self.addresses_for_pointers(window) {
                Some(rebuilt) if rebuilt != window => {
                    let at = self.store.bv_u64(self.layout.wide_bits(), low as u64);
                    result = self.insert_bits(result, at, rebuilt)?;
                }
                Some(_) => {}
                None => exact = false,
            }
        }
        Ok((result, exact))
    }

    /// Bits `[low, high)` of `term`, slices pushed through choices and
    /// concatenations down to their leaves (up to [`REBUILD_NODE_LIMIT`]
    /// nodes), so that a constant pointer folded into a larger constant
    /// below them comes out whole.
    fn slice(&mut self, term: TermId, low: u32, high: u32) -> TermId {
        let mut sliced = HashMap::new();
        self.slice_into(term, low, high, &mut sliced)
    }

    fn slice_into(&mut self, term: TermId, low: u32, high: u32, sliced: &mut HashMap<(TermId, u32, u32), TermId>) -> TermId {
        if let Some(&known) = sliced.get(&(term, low, high)) {
            return known;
        }
        let width = self.store.sort(term).bv_width().expect("a flat value");
        let args = self.store.args(term).to_vec();
        let result = match self.store.op(term) {
            _ if sliced.len() > REBUILD_NODE_LIMIT => None,
            // A stored term is a leaf of the rebuild: taken apart, a
            // pointer's pieces would no longer be known as a pointer.
            _ if self.stored_or_input(term) => None,
            Some(Op::Ite) => {
                let then = self.slice_into(args[1], low, high, sliced);
                let otherwise = self.slice_into(args[2], low, high, sliced);
                Some(self.store.ite(args[0], then, otherwise))
            }
            Some(Op::Concat) if args.len() == 2 => {
                let split = self.store.sort(args[1]).bv_width().expect("a flat value");
                Some(match () {
                    _ if high <= split => self.slice_into(args[1], low, high, sliced),
                    _ if low >= split => self.slice_into(args[0], low - split, high - split, sliced),
                    _ => {
                        let top = self.slice_into(args[0], 0, high - split, sliced);
                        let bottom = self.slice_into(args[1], low, split, sliced);
                        self.store.concat(top, bottom)
                    }
                })
            }
            Some(Op::Extract { lo, .. }) => Some(self.slice_into(args[0], low + lo, high + lo, sliced)),
            _ => None,
        };
        let result = match result {
            Some(result) => result,
            None if low == 0 && high == width => term,
            None => self.store.extract(high - 1, low, term),
        };
        sliced.insert((term, low, high), result);
        result
    }

    /// Whether the constant `value`, wider than a pointer, holds a stored
    /// pointer constant at some byte offset (folded there by a write).
    fn holds_pointer_constant(&self, value: &smt::BvValue) -> bool {
        let pw = self.layout.pointer_bits;
        let bytes = &self.pointer_bytes;
        if bytes.pointer_constants.is_empty() {
            return false;
        }
        (0..=value.width().saturating_sub(pw))
            .step_by(8)
            .filter_map(|at| value.extract(at + pw - 1, at).to_u128())
            .any(|bits| bits != 0 && bytes.pointer_constants.contains(&bits))
    }

    /// `window` with every stored pointer replaced by its address, or
    /// `None` where some of its bits may belong to a pointer symex cannot
    /// name.
    fn addresses_for_pointers(&mut self, window: TermId) -> Option<TermId> {
        let mut rebuilt: HashMap<TermId, TermId> = HashMap::new();
        let mut stack = vec![(window, false)];
        while let Some((term, children_done)) = stack.pop() {
            if rebuilt.contains_key(&term) {
                continue;
            }
            if rebuilt.len() > REBUILD_NODE_LIMIT {
                return None;
            }
            if let Some(leaf) = self.classify_leaf(term) {
                let value = match leaf {
                    Leaf::Kept => term,
                    Leaf::Pointer => self.address_of_stored(term),
                    Leaf::Unknown => return None,
                };
                rebuilt.insert(term, value);
                continue;
            }
            let op = self.store.op(term).expect("inner nodes are applications");
            let args = self.store.args(term).to_vec();
            let data = data_arguments(op, args.len());
            if !children_done {
                stack.push((term, true));
                stack.extend(data.map(|i| (args[i], false)));
                continue;
            }
            let mut new_args = args.clone();
            for i in data {
                new_args[i] = rebuilt[&args[i]];
            }
            let value = if new_args == args { term } else { self.store.mk(op, &new_args) };
            rebuilt.insert(term, value);
        }
        rebuilt.get(&window).copied()
    }

    /// Whether `term` was stored as a pointer or a scalar, or is an input:
    /// [`Self::classify_leaf`] takes it whole.
    fn stored_or_input(&self, term: TermId) -> bool {
        let bytes = &self.pointer_bytes;
        bytes.pointers.contains(&term) || bytes.scalars.contains(&term) || self.input_values.contains(&term)
    }

    /// How a node of a window counts, or `None` for an operator whose
    /// bits are its data arguments' (to be rebuilt).
    fn classify_leaf(&self, term: TermId) -> Option<Leaf> {
        let bytes = &self.pointer_bytes;
        let as_scalar = bytes.scalars.contains(&term) || self.input_values.contains(&term);
        if let Some(value) = self.store.as_bv_const(term) {
            let stored_pointer = bytes.pointers.contains(&term);
            let folded_pointer = !value.is_zero() && value.width() > self.layout.pointer_bits && self.holds_pointer_constant(value);
            return Some(match () {
                _ if bytes.fragmented || folded_pointer => Leaf::Unknown,
                _ if value.is_zero() => Leaf::Kept,
                _ if stored_pointer && as_scalar => Leaf::Unknown,
                _ if stored_pointer => Leaf::Pointer,
                _ => Leaf::Kept,
            });
        }
        if bytes.pointers.contains(&term) {
            return Some(if as_scalar { Leaf::Unknown } else { Leaf::Pointer });
        }
        if as_scalar {
            return Some(Leaf::Kept);
        }
        match self.store.op(term) {
            Some(op) if moves_bits(op) => None,
            _ => Some(Leaf::Unknown),
        }
    }

    /// The address of the stored pointer `pointer`; a pointer read back
    /// from it takes it as an address.
    fn address_of_stored(&mut self, pointer: TermId) -> TermId {
        let address = self.pointer_to_address(pointer);
        self.input_values.insert(address);
        address
    }
}

/// Whether a pointer stored at `mark` may lie partly inside and partly
/// outside an access of `n` bits at `access` (pointers `pw` bits wide).
fn cuts(mark: Positions, access: Positions, n: i128, pw: i128) -> bool {
    mark.difference_meets(access, 1 - pw, (-1).min(n - 1)) || mark.difference_meets(access, (n - pw + 1).max(0), n - 1)
}

/// The starts of the pointer-wide windows of `marks` that overlap an
/// access of `n` bits at `start`, or `None` when marks are too dense to
/// cut windows from.
fn window_starts(marks: &[Positions], start: i128, n: i128, pw: i128) -> Option<Vec<i128>> {
    let mut starts = Vec::new();
    for m in marks {
        match m.modulus {
            0 => starts.push(m.residue),
            step if step >= pw => {
                let first = start - pw + 1;
                let mut window = first + (m.residue - first).rem_euclid(step);
                while window < start + n {
                    starts.push(window);
                    window += step;
                }
            }
            _ => return None,
        }
    }
    starts.sort_unstable();
    starts.dedup();
    Some(starts)
}

enum Leaf {
    /// Bits that hold no pointer.
    Kept,
    /// A stored pointer.
    Pointer,
    /// Bits that may hold part of a pointer symex cannot name.
    Unknown,
}

/// Operators whose result bits are bits of their data arguments.
fn moves_bits(op: Op) -> bool {
    matches!(
        op,
        Op::Ite | Op::Concat | Op::Extract { .. } | Op::ZeroExtend(_) | Op::SignExtend(_) | Op::BvOr | Op::BvAnd | Op::BvNot | Op::BvShl | Op::BvLshr
    )
}

/// The arguments of `op` that are data (not a condition or a shift amount).
fn data_arguments(op: Op, count: usize) -> std::ops::Range<usize> {
    match op {
        Op::Ite => 1..3,
        Op::BvShl | Op::BvLshr => 0..1,
        _ => 0..count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The writers of object values outside `place.rs`, `bytes.rs` and
    /// `state.rs` (which hold the typed write and the primitives), by
    /// file, call and count. Each was checked to record where it stores pointers
    /// (`note_typed_store`, `note_copy`, `note_pointer_store`) or to store
    /// bytes without pointers (fresh inputs, zeros, `note_data_store`);
    /// marks it forgot would let a stored pointer's bytes be read as its
    /// (object, offset) encoding instead of its address.
    const REVIEWED_WRITERS: &[(&str, &str, usize)] = &[
        ("block_copy.rs", "write_object(", 1),
        ("builtins.rs", "write_object(", 4),
        ("builtins.rs", "write_place_bits(", 2),
        ("builtins.rs", "write_object_bits(", 2),
        ("builtins.rs", "write_large_bytes(", 2),
        ("environment.rs", "write_object(", 1),
        ("environment.rs", "write_object_bits(", 1),
        ("environment.rs", "set_initial_value(", 2),
        ("exec.rs", "set_value(", 2),
        ("exec.rs", "write_object(", 5),
        ("exec.rs", "write_object_bits(", 1),
        ("exec.rs", "set_initial_value(", 1),
        ("large.rs", "write_object(", 1),
        ("large.rs", "write_large_bytes(", 2),
        ("quantifier.rs", "write_object(", 1),
        ("stdio.rs", "write_place_bits(", 3),
        ("stdio_input.rs", "write_place_bits(", 3),
        // The values other threads' writes are read as: fresh, of unknown origin.
        ("threads.rs", "set_value(", 3),
        // A thread's instance of a thread-local global: note_copy from the main thread's.
        ("threads.rs", "set_initial_value(", 1),
    ];

    #[test]
    fn every_writer_of_object_values_is_reviewed() {
        let sources = [
            ("block_copy.rs", include_str!("block_copy.rs")),
            ("builtins.rs", include_str!("builtins.rs")),
            ("environment.rs", include_str!("environment.rs")),
            ("exec.rs", include_str!("exec.rs")),
            ("quantifier.rs", include_str!("quantifier.rs")),
            ("stdio.rs", include_str!("stdio.rs")),
            ("stdio_input.rs", include_str!("stdio_input.rs")),
            ("eval.rs", include_str!("eval.rs")),
            ("libm.rs", include_str!("libm.rs")),
            ("intrinsics.rs", include_str!("intrinsics.rs")),
            ("float.rs", include_str!("float.rs")),
            ("address.rs", include_str!("address.rs")),
            ("sizes.rs", include_str!("sizes.rs")),
            ("arith.rs", include_str!("arith.rs")),
            ("equation.rs", include_str!("equation.rs")),
            ("lib.rs", include_str!("lib.rs")),
            ("memory.rs", include_str!("memory.rs")),
            ("repr.rs", include_str!("repr.rs")),
            ("large.rs", include_str!("large.rs")),
            ("threads.rs", include_str!("threads.rs")),
        ];
        let writers = ["set_value(", "write_object(", "write_place_bits(", "write_object_bits(", "set_initial_value(", "write_large_bytes("];
        for (file, text) in sources {
            for call in writers {
                let found = text.matches(call).count();
                let reviewed = REVIEWED_WRITERS.iter().find(|&&(f, c, _)| f == file && c == call).map_or(0, |&(_, _, n)| n);
                assert_eq!(found, reviewed, "{file}: {found} calls of `{call}`, {reviewed} reviewed: check that a new one records its pointers");
            }
        }
    }

    #[test]
    fn strided_positions_meet_only_their_residues() {
        let next_fields = Positions::normalized(64, 128);
        let value_fields = Positions::normalized(0, 128);
        // A 32-bit read of the value field never overlaps a 64-bit pointer at 64 mod 128.
        assert!(!next_fields.difference_meets(value_fields, -63, 31));
        assert!(next_fields.difference_meets(Positions::exactly(64), -63, 31));
        assert!(next_fields.difference_meets(Positions::exactly(40), -63, 31));
    }

    #[test]
    fn joined_positions_keep_the_common_step() {
        let a = Positions::exactly(64);
        let b = Positions::exactly(192);
        assert_eq!(a.join(b), Positions::normalized(64, 128));
        assert_eq!(a.shifted(Positions::normalized(8, 16)), Positions::normalized(8, 16));
        assert_eq!(Positions::normalized(3, 8).scaled(8), Positions::normalized(24, 64));
    }

    #[test]
    fn offset_terms_give_their_congruence() {
        let mut store = TermStore::new();
        let i = store.var("i", smt::Sort::BitVec(64));
        let stride = store.bv_u64(64, 128);
        let scaled = store.bv_mul(i, stride);
        let field = store.bv_u64(64, 64);
        let offset = store.bv_add(scaled, field);
        assert_eq!(positions_of(&store, offset), Positions::normalized(64, 128));
        assert_eq!(positions_of(&store, i), Positions::ANYWHERE);
    }

    #[test]
    fn merged_indexes_give_their_few_offsets() {
        let mut store = TermStore::new();
        let c = store.var("c", smt::Sort::Bool);
        let d = store.var("d", smt::Sort::Bool);
        let (one, two, three) = (store.bv_u64(32, 1), store.bv_u64(32, 2), store.bv_u64(32, 3));
        let inner = store.ite(d, two, three);
        let index = store.ite(c, one, inner);
        let wide = store.sign_extend(40, index);
        let eight = store.bv_u64(72, 8);
        let bits = store.bv_mul(wide, eight);
        let base = store.bv_u64(72, 64);
        let offset = store.bv_add(bits, base);
        assert_eq!(offset_values(&store, offset), Some(vec![72, 80, 88]));
        // -1 as a 32-bit index is negative once sign-extended.
        let minus_one = store.bv_u64(32, u64::from(u32::MAX));
        let negative = store.ite(c, one, minus_one);
        let negative = store.sign_extend(40, negative);
        assert_eq!(offset_values(&store, negative), None);
        let free = store.var("i", smt::Sort::BitVec(72));
        assert_eq!(offset_values(&store, free), None);
    }
}
