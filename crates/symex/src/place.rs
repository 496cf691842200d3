//! Lvalues as places in memory, and reads and writes of places with the
//! memory-safety checks of docs/DESIGN.md §5.
//!
//! A [`Place`] is a case split: each [`Target`] is an object, the condition
//! under which the lvalue denotes it, and a bit offset into the object's
//! value. A place reached through a pointer also remembers the pointer, for
//! the null/invalid/freed/bounds checks made when it is accessed.

use crate::exec::Symex;
use crate::memory::{ObjectId, ObjectKind, INVALID_OBJECT, MAX_OBJECT_BYTES, NULL_OBJECT};
use crate::{repr, Result, Stop};
use ir::{Expr, ExprKind, PropertyClass, Type, TypeId};
use smt::{BvValue, Op, TermId};

/// Flat values larger than this (in bits) are not accessed at symbolic
/// offsets (the shifter would be too large to bit-blast). Larger objects
/// are byte arrays, so no access into an object meets the limit.
const MAX_SYMBOLIC_ACCESS_BITS: u32 = 8 * MAX_OBJECT_BYTES as u32;

/// Indexes too wide for the wide offset width saturate at 2^this: beyond
/// every object (at most 2^64 bytes), and small enough that scaling by any
/// element size keeps it inside the wide width.
const SATURATED_INDEX_LOG2: u32 = 66;

/// Size of the unmapped page at address 0.
const NULL_PAGE_BYTES: u64 = 4096;

pub(crate) struct Target {
    pub cond: TermId,
    pub object: ObjectId,
    /// Bit offset into the object, in the wide offset width.
    pub bit_offset: TermId,
}

impl Place {
    /// Moves the access `delta` bits further into its object.
    fn move_by(&mut self, store: &mut smt::TermStore, delta: TermId) {
        for t in &mut self.targets {
            t.bit_offset = store.bv_add(t.bit_offset, delta);
        }
        self.bit_offset = store.bv_add(self.bit_offset, delta);
    }
}

/// How a read treats the bytes of stored pointers (see [`crate::pointer_bytes`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// As they are in memory: a pointer or a block copy.
    Raw,
    /// As a non-pointer scalar: a stored pointer's bytes are its address's.
    Scalar,
    /// As a struct, union or array: where its pointers sit goes along.
    Aggregate,
}

pub(crate) struct Place {
    pub targets: Vec<Target>,
    /// The pointer dereferenced at the root, if any.
    pub pointer: Option<TermId>,
    /// Bit offset of the access from the start of the root pointer's
    /// object (whichever object that is, NULL included).
    pub bit_offset: TermId,
    /// `Some((width, signed))` for a bit-field.
    pub bit_field: Option<(u32, bool)>,
    /// Index-in-range conditions of the array indexing on the way.
    pub index_checks: Vec<TermId>,
    /// A variable accessed through members and indexes of known length
    /// only: the index checks already keep the access inside the object.
    pub indexes_bound_it: bool,
    /// Alignment the dereferenced pointer must have (1 when there is none).
    pub alignment: u64,
}

impl<'a> Symex<'a> {
    fn wide_const(&mut self, value: u64) -> TermId {
        self.store.bv_u64(self.layout.wide_bits(), value)
    }

    /// `value` (an integer of type `ty`) extended to the wide width. A
    /// `_BitInt` value wider than that which the width cannot hold becomes
    /// ±2^[`SATURATED_INDEX_LOG2`], outside every object whatever it is
    /// scaled by, so the access it leads to fails its checks as it should.
    pub(crate) fn widen_index(&mut self, value: TermId, ty: TypeId) -> TermId {
        let signed = self.program.types.is_signed(ty);
        if self.store.sort(value) == smt::Sort::Bool {
            let one = self.wide_const(1);
            let zero = self.wide_const(0);
            return self.store.ite(value, one, zero);
        }
        let wide = self.layout.wide_bits();
        let width = self.store.sort(value).bv_width().expect("an integer index");
        let truncated = repr::resize(self.store, value, wide, signed);
        if width <= wide {
            return truncated;
        }
        let back = repr::resize(self.store, truncated, width, signed);
        let fits = self.store.eq(back, value);
        let far = self.store.bv_const(BvValue::from_u128(wide, 1 << SATURATED_INDEX_LOG2));
        let saturated = match signed {
            true => {
                let below = self.store.bv_const(BvValue::from_i128(wide, -(1 << SATURATED_INDEX_LOG2)));
                let sign = self.store.extract(width - 1, width - 1, value);
                let one = self.store.bv_u64(1, 1);
                let negative = self.store.eq(sign, one);
                self.store.ite(negative, below, far)
            }
            false => far,
        };
        self.store.ite(fits, truncated, saturated)
    }

    /// The size of `object` in bytes, in the wide width.
    pub(crate) fn object_size(&mut self, object: ObjectId) -> TermId {
        match self.objects.get(object).size_term {
            Some(size) => size,
            None => self.wide_const(self.objects.get(object).size),
        }
    }

    /// The objects `pointer` may point to, with the condition for each.
    pub(crate) fn pointer_targets(&mut self, pointer: TermId) -> Vec<(ObjectId, TermId)> {
        let objects: Vec<ObjectId> = match self.layout.known_targets(self.store, pointer) {
            Some(numbers) => numbers.into_iter().filter_map(|n| self.objects.by_number(n)).collect(),
            None => {
                self.note_blind_dereference();
                self.objects.addressable().to_vec()
            }
        };
        let object_bits = self.layout.object_of(self.store, pointer);
        let mut targets = Vec::new();
        for o in objects {
            if matches!(self.objects.get(o).kind, ObjectKind::Function(_)) {
                continue;
            }
            let number = self.objects.get(o).number.expect("targets are numbered");
            let n = self.layout.object_number_term(self.store, number);
            let cond = self.store.eq(object_bits, n);
            if !self.store.is_false(cond) {
                targets.push((o, cond));
            }
        }
        targets
    }

    /// The place `*pointer` for a pointer that must be `alignment`-aligned.
    pub(crate) fn deref_place(&mut self, pointer: TermId, alignment: u64) -> Place {
        let offset = self.layout.wide_offset_of(self.store, pointer);
        let eight = self.wide_const(8);
        let bit_offset = self.store.bv_mul(offset, eight);
        let targets = self
            .pointer_targets(pointer)
            .into_iter()
            .map(|(object, cond)| Target { cond, object, bit_offset })
            .collect();
        Place {
            targets,
            pointer: Some(pointer),
            bit_offset,
            bit_field: None,
            index_checks: Vec::new(),
            indexes_bound_it: false,
            alignment,
        }
    }

    pub(crate) fn place(&mut self, lvalue: &Expr) -> Result<Place> {
        match &lvalue.kind {
            ExprKind::Sym(symbol) => {
                let object = self.variable_object(*symbol)?;
                let cond = self.store.true_term();
                let bit_offset = self.wide_const(0);
                let targets = vec![Target { cond, object, bit_offset }];
                Ok(Place {
                    targets,
                    pointer: None,
                    bit_offset,
                    bit_field: None,
                    index_checks: vec![],
                    indexes_bound_it: true,
                    alignment: 1,
                })
            }
            ExprKind::Deref(pointer) => {
                let p = self.eval(pointer)?;
                let alignment = self.program.types.align_of(lvalue.ty, self.program.data_model).unwrap_or(1);
                Ok(self.deref_place(p, alignment))
            }
            ExprKind::Member(base, index) => {
                let mut place = self.place(base)?;
                let field = self.field(base.ty, *index)?;
                let delta = self.wide_const(field.offset_bits);
                place.move_by(self.store, delta);
                if let Some(width) = field.bit_width {
                    place.bit_field = Some((width, self.program.types.is_signed(field.ty)));
                }
                Ok(place)
            }
            ExprKind::Index(base, index) => {
                let (elem, length) = match self.program.types.get(base.ty) {
                    Type::Array(elem, len) => (*elem, *len),
                    _ => {
                        return Err(Stop::unsupported("indexing of a value that is not an array", self.loc));
                    }
                };
                let mut place = self.place(base)?;
                let i = self.eval(index)?;
                let i = self.widen_index(i, index.ty);
                let elem_size = self.type_size(elem)?;
                let eight = self.wide_const(8);
                let stride = self.store.bv_mul(elem_size, eight);
                let delta = self.store.bv_mul(i, stride);
                place.move_by(self.store, delta);
                let len = match length {
                    ir::ArrayLen::Fixed(n) => Some(self.wide_const(n)),
                    ir::ArrayLen::Var(len) => Some(self.vla_length(len)?),
                    ir::ArrayLen::Unknown => None,
                };
                match len {
                    Some(len) if !base.array_may_extend_its_object(&self.program.types) => {
                        let zero = self.wide_const(0);
                        let low = self.store.bv_sle(zero, i);
                        let high = self.store.bv_slt(i, len);
                        let in_range = self.store.and2(low, high);
                        place.index_checks.push(in_range);
                    }
                    _ => place.indexes_bound_it = false,
                }
                Ok(place)
            }
            _ => Err(Stop::unsupported(format!("assignment to a non-lvalue expression {}", self.program.display_expr(lvalue)), self.loc)),
        }
    }

    pub(crate) fn field(&self, composite: TypeId, index: u32) -> Result<ir::Field> {
        match self.program.types.get(composite) {
            Type::Composite(id) => {
                let c = &self.program.types.composites[*id];
                c.fields.get(index as usize).cloned().ok_or_else(|| {
                    Stop::unsupported(format!("field {index} of {} {}", if c.complete { "" } else { "incomplete" }, c.name), self.loc)
                })
            }
            _ => Err(Stop::unsupported(format!("member access on non-composite type {}", self.program.types.display(composite)), self.loc)),
        }
    }

    /// Bits accessed by a place of type `ty`.
    fn access_bits(&self, place: &Place, ty: TypeId) -> Result<u32> {
        match place.bit_field {
            Some((width, _)) => Ok(width),
            None => repr::memory_bits(self.program, ty, self.loc),
        }
    }

    /// Condition that `width` bits (a wide term) at `bit_offset` lie inside `object`.
    fn in_bounds(&mut self, object: ObjectId, bit_offset: TermId, width: TermId) -> TermId {
        let zero = self.wide_const(0);
        let end = self.store.bv_add(bit_offset, width);
        let eight = self.wide_const(8);
        let size = self.object_size(object);
        let limit = self.store.bv_mul(size, eight);
        let low = self.store.bv_sle(zero, bit_offset);
        let high = self.store.bv_sle(end, limit);
        self.store.and2(low, high)
    }

    /// Emits the checks for an access of `bits` bits to `place` and returns,
    /// per target, the condition that the access hits it validly.
    fn check_access(&mut self, place: &Place, bits: u32) -> Vec<TermId> {
        let width = self.wide_const(u64::from(bits));
        self.check_access_of(place, width)
    }

    /// [`Self::check_access`] for an access of `width` bits, a wide term.
    pub(crate) fn check_access_of(&mut self, place: &Place, width: TermId) -> Vec<TermId> {
        if self.options.bounds_checks {
            for &c in &place.index_checks {
                self.assert(c, PropertyClass::ArrayBounds, "array bounds violated: index out of range");
            }
        }
        for t in &place.targets {
            self.accessing_environment(t.object, t.bit_offset, width, t.cond);
        }
        let mut valid = Vec::new();
        if place.indexes_bound_it {
            // Cheaper than the offset bound, which for variable-length
            // arrays is a product of lengths the solver would have to
            // relate to the offset's products.
            let inside = self.store.and(&place.index_checks);
            valid.extend(place.targets.iter().map(|t| self.store.and2(t.cond, inside)));
            return valid;
        }
        for t in &place.targets {
            let inside = self.in_bounds(t.object, t.bit_offset, width);
            valid.push(self.store.and2(t.cond, inside));
        }
        let Some(pointer) = place.pointer else {
            // A variable accessed directly can still be left through an
            // index into an array of unknown length (a flexible array member).
            if self.options.bounds_checks {
                for (t, &ok) in place.targets.iter().zip(&valid) {
                    let inside = self.store.implies(t.cond, ok);
                    self.assert(inside, PropertyClass::ArrayBounds, "array bounds violated: access outside the object");
                }
            }
            return valid;
        };
        if !self.options.pointer_checks {
            return valid;
        }
        let object = self.layout.object_of(self.store, pointer);
        let null = self.layout.object_number_term(self.store, NULL_OBJECT);
        let is_null = self.store.eq(object, null);
        let not_null = self.store.not(is_null);
        self.assert(not_null, PropertyClass::PointerDereference, "dereference failure: NULL pointer");
        let conds: Vec<TermId> = place.targets.iter().map(|t| t.cond).collect();
        let some_object = self.store.or(&conds);
        let valid_object = self.store.or2(is_null, some_object);
        self.assert(valid_object, PropertyClass::PointerDereference, "dereference failure: invalid pointer");
        if self.options.alignment_checks && place.alignment > 1 && place.alignment.is_power_of_two() {
            let offset = self.layout.wide_offset_of(self.store, pointer);
            let mask = self.wide_const(place.alignment - 1);
            let low = self.store.bv_and(offset, mask);
            let zero = self.wide_const(0);
            let aligned = self.store.eq(low, zero);
            self.assert(aligned, PropertyClass::PointerDereference, "dereference failure: misaligned pointer");
        }
        for (t, &ok) in place.targets.iter().zip(&valid) {
            let alive = self.object_alive(t.object);
            let live = self.store.implies(t.cond, alive);
            let message = match self.objects.get(t.object).kind {
                ObjectKind::Heap { .. } => "dereference failure: memory freed",
                _ => "dereference failure: object out of scope",
            };
            self.assert(live, PropertyClass::PointerDereference, message);
            let inside = self.store.implies(t.cond, ok);
            self.assert(inside, PropertyClass::PointerDereference, "dereference failure: pointer outside object bounds");
        }
        valid
    }

    /// Records that an access whose check is off stays inside its targets
    /// (`covered`) where it happens (see [`crate::Equation::unchecked_accesses`]).
    pub(crate) fn note_unchecked_access(&mut self, covered: TermId) {
        let inside = self.store.implies(self.state.guard, covered);
        if !self.store.is_true(inside) {
            self.equation.unchecked_accesses.push(inside);
        }
    }

    /// Reads `bits` bits of `place` (checked); an invalid access reads an
    /// unconstrained value unless it is a violation, where the value does
    /// not matter and one of the targets' keeps pointers' origins known.
    pub(crate) fn read_place_bits(&mut self, place: &Place, bits: u32) -> Result<TermId> {
        self.read_bits(place, bits, Reading::Raw)
    }

    /// [`Self::read_place_bits`] of bytes taken as data (characters a
    /// library function reads): a stored pointer's bytes are its address's.
    pub(crate) fn read_place_data(&mut self, place: &Place, bits: u32) -> Result<TermId> {
        self.read_bits(place, bits, Reading::Scalar)
    }

    /// [`Self::read_place_bits`] as `reading` says (see [`crate::pointer_bytes`]).
    fn read_bits(&mut self, place: &Place, bits: u32, reading: Reading) -> Result<TermId> {
        let valid = self.check_access(place, bits);
        let covered = self.store.or(&valid);
        let checked = if place.pointer.is_some() { self.options.pointer_checks } else { self.options.bounds_checks };
        if !checked {
            self.note_unchecked_access(covered);
        }
        let mut value = if self.store.is_true(covered) || checked {
            None
        } else {
            Some(self.store.var("invalid_read", smt::Sort::BitVec(bits)))
        };
        for (t, &ok) in place.targets.iter().zip(&valid).rev() {
            if self.store.is_false(ok) {
                continue;
            }
            self.note_access(t.object, t.bit_offset, bits, ok, false);
            self.exact_accesses(true);
            let whole = self.object_value(t.object);
            let whole = match reading {
                Reading::Scalar => self.with_pointer_addresses(t.object, whole, t.bit_offset, bits, ok),
                _ => Ok(whole),
            };
            self.exact_accesses(false);
            let whole = whole?;
            let part = self.read_object_bits(t.object, whole, t.bit_offset, bits)?;
            if reading == Reading::Aggregate {
                self.note_aggregate_read(t.object, t.bit_offset, bits, part);
            }
            value = Some(match value {
                None => part,
                Some(rest) => self.store.ite(ok, part, rest),
            });
        }
        Ok(value.unwrap_or_else(|| self.store.var("invalid_read", smt::Sort::BitVec(bits))))
    }

    /// Writes `bits` (a bit-vector) into `place` (checked); invalid writes
    /// change nothing, which is only exact when the checks are on.
    pub(crate) fn write_place_bits(&mut self, place: &Place, bits: TermId) -> Result<()> {
        let width = self.store.sort(bits).bv_width().expect("memory bits");
        let valid = self.check_access(place, width);
        self.check_writable(place);
        let covered = self.store.or(&valid);
        let checked = if place.pointer.is_some() { self.options.pointer_checks } else { self.options.bounds_checks };
        if !checked {
            // A write into the first page of address space kills the
            // process, so ignoring it hides no later behaviour.
            let outside = self.store.not(covered);
            let crashes = self.traps_at_null_page(place, width);
            let not_crashing = self.store.not(crashes);
            let ignored = self.store.and2(outside, not_crashing);
            self.approximate_when(ignored, "a write outside its object (unchecked) is ignored");
            // The interpreter stops at such a write, so a replayable
            // counterexample avoids it.
            let replayable = self.store.implies(self.state.guard, covered);
            if !self.store.is_true(replayable) {
                self.equation.preferences.push(replayable);
            }
            self.note_unchecked_access(covered);
        }
        // With one target, every path where the write misses it already
        // fails a check, is an approximation, or kills the process, so the
        // target need not keep its old value there; leaving out that case
        // keeps the written value readable (a pointer stays of known origin).
        let sole_target = place.targets.len() == 1;
        for (t, &ok) in place.targets.iter().zip(&valid) {
            if self.store.is_false(ok) {
                continue;
            }
            self.note_access(t.object, t.bit_offset, width, ok, true);
            self.exact_accesses(true);
            let condition = if sole_target { self.store.true_term() } else { ok };
            let new = match sole_target && self.replaces_whole_object(t, width) {
                // Nothing of the old value is left: not reading it spares
                // a shared object a read event (its read-from choices).
                true => Ok(bits),
                false => {
                    let old = self.object_value(t.object);
                    self.write_object_bits_if(t.object, old, t.bit_offset, bits, condition)
                }
            };
            if let Ok(new) = new {
                self.state.set_value(t.object, new);
                self.shared_write_when(t.object, new, condition);
            }
            self.exact_accesses(false);
            new?;
        }
        Ok(())
    }

    /// Whether `width` bits at `target` are the whole of a flat object of
    /// fixed size (its value is then the written bits, whatever it was).
    fn replaces_whole_object(&mut self, target: &Target, width: u32) -> bool {
        let object = self.objects.get(target.object);
        let flat = !object.byte_array && object.size_term.is_none() && object.value_bits() == width;
        flat && self.store.as_bv_const(target.bit_offset).and_then(BvValue::to_u64) == Some(0)
    }

    /// Emits the checks that a write through `place`'s pointer does not hit
    /// read-only memory.
    pub(crate) fn check_writable(&mut self, place: &Place) {
        if place.pointer.is_none() || !self.options.pointer_checks {
            return;
        }
        for t in &place.targets {
            let message = match self.objects.get(t.object).kind {
                ObjectKind::StringLiteral(_) => "dereference failure: write to a string literal",
                ObjectKind::Global(symbol) if self.program.symbols[symbol].read_only => "dereference failure: write to a const object",
                _ => continue,
            };
            let elsewhere = self.store.not(t.cond);
            self.assert(elsewhere, PropertyClass::PointerDereference, message);
        }
    }

    /// Whether an access of `bits` bits to `place` goes through a pointer
    /// to no object (NULL or the invalid object, whose offset is the
    /// address) into the page at address 0, which no process maps
    /// (Linux's `mmap_min_addr` is at least one page).
    fn traps_at_null_page(&mut self, place: &Place, bits: u32) -> TermId {
        let Some(pointer) = place.pointer else { return self.store.false_term() };
        let object = self.layout.object_of(self.store, pointer);
        let invalid = self.layout.object_number_term(self.store, INVALID_OBJECT);
        let in_no_object = self.store.bv_ule(object, invalid);
        let zero = self.wide_const(0);
        let end = self.wide_const(u64::from(bits));
        let end = self.store.bv_add(place.bit_offset, end);
        let page_end = self.wide_const(NULL_PAGE_BYTES * 8);
        let from_start = self.store.bv_sle(zero, place.bit_offset);
        let inside_page = self.store.bv_sle(end, page_end);
        self.store.and(&[in_no_object, from_start, inside_page])
    }

    pub(crate) fn read_place(&mut self, place: &Place, ty: TypeId) -> Result<TermId> {
        if repr::is_large(self.program, ty) {
            return self.read_large_place(place, ty);
        }
        if repr::is_empty(self.program, ty) {
            // No byte is read, but the place must still be a live object.
            self.check_access(place, 0);
            return repr::zero_value(self.program, self.store, ty, self.loc);
        }
        let bits = self.access_bits(place, ty)?;
        let reading = match self.program.types.get(ty) {
            Type::Bool | Type::Int { .. } | Type::Float(_) => Reading::Scalar,
            Type::Composite(_) | Type::Array(..) => Reading::Aggregate,
            _ => Reading::Raw,
        };
        let raw = self.read_bits(place, bits, reading)?;
        match place.bit_field {
            Some((_, signed)) => self.bit_field_value(raw, ty, signed),
            None => {
                let value = repr::from_memory(self.program, self.store, ty, raw, self.loc)?;
                match self.program.types.is_pointer(ty) {
                    true => Ok(self.pointer_from_memory(value)),
                    false => Ok(value),
                }
            }
        }
    }

    pub(crate) fn write_place(&mut self, place: &Place, ty: TypeId, value: TermId) -> Result<()> {
        if repr::is_byte_array(self.store, value) {
            return self.write_large_place(place, ty, value);
        }
        if repr::is_empty(self.program, ty) {
            self.check_access(place, 0);
            return Ok(());
        }
        let bits = match place.bit_field {
            Some((width, _)) => {
                if self.store.sort(value) == smt::Sort::Bool {
                    let one = self.store.bv_u64(width, 1);
                    let zero = self.store.bv_u64(width, 0);
                    self.store.ite(value, one, zero)
                } else {
                    repr::resize(self.store, value, width, false)
                }
            }
            None => repr::to_memory(self.program, self.store, ty, value, self.loc)?,
        };
        self.write_place_bits(place, bits)?;
        self.note_typed_store_at(place, ty, bits);
        Ok(())
    }

    fn bit_field_value(&mut self, raw: TermId, ty: TypeId, signed: bool) -> Result<TermId> {
        match repr::value_sort(self.program, ty, self.loc)? {
            smt::Sort::Bool => {
                let w = self.store.sort(raw).bv_width().expect("bits");
                let zero = self.store.bv_u64(w, 0);
                let is_zero = self.store.eq(raw, zero);
                Ok(self.store.not(is_zero))
            }
            smt::Sort::BitVec(w) => Ok(repr::resize(self.store, raw, w, signed)),
            other => unreachable!("bit-field of sort {other:?}"),
        }
    }

    /// Bits `[offset, offset + bits)` of `whole` (offset in the wide width).
    pub(crate) fn extract_bits(&mut self, whole: TermId, offset: TermId, bits: u32) -> Result<TermId> {
        let w = self.store.sort(whole).bv_width().expect("object value");
        if bits > w {
            return Ok(self.store.var("invalid_read", smt::Sort::BitVec(bits)));
        }
        if let Some(c) = self.store.as_bv_const(offset).and_then(BvValue::to_u64) {
            if c + u64::from(bits) <= u64::from(w) {
                return Ok(self.store.extract(c as u32 + bits - 1, c as u32, whole));
            }
            return Ok(self.store.var("invalid_read", smt::Sort::BitVec(bits)));
        }
        self.check_symbolic_access(w)?;
        let amount = repr::resize(self.store, offset, w, false);
        let shifted = self.store.mk(Op::BvLshr, &[whole, amount]);
        Ok(self.store.extract(bits - 1, 0, shifted))
    }

    /// `whole` with bits `[offset, offset + width(part))` replaced by `part`.
    pub(crate) fn insert_bits(&mut self, whole: TermId, offset: TermId, part: TermId) -> Result<TermId> {
        let w = self.store.sort(whole).bv_width().expect("object value");
        let bits = self.store.sort(part).bv_width().expect("bits");
        if bits > w {
            return Ok(whole);
        }
        if let Some(c) = self.store.as_bv_const(offset).and_then(BvValue::to_u64) {
            if c + u64::from(bits) > u64::from(w) {
                return Ok(whole);
            }
            let (lo, hi) = (c as u32, c as u32 + bits);
            let mut result = part;
            if lo > 0 {
                let low = self.store.extract(lo - 1, 0, whole);
                result = self.store.concat(result, low);
            }
            if hi < w {
                let high = self.store.extract(w - 1, hi, whole);
                result = self.store.concat(high, result);
            }
            return Ok(result);
        }
        self.check_symbolic_access(w)?;
        let amount = repr::resize(self.store, offset, w, false);
        let ones = self.store.bv_const(BvValue::ones(bits));
        let ones = repr::resize(self.store, ones, w, false);
        let mask = self.store.mk(Op::BvShl, &[ones, amount]);
        let keep = self.store.bv_not(mask);
        let kept = self.store.bv_and(whole, keep);
        let widened = repr::resize(self.store, part, w, false);
        let moved = self.store.mk(Op::BvShl, &[widened, amount]);
        Ok(self.store.bv_or(kept, moved))
    }

    pub(crate) fn check_symbolic_access(&self, object_bits: u32) -> Result<()> {
        if object_bits > MAX_SYMBOLIC_ACCESS_BITS {
            return Err(Stop::unsupported(
                format!("access at a symbolic offset into an object of {} bytes", object_bits / 8),
                self.loc,
            ));
        }
        Ok(())
    }
}
