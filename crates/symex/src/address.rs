//! Integer addresses of objects, as in the C provenance model PNVI-ae
//! (and as `ir::interp` replays them).
//!
//! Pointers stay (object, offset) pairs; only an object whose address is
//! seen as an integer (a pointer-to-integer cast, or an equality test with
//! a pointer made from an integer) is *exposed*: it gets a symbolic base
//! address, constrained as every run's layout is (nonzero, above 4 GiB
//! for automatic storage on x86-64, aligned, inside the address space,
//! apart from every other exposed object whose lifetime met its own, even
//! if one has ended by the time the other is exposed). `(uintptr_t)p` is
//! then `base + offset`, and an integer cast to a pointer names the
//! exposed object its value falls in (a live one first, inside before
//! one-past-the-end, earlier exposed first), or no object: the invalid
//! object, with the address as offset. The solver
//! picks the bases; a counterexample hands them to the replay, whose
//! interpreter resolves addresses by the same rule.
//!
//! Memory holds pointers as (object, offset) bits, and the interpreter's
//! bytes hold addresses; they meet where a pointer is read from bytes that
//! no pointer was stored into (uninitialized memory, nondet values or
//! integers written byte by byte): both then take the bytes as an integer
//! address. The other way, a stored pointer's bytes read as an integer,
//! is [`crate::pointer_bytes`].

use crate::exec::Symex;
use crate::equation::Approximation;
use crate::memory::{ObjectId, ObjectKind, INVALID_OBJECT, NULL_OBJECT};
use ir::{DataModel, Type};
use smt::{BvValue, Op, Sort, TermId};

/// The most objects alive beside a starting one for which the meeting of
/// their lifetimes is recorded (see `Symex::note_lifetime_start`).
const MAX_LIFETIMES_MET: usize = 64;

/// The key of a pair of objects, lower id first.
fn ordered_pair(a: ObjectId, b: ObjectId) -> (ObjectId, ObjectId) {
    if a < b { (a, b) } else { (b, a) }
}

/// Objects lie below this address: user space on x86-64 (so an address
/// that names no object still fits a pointer's offset field), the whole
/// space on 32-bit targets.
fn address_limit(model: DataModel) -> u128 {
    match model.pointer_bits() {
        64 => 1 << 47,
        bits => 1 << bits,
    }
}

/// Most term nodes [`Symex::holds_only_input_bits`] visits before it
/// gives up (answering no, which keeps the value as it is).
const INPUT_BITS_WALK_LIMIT: usize = 4096;

impl Symex<'_> {
    /// `bits`, read from memory as a pointer: when they come from inputs
    /// and integers only, an integer address (as the interpreter reads
    /// bytes without a stored pointer), else the stored (object, offset)
    /// pointer.
    pub(crate) fn pointer_from_memory(&mut self, bits: TermId) -> TermId {
        if !self.holds_only_input_bits(bits) {
            return bits;
        }
        // Uninitialized pointers are often read and never looked at, so a
        // misfit only matters once some address is observed.
        let (pointer, misses) = self.pointer_at_address(bits);
        if let Some(misses) = misses {
            let unobserved = self.store.and2(self.state.guard, misses);
            self.unobserved_misfits.push(unobserved);
        }
        pointer
    }

    /// Called where a pointer's address (beyond its offset field) can be
    /// observed: a pointer comparison, difference or conversion to an
    /// integer, a pointer intrinsic. Raw bits read as a pointer whose
    /// address may not have fit the offset field become an approximation.
    pub(crate) fn observe_addresses(&mut self) {
        if self.unobserved_misfits.is_empty() {
            return;
        }
        let condition = self.store.or(&self.unobserved_misfits);
        self.unobserved_misfits.clear();
        let what = format!("a pointer made from raw bytes whose address does not fit {} offset bits", self.layout.offset_bits());
        let approximation = Approximation { what, loc: self.loc, affects_true: true };
        self.equation.conditional_approximations.push((condition, approximation));
    }

    /// Whether every bit of `term` comes from an input value, a value
    /// stored with a non-pointer type or a zero constant, with at least one
    /// of the first two among them (read through `ite`, concatenation,
    /// extraction and zero extension).
    fn holds_only_input_bits(&self, term: TermId) -> bool {
        let Some(width) = self.store.sort(term).bv_width() else { return false };
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![(term, 0, width)];
        let mut inputs = 0usize;
        while let Some((t, lo, hi)) = stack.pop() {
            if !seen.insert((t, lo, hi)) {
                continue;
            }
            if seen.len() > INPUT_BITS_WALK_LIMIT {
                return false;
            }
            if self.input_values.contains(&t) || self.stored_as_scalar_only(t) {
                inputs += 1;
                continue;
            }
            if let Some(value) = self.store.as_bv_const(t) {
                if value.extract(hi - 1, lo).is_zero() {
                    continue;
                }
                return false;
            }
            let args = self.store.args(t);
            match self.store.op(t) {
                Some(Op::Ite) => {
                    stack.push((args[1], lo, hi));
                    stack.push((args[2], lo, hi));
                }
                Some(Op::Concat) => {
                    let Some(low_width) = self.store.sort(args[1]).bv_width() else { return false };
                    if lo < low_width {
                        stack.push((args[1], lo, hi.min(low_width)));
                    }
                    if hi > low_width {
                        stack.push((args[0], lo.max(low_width) - low_width, hi - low_width));
                    }
                }
                Some(Op::Extract { lo: inner, .. }) => stack.push((args[0], lo + inner, hi + inner)),
                Some(Op::ZeroExtend(_)) => {
                    let Some(inner_width) = self.store.sort(args[0]).bv_width() else { return false };
                    if lo < inner_width {
                        stack.push((args[0], lo, hi.min(inner_width)));
                    }
                }
                _ => return false,
            }
        }
        inputs > 0
    }

    /// The alignment every run gives `object`'s address: its type's, what
    /// its declaration asks for, and the ABI's rules for arrays and heap
    /// blocks.
    fn object_alignment(&self, object: ObjectId) -> u64 {
        let model = self.program.data_model;
        let pointer_bytes = u64::from(model.pointer_bits() / 8);
        let o = self.objects.get(object);
        let symbol = match o.kind {
            ObjectKind::Global(symbol) | ObjectKind::ThreadLocal { symbol, .. } | ObjectKind::Local { symbol, .. } => symbol,
            // glibc's malloc and gcc's alloca align to two words.
            ObjectKind::Heap { .. } | ObjectKind::Stack { .. } => return 2 * pointer_bytes,
            _ => return 1,
        };
        let symbol = &self.program.symbols[symbol];
        let by_type = self.program.types.align_of(symbol.ty, model).unwrap_or(1);
        // x86-64 psABI 3.1.2: an array variable of at least 16 bytes is 16-aligned.
        let abi_array = match self.program.types.get(symbol.ty) {
            Type::Array(..) if model.pointer_bits() == 64 && o.size >= 16 => 16,
            _ => 1,
        };
        by_type.max(symbol.align).max(abi_array).max(1)
    }

    /// The lowest address `object` may have: 1, and for automatic
    /// storage on x86-64 Linux 4 GiB. The main thread's stack lies just
    /// below 2^47 and other threads' stacks are mapped from at least
    /// `TASK_SIZE / 3` (the legacy layout) down from the stack (the
    /// default one); only data below 4 GiB (a non-PIE program's globals,
    /// its `brk` heap, `MAP_32BIT` mappings) lies lower.
    fn lowest_address(&self, object: ObjectId) -> u64 {
        let automatic = matches!(self.objects.get(object).kind, ObjectKind::Local { .. } | ObjectKind::Stack { .. });
        match self.program.data_model {
            DataModel::LP64 if automatic => 1 << 32,
            _ => 1,
        }
    }

    /// Records that `object`'s lifetime begins (under the path's guard and
    /// `alive`) while the objects this state holds alive are alive: two
    /// objects whose lifetimes ever met have disjoint addresses, also when
    /// one has ended before the other is exposed (a block's local exposed,
    /// then an array of the enclosing scope). Only a start beside at most
    /// [`MAX_LIFETIMES_MET`] candidates is recorded: a missing fact only
    /// leaves the layout freer (a counterexample the replay may refuse as
    /// impossible), it never excludes a real one. Never assumed without
    /// the meeting: a stack slot is reused once its object has ended.
    pub(crate) fn note_lifetime_start(&mut self, object: ObjectId, alive: TermId) {
        let mut others = Vec::new();
        for (other, other_alive) in self.state.liveness() {
            if other == object || self.store.is_false(other_alive) {
                continue;
            }
            if others.len() == MAX_LIFETIMES_MET {
                return;
            }
            others.push((other, other_alive));
        }
        others.sort_unstable_by_key(|&(o, _)| o);
        let starts = self.store.and2(self.state.guard, alive);
        for (other, other_alive) in others {
            let met_here = self.store.and2(starts, other_alive);
            let key = ordered_pair(object, other);
            let met = match self.lifetimes_met.get(&key) {
                Some(&earlier) => self.store.or2(earlier, met_here),
                None => met_here,
            };
            self.lifetimes_met.insert(key, met);
        }
    }

    /// `object`'s integer address, exposing it the first time.
    pub(crate) fn base_address(&mut self, object: ObjectId) -> TermId {
        if let Some(base) = self.objects.get(object).base {
            return base;
        }
        let name = format!("address_of_{}", self.objects.get(object).name);
        let bits = self.layout.pointer_bits;
        let base = self.store.var(&name, Sort::BitVec(bits));
        let wide = self.layout.wide_bits();
        let (start, end) = self.extent(object, base);
        let lowest = self.store.bv_u64(wide, self.lowest_address(object));
        let nonzero = self.store.bv_ule(lowest, start);
        let limit = self.store.bv_const(BvValue::from_u128(wide, address_limit(self.program.data_model)));
        let mut inside = self.store.bv_ule(end, limit);
        if self.objects.get(object).size_term.is_some() {
            // A symbolic size may exceed the address space (a VLA, a block
            // `--force-malloc-success` makes): placing the object must not
            // rule such a size out, which would cut every path, exposing
            // or not, where it is that large. Any place is allowed then, a
            // superset of the layouts (what TRUE needs; FALSE is replayed).
            let size = self.object_size(object);
            let too_big = self.store.bv_ult(limit, size);
            inside = self.store.or2(inside, too_big);
        }
        let mask = self.store.bv_u64(bits, self.object_alignment(object).next_power_of_two() - 1);
        let low = self.store.bv_and(base, mask);
        let zero = self.store.bv_u64(bits, 0);
        let aligned = self.store.eq(low, zero);
        let mut facts = vec![nonzero, inside, aligned];
        if let Some(alignment) = self.objects.get(object).requested_alignment {
            let one = self.store.bv_u64(bits, 1);
            let mask = self.store.bv_sub(alignment, one);
            let low = self.store.bv_and(base, mask);
            facts.push(self.store.eq(low, zero));
        }
        let alive = self.object_alive(object);
        for other in self.objects.exposed().to_vec() {
            let other_base = self.objects.get(other).base.expect("exposed objects have a base");
            let (other_start, other_end) = self.extent(other, other_base);
            let before = self.store.bv_ule(end, other_start);
            let after = self.store.bv_ule(other_end, start);
            let apart = self.store.or2(before, after);
            let other_alive = self.object_alive(other);
            let together_now = self.store.and(&[self.state.guard, alive, other_alive]);
            let together = match self.lifetimes_met.get(&ordered_pair(object, other)) {
                Some(&met) => self.store.or2(together_now, met),
                None => together_now,
            };
            facts.push(self.store.implies(together, apart));
        }
        for fact in facts {
            if !self.store.is_true(fact) {
                self.equation.constraints.push(fact);
            }
        }
        self.objects.set_base(object, base);
        base
    }

    /// Whether `object` is a heap block allocated inside a library model
    /// (`strdup`, ...) without stating its alignment (as `aligned_alloc`
    /// does).
    fn allocated_by_library(&self, object: ObjectId) -> bool {
        if self.objects.get(object).requested_alignment.is_some() {
            return false;
        }
        match self.objects.get(object).kind {
            ObjectKind::Heap { loc } | ObjectKind::Stack { loc, .. } => self.program.files.is_library_model(loc),
            _ => false,
        }
    }

    /// `[start, end)` of `object` at `base`, in the wide width.
    fn extent(&mut self, object: ObjectId, base: TermId) -> (TermId, TermId) {
        let wide = self.layout.wide_bits();
        let start = self.store.zero_extend(wide - self.layout.pointer_bits, base);
        let size = self.object_size(object);
        (start, self.store.bv_add(start, size))
    }

    /// The integer address of `pointer` (pointer width).
    pub(crate) fn pointer_to_address(&mut self, pointer: TermId) -> TermId {
        self.observe_addresses();
        let Some(numbers) = self.layout.known_targets(self.store, pointer) else {
            return self.unknown_pointer_address(pointer);
        };
        let bits = self.layout.pointer_bits;
        let wide_offset = self.layout.wide_offset_of(self.store, pointer);
        let offset = self.store.extract(bits - 1, 0, wide_offset);
        let object_bits = self.layout.object_of(self.store, pointer);
        // NULL and the invalid object lie at address 0: the offset is the address.
        let mut address = offset;
        for number in numbers.into_iter().filter(|&n| n != NULL_OBJECT && n != INVALID_OBJECT) {
            let Some(object) = self.objects.by_number(number) else { continue };
            if self.allocated_by_library(object) {
                self.approximate("the address of a block a library function allocated (aligned as the library chooses)", true);
            }
            let base = self.base_address(object);
            let here = self.store.bv_add(base, offset);
            let n = self.layout.object_number_term(self.store, number);
            let is_it = self.store.eq(object_bits, n);
            address = self.store.ite(is_it, here, address);
        }
        address
    }

    /// The integer address of a pointer whose targets are not known (read
    /// from another thread, a join's value): exact when it was made of an
    /// integer or is null (its offset is the address, as below), any
    /// address otherwise, an approximation only where that can happen. A
    /// thread's `return (void *)n` joined and converted back to an integer
    /// was UNKNOWN, its counterexamples spurious.
    fn unknown_pointer_address(&mut self, pointer: TermId) -> TermId {
        let bits = self.layout.pointer_bits;
        let wide_offset = self.layout.wide_offset_of(self.store, pointer);
        let offset = self.store.extract(bits - 1, 0, wide_offset);
        let object_bits = self.layout.object_of(self.store, pointer);
        let null = self.layout.object_number_term(self.store, NULL_OBJECT);
        let invalid = self.layout.object_number_term(self.store, INVALID_OBJECT);
        let is_null = self.store.eq(object_bits, null);
        let is_invalid = self.store.eq(object_bits, invalid);
        let integer_made = self.store.or2(is_null, is_invalid);
        let elsewhere = self.store.not(integer_made);
        self.approximate_when(elsewhere, "conversion of a pointer of unknown origin to an integer");
        let anywhere = self.store.var("address", self.layout.sort());
        self.store.ite(integer_made, offset, anywhere)
    }

    /// The integer address of `pointer` as printing shows it, when that
    /// needs no approximation (every target is known, none a block a
    /// library model allocated); else `None`, and nothing is exposed.
    pub(crate) fn printed_address(&mut self, pointer: TermId) -> Option<TermId> {
        let numbers = self.layout.known_targets(self.store, pointer)?;
        let library_block = numbers.iter().filter_map(|&n| self.objects.by_number(n)).any(|o| self.allocated_by_library(o));
        (!library_block).then(|| self.pointer_to_address(pointer))
    }

    /// The pointer an integer `address` (pointer width) stands for.
    pub(crate) fn address_to_pointer(&mut self, address: TermId) -> TermId {
        let (pointer, misses) = self.pointer_at_address(address);
        if let Some(misses) = misses {
            let what = format!("an integer cast to a pointer that addresses no object and does not fit {} offset bits", self.layout.offset_bits());
            self.approximate_when(misses, what);
        }
        pointer
    }

    /// An address `delta` bytes into `object` (where `holds`) whose
    /// offset the offset field cannot hold, in an object of symbolic size
    /// that may be that large (see `crate::sizes`), is an approximation.
    fn approximate_far_inside(&mut self, object: ObjectId, holds: TermId, delta: TermId) {
        let Some(&(_, large)) = self.possibly_large_objects.iter().find(|(o, _)| *o == object) else { return };
        let delta = self.store.sign_extend(self.layout.wide_bits() - self.layout.pointer_bits, delta);
        let fits = self.layout.offset_fits(self.store, delta);
        let misfit = self.store.not(fits);
        let condition = self.store.and(&[holds, large, misfit]);
        let what = format!("an integer cast to a pointer inside an object of symbolic size beyond its {}-bit offset field", self.layout.offset_bits());
        self.approximate_when(condition, what);
    }

    /// The pointer an integer `address` stands for, and the condition
    /// under which the address does not fit the offset field (when it can
    /// hold), which only fitting addresses are replayed under.
    fn pointer_at_address(&mut self, address: TermId) -> (TermId, Option<TermId>) {
        let offset_bits = self.layout.offset_bits();
        let bits = self.layout.pointer_bits;
        let low = self.store.extract(offset_bits - 1, 0, address);
        let back = self.store.sign_extend(bits - offset_bits, low);
        let fits = self.store.eq(back, address);
        let misses = (!self.store.is_true(fits)).then(|| {
            let replayable = self.store.implies(self.state.guard, fits);
            self.equation.preferences.push(replayable);
            self.store.not(fits)
        });
        let invalid = self.layout.object_number_term(self.store, INVALID_OBJECT);
        let mut pointer = self.store.concat(invalid, low);
        let exposed = self.objects.exposed().to_vec();
        let mut choices = Vec::new();
        for live_only in [true, false] {
            for one_past_the_end in [false, true] {
                choices.extend(exposed.iter().map(|&o| (o, live_only, one_past_the_end)));
            }
        }
        let wide = self.layout.wide_bits();
        let wide_address = self.store.zero_extend(wide - bits, address);
        for (object, live_only, one_past_the_end) in choices.into_iter().rev() {
            let Some(number) = self.objects.get(object).number else { continue };
            let base = self.objects.get(object).base.expect("exposed objects have a base");
            let (start, end) = self.extent(object, base);
            let mut holds = match one_past_the_end {
                false => {
                    let from = self.store.bv_ule(start, wide_address);
                    let below = self.store.bv_ult(wide_address, end);
                    self.store.and2(from, below)
                }
                true => self.store.eq(wide_address, end),
            };
            if live_only {
                let alive = self.object_alive(object);
                holds = self.store.and2(holds, alive);
            }
            let delta = self.store.bv_sub(address, base);
            let n = self.layout.object_number_term(self.store, number);
            let offset = self.store.extract(offset_bits - 1, 0, delta);
            self.approximate_far_inside(object, holds, delta);
            let into = self.store.concat(n, offset);
            pointer = self.store.ite(holds, into, pointer);
        }
        let zero = self.store.bv_u64(bits, 0);
        let is_zero = self.store.eq(address, zero);
        let null = self.layout.null(self.store);
        (self.store.ite(is_zero, null, pointer), misses)
    }
}
