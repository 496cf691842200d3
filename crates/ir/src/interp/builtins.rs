//! The library functions the interpreter implements when the program gives
//! them no body: assumptions and assertions of the verification
//! interfaces, `exit`/`abort`, heap allocation, `mem*` and `strlen`, the
//! math functions (exact ones in software, the others by the host C
//! library, see [`crate::libm`]), and
//! the stdio output functions of [`super::stdio`]. Any other function
//! without a body returns a nondeterministic value (asked from the input
//! provider); one of the program's own (the environment, see
//! [`crate::external`]) first gives the objects its data-pointer arguments
//! point into input bytes, as symex does.

use super::exec::{Flow, Machine};
use super::memory::{AccessError, ObjectKind, Pointer};
use super::value::{float_library, sign_extend, Value};
use super::{InputKind, Outcome, UbKind};
use crate::expr::Expr;
use crate::instr::PropertyClass;
use crate::intrinsics::{bit_builtin, generic_bit_builtin, is_uninterpreted, pointer_intrinsic};
use crate::libm::{self, Inexact};
use crate::rounding::RoundingMode;
use crate::types::{FloatFormat, TypeId};
use crate::program::FuncId;
use crate::types::Type;

/// Longest string read for an assertion message.
const MESSAGE_LIMIT: u64 = 1024;

impl Machine<'_> {
    /// A math.h function with an exact IEEE result, in the current rounding mode.
    fn exact_math(&mut self, name: &str, ret: TypeId, values: &[Value]) -> Flow<Value> {
        let Type::Float(format) = *self.program.types.get(ret) else {
            return Err(self.malformed(format!("`{name}` does not return a float")));
        };
        let mut operands = Vec::with_capacity(values.len());
        for value in values {
            operands.push(self.scalar(value)?);
        }
        let mode = self.rounding_mode()?;
        float_library(name, format, &operands, mode)
            .map(Value::Scalar)
            .ok_or_else(|| Outcome::Unsupported(format!("`{name}` on {format:?} floating point")))
    }

    /// A math.h function without an exact IEEE result: the host C
    /// library's value, which is only known for rounding to nearest.
    fn inexact_math(&mut self, name: &str, f: Inexact, format: FloatFormat, ret: TypeId, values: &[Value]) -> Flow<Value> {
        if *self.program.types.get(ret) != Type::Float(format) {
            return Err(Outcome::Unsupported(format!("`{name}` declared with another return type")));
        }
        if self.rounding_mode()? != RoundingMode::NearestEven {
            return Err(Outcome::Unsupported(format!("`{name}` in a rounding mode other than to nearest")));
        }
        let mut operands = Vec::with_capacity(values.len());
        for value in values {
            operands.push(self.scalar(value)?);
        }
        libm::host_value(f, format, &operands)
            .map(Value::Scalar)
            .ok_or_else(|| Outcome::Unsupported(format!("`{name}` with {} arguments", values.len())))
    }

    /// Executes the body-less function `func`; returns the call's value.
    pub(super) fn call_builtin(&mut self, func: FuncId, values: &[Value], args: &[Expr]) -> Flow<Option<Value>> {
        let function = &self.program.functions[func];
        let name = function.name.as_str();
        let ret = match self.program.types.get(function.ty) {
            Type::Function(sig) => sig.ret,
            _ => return Err(self.malformed(format!("`{name}` does not have a function type"))),
        };
        if let Some(kind) = pointer_intrinsic(name) {
            return self.pointer_intrinsic(kind, name, values, ret).map(Some);
        }
        if let Some((op, width)) = bit_builtin(name, self.program.data_model.long_bits()) {
            return self.bit_intrinsic(op, width, name, values, ret).map(Some);
        }
        if let Some(op) = generic_bit_builtin(name) {
            return self.generic_bit_intrinsic(op, name, values, args, ret).map(Some);
        }
        if crate::intrinsics::exact_math_function(name).is_some() {
            return self.exact_math(name, ret, values).map(Some);
        }
        if let Some((f, format)) = Inexact::of_name(name) {
            return self.inexact_math(name, f, format, ret, values).map(Some);
        }
        let library_name = library_function(name);
        let arg = |i: usize| values.get(i).ok_or_else(|| self.malformed(format!("`{name}` needs argument {i}")));
        match library_name {
            "__VERIFIER_assume" | "__ESBMC_assume" | "__CPROVER_assume" | "assume" if name != "assume" => {
                if !self.is_true(arg(0)?)? {
                    return Err(Outcome::AssumptionViolated { loc: self.current_loc() });
                }
                Ok(None)
            }
            "__VERIFIER_assert" | "__ESBMC_assert" | "__CPROVER_assert" | "assert" => {
                if self.is_true(arg(0)?)? {
                    return Ok(None);
                }
                let message = match values.get(1) {
                    Some(Value::Ptr(p)) => self.c_string(*p),
                    _ => None,
                };
                let message = message.unwrap_or_else(|| self.program.display_expr(&args[0]).to_string());
                Err(self.violation(PropertyClass::UserAssertion, message))
            }
            "__assert_fail" => {
                let message = match values.first() {
                    Some(Value::Ptr(p)) => self.c_string(*p),
                    _ => None,
                };
                Err(self.violation(PropertyClass::UserAssertion, message.unwrap_or_else(|| "__assert_fail".into())))
            }
            "abort" => Err(Outcome::Aborted),
            "exit" | "_Exit" | "_exit" => {
                let code = self.scalar(arg(0)?)?;
                self.deadlock_at_main_exit()?;
                Err(Outcome::Completed(i64::from(sign_extend(code, 32) as i32)))
            }
            _ if name == crate::intrinsics::THREAD_SELF => Ok(Some(self.thread_self())),
            _ if name == crate::intrinsics::THREAD_CREATE => {
                let types: Vec<TypeId> = args.iter().map(|a| a.ty).collect();
                self.create_thread(values, &types).map(Some)
            }
            _ if name == crate::intrinsics::THREAD_JOIN => {
                let joined = self.join_thread(arg(0)?);
                self.note_sync_wait(joined).map(Some)
            }
            _ if name == crate::intrinsics::THREAD_WAIT => {
                let holds = self.scalar(arg(0)?)? != 0;
                let waits = match holds {
                    true => Ok(None),
                    // The only thread waits for a change no one else can make.
                    false if self.threads.is_none() && self.config.deadlock_checks => {
                        Err(self.violation(PropertyClass::Deadlock, "deadlock: the only thread waits for ever".into()))
                    }
                    false => Err(Outcome::AssumptionViolated { loc: self.current_loc() }),
                };
                self.note_sync_wait(waits)
            }
            _ if name == crate::intrinsics::THREAD_EXIT => self.exit_thread(arg(0)?).map(|()| None),
            _ if name == crate::intrinsics::ENVIRONMENT_STRING => {
                let loc = self.current_loc();
                self.environment_string("getenv", InputKind::Environment, loc).map(|p| Some(Value::Ptr(p)))
            }
            "malloc" => {
                let size = self.size_arg(arg(0)?)?;
                self.heap_allocate("malloc", size, true).map(Some)
            }
            _ if name == crate::intrinsics::CPROVER_ALLOCATE => {
                let (size, zero) = (self.size_arg(arg(0)?)?, self.scalar(arg(1)?)? != 0);
                self.heap_allocate(name, size, !zero).map(Some)
            }
            _ if name == crate::intrinsics::ALIGNED_MALLOC => {
                let (alignment, size) = (self.size_arg(arg(0)?)?, self.size_arg(arg(1)?)?);
                let alignment = alignment.checked_next_power_of_two().ok_or(Outcome::MemoryLimit)?;
                self.heap_allocate_aligned("aligned_alloc", size, true, alignment).map(Some)
            }
            "calloc" => {
                let (count, size) = (self.size_arg(arg(0)?)?, self.size_arg(arg(1)?)?);
                // An overflowing product is a request no allocator can meet
                // (and no block can be made when allocations cannot fail).
                let total = count.checked_mul(size).filter(|&total| total <= self.program.data_model.max_object_bytes());
                let total = match total {
                    Some(total) => total,
                    None if self.config.malloc_may_fail => u64::MAX,
                    None => return Err(Outcome::Unsupported("calloc of more than SIZE_MAX bytes that must not fail".into())),
                };
                self.heap_allocate("calloc", total, false).map(Some)
            }
            "realloc" => {
                let (old, size) = (self.pointer(arg(0)?)?, self.size_arg(arg(1)?)?);
                self.reallocate(old, size).map(Some)
            }
            "free" => {
                let p = self.pointer(arg(0)?)?;
                self.memory.free(p).map_err(|e| self.access_error(e))?;
                Ok(None)
            }
            "alloca" | "alloca_with_align" | "alloca_with_align_and_max" => {
                let size = self.size_arg(arg(0)?)?;
                // The alignment argument is in bits.
                let alignment = if library_name == "alloca" { 1 } else { (self.size_arg(arg(1)?)? / 8).max(1) };
                if !alignment.is_power_of_two() {
                    return Err(Outcome::Unsupported(format!("alloca aligned to {alignment} bytes, not a power of two")));
                }
                let depth = self.frames.len() - 1;
                let name = self.next_heap_name("alloca");
                let object = self.allocate_aligned(name, ObjectKind::Alloca { depth }, size, alignment)?;
                self.frames[depth].allocas.push(object);
                self.fill_uninitialized(object, None)?;
                Ok(Some(Value::Ptr(Pointer { object, offset: 0 })))
            }
            "memcpy" | "memmove" => {
                let (dest, src, len) = (self.pointer(arg(0)?)?, self.pointer(arg(1)?)?, self.size_arg(arg(2)?)?);
                if library_name == "memcpy" && overlap(dest, src, len) {
                    return Err(self.ub(UbKind::OverlappingCopy));
                }
                self.memory.copy(dest, src, len).map_err(|e| self.access_error(e))?;
                Ok(Some(Value::Ptr(dest)))
            }
            "__ESBMC_init_object" | "__CPROVER_havoc_object" => {
                let p = self.pointer(arg(0)?)?;
                self.havoc_object(p)?;
                Ok(None)
            }
            "memset" => {
                let (dest, byte, len) = (self.pointer(arg(0)?)?, self.scalar(arg(1)?)?, self.size_arg(arg(2)?)?);
                self.memory.fill(dest, byte as u8, len).map_err(|e| self.access_error(e))?;
                Ok(Some(Value::Ptr(dest)))
            }
            "memcmp" => {
                let (a, b, len) = (self.pointer(arg(0)?)?, self.pointer(arg(1)?)?, self.size_arg(arg(2)?)?);
                let difference = self.memory.compare(a, b, len).map_err(|e| self.access_error(e))?;
                self.int_result(i128::from(difference) as u128, ret).map(Some)
            }
            "strlen" => {
                let s = self.pointer(arg(0)?)?;
                let len = self.string_length(s, u64::MAX)?;
                self.int_result(u128::from(len), ret).map(Some)
            }
            _ if is_uninterpreted(name) => self.call_uninterpreted(name, values, ret),
            _ if crate::external::is_nondet_value_call(self.program, name, args) => {
                self.input(InputKind::NondetCall(name.to_string()), ret).map(Some)
            }
            _ => {
                if let Some(result) = self.call_stdio(name, values, args, ret)? {
                    return Ok(result);
                }
                self.unknown_functions.insert(name.to_string());
                if crate::external::is_environment_function(self.program, func) {
                    for index in crate::external::environment_written_arguments(self.program, args) {
                        let target = self.pointer(&values[index])?;
                        self.havoc_object(target)?;
                    }
                }
                if matches!(self.program.types.get(ret), Type::Void) {
                    return Ok(None);
                }
                self.input(InputKind::ExternalCall(name.to_string()), ret).map(Some)
            }
        }
    }

    /// A call of an uninterpreted function returns the trace's value, which
    /// must equal the result of any earlier call with equal arguments.
    fn call_uninterpreted(&mut self, name: &str, values: &[Value], ret: crate::types::TypeId) -> Flow<Option<Value>> {
        if matches!(self.program.types.get(ret), Type::Void) {
            return Ok(None);
        }
        let result = self.input(InputKind::ExternalCall(name.to_string()), ret)?;
        let earlier = self.uninterpreted_calls.iter().find(|(f, args, _)| f == name && args == values);
        match earlier {
            Some((_, _, value)) if *value != result => {
                Err(Outcome::Unsupported(format!("`{name}` gave different results for equal arguments")))
            }
            Some(_) => Ok(Some(result)),
            None => {
                self.uninterpreted_calls.push((name.to_string(), values.to_vec(), result.clone()));
                Ok(Some(result))
            }
        }
    }

    pub(super) fn current_loc(&self) -> crate::loc::Loc {
        let frame = self.frames.last().expect("frame");
        self.program.functions[frame.func].body.as_deref().unwrap_or_default()[frame.pc].loc
    }

    fn is_true(&self, value: &Value) -> Flow<bool> {
        Ok(match value {
            Value::Ptr(p) => !p.is_null(),
            other => self.scalar(other)? != 0,
        })
    }

    fn size_arg(&self, value: &Value) -> Flow<u64> {
        let bits = self.scalar(value)?;
        u64::try_from(bits).map_err(|_| Outcome::MemoryLimit)
    }

    /// Whether `allocator` may return NULL (CBMC's `__CPROVER_allocate`
    /// never does).
    fn may_fail(&self, allocator: &str) -> bool {
        self.config.malloc_may_fail
            && !(allocator == "realloc" && self.config.realloc_never_fails)
            && allocator != crate::intrinsics::CPROVER_ALLOCATE
    }

    /// Whether the allocation fails, when `allocator` may fail.
    fn allocation_fails(&mut self, allocator: &str) -> Flow<bool> {
        if !self.may_fail(allocator) {
            return Ok(false);
        }
        let answer = self.request_input(InputKind::AllocationFailure, None, 1)?;
        Ok(answer[0] != 0)
    }

    pub(super) fn heap_allocate(&mut self, allocator: &str, size: u64, uninitialized: bool) -> Flow<Value> {
        self.heap_allocate_aligned(allocator, size, uninitialized, 1)
    }

    /// A heap block at a multiple of `alignment`, or NULL when the
    /// allocation fails; the allocator needs `alignment - 1` more bytes.
    /// Allocations that cannot fail (`--force-malloc-success`) make a block
    /// of any size, or stop the run when memory cannot hold one.
    fn heap_allocate_aligned(&mut self, allocator: &str, size: u64, uninitialized: bool, alignment: u64) -> Flow<Value> {
        let reserved = size.saturating_add(alignment - 1);
        let too_big = reserved > self.program.data_model.max_allocation_bytes();
        if self.allocation_fails(allocator)? || (too_big && self.may_fail(allocator)) {
            return Ok(Value::Ptr(Pointer::NULL));
        }
        let name = self.next_heap_name(allocator);
        let object = self.allocate_aligned(name, ObjectKind::Heap, size, alignment)?;
        if uninitialized {
            self.fill_uninitialized(object, None)?;
        }
        Ok(Value::Ptr(Pointer { object, offset: 0 }))
    }

    /// `realloc`: a new block (contents from the input provider, then the
    /// old block's bytes copied over its start) and the old one freed.
    fn reallocate(&mut self, old: Pointer, size: u64) -> Flow<Value> {
        if old.is_null() {
            return self.heap_allocate("realloc", size, true);
        }
        let old_object = self.memory.object(old.object);
        let is_live_heap_start = old.offset == 0
            && matches!(old_object.kind, ObjectKind::Heap)
            && old_object.lifetime == super::memory::Lifetime::Alive;
        if !is_live_heap_start {
            let error = if matches!(old_object.kind, ObjectKind::Heap) && old.offset == 0 {
                AccessError::DoubleFree
            } else {
                AccessError::InvalidFree
            };
            return Err(self.access_error(error));
        }
        if size == 0 {
            self.memory.free(old).map_err(|e| self.access_error(e))?;
            return Ok(Value::Ptr(Pointer::NULL));
        }
        let kept = old_object.size.min(size);
        let new = self.heap_allocate("realloc", size, true)?;
        let Value::Ptr(new_ptr) = new else { return Ok(new) };
        if new_ptr.is_null() {
            return Ok(new);
        }
        self.memory.copy(new_ptr, old, kept).map_err(|e| self.access_error(e))?;
        self.memory.free(old).map_err(|e| self.access_error(e))?;
        Ok(new)
    }

    /// `__ESBMC_init_object(p)`: the live, writable object `p` points into
    /// gets input bytes, whatever `p`'s offset; a pointer to no such object
    /// changes nothing (the same semantics as symex).
    fn havoc_object(&mut self, p: Pointer) -> Flow<()> {
        if p.object == super::memory::NULL_OBJECT || p.object == super::memory::INVALID_OBJECT {
            return Ok(());
        }
        let object = self.memory.object(p.object);
        let writable = object.lifetime == super::memory::Lifetime::Alive
            && !object.read_only
            && !matches!(object.kind, ObjectKind::Function(_));
        if writable {
            self.fill_uninitialized(p.object, None)?;
        }
        Ok(())
    }

    /// Length of the NUL-terminated string at `s`, reading at most `limit` bytes.
    pub(super) fn string_length(&self, s: Pointer, limit: u64) -> Flow<u64> {
        let mut len = 0u64;
        while len < limit {
            let at = Pointer { offset: s.offset.wrapping_add(len), ..s };
            let byte = self.memory.read(at, 1).map_err(|e| self.access_error(e))?;
            if byte.data[0] == 0 {
                return Ok(len);
            }
            len += 1;
        }
        Ok(len)
    }

    /// The string at `s` for a message, if it can be read.
    fn c_string(&self, s: Pointer) -> Option<String> {
        let len = self.string_length(s, MESSAGE_LIMIT).ok()?;
        let bytes = self.memory.read(s, len).ok()?;
        Some(String::from_utf8_lossy(&bytes.data).into_owned())
    }
}

/// The library function a builtin spelling stands for (`__builtin_memcpy`
/// and ESBMC's `__ESBMC_memcpy` are `memcpy`).
fn library_function(name: &str) -> &str {
    match name {
        "__ESBMC_memcpy" => "memcpy",
        "__ESBMC_memset" => "memset",
        _ => name.strip_prefix("__builtin_").unwrap_or(name),
    }
}

/// Whether `[a, a + len)` and `[b, b + len)` share a byte of one object.
fn overlap(a: Pointer, b: Pointer, len: u64) -> bool {
    a.object == b.object && len > 0 && a.offset < b.offset.wrapping_add(len) && b.offset < a.offset.wrapping_add(len)
}
