//! Calls of functions without a body: the memory-management and libc
//! functions symex models (`malloc`, `calloc`, `realloc`, `free`, `alloca`,
//! `memcpy`, `memmove`, `memset`, `abort`, `exit`), the math functions
//! (see `float` and `libm`), the stdio functions
//! (see `stdio`), and every other external function as an approximation
//! returning a nondeterministic value.

use crate::exec::Symex;
use crate::equation::UnmodelledCall;
use crate::memory::{ObjectKind, MAX_OBJECT_BYTES, NULL_OBJECT};
use crate::stdio::Stdio;
use crate::{arith, repr, ProgramEnd, Result, Stop};
use crate::equation::InputKind;
use ir::{Expr, FuncId, PropertyClass};
use smt::{BvValue, TermId};

/// Largest constant byte count `memset`/`memcpy` copy as one bit-vector.
const MAX_BLOCK_BYTES: u64 = 1 << 16;

/// A heap allocation: the pointer returned, the object when one can exist,
/// and the condition under which the allocation succeeded.
struct Allocation {
    pointer: TermId,
    object: Option<crate::ObjectId>,
    succeeds: TermId,
}

impl<'a> Symex<'a> {
    pub(crate) fn call_builtin(&mut self, func: FuncId, lhs: Option<&Expr>, args: &'a [Expr], values: &[TermId]) -> Result<()> {
        let math = match self.exact_math(func, values)? {
            Some(value) => Some(value),
            None => self.inexact_math(func, values)?,
        };
        if let Some(value) = math {
            if let Some(lhs) = lhs {
                self.assign(lhs, value)?;
            }
            self.advance();
            return Ok(());
        }
        let name = self.program.functions[func].name.as_str();
        if let Some(value) = self.intrinsic(name, values)? {
            if let Some(lhs) = lhs {
                let value = self.fit_integer(value, lhs.ty)?;
                self.assign(lhs, value)?;
            }
            self.advance();
            return Ok(());
        }
        if ir::intrinsics::is_uninterpreted(name) {
            self.call_uninterpreted(func, lhs, values)?;
            self.advance();
            return Ok(());
        }
        let mut returns_pointer = true;
        let result = match name {
            _ if name == ir::intrinsics::ENVIRONMENT_STRING => {
                let always = self.store.true_term();
                Some(self.environment_string("getenv", always, InputKind::Environment)?)
            }
            "malloc" | "__builtin_malloc" => Some(self.allocate(values, 1, false, "malloc")?),
            "calloc" | "__builtin_calloc" => Some(self.allocate(values, 2, true, "calloc")?),
            _ if name == ir::intrinsics::CPROVER_ALLOCATE => Some(self.cprover_allocate(values)?),
            _ if name == ir::intrinsics::ALIGNED_MALLOC => Some(self.allocate_aligned(values)?),
            "alloca" | "__builtin_alloca" => Some(self.stack_allocate(values, None)?),
            "__builtin_alloca_with_align" | "__builtin_alloca_with_align_and_max" => {
                let bits = self.arg(values, 1, name)?;
                Some(self.stack_allocate(values, Some(bits))?)
            }
            "realloc" | "__builtin_realloc" => Some(self.reallocate(values)?),
            "free" | "__builtin_free" => {
                self.free(self.arg(values, 0, name)?);
                None
            }
            "memcpy" | "memmove" | "__builtin_memcpy" | "__builtin_memmove" | "__ESBMC_memcpy" => {
                Some(self.copy_memory(values, name)?)
            }
            "memset" | "__builtin_memset" | "__ESBMC_memset" => Some(self.set_memory(values)?),
            "__ESBMC_init_object" | "__CPROVER_havoc_object" => {
                self.havoc_object(self.arg(values, 0, name)?);
                None
            }
            "abort" | "__builtin_abort" | "exit" | "_Exit" | "_exit" => {
                let end = match name {
                    "exit" => ProgramEnd::Exit,
                    "_Exit" | "_exit" => ProgramEnd::QuickExit,
                    _ => ProgramEnd::Abort,
                };
                self.note_exit_for_deadlocks()?;
                self.program_exit(end)?;
                let f = self.store.false_term();
                self.assume(f);
                None
            }
            _ if name == ir::intrinsics::THREAD_CREATE => {
                returns_pointer = false;
                let types: Vec<ir::TypeId> = args.iter().map(|a| a.ty).collect();
                Some(self.create_thread(values, &types)?)
            }
            _ if name == ir::intrinsics::THREAD_SELF => {
                returns_pointer = false;
                Some(self.thread_self())
            }
            _ if name == ir::intrinsics::THREAD_WAIT => {
                self.thread_wait(self.arg(values, 0, name)?)?;
                None
            }
            _ if name == ir::intrinsics::THREAD_JOIN => {
                self.note_join_wait(values)?;
                let sort = smt::Sort::BitVec(self.program.data_model.pointer_bits());
                Some(self.join_thread(values, sort)?)
            }
            _ if name == ir::intrinsics::THREAD_EXIT => {
                self.exit_thread(self.arg(values, 0, name)?)?;
                None
            }
            // glibc's pthread_cleanup_push/pop: handlers pthread_exit must run.
            _ if name.starts_with("__pthread_") => {
                return Err(Stop::unsupported(format!("thread cancellation and cleanup handlers (`{name}`)"), self.loc));
            }
            _ if ["__ESBMC_", "__CPROVER_", "__VERIFIER_", "pthread_"].iter().any(|p| name.starts_with(p)) => {
                return Err(Stop::unsupported(format!("intrinsic `{name}`"), self.loc));
            }
            "fesetround" | "fesetenv" | "feupdateenv" => {
                return Err(Stop::unsupported(format!("`{name}`"), self.loc));
            }
            _ => match self.call_stdio(name, args, values, lhs.is_some())? {
                Stdio::Modelled(result) => {
                    returns_pointer = false;
                    result
                }
                Stdio::Other => {
                    let why = format!("`{name}` has no body: its result is nondeterministic and its side effects are ignored");
                    if ir::external::is_environment_function(self.program, func) {
                        self.environment_call(name, args, values);
                    } else {
                        self.unmodelled_call(name, args, why);
                    }
                    None
                }
                Stdio::Unsupported(what) => {
                    let why = format!("`{name}` is modelled only in part (unsupported: {what}): its result is nondeterministic and its side effects are ignored");
                    self.unmodelled_call(name, args, why);
                    None
                }
            },
        };
        if let Some(lhs) = lhs {
            let value = match result {
                Some(v) => self.fit_to(v, lhs.ty, returns_pointer)?,
                None => self.fresh(&format!("{name}#return"), lhs.ty, InputKind::ExternalCall(name.to_string()))?,
            };
            self.assign(lhs, value)?;
        }
        self.advance();
        Ok(())
    }

    /// A call of an uninterpreted function: a fresh result (an input the
    /// replay gives back) equal to every earlier call's result whose
    /// arguments are equal (Ackermann's constraints). Arguments are
    /// compared as values, pointers as (object, offset) as ESBMC does.
    fn call_uninterpreted(&mut self, func: FuncId, lhs: Option<&Expr>, values: &[TermId]) -> Result<()> {
        let name = self.program.functions[func].name.clone();
        let ret = match self.program.types.get(self.program.functions[func].ty) {
            ir::Type::Function(sig) => sig.ret,
            _ => return Err(Stop::unsupported(format!("`{name}` without a function type"), self.loc)),
        };
        if matches!(self.program.types.get(ret), ir::Type::Void) {
            return Ok(());
        }
        let result = self.fresh(&format!("{name}#return"), ret, InputKind::ExternalCall(name.clone()))?;
        let earlier = self.uninterpreted_calls.get(&name).cloned().unwrap_or_default();
        // A call with the very terms of an earlier one as arguments gets the
        // earlier result term, so that what is computed from both is one
        // term (the solver would otherwise have to prove two copies of a
        // computation equal); its own input still equals it, for the replay.
        if let Some((_, value)) = earlier.iter().find(|(args, _)| args.as_slice() == values) {
            let same_result = self.store.eq(result, *value);
            self.assume(same_result);
            if let Some(lhs) = lhs {
                let value = self.fit_to(*value, lhs.ty, false)?;
                self.assign(lhs, value)?;
            }
            return Ok(());
        }
        for (args, value) in earlier {
            let mut same = Vec::with_capacity(args.len());
            for (&a, &b) in args.iter().zip(values) {
                same.push(if self.store.sort(a) == self.store.sort(b) { self.store.eq(a, b) } else { self.store.false_term() });
            }
            if args.len() != values.len() {
                continue;
            }
            let same_args = self.store.and(&same);
            let same_result = self.store.eq(result, value);
            let congruent = self.store.implies(same_args, same_result);
            self.assume(congruent);
        }
        self.uninterpreted_calls.entry(name).or_default().push((values.to_vec(), result));
        if let Some(lhs) = lhs {
            let value = self.fit_to(result, lhs.ty, false)?;
            self.assign(lhs, value)?;
        }
        Ok(())
    }

    /// A call of the program's own body-less function (the environment,
    /// see [`ir::external`]): the objects its data-pointer arguments point
    /// into get arbitrary contents (as the interpreter's replay gives them);
    /// what it might do beyond that (call a callback, write through a
    /// pointer stored in those objects) is an approximation for TRUE.
    fn environment_call(&mut self, name: &str, args: &[Expr], values: &[TermId]) {
        for index in ir::external::environment_written_arguments(self.program, args) {
            self.havoc_object(values[index]);
        }
        let exact = ir::external::environment_writes_are_exact(self.program, args);
        let why = if exact {
            format!("`{name}` has no body: it is the environment (any result, any contents of the objects its arguments point into)")
        } else {
            format!("`{name}` has no body: it may call a function or write through a pointer it is given, which is not modelled")
        };
        self.approximate(why, !exact);
    }

    /// A call of a function symex does not model: an approximation, and a
    /// violation on a path through it is not trusted. One given a pointer
    /// may write through it, which is not modelled: a TRUE is not trusted
    /// either when the call can be reached (a model's marker behind a
    /// condition the program never meets leaves the TRUE alone).
    fn unmodelled_call(&mut self, name: &str, args: &[Expr], why: String) {
        if args.iter().any(|a| self.program.types.is_pointer(a.ty)) {
            let always = self.store.true_term();
            self.approximate_when(always, why);
        } else {
            self.approximate(why, false);
        }
        self.untrusted_call(name);
    }

    /// A call whose model admits more behaviours than the function has: a
    /// violation on a path through it is not trusted.
    pub(crate) fn untrusted_call(&mut self, name: &str) {
        let call = UnmodelledCall {
            guard: self.state.guard,
            name: name.to_string(),
            loc: self.loc,
            assertions_before: self.equation.assertions.len(),
            layout_values: Vec::new(),
        };
        self.equation.unmodelled_calls.push(call);
    }

    fn arg(&self, values: &[TermId], index: usize, name: &str) -> Result<TermId> {
        values.get(index).copied().ok_or_else(|| Stop::unsupported(format!("call of `{name}` with too few arguments"), self.loc))
    }

    /// Converts a builtin's result (pointer or integer bits) to `ty`.
    fn fit_to(&mut self, value: TermId, ty: ir::TypeId, is_pointer: bool) -> Result<TermId> {
        if is_pointer && !self.program.types.is_pointer(ty) {
            self.approximate("pointer result of a library function converted to an integer", true);
        }
        match repr::value_sort(self.program, ty, self.loc)? {
            smt::Sort::BitVec(w) if self.store.sort(value) != smt::Sort::Bool => Ok(repr::resize(self.store, value, w, false)),
            sort if sort == self.store.sort(value) => Ok(value),
            _ => Err(Stop::unsupported("result of a library function assigned to an incompatible type", self.loc)),
        }
    }

    /// Converts an intrinsic's integer result (a bit-vector; 1 bit for a
    /// predicate) to the integer or `_Bool` type `ty`.
    fn fit_integer(&mut self, value: TermId, ty: ir::TypeId) -> Result<TermId> {
        match repr::value_sort(self.program, ty, self.loc)? {
            smt::Sort::BitVec(w) => Ok(repr::resize(self.store, value, w, false)),
            smt::Sort::Bool => {
                let width = self.store.sort(value).bv_width().unwrap_or(1);
                let zero = self.store.bv_u64(width, 0);
                let is_zero = self.store.eq(value, zero);
                Ok(self.store.not(is_zero))
            }
            _ => Err(Stop::unsupported("result of an intrinsic assigned to a non-integer type", self.loc)),
        }
    }

    /// A constant byte count from argument values, or an unsupported stop.
    fn constant_count(&mut self, values: &[TermId], count: usize, what: &str) -> Result<u64> {
        let mut size: u64 = 1;
        for i in 0..count {
            let v = self.arg(values, i, what)?;
            let n = self
                .store
                .as_bv_const(v)
                .and_then(BvValue::to_u64)
                .ok_or_else(|| Stop::unsupported(format!("{what} of a non-constant size"), self.loc))?;
            size = size.checked_mul(n).ok_or_else(|| Stop::unsupported(format!("{what} size overflows"), self.loc))?;
        }
        Ok(size)
    }

    /// The byte count `args[0] * ... * args[count-1]` in the wide width,
    /// where the product of two `size_t` values cannot wrap.
    fn requested_bytes(&mut self, values: &[TermId], count: usize, what: &str) -> Result<TermId> {
        let wide = self.layout.wide_bits();
        let mut size = self.store.bv_u64(wide, 1);
        for i in 0..count {
            let v = self.arg(values, i, what)?;
            let v = repr::resize(self.store, v, wide, false);
            size = self.store.bv_mul(size, v);
        }
        Ok(size)
    }

    pub(crate) fn allocate(&mut self, values: &[TermId], count: usize, zeroed: bool, what: &str) -> Result<TermId> {
        let size = self.requested_bytes(values, count, what)?;
        let always = self.store.true_term();
        Ok(self.heap_allocate(size, zeroed, always, what, None)?.pointer)
    }

    /// CBMC's `__CPROVER_allocate(size, zero)`: a heap block that is
    /// never NULL, as with `--force-malloc-success`, zero-filled when the
    /// flag (a constant here) holds.
    fn cprover_allocate(&mut self, values: &[TermId]) -> Result<TermId> {
        let name = ir::intrinsics::CPROVER_ALLOCATE;
        let flag = self.arg(values, 1, name)?;
        let zeroed = match (self.store.as_bool_const(flag), self.store.as_bv_const(flag)) {
            (Some(zero), _) => zero,
            (None, Some(zero)) => !zero.is_zero(),
            (None, None) => return Err(Stop::unsupported(format!("`{name}` whose zero-fill flag is not a constant"), self.loc)),
        };
        self.allocate(values, 1, zeroed, name)
    }

    /// `__tarsier_aligned_malloc(alignment, size)`: malloc's block at a
    /// multiple of `alignment`.
    fn allocate_aligned(&mut self, values: &[TermId]) -> Result<TermId> {
        let alignment = self.arg(values, 0, "aligned_alloc")?;
        let size = self.requested_bytes(&values[1..], 1, "aligned_alloc")?;
        let always = self.store.true_term();
        Ok(self.heap_allocate(size, false, always, "aligned_alloc", Some(alignment))?.pointer)
    }

    /// A heap block of `size` bytes (a wide term), allocated when
    /// `requested` holds. As in `ir::interp`, the allocation may fail and
    /// a request larger than the data model's address space fails (the
    /// result is NULL), unless `force_malloc_success` (for `realloc` also
    /// `force_realloc_success`): then every request succeeds (see [`Self::forced_allocation`]). With an `alignment`, the
    /// block's address is a multiple of it rounded up to a power of two,
    /// and the allocator needs that much less one more bytes (as
    /// `ir::interp` counts).
    fn heap_allocate(
        &mut self,
        size: TermId,
        zeroed: bool,
        requested: TermId,
        what: &str,
        alignment: Option<TermId>,
    ) -> Result<Allocation> {
        let path = self.state.guard;
        self.state.guard = self.store.and2(path, requested);
        let wide = self.layout.wide_bits();
        let alignment = alignment.map(|a| {
            let a = repr::resize(self.store, a, wide, false);
            self.power_of_two_at_least(a)
        });
        let reserved = match alignment {
            Some(alignment) => {
                let one = self.store.bv_u64(wide, 1);
                let slack = self.store.bv_sub(alignment, one);
                self.store.bv_add(size, slack)
            }
            None => size,
        };
        let forced = self.options.force_malloc_success
            || (what == "realloc" && self.options.force_realloc_success)
            || what == ir::intrinsics::CPROVER_ALLOCATE;
        let (succeeds, impossible) = if forced {
            self.forced_allocation(size, alignment, requested, what)
        } else {
            let fails = self.store.var(&format!("{what}_fails"), smt::Sort::Bool);
            self.record_input(fails, None, InputKind::AllocationFailure);
            let chosen = self.store.not(fails);
            let limit = self.store.bv_u64(wide, self.program.data_model.max_allocation_bytes());
            let too_big = self.store.bv_ult(limit, reserved);
            let representable = self.store.not(too_big);
            (self.store.and(&[requested, chosen, representable]), self.store.false_term())
        };
        let result = self.new_heap_object(size, zeroed, succeeds, what);
        self.state.guard = path;
        let possible = self.store.not(impossible);
        self.cut_paths(possible);
        if let (Ok(Allocation { object: Some(object), .. }), Some(alignment)) = (&result, alignment) {
            let alignment = repr::resize(self.store, alignment, self.layout.pointer_bits, false);
            self.objects.set_requested_alignment(*object, alignment);
        }
        result
    }

    /// `--force-malloc-success`: the request succeeds, whatever its size
    /// (a block beyond what the offset field or the address space holds
    /// is the memory model's approximation, see `crate::sizes`), except
    /// where no object can be made at all: more than `SIZE_MAX` bytes (a
    /// `calloc` product) or an alignment beyond the address space. Those
    /// paths are an approximation and end there, since the user ruled out
    /// the NULL glibc gives. Returns when the block is made and when the
    /// request is impossible.
    fn forced_allocation(&mut self, size: TermId, alignment: Option<TermId>, requested: TermId, what: &str) -> (TermId, TermId) {
        let wide = self.layout.wide_bits();
        let size_max = self.store.bv_u64(wide, self.program.data_model.max_object_bytes());
        let oversized = self.store.bv_ult(size_max, size);
        let unplaceable = match alignment {
            Some(alignment) => {
                let space = self.store.bv_u64(wide, self.program.data_model.max_allocation_bytes());
                self.store.bv_ult(space, alignment)
            }
            None => self.store.false_term(),
        };
        let promise = "though --force-malloc-success says every allocation does";
        self.approximate_when(oversized, format!("{what} of more than SIZE_MAX bytes cannot succeed, {promise}"));
        self.approximate_when(unplaceable, format!("{what} aligned beyond the address space cannot succeed, {promise}"));
        let beyond = self.store.or2(oversized, unplaceable);
        let impossible = self.store.and2(requested, beyond);
        let possible = self.store.not(beyond);
        (self.store.and2(requested, possible), impossible)
    }

    /// The least power of two at or above `a` (1 for 0), in `a`'s width,
    /// which must exceed the largest `size_t` (glibc before 2.38 rounds an
    /// alignment up so; the interpreter does the same).
    fn power_of_two_at_least(&mut self, a: TermId) -> TermId {
        let width = self.store.sort(a).bv_width().expect("a bit-vector alignment");
        let (zero, one) = (self.store.bv_u64(width, 0), self.store.bv_u64(width, 1));
        let is_zero = self.store.eq(a, zero);
        let a = self.store.ite(is_zero, one, a);
        // Smear the highest set bit of a - 1 downwards, then add one.
        let mut x = self.store.bv_sub(a, one);
        let mut shift = 1;
        while shift < width {
            let amount = self.store.bv_u64(width, u64::from(shift));
            let shifted = arith::shr(self.store, x, amount, false, false);
            x = self.store.bv_or(x, shifted);
            shift *= 2;
        }
        self.store.bv_add(x, one)
    }

    fn new_heap_object(&mut self, size: TermId, zeroed: bool, succeeds: TermId, what: &str) -> Result<Allocation> {
        let null = self.layout.null(self.store);
        if self.store.is_false(succeeds) {
            return Ok(Allocation { pointer: null, object: None, succeeds });
        }
        let o = self.add_object(ObjectKind::Heap { loc: self.loc }, format!("dynamic_object@{}", self.loc.line), size)?;
        let contents = if zeroed {
            self.objects.mark_zero_filled(o);
            self.objects.get(o).zero_value(self.store)
        } else {
            let path = self.state.guard;
            self.state.guard = self.store.and2(path, succeeds);
            let sort = self.objects.get(o).value_sort(self.store);
            let contents = self.store.var("dynamic_contents", sort);
            self.record_input(contents, None, InputKind::Uninitialized(what.to_string()));
            self.state.guard = path;
            contents
        };
        self.write_object(o, contents);
        let pointer = self.address_of_heap(o)?;
        self.note_lifetime_start(o, succeeds);
        self.set_alive(o, succeeds);
        let pointer = self.store.ite(succeeds, pointer, null);
        Ok(Allocation { pointer, object: Some(o), succeeds })
    }

    fn address_of_heap(&mut self, o: crate::ObjectId) -> Result<TermId> {
        let number = self
            .objects
            .number(o, &self.layout)
            .ok_or_else(|| Stop::unsupported("too many allocations for the pointer encoding", self.loc))?;
        Ok(self.layout.constant(self.store, number, 0))
    }

    /// `alloca(size)` (`__builtin_alloca_with_align(size, bits)` with an
    /// alignment in bits): a new object of any size, even a symbolic or
    /// zero one, in the caller's frame like a variable-length array: it
    /// dies when the function returns, `free` of it is invalid, and each
    /// call (each iteration of a loop) makes another. Like glibc's, it
    /// never fails; the stack's own limit is not modelled, as for
    /// variable-length arrays.
    fn stack_allocate(&mut self, values: &[TermId], alignment_bits: Option<TermId>) -> Result<TermId> {
        let size = self.requested_bytes(values, 1, "alloca")?;
        let frame = self.frames.last().expect("frame").id;
        let o = self.add_object(ObjectKind::Stack { loc: self.loc, frame }, format!("alloca@{}", self.loc.line), size)?;
        let sort = self.objects.get(o).value_sort(self.store);
        let contents = self.store.var("alloca_contents", sort);
        self.record_input(contents, None, InputKind::Uninitialized("alloca".to_string()));
        self.write_object(o, contents);
        if let Some(bits) = alignment_bits {
            // The alignment in bytes, `bits / 8`, in the pointer's width.
            let width = self.layout.pointer_bits;
            let bits = repr::resize(self.store, bits, width + 3, false);
            let bytes = self.store.extract(width + 2, 3, bits);
            self.objects.set_requested_alignment(o, bytes);
        }
        let t = self.store.true_term();
        self.note_lifetime_start(o, t);
        self.set_alive(o, t);
        self.frames.last_mut().expect("frame").stack_allocations.push(o);
        self.address_of_heap(o)
    }

    /// `free(pointer)`: NULL is a no-op; anything but the start of a live
    /// heap object is an invalid free (the other threads see it freed, see
    /// [`crate::lifetimes`]).
    fn free(&mut self, pointer: TermId) {
        self.check_free(pointer);
        let always = self.store.true_term();
        self.release(pointer, always);
    }

    /// The valid-free checks of `free(pointer)`.
    fn check_free(&mut self, pointer: TermId) {
        if !self.options.pointer_checks {
            return;
        }
        let object = self.layout.object_of(self.store, pointer);
        let null = self.layout.object_number_term(self.store, NULL_OBJECT);
        let is_null = self.store.eq(object, null);
        let dynamic = self.heap_targets(pointer);
        let conds: Vec<TermId> = dynamic.iter().map(|(_, c)| *c).collect();
        let heap = self.store.or(&conds);
        let ok = self.store.or2(is_null, heap);
        self.assert(ok, PropertyClass::InvalidFree, "free: argument is not dynamically allocated memory");
        let offset = self.layout.wide_offset_of(self.store, pointer);
        let zero = self.store.bv_u64(self.layout.wide_bits(), 0);
        let at_start = self.store.eq(offset, zero);
        let ok = self.store.or2(is_null, at_start);
        self.assert(ok, PropertyClass::InvalidFree, "free: pointer offset is not zero");
        for &(o, cond) in &dynamic {
            let alive = self.object_alive(o);
            let ok = self.store.implies(cond, alive);
            self.assert(ok, PropertyClass::InvalidFree, "free: double free");
        }
    }

    /// The heap objects `pointer` may point to, with the condition for each.
    fn heap_targets(&mut self, pointer: TermId) -> Vec<(crate::ObjectId, TermId)> {
        let targets = self.pointer_targets(pointer);
        targets.into_iter().filter(|(o, _)| self.objects.get(*o).is_dynamic()).collect()
    }

    /// Deallocates the heap object `pointer` points to, when `when` holds.
    fn release(&mut self, pointer: TermId, when: TermId) {
        let f = self.store.false_term();
        for (o, cond) in self.heap_targets(pointer) {
            let alive = self.object_alive(o);
            let released = self.store.and2(cond, when);
            let after = self.store.ite(released, f, alive);
            self.set_alive(o, after);
        }
    }

    /// `realloc(old, size)` as in glibc (and `ir::interp`): with a NULL
    /// `old` it is `malloc(size)`; a size of zero frees `old` and returns
    /// NULL; otherwise a new block receives the first `min(old size, size)`
    /// bytes and `old` is freed, unless the allocation fails, which returns
    /// NULL and leaves `old` alone.
    fn reallocate(&mut self, values: &[TermId]) -> Result<TermId> {
        let old = self.arg(values, 0, "realloc")?;
        let size = self.requested_bytes(&values[1..], 1, "realloc")?;
        let object = self.layout.object_of(self.store, old);
        let null = self.layout.object_number_term(self.store, NULL_OBJECT);
        let is_null = self.store.eq(object, null);
        let not_null = self.store.not(is_null);
        let zero = self.store.bv_u64(self.layout.wide_bits(), 0);
        let zero_size = self.store.eq(size, zero);
        self.check_free(old);
        let frees_only = self.store.and2(not_null, zero_size);
        let requested = self.store.not(frees_only);
        let new = self.heap_allocate(size, false, requested, "realloc", None)?;
        let moves = self.store.and2(new.succeeds, not_null);
        if let Some(target) = new.object {
            self.copy_into_new_block(old, target, moves)?;
        }
        let releases = self.store.or2(frees_only, moves);
        self.release(old, releases);
        Ok(new.pointer)
    }

    /// Copies the first `min(old size, new size)` bytes of the heap object
    /// `old` points to into the fresh object `target`, when `moves` holds.
    fn copy_into_new_block(&mut self, old: TermId, target: crate::ObjectId, moves: TermId) -> Result<()> {
        let target_size = self.object_size(target);
        for (source, cond) in self.heap_targets(old) {
            let copying = self.store.and2(cond, moves);
            if self.store.is_false(copying) {
                continue;
            }
            let source_size = self.object_size(source);
            let shorter = self.store.bv_ult(source_size, target_size);
            let count = self.store.ite(shorter, source_size, target_size);
            let into = self.object_value(target);
            let copied = self.copy_prefix(source, target, count)?;
            let start = self.store.bv_u64(self.layout.wide_bits(), 0);
            let width = self.store.as_bv_const(count).and_then(BvValue::to_u64).and_then(|n| u32::try_from(n * 8).ok());
            self.note_copy(source, start, target, start, width);
            let merged = self.store.ite(copying, copied, into);
            self.write_object(target, merged);
        }
        Ok(())
    }

    /// The value of `target` with its first `count` bytes (a wide term)
    /// taken from `source`.
    fn copy_prefix(&mut self, source: crate::ObjectId, target: crate::ObjectId, count: TermId) -> Result<TermId> {
        let from = self.object_value(source);
        let into = self.object_value(target);
        let zero = self.store.bv_u64(self.layout.wide_bits(), 0);
        if let Some(n) = self.store.as_bv_const(count).and_then(BvValue::to_u64) {
            if n == 0 {
                return Ok(into);
            }
            if n > MAX_BLOCK_BYTES {
                return Err(Stop::unsupported(format!("realloc copying {n} bytes"), self.loc));
            }
            let prefix = self.read_object_bits(source, from, zero, (n * 8) as u32)?;
            return self.write_object_bits(target, into, zero, prefix);
        }
        // With one block of constant size the count is at most that size.
        let constant_sizes = [source, target].map(|o| {
            let object = self.objects.get(o);
            (object.size_term.is_none() || !object.byte_array).then_some(object.size)
        });
        if let Some(limit) = constant_sizes.into_iter().flatten().min() {
            if limit > MAX_BLOCK_BYTES {
                return Err(Stop::unsupported(format!("realloc copying up to {limit} bytes"), self.loc));
            }
            let mut result = into;
            for i in 0..limit {
                let at = self.store.bv_u64(self.layout.wide_bits(), i);
                let copied = self.store.bv_ult(at, count);
                let bit = self.store.bv_u64(self.layout.wide_bits(), i * 8);
                let byte = self.read_object_bits(source, from, bit, 8)?;
                let old = self.read_object_bits(target, result, bit, 8)?;
                let byte = self.store.ite(copied, byte, old);
                result = self.write_object_bits(target, result, bit, byte)?;
            }
            return Ok(result);
        }
        // Both blocks are byte arrays of symbolic size. Arrays
        // cannot be blended per index, so the new block takes the whole old
        // array: its bytes past the old size are then the old block's bytes
        // past its end, unconstrained like fresh memory unless the old
        // block was zero-filled by calloc.
        if self.objects.get(source).zero_filled {
            self.approximate("realloc of a zero-filled block of symbolic size: the bytes past its old size are taken as zero", true);
        }
        Ok(from)
    }

    /// `__ESBMC_init_object(p)`: every byte of the live, writable object
    /// `p` points into becomes nondeterministic, whatever `p`'s offset (as
    /// in ESBMC and `ir::interp`); a pointer to no such object changes
    /// nothing.
    fn havoc_object(&mut self, pointer: TermId) {
        let path = self.state.guard;
        for (o, cond) in self.pointer_targets(pointer) {
            if self.is_read_only(o) {
                continue;
            }
            let alive = self.object_alive(o);
            let havocked = self.store.and2(cond, alive);
            self.state.guard = self.store.and2(path, havocked);
            let sort = self.objects.get(o).value_sort(self.store);
            let contents = self.store.var("init_object", sort);
            self.record_input(contents, None, InputKind::Uninitialized("__ESBMC_init_object".to_string()));
            self.state.guard = path;
            let old = self.object_value(o);
            let merged = self.store.ite(havocked, contents, old);
            self.write_object(o, merged);
        }
    }

    /// The byte count (third argument) in the wide width when it is not a
    /// constant (see [`crate::block_copy`]).
    fn symbolic_count(&mut self, values: &[TermId], name: &str) -> Result<Option<TermId>> {
        let n = self.arg(values, 2, name)?;
        if self.store.as_bv_const(n).is_some() {
            return Ok(None);
        }
        Ok(Some(repr::resize(self.store, n, self.layout.wide_bits(), false)))
    }

    /// `memcpy(dst, src, n)`; a constant `n` is one read and one write of
    /// `n` bytes.
    fn copy_memory(&mut self, values: &[TermId], name: &str) -> Result<TermId> {
        let (dst, src) = (self.arg(values, 0, name)?, self.arg(values, 1, name)?);
        if let Some(n) = self.symbolic_count(values, name)? {
            self.copy_symbolic(dst, src, n)?;
            return Ok(dst);
        }
        let n = self.constant_count(&values[2..], 1, name)?;
        if n == 0 {
            return Ok(dst);
        }
        let from = self.deref_place(src, 1);
        let to = self.deref_place(dst, 1);
        if n > MAX_BLOCK_BYTES || self.are_whole_large_values(&from, &to, n) {
            // Whole objects are copied as arrays (see `crate::large`); only
            // they are beyond the flat limit.
            let bytes = self.read_large_bytes(&from, n)?;
            self.write_large_bytes(&to, n, bytes)?;
            self.note_place_copy(&from, &to, u32::try_from(n * 8).ok());
            return Ok(dst);
        }
        let bytes = self.read_place_bits(&from, (n * 8) as u32)?;
        self.write_place_bits(&to, bytes)?;
        self.note_place_copy(&from, &to, Some((n * 8) as u32));
        Ok(dst)
    }

    /// Whether `n` bytes are beyond the flat limit and both `from` and `to`
    /// are whole objects of that size, so the copy is one of arrays.
    fn are_whole_large_values(&self, from: &crate::place::Place, to: &crate::place::Place, n: u64) -> bool {
        n > MAX_OBJECT_BYTES && self.is_whole_value_place(from, n, false) && self.is_whole_value_place(to, n, true)
    }

    /// `memset(p, c, n)`; a constant `n` is one write of `n` bytes.
    fn set_memory(&mut self, values: &[TermId]) -> Result<TermId> {
        let (p, c) = (self.arg(values, 0, "memset")?, self.arg(values, 1, "memset")?);
        if let Some(n) = self.symbolic_count(values, "memset")? {
            let byte = repr::resize(self.store, c, 8, false);
            self.note_data_store(byte);
            self.set_symbolic(p, byte, n)?;
            return Ok(p);
        }
        let n = self.constant_count(&values[2..], 1, "memset")?;
        if n == 0 {
            return Ok(p);
        }
        let byte = repr::resize(self.store, c, 8, false);
        self.note_data_store(byte);
        let place = self.deref_place(p, 1);
        if n > MAX_BLOCK_BYTES || n > MAX_OBJECT_BYTES && self.is_whole_value_place(&place, n, true) {
            // Whole objects are set as arrays (see `crate::large`); only
            // they are beyond the flat limit.
            let sort = crate::memory::byte_array_sort(self.store);
            let bytes = self.store.const_array(sort, byte);
            for t in &place.targets {
                self.note_unbounded_write(t.object);
            }
            self.write_large_bytes(&place, n, bytes)?;
            return Ok(p);
        }
        let mut bytes = byte;
        for _ in 1..n {
            bytes = self.store.concat(byte, bytes);
        }
        self.write_place_bits(&place, bytes)?;
        Ok(p)
    }
}
