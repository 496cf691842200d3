//! Memory objects and the pointer encoding.
//!
//! Every variable instance (a global, or a local in one call-frame
//! instance), string literal, allocation instance and function is an
//! [`Object`]. A small object of constant size has as value a single
//! bit-vector of `8 * size` bits (byte `i` in bits `8i..8i+8`,
//! little-endian), so field access, array indexing, unions and type
//! punning are all bit-ranges of it. An object of symbolic size or larger
//! than [`MAX_OBJECT_BYTES`] is a byte array instead (`Array(BV64, BV8)`,
//! byte offset to byte): accesses become selects and stores of the bytes
//! they cover, which the bit-blaster resolves by read-over-write.
//!
//! A pointer is a bit-vector of the data model's pointer width: the high
//! [`PointerLayout::object_bits`] bits name the object, the low bits are a
//! signed byte offset. Object number 0 is NULL (so the null pointer is all
//! zero bits, as in C) and number 1 is "invalid" (pointers made from
//! arbitrary integers or from offsets that leave the offset range). Only
//! objects whose address is taken get a number, so the limited number space
//! is spent only where pointers can reach.

use ir::{FuncId, Loc, SymbolId};
use smt::{BvValue, Op, Sort, TermId, TermStore};

ir::entity!(
    /// A memory object.
    ObjectId,
    "obj"
);

/// Object number of the null pointer.
pub const NULL_OBJECT: u64 = 0;
/// Object number of pointers that point to no object.
pub const INVALID_OBJECT: u64 = 1;
const FIRST_OBJECT_NUMBER: u64 = 2;

/// Where an object comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    Global(SymbolId),
    /// A started thread's own instance of a thread-local global (the main
    /// thread's is the `Global`); `thread` is the thread's id.
    ThreadLocal { symbol: SymbolId, thread: u64 },
    StringLiteral(SymbolId),
    /// A local or parameter in one call-frame instance.
    Local { symbol: SymbolId, frame: u32 },
    /// A `malloc`/`calloc` result (one object per executed allocation).
    Heap { loc: Loc },
    /// An `alloca` result; it dies when its frame returns.
    Stack { loc: Loc, frame: u32 },
    /// A function's return value in one frame instance (never addressable).
    ReturnValue { frame: u32 },
    Function(FuncId),
    /// The hosted `main`'s argument strings and arrays.
    Environment,
}

#[derive(Clone, Debug)]
pub struct Object {
    pub kind: ObjectKind,
    /// Name for traces and messages.
    pub name: String,
    /// Size in bytes; with a `size_term`, the capacity of a flat value
    /// (unused for a byte array).
    pub size: u64,
    /// A symbolic size in bytes (in the wide offset width); a flat
    /// object's is at most `size`.
    pub size_term: Option<TermId>,
    /// The value is a byte array rather than a bit-vector.
    pub byte_array: bool,
    /// Created with every byte zero (by `calloc`).
    pub zero_filled: bool,
    /// The number used in pointers, once the address has been taken.
    pub number: Option<u64>,
    /// The integer address (pointer width), once it has been seen as an
    /// integer (see [`crate::address`]).
    pub base: Option<TermId>,
    /// An alignment the allocation asked for (a power of two, pointer
    /// width), beyond what the object's kind gives.
    pub requested_alignment: Option<TermId>,
}

impl Object {
    /// Width of the object's value (at least one byte, so that empty
    /// objects still have a well-formed bit-vector).
    pub fn value_bits(&self) -> u32 {
        (self.size.max(1) * 8) as u32
    }
    /// The sort of the object's value.
    pub fn value_sort(&self, store: &mut TermStore) -> Sort {
        if self.byte_array {
            byte_array_sort(store)
        } else {
            Sort::BitVec(self.value_bits())
        }
    }
    /// The value with every byte zero.
    pub fn zero_value(&self, store: &mut TermStore) -> TermId {
        match self.value_sort(store) {
            Sort::BitVec(bits) => store.bv_u64(bits, 0),
            array => {
                let zero = store.bv_u64(8, 0);
                store.const_array(array, zero)
            }
        }
    }
    pub fn is_dynamic(&self) -> bool {
        matches!(self.kind, ObjectKind::Heap { .. })
    }
    /// What names this object in the interpreter too (for placing it at
    /// its address in a replay).
    pub fn address_key(&self) -> Option<ir::interp::AddressKey> {
        use ir::interp::AddressKey;
        match &self.kind {
            ObjectKind::Global(symbol) | ObjectKind::StringLiteral(symbol) | ObjectKind::Local { symbol, .. } => {
                Some(AddressKey::Symbol(*symbol))
            }
            ObjectKind::ThreadLocal { symbol, thread } => Some(AddressKey::ThreadLocal(*symbol, *thread)),
            ObjectKind::Heap { loc } | ObjectKind::Stack { loc, .. } => Some(AddressKey::Allocation(*loc)),
            ObjectKind::Function(func) => Some(AddressKey::Function(*func)),
            ObjectKind::Environment => Some(AddressKey::Environment(self.name.clone())),
            ObjectKind::ReturnValue { .. } => None,
        }
    }
}

/// Largest object (and value, see [`crate::repr::is_large`]) symex keeps
/// as one bit-vector. An access at a symbolic offset into a flat value is
/// a shifter over all its bits (millions of gates for a few KiB), into a
/// byte array a read-over-write through the stores made so far; and a
/// value as large as an object that is a byte array is that array, so
/// copying it costs no formula.
pub const MAX_OBJECT_BYTES: u64 = 1 << 11;

/// Width of the byte offsets that index a byte-array object.
pub const BYTE_INDEX_BITS: u32 = 64;

/// The sort of a byte-array object's value (byte offset to byte).
pub fn byte_array_sort(store: &mut TermStore) -> Sort {
    store.array_sort(Sort::BitVec(BYTE_INDEX_BITS), Sort::BitVec(8))
}

/// The table of all objects created during one symbolic execution.
#[derive(Clone, Debug, Default)]
pub struct Objects {
    objects: ir::PrimaryMap<ObjectId, Object>,
    by_number: Vec<ObjectId>,
    /// Objects with an integer address, in the order they got it.
    exposed: Vec<ObjectId>,
}

impl Objects {
    pub fn add(&mut self, kind: ObjectKind, name: String, size: u64) -> ObjectId {
        self.objects.push(Object {
            kind,
            name,
            size,
            size_term: None,
            byte_array: false,
            zero_filled: false,
            number: None,
            base: None,
            requested_alignment: None,
        })
    }
    /// Gives `id` the symbolic size `size` (at most a flat object's capacity).
    pub fn set_symbolic_size(&mut self, id: ObjectId, size: TermId) {
        self.objects[id].size_term = Some(size);
    }
    /// Makes `id`'s address a multiple of `alignment` (a power of two).
    pub fn set_requested_alignment(&mut self, id: ObjectId, alignment: TermId) {
        self.objects[id].requested_alignment = Some(alignment);
    }
    /// Gives `id` its integer address `base`.
    pub fn set_base(&mut self, id: ObjectId, base: TermId) {
        self.objects[id].base = Some(base);
        self.exposed.push(id);
    }
    /// Objects with an integer address, in the order they got it.
    pub fn exposed(&self) -> &[ObjectId] {
        &self.exposed
    }
    pub fn mark_zero_filled(&mut self, id: ObjectId) {
        self.objects[id].zero_filled = true;
    }
    /// Gives `id`, made ahead of time, the kind of the object it stands for.
    pub fn set_kind(&mut self, id: ObjectId, kind: ObjectKind) {
        self.objects[id].kind = kind;
    }
    /// Makes `id` a byte-array object (before it has a value).
    pub fn set_byte_array(&mut self, id: ObjectId) {
        self.objects[id].byte_array = true;
    }
    pub fn get(&self, id: ObjectId) -> &Object {
        &self.objects[id]
    }
    pub fn iter(&self) -> impl Iterator<Item = (ObjectId, &Object)> {
        self.objects.iter()
    }
    /// The object a pointer number names.
    pub fn by_number(&self, number: u64) -> Option<ObjectId> {
        let index = number.checked_sub(FIRST_OBJECT_NUMBER)?;
        self.by_number.get(usize::try_from(index).ok()?).copied()
    }
    /// Objects whose address has been taken, in numbering order: the
    /// targets a pointer of unknown origin may have.
    pub fn addressable(&self) -> &[ObjectId] {
        &self.by_number
    }
    /// The object's pointer number, assigning the next free one the first time.
    pub fn number(&mut self, id: ObjectId, layout: &PointerLayout) -> Option<u64> {
        if let Some(n) = self.objects[id].number {
            return Some(n);
        }
        let n = FIRST_OBJECT_NUMBER + self.by_number.len() as u64;
        if n >= 1u64 << layout.object_bits {
            return None;
        }
        self.objects[id].number = Some(n);
        self.by_number.push(id);
        Some(n)
    }
}

/// The split of a pointer into object number and offset bits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PointerLayout {
    pub pointer_bits: u32,
    pub object_bits: u32,
}

impl PointerLayout {
    pub fn for_model(model: ir::DataModel) -> PointerLayout {
        let pointer_bits = model.pointer_bits();
        let object_bits = if pointer_bits >= 64 { 16 } else { 8 };
        PointerLayout { pointer_bits, object_bits }
    }
    pub fn offset_bits(&self) -> u32 {
        self.pointer_bits - self.object_bits
    }
    /// Width in which symex computes byte and bit offsets: wide enough that
    /// an index of any C integer type times an element size cannot wrap.
    pub fn wide_bits(&self) -> u32 {
        self.pointer_bits + 72
    }
    pub fn sort(&self) -> Sort {
        Sort::BitVec(self.pointer_bits)
    }
    /// The pointer constant for (`number`, `offset`).
    pub fn constant(&self, store: &mut TermStore, number: u64, offset: i64) -> TermId {
        let offset_mask = (1u128 << self.offset_bits()) - 1;
        let bits = (u128::from(number) << self.offset_bits()) | (offset as u128 & offset_mask);
        store.bv_const(BvValue::from_u128(self.pointer_bits, bits))
    }
    pub fn null(&self, store: &mut TermStore) -> TermId {
        store.bv_u64(self.pointer_bits, 0)
    }
    /// The object-number bits of `pointer`.
    pub fn object_of(&self, store: &mut TermStore, pointer: TermId) -> TermId {
        store.extract(self.pointer_bits - 1, self.offset_bits(), pointer)
    }
    pub fn object_number_term(&self, store: &mut TermStore, number: u64) -> TermId {
        store.bv_u64(self.object_bits, number)
    }
    /// The offset of `pointer`, sign-extended to [`Self::wide_bits`].
    pub fn wide_offset_of(&self, store: &mut TermStore, pointer: TermId) -> TermId {
        let offset = store.extract(self.offset_bits() - 1, 0, pointer);
        store.sign_extend(self.wide_bits() - self.offset_bits(), offset)
    }
    /// `pointer` with its offset replaced by `wide_offset`; if the offset
    /// does not fit the offset field the result points to the invalid
    /// object (C only allows offsets within the object anyway, and this
    /// keeps wrapped offsets from looking valid).
    pub fn with_wide_offset(&self, store: &mut TermStore, pointer: TermId, wide_offset: TermId) -> TermId {
        let offset = store.extract(self.offset_bits() - 1, 0, wide_offset);
        let fits = self.offset_fits(store, wide_offset);
        let object = self.object_of(store, pointer);
        let moved = store.concat(object, offset);
        let invalid_object = self.object_number_term(store, INVALID_OBJECT);
        let invalid = store.concat(invalid_object, offset);
        store.ite(fits, moved, invalid)
    }
    /// Whether the wide offset `wide_offset` fits the signed offset field.
    pub fn offset_fits(&self, store: &mut TermStore, wide_offset: TermId) -> TermId {
        let offset = store.extract(self.offset_bits() - 1, 0, wide_offset);
        let back = store.sign_extend(self.wide_bits() - self.offset_bits(), offset);
        store.eq(back, wide_offset)
    }
    /// The object numbers `pointer` can have if they can be read off its
    /// term: constants combined by `ite`, offset updates, and pointers
    /// stored into and loaded back from object values at known bit
    /// positions. `None` when some part is not understood (a nondet value,
    /// memory written at a symbolic offset, ...).
    pub fn known_targets(&self, store: &TermStore, pointer: TermId) -> Option<Vec<u64>> {
        let mut found = Vec::new();
        let mut seen = std::collections::HashSet::new();
        // (term, lo): the object number is bits [lo, lo + object_bits) of term.
        let mut stack = vec![(pointer, self.offset_bits())];
        while let Some((term, lo)) = stack.pop() {
            if !seen.insert((term, lo)) {
                continue;
            }
            let width = store.sort(term).bv_width()?;
            if lo + self.object_bits > width {
                return None;
            }
            if let Some(value) = store.as_bv_const(term) {
                found.push(value.extract(lo + self.object_bits - 1, lo).to_u64()?);
                continue;
            }
            let args = store.args(term);
            match store.op(term)? {
                Op::Ite => {
                    stack.push((args[1], lo));
                    stack.push((args[2], lo));
                }
                Op::Concat => {
                    let low_width = store.sort(args[1]).bv_width()?;
                    if lo + self.object_bits <= low_width {
                        stack.push((args[1], lo));
                    } else if lo >= low_width {
                        stack.push((args[0], lo - low_width));
                    } else {
                        return None;
                    }
                }
                Op::Extract { lo: inner, .. } => stack.push((args[0], lo + inner)),
                Op::ZeroExtend(_) | Op::SignExtend(_) => stack.push((args[0], lo)),
                _ => return None,
            }
        }
        found.sort_unstable();
        found.dedup();
        Some(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_is_zero_and_constants_pack_object_and_offset() {
        let mut store = TermStore::new();
        let layout = PointerLayout::for_model(ir::DataModel::LP64);
        let null = layout.null(&mut store);
        assert_eq!(layout.constant(&mut store, 0, 0), null);
        let p = layout.constant(&mut store, 5, -4);
        let bits = store.as_bv_const(p).unwrap().to_u128().unwrap();
        assert_eq!(bits >> 48, 5);
        assert_eq!(bits & 0xffff_ffff_ffff, 0xffff_ffff_fffc);
        let offset = layout.wide_offset_of(&mut store, p);
        let minus_four = store.bv_const(BvValue::from_i128(layout.wide_bits(), -4));
        assert_eq!(offset, minus_four);
    }

    #[test]
    fn offsets_outside_the_field_make_the_pointer_invalid() {
        let mut store = TermStore::new();
        let layout = PointerLayout::for_model(ir::DataModel::ILP32);
        let p = layout.constant(&mut store, 3, 0);
        let huge = store.bv_const(BvValue::from_u128(layout.wide_bits(), 1 << 30));
        let moved = layout.with_wide_offset(&mut store, p, huge);
        let object = layout.object_of(&mut store, moved);
        assert_eq!(store.as_bv_const(object).unwrap().to_u64(), Some(INVALID_OBJECT));
        let small = store.bv_u64(layout.wide_bits(), 12);
        let moved = layout.with_wide_offset(&mut store, p, small);
        assert_eq!(moved, layout.constant(&mut store, 3, 12));
    }

    #[test]
    fn targets_are_read_off_ite_trees_and_unknown_leaves_give_none() {
        let mut store = TermStore::new();
        let layout = PointerLayout::for_model(ir::DataModel::LP64);
        let c = store.var("c", Sort::Bool);
        let a = layout.constant(&mut store, 2, 0);
        let b = layout.constant(&mut store, 3, 8);
        let p = store.ite(c, a, b);
        assert_eq!(layout.known_targets(&store, p), Some(vec![2, 3]));
        let unknown = store.var("q", layout.sort());
        let q = store.ite(c, a, unknown);
        assert_eq!(layout.known_targets(&store, q), None);
        // A pointer stored in the high half of a 128-bit object and read back.
        let other_half = store.var("rest", smt::Sort::BitVec(64));
        let memory = store.concat(p, other_half);
        let loaded = store.extract(127, 64, memory);
        assert_eq!(layout.known_targets(&store, loaded), Some(vec![2, 3]));
        let delta = store.var("delta", smt::Sort::BitVec(layout.wide_bits()));
        let moved = layout.with_wide_offset(&mut store, loaded, delta);
        assert_eq!(layout.known_targets(&store, moved), Some(vec![INVALID_OBJECT, 2, 3]));
    }
}
