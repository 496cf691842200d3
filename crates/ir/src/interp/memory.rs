//! The interpreter's memory: a set of objects (variables, string literals,
//! heap blocks, functions), each with a size, a lifetime state and its
//! bytes (stored sparsely, see [`super::contents`]: a large object costs
//! only the bytes written, and the memory limit counts those). A pointer is an (object, offset) pair, so an access is checked
//! against the object it was derived from: null, invalid, out-of-bounds,
//! freed and dead-stack accesses are detected, as in the symbolic model.
//!
//! Every object also gets a concrete base address (for pointer/integer
//! casts and pointer comparisons): the one a counterexample chose for it,
//! or the next free one. Bytes that hold a stored pointer keep its
//! provenance beside them, so a pointer read back from memory still names
//! its object.
//!
//! Integers become pointers as in the C provenance model PNVI-ae (and as in
//! symex): an object is *exposed* once its address is seen as an integer,
//! and an integer address names the exposed object it falls in (a live one
//! first; inside before one-past-the-end; earlier exposed first), or no
//! object at all.

use super::contents::{self, Budget, Contents, OverBudget};
use crate::entity::PrimaryMap;
use crate::layout::low_mask;
use crate::program::{FuncId, SymbolId};
use std::collections::BTreeMap;

crate::entity!(
    /// A memory object of one interpreter run.
    ObjectId,
    "obj"
);

/// The object of the null pointer.
pub const NULL_OBJECT: ObjectId = ObjectId(0);
/// The object of pointers made from integers that address no object.
pub const INVALID_OBJECT: ObjectId = ObjectId(1);

/// What an object's entry in the object table costs against the memory
/// limit; the table keeps every object a run creates, dead or alive.
const OBJECT_COST: u64 = 128;

/// First address handed out, and the gap between objects: one-past-the-end
/// addresses never coincide with the next object's start.
const FIRST_ADDRESS: u64 = 0x1000;
const OBJECT_GAP: u64 = 16;
/// Alignment of the addresses handed out: an object's size rounded up to
/// a power of two, at least 16 (malloc's) and at most a page. C objects
/// are not aligned beyond their size nor, in practice, beyond a page, and
/// small objects then take little address space (a 32-bit run may
/// allocate millions). Heap blocks get at least a page and no upper
/// bound: an `aligned_alloc` block's size is a multiple of its alignment.
const MIN_OBJECT_ALIGNMENT: u64 = 16;
const PAGE_ALIGNMENT: u64 = 0x1000;

fn object_alignment(kind: &ObjectKind, size: u64) -> Option<u64> {
    let power = size.checked_next_power_of_two()?;
    Some(match kind {
        ObjectKind::Heap => power.max(PAGE_ALIGNMENT),
        _ => power.clamp(MIN_OBJECT_ALIGNMENT, PAGE_ALIGNMENT),
    })
}

/// A pointer: an object and a byte offset into it (two's complement, so
/// offsets before the object's start are representable).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Pointer {
    pub object: ObjectId,
    pub offset: u64,
}

impl Pointer {
    pub const NULL: Pointer = Pointer { object: NULL_OBJECT, offset: 0 };
    pub fn is_null(self) -> bool {
        self.object == NULL_OBJECT && self.offset == 0
    }
}

/// What an object stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// The reserved objects of null and invalid pointers.
    Reserved,
    Global(SymbolId),
    /// A started thread's instance of a thread-local global (the main
    /// thread's is the `Global`); `thread` is the thread's id.
    ThreadLocal {
        symbol: SymbolId,
        thread: u64,
    },
    StringLiteral(SymbolId),
    /// A local variable or parameter in the call frame at `depth`.
    Local {
        symbol: SymbolId,
        depth: usize,
    },
    Heap,
    /// An `alloca` block of the call frame at `depth`.
    Alloca {
        depth: usize,
    },
    /// The entry function's arguments (`argv` and its strings).
    Environment,
    Function(FuncId),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Lifetime {
    Alive,
    /// A heap object after `free`.
    Freed,
    /// A local or `alloca` object whose scope or frame has ended.
    Dead,
}

/// The widest stored pointer (a 64-bit pointer): how far back an overlap
/// query must look for a pointer that starts before its range.
pub(super) const MAX_POINTER_BYTES: u64 = 8;

/// The stored pointers in `pointers` with a byte in `[start, end)`, as
/// (first byte, pointer, width); a lookup, not a scan of the object.
pub(super) fn pointers_overlapping(
    pointers: &BTreeMap<u64, (Pointer, u64)>,
    start: u64,
    end: u64,
) -> impl Iterator<Item = (u64, Pointer, u64)> + '_ {
    pointers
        .range(start.saturating_sub(MAX_POINTER_BYTES - 1)..end)
        .filter(move |(at, (_, width))| **at + *width > start)
        .map(|(at, (pointer, width))| (*at, *pointer, *width))
}

/// Bytes with the provenance of the pointers stored in them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bytes {
    pub data: Vec<u8>,
    /// Offset of a stored pointer's first byte → the pointer and its width.
    pub pointers: BTreeMap<u64, (Pointer, u64)>,
}

impl Bytes {
    pub fn zeroed(len: usize) -> Bytes {
        Bytes { data: vec![0; len], pointers: BTreeMap::new() }
    }
    pub fn from_data(data: Vec<u8>) -> Bytes {
        Bytes { data, pointers: BTreeMap::new() }
    }
    pub fn len(&self) -> u64 {
        self.data.len() as u64
    }
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// The bytes `[offset, offset + len)`; the caller checks the range.
    pub fn slice(&self, offset: u64, len: u64) -> Bytes {
        let data = self.data[offset as usize..(offset + len) as usize].to_vec();
        let pointers = self
            .pointers
            .range(offset..offset + len)
            .filter(|(start, (_, width))| **start + *width <= offset + len)
            .map(|(start, entry)| (start - offset, *entry))
            .collect();
        Bytes { data, pointers }
    }
    /// Overwrites `[offset, offset + src.len())`; the caller checks the range.
    /// Stored pointers that the write touches lose their provenance.
    pub fn write(&mut self, offset: u64, src: &Bytes) {
        let end = offset + src.len();
        self.clear_pointers(offset, end);
        self.data[offset as usize..end as usize].copy_from_slice(&src.data);
        self.pointers.extend(src.pointers.iter().map(|(start, entry)| (start + offset, *entry)));
    }
    fn clear_pointers(&mut self, start: u64, end: u64) {
        let touched: Vec<u64> = pointers_overlapping(&self.pointers, start, end).map(|(at, _, _)| at).collect();
        for at in touched {
            self.pointers.remove(&at);
        }
    }
    /// The little-endian integer in the first (up to 16) bytes.
    pub fn to_u128(&self) -> u128 {
        self.data.iter().take(16).rev().fold(0u128, |acc, b| (acc << 8) | u128::from(*b))
    }
    /// `value` as `len` little-endian bytes.
    pub fn from_u128(value: u128, len: u64) -> Bytes {
        let data = (0..len).map(|i| if i < 16 { (value >> (8 * i)) as u8 } else { 0 }).collect();
        Bytes::from_data(data)
    }
}

#[derive(Clone, Debug)]
pub struct Object {
    pub name: String,
    pub kind: ObjectKind,
    pub size: u64,
    pub base: u64,
    pub lifetime: Lifetime,
    /// At an address a counterexample chose (rather than the next free one).
    pub placed: bool,
    pub read_only: bool,
    /// The contents while alive; dropped when the object dies.
    contents: Contents,
}

/// Why an access or deallocation is invalid.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AccessError {
    Null,
    Invalid,
    OutOfBounds,
    Freed,
    Dead,
    ReadOnly,
    /// Reading or writing a function's code.
    Function,
    InvalidFree,
    DoubleFree,
    /// Storing the bytes would exceed the memory limit (not undefined
    /// behaviour: the run cannot go on).
    MemoryLimit,
}

impl From<OverBudget> for AccessError {
    fn from(_: OverBudget) -> AccessError {
        AccessError::MemoryLimit
    }
}

/// The run's memory: objects and their addresses.
#[derive(Clone)]
pub struct Memory {
    objects: PrimaryMap<ObjectId, Object>,
    /// Objects whose address has been seen as an integer, in that order.
    exposed: Vec<ObjectId>,
    next_base: u64,
    pointer_bytes: u64,
    /// Bytes stored for live objects, against the memory limit.
    budget: Budget,
}

/// Allocating would exceed the memory limit.
#[derive(Debug)]
pub struct OutOfMemory;

/// Two live objects whose addresses were seen as integers overlap.
#[derive(Debug, PartialEq)]
pub struct AddressClash;

impl Memory {
    pub fn new(pointer_bytes: u64, limit: u64) -> Memory {
        let mut memory = Memory {
            objects: PrimaryMap::new(),
            exposed: Vec::new(),
            next_base: FIRST_ADDRESS,
            pointer_bytes,
            budget: Budget { used: 0, limit },
        };
        for name in ["NULL", "INVALID"] {
            memory.objects.push(Object {
                name: name.to_string(),
                kind: ObjectKind::Reserved,
                size: 0,
                base: 0,
                lifetime: Lifetime::Alive,
                placed: false,
                read_only: true,
                contents: Contents::default(),
            });
        }
        memory
    }

    pub fn pointer_bytes(&self) -> u64 {
        self.pointer_bytes
    }

    pub fn object(&self, id: ObjectId) -> &Object {
        &self.objects[id]
    }

    pub fn objects(&self) -> impl Iterator<Item = (ObjectId, &Object)> {
        self.objects.iter()
    }

    /// A new live, zero-filled object of `size` bytes, at address `base`
    /// when given (else at the next free address). Its size costs no
    /// memory until bytes are written; only the address space can run out.
    pub fn allocate(&mut self, name: String, kind: ObjectKind, size: u64, base: Option<u64>) -> Result<ObjectId, OutOfMemory> {
        self.allocate_aligned(name, kind, size, base, 1)
    }

    /// [`Memory::allocate`], the address (when not given) also a multiple
    /// of `alignment` (a power of two).
    pub fn allocate_aligned(
        &mut self,
        name: String,
        kind: ObjectKind,
        size: u64,
        base: Option<u64>,
        alignment: u64,
    ) -> Result<ObjectId, OutOfMemory> {
        self.budget.charge(OBJECT_COST).map_err(|_| OutOfMemory)?;
        let placed = base.is_some();
        let base = match base {
            Some(base) => base,
            None => self.free_address(&kind, size, alignment)?,
        };
        let contents = Contents::zeroed(size);
        Ok(self.objects.push(Object { name, kind, size, base, lifetime: Lifetime::Alive, placed, read_only: false, contents }))
    }

    /// A base address for a new object: the next unused one, else (the
    /// address space used up, as 32-bit runs that allocate and free large
    /// blocks do) the lowest gap between live objects, as an allocator
    /// reuses freed memory.
    fn free_address(&mut self, kind: &ObjectKind, size: u64, alignment: u64) -> Result<u64, OutOfMemory> {
        let address_limit = low_mask(self.pointer_bytes as u32 * 8) as u64;
        let alignment = object_alignment(kind, size).ok_or(OutOfMemory)?.max(alignment);
        let end_of = |base: u64| base.checked_add(size)?.checked_add(OBJECT_GAP).filter(|end| *end <= address_limit);
        if let Some(base) = self.next_base.checked_next_multiple_of(alignment) {
            if let Some(end) = end_of(base) {
                self.next_base = end;
                return Ok(base);
            }
        }
        let mut live: Vec<(u64, u64)> = self
            .objects
            .values()
            .filter(|o| o.lifetime == Lifetime::Alive && o.kind != ObjectKind::Reserved)
            .map(|o| (o.base, o.base.saturating_add(o.size).saturating_add(OBJECT_GAP)))
            .collect();
        live.sort_unstable();
        let mut cursor = FIRST_ADDRESS;
        for (start, end) in live.into_iter().chain([(address_limit, address_limit)]) {
            let base = cursor.checked_next_multiple_of(alignment).ok_or(OutOfMemory)?;
            if end_of(base).is_some_and(|new_end| new_end <= start) {
                return Ok(base);
            }
            cursor = cursor.max(end);
        }
        Err(OutOfMemory)
    }

    /// Fails when `id`, alive and placed by a counterexample, overlaps
    /// another live placed object: objects alive together never overlap,
    /// so no run has those addresses.
    pub fn check_placement(&self, id: ObjectId) -> Result<(), AddressClash> {
        let object = &self.objects[id];
        if !object.placed || object.lifetime != Lifetime::Alive {
            return Ok(());
        }
        let clash = self.objects.iter().any(|(other_id, o)| {
            other_id != id
                && o.placed
                && o.lifetime == Lifetime::Alive
                && o.base < object.base + object.size
                && object.base < o.base + o.size
        });
        if clash {
            return Err(AddressClash);
        }
        Ok(())
    }

    /// Records that `id`'s address has been seen as an integer. Fails when
    /// the object, alive, overlaps another live exposed object: addresses
    /// taken from a counterexample that no run can have.
    pub fn expose(&mut self, id: ObjectId) -> Result<(), AddressClash> {
        if id == NULL_OBJECT || id == INVALID_OBJECT || self.exposed.contains(&id) {
            return Ok(());
        }
        let object = &self.objects[id];
        let alive = |o: &Object| o.lifetime == Lifetime::Alive;
        let overlaps = |o: &Object| o.base < object.base + object.size && object.base < o.base + o.size;
        if alive(object) && self.exposed.iter().map(|&other| &self.objects[other]).any(|o| alive(o) && overlaps(o)) {
            return Err(AddressClash);
        }
        self.exposed.push(id);
        Ok(())
    }

    /// Ends an object's lifetime (scope exit or `free`), dropping its bytes.
    pub fn end_lifetime(&mut self, id: ObjectId, lifetime: Lifetime) {
        let object = &mut self.objects[id];
        if object.lifetime == Lifetime::Alive {
            self.budget.used -= object.contents.stored_cost();
            object.lifetime = lifetime;
            object.contents = Contents::default();
        }
    }

    /// Starts a new lifetime of a dead object (a variable declared again
    /// inside its block, after a jump back), zero-filled.
    pub fn revive(&mut self, id: ObjectId) {
        let object = &mut self.objects[id];
        if object.lifetime != Lifetime::Alive {
            object.lifetime = Lifetime::Alive;
            object.contents = Contents::zeroed(object.size);
        }
    }

    pub fn set_read_only(&mut self, id: ObjectId) {
        self.objects[id].read_only = true;
    }

    /// The concrete address a pointer stands for.
    pub fn address_of(&self, p: Pointer) -> u64 {
        let base = if p.object == INVALID_OBJECT { 0 } else { self.objects[p.object].base };
        base.wrapping_add(p.offset) & low_mask(self.pointer_bytes as u32 * 8) as u64
    }

    /// The pointer an integer address stands for: into the exposed object
    /// that contains it (see the module documentation for the order).
    pub fn pointer_from_address(&self, address: u64) -> Pointer {
        if address == 0 {
            return Pointer::NULL;
        }
        let exposed = || self.exposed.iter().map(|&id| (id, &self.objects[id]));
        for live_only in [true, false] {
            for one_past_the_end in [false, true] {
                let found = exposed().find(|(_, o)| {
                    let fits = match one_past_the_end {
                        false => address >= o.base && address - o.base < o.size,
                        true => address.checked_sub(o.base) == Some(o.size),
                    };
                    fits && (!live_only || o.lifetime == Lifetime::Alive)
                });
                if let Some((id, o)) = found {
                    return Pointer { object: id, offset: address - o.base };
                }
            }
        }
        Pointer { object: INVALID_OBJECT, offset: address }
    }

    /// Whether `p` points to no object (NULL or made from an integer that
    /// addresses no exposed object) without being NULL itself.
    pub fn is_from_integer(p: Pointer) -> bool {
        (p.object == NULL_OBJECT || p.object == INVALID_OBJECT) && !p.is_null()
    }

    /// Checks that `len` bytes at `p` may be accessed; returns the start offset.
    pub fn check_access(&self, p: Pointer, len: u64, write: bool) -> Result<u64, AccessError> {
        let object = match p.object {
            NULL_OBJECT => return Err(AccessError::Null),
            INVALID_OBJECT => return Err(AccessError::Invalid),
            id => &self.objects[id],
        };
        match object.lifetime {
            Lifetime::Freed => return Err(AccessError::Freed),
            Lifetime::Dead => return Err(AccessError::Dead),
            Lifetime::Alive => {}
        }
        if matches!(object.kind, ObjectKind::Function(_)) {
            return Err(AccessError::Function);
        }
        let in_bounds = p.offset.checked_add(len).is_some_and(|end| end <= object.size);
        if !in_bounds {
            return Err(AccessError::OutOfBounds);
        }
        if write && object.read_only {
            return Err(AccessError::ReadOnly);
        }
        Ok(p.offset)
    }

    /// The `len` bytes at `p` as one value; a value larger than the memory
    /// limit is refused rather than built.
    pub fn read(&self, p: Pointer, len: u64) -> Result<Bytes, AccessError> {
        let offset = self.check_access(p, len, false)?;
        if len > self.budget.limit {
            return Err(AccessError::MemoryLimit);
        }
        Ok(self.objects[p.object].contents.read(offset, len))
    }

    /// The `len` bytes at `p` (at most 16) as a little-endian integer,
    /// and the pointer stored exactly over them, if any (a scalar's load).
    pub fn read_scalar(&self, p: Pointer, len: u64) -> Result<(u128, Option<Pointer>), AccessError> {
        debug_assert!(len <= 16, "a scalar has at most 16 bytes");
        let offset = self.check_access(p, len, false)?;
        let contents = &self.objects[p.object].contents;
        Ok((contents.read_u128(offset, len), contents.pointer_at(offset, len)))
    }

    /// Stores the `len`-byte (at most 16) little-endian `value` at `p`,
    /// with the provenance of `pointer` when it is that pointer's address
    /// (a scalar's store).
    pub fn write_scalar(&mut self, p: Pointer, len: u64, value: u128, pointer: Option<Pointer>) -> Result<(), AccessError> {
        debug_assert!(len <= 16, "a scalar has at most 16 bytes");
        let offset = self.check_access(p, len, true)?;
        Ok(self.objects[p.object].contents.write_u128(offset, len, value, pointer, &mut self.budget)?)
    }

    /// The objects of the stored pointers with a byte in `[p, p + len)`
    /// (an access the caller has checked).
    pub fn stored_pointer_objects(&self, p: Pointer, len: u64) -> Vec<ObjectId> {
        self.objects[p.object].contents.pointers_touching(p.offset, len).map(|q| q.object).collect()
    }

    pub fn write(&mut self, p: Pointer, bytes: &Bytes) -> Result<(), AccessError> {
        let offset = self.check_access(p, bytes.len(), true)?;
        Ok(self.objects[p.object].contents.write(offset, bytes, &mut self.budget)?)
    }

    /// `memset(p, byte, len)`.
    pub fn fill(&mut self, p: Pointer, byte: u8, len: u64) -> Result<(), AccessError> {
        let offset = self.check_access(p, len, true)?;
        Ok(self.objects[p.object].contents.fill(offset, len, byte, &mut self.budget)?)
    }

    /// `memmove(dest, src, len)` (overlap allowed): costs what the source
    /// range stores, not `len`.
    pub fn copy(&mut self, dest: Pointer, src: Pointer, len: u64) -> Result<(), AccessError> {
        let from = self.check_access(src, len, false)?;
        let to = self.check_access(dest, len, true)?;
        let image = self.objects[src.object].contents.image(from, len);
        Ok(self.objects[dest.object].contents.write_image(to, len, &image, &mut self.budget)?)
    }

    /// `memcmp(a, b, len)`: the difference of the first unequal bytes.
    pub fn compare(&self, a: Pointer, b: Pointer, len: u64) -> Result<i32, AccessError> {
        let a_offset = self.check_access(a, len, false)?;
        let b_offset = self.check_access(b, len, false)?;
        Ok(contents::compare(&self.objects[a.object].contents, a_offset, &self.objects[b.object].contents, b_offset, len))
    }

    /// `free(p)`: `p` must be the start of a live heap object.
    pub fn free(&mut self, p: Pointer) -> Result<(), AccessError> {
        if p.is_null() {
            return Ok(());
        }
        if p.object == NULL_OBJECT || p.object == INVALID_OBJECT || p.offset != 0 {
            return Err(AccessError::InvalidFree);
        }
        let object = &self.objects[p.object];
        match (&object.kind, object.lifetime) {
            (ObjectKind::Heap, Lifetime::Alive) => {
                self.end_lifetime(p.object, Lifetime::Freed);
                Ok(())
            }
            (ObjectKind::Heap, _) => Err(AccessError::DoubleFree),
            _ => Err(AccessError::InvalidFree),
        }
    }
}

/// A heap block still allocated when the program ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnfreedBlock {
    pub object: ObjectId,
    pub name: String,
    /// Whether a pointer chain from a live non-heap object (a global, or a
    /// local of a frame still active at `exit` that is a C object rather
    /// than a front-end temporary) reaches it; unreachable
    /// blocks are lost (valid-memtrack), reachable ones only not freed
    /// (valid-memcleanup).
    pub reachable: bool,
}

impl Memory {
    /// The live heap blocks, with their reachability from the live non-heap
    /// objects; a local is a root only if `is_root_local` says so.
    pub fn unfreed_heap(&self, is_root_local: impl Fn(SymbolId) -> bool) -> Vec<UnfreedBlock> {
        let alive = |o: &Object| o.lifetime == Lifetime::Alive;
        let root = |o: &Object| match o.kind {
            ObjectKind::Heap | ObjectKind::Reserved => false,
            ObjectKind::Local { symbol, .. } => is_root_local(symbol),
            _ => true,
        };
        let mut reached = vec![false; self.objects.len()];
        let mut queue: Vec<ObjectId> = self
            .objects
            .iter()
            .filter(|(_, o)| alive(o) && root(o))
            .map(|(id, _)| id)
            .collect();
        while let Some(id) = queue.pop() {
            for (target, _) in self.objects[id].contents.pointers() {
                let target_object = &self.objects[target.object];
                if alive(target_object)
                    && matches!(target_object.kind, ObjectKind::Heap)
                    && !reached[target.object.0 as usize]
                {
                    reached[target.object.0 as usize] = true;
                    queue.push(target.object);
                }
            }
        }
        self.objects
            .iter()
            .filter(|(_, o)| alive(o) && matches!(o.kind, ObjectKind::Heap))
            .map(|(id, o)| UnfreedBlock { object: id, name: o.name.clone(), reachable: reached[id.0 as usize] })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory() -> Memory {
        Memory::new(8, 1 << 20)
    }

    #[test]
    fn accesses_are_checked_against_the_object() {
        let mut m = memory();
        let a = m.allocate("a".into(), ObjectKind::Heap, 4, None).unwrap();
        let p = Pointer { object: a, offset: 0 };
        m.write(p, &Bytes::from_u128(0x0403_0201, 4)).unwrap();
        assert_eq!(m.read(Pointer { object: a, offset: 1 }, 2).unwrap().to_u128(), 0x0302);
        assert_eq!(m.read(Pointer { object: a, offset: 3 }, 2), Err(AccessError::OutOfBounds));
        assert_eq!(m.read(Pointer { object: a, offset: u64::MAX }, 1), Err(AccessError::OutOfBounds));
        assert_eq!(m.read(Pointer::NULL, 1), Err(AccessError::Null));
        assert_eq!(m.free(Pointer { object: a, offset: 1 }), Err(AccessError::InvalidFree));
        m.free(p).unwrap();
        assert_eq!(m.read(p, 1), Err(AccessError::Freed));
        assert_eq!(m.free(p), Err(AccessError::DoubleFree));
    }

    #[test]
    fn addresses_round_trip_and_one_past_the_end_stays_in_the_object() {
        let mut m = memory();
        let a = m.allocate("a".into(), ObjectKind::Heap, 8, None).unwrap();
        let b = m.allocate("b".into(), ObjectKind::Heap, 8, None).unwrap();
        let unexposed = Pointer { object: b, offset: 3 };
        assert_eq!(m.pointer_from_address(m.address_of(unexposed)).object, INVALID_OBJECT);
        m.expose(a).unwrap();
        m.expose(b).unwrap();
        for p in [Pointer { object: a, offset: 8 }, unexposed] {
            assert_eq!(m.pointer_from_address(m.address_of(p)), p);
        }
        assert_eq!(m.pointer_from_address(0), Pointer::NULL);
        assert_eq!(m.pointer_from_address(5).object, INVALID_OBJECT);
    }

    #[test]
    fn preset_addresses_resolve_to_live_objects_first_and_live_overlaps_are_refused() {
        let mut m = memory();
        let freed = m.allocate("freed".into(), ObjectKind::Heap, 8, Some(0x100)).unwrap();
        m.expose(freed).unwrap();
        m.free(Pointer { object: freed, offset: 0 }).unwrap();
        let reused = m.allocate("reused".into(), ObjectKind::Heap, 8, Some(0x100)).unwrap();
        m.expose(reused).unwrap();
        assert_eq!(m.pointer_from_address(0x104), Pointer { object: reused, offset: 4 });
        let adjacent = m.allocate("adjacent".into(), ObjectKind::Heap, 8, Some(0x108)).unwrap();
        m.expose(adjacent).unwrap();
        assert_eq!(m.pointer_from_address(0x108), Pointer { object: adjacent, offset: 0 });
        let clashing = m.allocate("clashing".into(), ObjectKind::Heap, 8, Some(0x10c)).unwrap();
        assert_eq!(m.check_placement(clashing), Err(AddressClash));
        assert_eq!(m.check_placement(reused), Ok(()));
        let unplaced = m.allocate("unplaced".into(), ObjectKind::Heap, 8, None).unwrap();
        let over_it = m.allocate("over".into(), ObjectKind::Heap, 8, Some(m.object(unplaced).base)).unwrap();
        assert_eq!(m.check_placement(over_it), Ok(()));
        m.expose(over_it).unwrap();
        assert_eq!(m.expose(unplaced), Err(AddressClash));
    }

    #[test]
    fn scalar_accesses_agree_with_byte_accesses_across_pages_and_keep_pointer_provenance() {
        let mut m = memory();
        let a = m.allocate("a".into(), ObjectKind::Heap, 8192, None).unwrap();
        let straddling = Pointer { object: a, offset: 4090 };
        m.write_scalar(straddling, 16, 0x0f0e_0d0c_0b0a_0908_0706_0504_0302_0100, None).unwrap();
        assert_eq!(m.read(straddling, 16).unwrap().to_u128(), 0x0f0e_0d0c_0b0a_0908_0706_0504_0302_0100);
        assert_eq!(m.read_scalar(Pointer { object: a, offset: 4094 }, 4).unwrap(), (0x0706_0504, None));
        assert_eq!(m.read_scalar(Pointer { object: a, offset: 8000 }, 8).unwrap(), (0, None), "unwritten bytes are zero");
        let target = Pointer { object: a, offset: 3 };
        let slot = Pointer { object: a, offset: 16 };
        m.write_scalar(slot, 8, u128::from(m.address_of(target)), Some(target)).unwrap();
        assert_eq!(m.read_scalar(slot, 8).unwrap().1, Some(target));
        assert_eq!(m.read(slot, 8).unwrap().pointers.get(&0), Some(&(target, 8)));
        assert_eq!(m.read_scalar(slot, 4).unwrap().1, None, "half a pointer is not the pointer");
        assert_eq!(m.stored_pointer_objects(Pointer { object: a, offset: 20 }, 1), vec![a]);
        m.write_scalar(Pointer { object: a, offset: 20 }, 1, 0, None).unwrap();
        assert_eq!(m.read_scalar(slot, 8).unwrap().1, None, "overwriting a byte drops the provenance");
        assert_eq!(m.write_scalar(Pointer { object: a, offset: 8190 }, 4, 0, None), Err(AccessError::OutOfBounds));
        assert_eq!(m.read_scalar(Pointer::NULL, 4), Err(AccessError::Null));
    }

    #[test]
    fn overwriting_part_of_a_stored_pointer_drops_its_provenance() {
        let mut bytes = Bytes::zeroed(16);
        let target = Pointer { object: ObjectId(7), offset: 0 };
        let mut stored = Bytes::from_u128(0x1000, 8);
        stored.pointers.insert(0, (target, 8));
        bytes.write(4, &stored);
        assert_eq!(bytes.slice(4, 8).pointers.get(&0), Some(&(target, 8)));
        assert!(bytes.slice(4, 4).pointers.is_empty());
        bytes.write(10, &Bytes::zeroed(1));
        assert!(bytes.pointers.is_empty());
    }

    #[test]
    fn the_memory_limit_counts_written_bytes_of_live_objects_and_every_object() {
        let mut m = Memory::new(4, 1000);
        let big = m.allocate("big".into(), ObjectKind::Heap, 1 << 30, None).unwrap();
        let start = Pointer { object: big, offset: 0 };
        assert_eq!(m.fill(start, 0, 1 << 30), Ok(()));
        assert_eq!(m.fill(start, 1, 1001), Err(AccessError::MemoryLimit));
        assert_eq!(m.read(start, 1001), Err(AccessError::MemoryLimit));
        m.free(start).unwrap();
        let a = m.allocate("a".into(), ObjectKind::Heap, 300, None).unwrap();
        let b = m.allocate("b".into(), ObjectKind::Heap, 300, None).unwrap();
        m.fill(Pointer { object: a, offset: 0 }, 1, 300).unwrap();
        assert_eq!(m.fill(Pointer { object: b, offset: 0 }, 1, 300), Err(AccessError::MemoryLimit));
        m.free(Pointer { object: a, offset: 0 }).unwrap();
        assert_eq!(m.fill(Pointer { object: b, offset: 0 }, 1, 300), Ok(()));
        assert!(m.allocate("c".into(), ObjectKind::Heap, 0, None).is_ok());
        assert!(m.allocate("d".into(), ObjectKind::Heap, 0, None).is_err(), "the objects made so far cost their entries");
    }

    #[test]
    fn small_objects_are_packed_and_heap_blocks_aligned_to_their_size() {
        let mut m = memory();
        let mut next = |kind: ObjectKind, size: u64| {
            let id = m.allocate("o".into(), kind, size, None).unwrap();
            m.object(id).base
        };
        let global = ObjectKind::Global(SymbolId(0));
        let small = next(global.clone(), 4);
        let after = next(global.clone(), 24);
        assert_eq!((small % 16, after % 32), (0, 0));
        assert!(after - small <= 32, "a 4-byte object takes little address space");
        assert_eq!(next(global, 1 << 20) % 0x1000, 0);
        assert_eq!(next(ObjectKind::Heap, 1) % 0x1000, 0);
        assert_eq!(next(ObjectKind::Heap, 1 << 20) % (1 << 20), 0);
        let aligned = m.allocate_aligned("a".into(), ObjectKind::Heap, 0, None, 1 << 24).unwrap();
        assert_eq!(m.object(aligned).base % (1 << 24), 0);
    }

    #[test]
    fn freed_address_space_is_reused_once_the_unused_space_runs_out() {
        let mut m = Memory::new(4, 1 << 20);
        let block_size = 1u64 << 28;
        let mut bases = Vec::new();
        for _ in 0..32 {
            let block = m.allocate("b".into(), ObjectKind::Heap, block_size, None).expect("freed space is reused");
            bases.push(m.object(block).base);
            m.free(Pointer { object: block, offset: 0 }).unwrap();
        }
        assert!(bases.iter().all(|base| *base < 1 << 32), "{bases:x?}");
        let kept = m.allocate("kept".into(), ObjectKind::Heap, block_size, None).unwrap();
        let other = m.allocate("other".into(), ObjectKind::Heap, block_size, None).unwrap();
        assert_ne!(m.object(kept).base, m.object(other).base);
        assert!(m.allocate("full".into(), ObjectKind::Heap, 12 * block_size, None).is_err());
    }

    #[test]
    fn a_huge_object_keeps_bounds_provenance_and_lifetime_checks() {
        let mut m = Memory::new(8, 1 << 20);
        let size = 1u64 << 40;
        let a = m.allocate("a".into(), ObjectKind::Heap, size, None).unwrap();
        let b = m.allocate("b".into(), ObjectKind::Heap, 16, None).unwrap();
        let target = Pointer { object: b, offset: 0 };
        let mut stored = Bytes::from_u128(u128::from(m.address_of(target)), 8);
        stored.pointers.insert(0, (target, 8));
        let last = Pointer { object: a, offset: size - 8 };
        m.write(last, &stored).unwrap();
        assert_eq!(m.read(last, 8).unwrap(), stored);
        assert_eq!(m.read(Pointer { object: a, offset: size - 4 }, 8), Err(AccessError::OutOfBounds));
        assert_eq!(m.copy(Pointer { object: a, offset: 8 }, Pointer { object: a, offset: 0 }, size - 8), Ok(()));
        assert_eq!(m.read(last, 8).unwrap().to_u128(), 0, "memmove shifted the zeros over it");
        assert_eq!(m.compare(Pointer { object: a, offset: 0 }, Pointer { object: a, offset: 8 }, size - 8), Ok(0));
        assert_eq!(m.unfreed_heap(|_| true).len(), 2);
        m.free(Pointer { object: a, offset: 0 }).unwrap();
        assert_eq!(m.read(last, 1), Err(AccessError::Freed));
    }

    #[test]
    fn unfreed_heap_blocks_know_whether_a_global_reaches_them_and_temporaries_do_not_count() {
        let mut m = memory();
        let global = m.allocate("g".into(), ObjectKind::Global(SymbolId(0)), 8, None).unwrap();
        let temporary = m.allocate("$ret".into(), ObjectKind::Local { symbol: SymbolId(1), depth: 0 }, 8, None).unwrap();
        let kept = m.allocate("kept".into(), ObjectKind::Heap, 16, None).unwrap();
        let chained = m.allocate("chained".into(), ObjectKind::Heap, 8, None).unwrap();
        let lost = m.allocate("lost".into(), ObjectKind::Heap, 8, None).unwrap();
        let freed = m.allocate("freed".into(), ObjectKind::Heap, 8, None).unwrap();
        let store = |m: &mut Memory, from: ObjectId, at: u64, to: ObjectId| {
            let target = Pointer { object: to, offset: 0 };
            let mut bytes = Bytes::from_u128(u128::from(m.address_of(target)), 8);
            bytes.pointers.insert(0, (target, 8));
            m.write(Pointer { object: from, offset: at }, &bytes).unwrap();
        };
        store(&mut m, global, 0, kept);
        store(&mut m, kept, 8, chained);
        store(&mut m, lost, 0, kept);
        store(&mut m, temporary, 0, lost);
        m.free(Pointer { object: freed, offset: 0 }).unwrap();
        let summary: Vec<(String, bool)> = m.unfreed_heap(|symbol| symbol != SymbolId(1)).into_iter().map(|b| (b.name, b.reachable)).collect();
        assert_eq!(summary, [("kept".into(), true), ("chained".into(), true), ("lost".into(), false)]);
    }
}
