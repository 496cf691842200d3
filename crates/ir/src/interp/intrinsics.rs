//! Concrete semantics of the intrinsics `crate::intrinsics` names: pointer
//! primitives, GCC's `__builtin_object_size` and the GCC bit built-ins,
//! computed from the interpreter's objects and values the way symex
//! computes them symbolically.

use super::exec::{Flow, Machine};
use super::memory::{Lifetime, ObjectKind, Pointer};
use super::value::{sign_extend, Value};
use super::Outcome;
use crate::expr::Expr;
use crate::intrinsics::{bit_value, BitOp, PointerIntrinsic};
use crate::layout::low_mask;
use crate::types::TypeId;

impl Machine<'_> {
    /// The value of pointer intrinsic `kind` on `values`, as type `ret`.
    pub(super) fn pointer_intrinsic(&mut self, kind: PointerIntrinsic, name: &str, values: &[Value], ret: TypeId) -> Flow<Value> {
        let arg = |i: usize| values.get(i).ok_or_else(|| self.malformed(format!("`{name}` needs argument {i}")));
        let p = self.pointer(arg(0)?)?;
        let result = match kind {
            PointerIntrinsic::Offset => sign_extend(u128::from(p.offset), 64) as u128,
            PointerIntrinsic::Object => u128::from(p.object.0),
            PointerIntrinsic::SameObject => u128::from(p.object == self.pointer(arg(1)?)?.object),
            PointerIntrinsic::ObjectSize => u128::from(self.memory.object(p.object).size),
            PointerIntrinsic::AllocSizeClaim => {
                let n = self.scalar(arg(1)?)?;
                if n != u128::from(self.memory.object(p.object).size) {
                    return Err(Outcome::Unsupported(format!("`__ESBMC_alloc_size` set to {n}, not the object's size")));
                }
                n
            }
            PointerIntrinsic::IsDynamic => u128::from(matches!(self.memory.object(p.object).kind, ObjectKind::Heap)),
            PointerIntrinsic::IsLive => u128::from(self.names_live_object(p)),
            PointerIntrinsic::Accessible { write } => {
                let n = self.scalar(arg(1)?)?;
                let n = u64::try_from(n).unwrap_or(u64::MAX);
                u128::from(n == 0 || self.memory.check_access(p, n, write).is_ok())
            }
            PointerIntrinsic::GccObjectSize => {
                let object_size_type = self.scalar(arg(1)?)?;
                if object_size_type > 3 {
                    return Err(Outcome::Unsupported(format!("`{name}` type {object_size_type}")));
                }
                self.gcc_object_size(p, object_size_type)
            }
        };
        self.int_result(result, ret)
    }

    fn names_live_object(&self, p: Pointer) -> bool {
        let object = self.memory.object(p.object);
        !matches!(object.kind, ObjectKind::Reserved | ObjectKind::Function(_)) && object.lifetime == Lifetime::Alive
    }

    /// The bytes from `p` to the end of its object (0 past the end), or
    /// GCC's "unknown" when `p` points to no object.
    fn gcc_object_size(&self, p: Pointer, object_size_type: u128) -> u128 {
        let object = self.memory.object(p.object);
        if matches!(object.kind, ObjectKind::Reserved | ObjectKind::Function(_)) {
            return if object_size_type & 2 == 0 { u128::MAX } else { 0 };
        }
        u128::from(object.size.saturating_sub(p.offset))
    }

    /// A type-generic bit built-in on its operand's own width (at most 128
    /// bits); `clzg`/`ctzg` give their second argument for 0.
    pub(super) fn generic_bit_intrinsic(&self, op: BitOp, name: &str, values: &[Value], args: &[Expr], ret: TypeId) -> Flow<Value> {
        let width = args.first().and_then(|a| self.int_type(a.ty)).map(|(width, _)| width);
        let Some(width) = width.filter(|&w| w <= 128) else {
            return Err(Outcome::Unsupported(format!("`{name}` of an operand wider than 128 bits")));
        };
        if let (Some(at_zero), Some(x)) = (values.get(1), values.first()) {
            if self.scalar(x)? & low_mask(width) == 0 {
                return Ok(at_zero.clone());
            }
        }
        self.bit_intrinsic(op, width, name, values, ret)
    }

    /// GCC bit built-in `op` on a `width`-bit operand.
    pub(super) fn bit_intrinsic(&self, op: BitOp, width: u32, name: &str, values: &[Value], ret: TypeId) -> Flow<Value> {
        let x = values.first().ok_or_else(|| self.malformed(format!("`{name}` needs argument 0")))?;
        let bits = self.scalar(x)? & low_mask(width);
        let result = bit_value(op, bits, width).ok_or_else(|| Outcome::UndefinedValue(format!("`{name}` of 0")))?;
        self.int_result(result, ret)
    }
}
