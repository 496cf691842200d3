//! Expression evaluation: places (lvalues) and values, loads and stores
//! through the memory model, conversions, and the byte representation of
//! values (little-endian, composites through the front end's layout).

use super::exec::{Flow, Machine};
use super::memory::{Bytes, Memory, ObjectKind, Pointer, INVALID_OBJECT, MAX_POINTER_BYTES, NULL_OBJECT};
use super::value::{
    float_binary, float_compare, float_convert, float_to_int, float_to_wide, int_binary, int_compare, int_to_float, sign_extend,
    IntOperand, Value,
};
use super::wide::{self, Wide};
use super::{InputKind, Outcome, UbKind};
use crate::expr::{BinOp, Expr, ExprKind, UnOp};
use crate::layout::low_mask;
use crate::program::{SymbolId, SymbolKind};
use crate::rounding::RoundingMode;
use crate::types::{ArrayLen, Field, Type, TypeId};

/// The location of an lvalue: a pointer, and for a bit-field the bit
/// offset from that byte and the width.
#[derive(Copy, Clone, Debug)]
pub(super) struct Place {
    pub ptr: Pointer,
    pub bitfield: Option<(u32, u32)>,
    /// Reached through a pointer not aligned for the type it points to;
    /// accessing the place is undefined (C11 6.3.2.3p7).
    pub misaligned: bool,
    /// Reached through an index outside its array's length: accessing the
    /// place is undefined even inside the enclosing object (C11 6.5.6p8).
    pub index_out_of_range: bool,
}

impl Place {
    pub fn whole(ptr: Pointer) -> Place {
        Place { ptr, bitfield: None, misaligned: false, index_out_of_range: false }
    }
}

impl Machine<'_> {
    fn ty(&self, ty: TypeId) -> &Type {
        self.program.types.get(ty)
    }

    /// (width, signed) of an integer or `Bool` type.
    pub(super) fn int_type(&self, ty: TypeId) -> Option<(u32, bool)> {
        match self.ty(ty) {
            Type::Bool => Some((1, false)),
            Type::Int { bits, signed } => Some((*bits, *signed)),
            _ => None,
        }
    }

    /// Size in bytes, with variable-length arrays (also as elements of
    /// fixed-length ones) sized by their length variable's current value.
    pub(super) fn size(&mut self, ty: TypeId) -> Flow<u64> {
        if let Some(size) = self.program.types.size_of(ty, self.program.data_model) {
            return Ok(size);
        }
        match self.ty(ty).clone() {
            Type::Array(elem, ArrayLen::Var(len_sym)) => {
                let len_ty = self.program.symbols[len_sym].ty;
                let len = self.load_symbol_int(len_sym, len_ty)?;
                let elem_size = self.size(elem)?;
                let len = u64::try_from(len)
                    .map_err(|_| Outcome::Unsupported(format!("variable-length array of negative length {len}")))?;
                len.checked_mul(elem_size).ok_or(Outcome::MemoryLimit)
            }
            Type::Array(elem, ArrayLen::Fixed(count)) => {
                let elem_size = self.size(elem)?;
                count.checked_mul(elem_size).ok_or(Outcome::MemoryLimit)
            }
            _ => Err(self.malformed(format!("size of the unsized type {}", self.program.types.display(ty)))),
        }
    }

    /// C11 6.7.6.2p5: each length of a variable-length array must be
    /// positive (as a signed value: lengths are stored as `size_t`, so a
    /// negative length shows as one at or above 2^63); and the array's size
    /// in bytes must be representable in `size_t`, as symbolic execution
    /// checks. Without `vla_length_checks` a zero length is an empty array,
    /// as gcc makes it, and the rest is beyond the model.
    pub(super) fn check_array_lengths(&mut self, ty: TypeId) -> Flow<()> {
        let mut t = ty;
        while let Type::Array(elem, len) = self.ty(t).clone() {
            if let ArrayLen::Var(len_sym) = len {
                let len_ty = self.program.symbols[len_sym].ty;
                let length = self.load_symbol_int(len_sym, len_ty)?;
                let (width, _) = self.int_type(len_ty).ok_or_else(|| self.malformed("non-integer VLA length".into()))?;
                match sign_extend(length as u128, width) {
                    0 if !self.config.vla_length_checks => {}
                    ..0 if !self.config.vla_length_checks => {
                        return Err(Outcome::Unsupported("a variable-length array of negative length".into()));
                    }
                    ..=0 => return Err(self.ub(UbKind::NonPositiveArrayLength)),
                    _ => {}
                }
            }
            t = elem;
        }
        let fits = match self.size(ty) {
            Ok(size) => size <= self.program.data_model.max_object_bytes(),
            Err(Outcome::MemoryLimit) => false,
            Err(other) => return Err(other),
        };
        match (fits, self.config.vla_length_checks) {
            (true, _) => Ok(()),
            (false, true) => Err(self.ub(UbKind::OversizedArray)),
            (false, false) => Err(Outcome::Unsupported("a variable-length array larger than SIZE_MAX bytes".into())),
        }
    }

    fn load_symbol_int(&mut self, sym: SymbolId, ty: TypeId) -> Flow<i128> {
        let place = Place::whole(Pointer { object: self.symbol_object(sym)?, offset: 0 });
        let value = self.load(place, ty)?;
        self.int_value(&value, ty)
    }

    /// An integer value as a signed number (by its type `ty`); one beyond
    /// `i128` (of a type wider than 128 bits) saturates, far outside any
    /// object or length.
    fn int_value(&self, value: &Value, ty: TypeId) -> Flow<i128> {
        let (width, signed) = self.int_type(ty).ok_or_else(|| self.malformed("a non-integer index or length".into()))?;
        if width > wide::NARROW_BITS {
            return Ok(self.as_wide(value, ty)?.to_i128_saturating(signed));
        }
        let bits = self.scalar(value)?;
        Ok(if signed { sign_extend(bits, width) } else { (bits & low_mask(width)).min(i128::MAX as u128) as i128 })
    }

    /// Evaluates `e` to a value, bounding the nesting depth.
    pub(super) fn eval(&mut self, e: &Expr) -> Flow<Value> {
        self.enter()?;
        let result = self.eval_node(e);
        self.depth -= 1;
        result
    }

    fn enter(&mut self) -> Flow<()> {
        self.depth += 1;
        if self.depth > self.config.max_expr_depth {
            self.depth -= 1;
            let limit = self.config.max_expr_depth;
            return Err(Outcome::Unsupported(format!("expression nested deeper than {limit} levels")));
        }
        Ok(())
    }

    pub(super) fn scalar(&self, value: &Value) -> Flow<u128> {
        match value {
            Value::Scalar(bits) => Ok(*bits),
            other => Err(self.malformed(format!("expected a scalar, found {other:?}"))),
        }
    }

    pub(super) fn pointer(&self, value: &Value) -> Flow<Pointer> {
        match value {
            Value::Ptr(p) => Ok(*p),
            other => Err(self.malformed(format!("expected a pointer, found {other:?}"))),
        }
    }

    /// An integer operand's value as a signed number (by its type).
    fn eval_index(&mut self, e: &Expr) -> Flow<i128> {
        let value = self.eval(e)?;
        self.int_value(&value, e.ty)
    }

    fn eval_bool(&mut self, e: &Expr) -> Flow<bool> {
        let value = self.eval(e)?;
        Ok(self.scalar(&value)? != 0)
    }

    fn eval_node(&mut self, e: &Expr) -> Flow<Value> {
        match &e.kind {
            ExprKind::Sym(_) | ExprKind::Deref(_) => {
                let place = self.place(e)?;
                self.load(place, e.ty)
            }
            ExprKind::Member(..) | ExprKind::Index(..) if e.is_lvalue() => {
                let place = self.place(e)?;
                self.load(place, e.ty)
            }
            ExprKind::Member(base, index) => {
                let base_value = self.eval(base)?;
                let bytes = self.encode(&base_value, base.ty)?;
                let field = self.field(base.ty, *index)?;
                self.read_field(&bytes, &field)
            }
            ExprKind::Index(base, index) => {
                let base_value = self.eval(base)?;
                let bytes = self.encode(&base_value, base.ty)?;
                let i = self.eval_index(index)?;
                let size = self.size(e.ty)?;
                let start = self.checked_range(i, size, bytes.len())?;
                self.decode(bytes.slice(start, size), e.ty)
            }
            ExprKind::IntConst(bits) => {
                if let Some((width, _)) = self.wide_type(e.ty) {
                    // A constant of such a type is zero-extended (see `ExprKind::IntConst`).
                    return self.wide_value(&Wide::from_u128(*bits, 128, false, width), e.ty);
                }
                Ok(Value::Scalar(*bits & self.int_type(e.ty).map_or(u128::MAX, |t| low_mask(t.0))))
            }
            ExprKind::FloatConst(bits) => Ok(Value::Scalar(*bits)),
            ExprKind::Null => Ok(Value::Ptr(Pointer::NULL)),
            ExprKind::Zero => {
                let size = self.size(e.ty)?;
                self.decode(Bytes::zeroed(size as usize), e.ty)
            }
            ExprKind::Nondet => self.input(InputKind::Nondet, e.ty),
            ExprKind::Unary(op, a) => self.eval_unary(*op, a, e.ty),
            ExprKind::Binary(op, a, b) => self.eval_binary(*op, a, b, e.ty),
            ExprKind::Cast(a) => {
                let value = self.eval(a)?;
                self.convert(value, a.ty, e.ty)
            }
            ExprKind::Ite(cond, then, other) => {
                let branch = if self.eval_bool(cond)? { then } else { other };
                self.eval(branch)
            }
            ExprKind::AddrOf(a) => match self.place(a)? {
                Place { ptr, bitfield: None, .. } => Ok(Value::Ptr(ptr)),
                Place { bitfield: Some(_), .. } => Err(self.malformed("address of a bit-field".into())),
            },
            ExprKind::StructLit(items) => self.build_struct(items, e.ty),
            ExprKind::UnionLit(index, value) => {
                let size = self.size(e.ty)?;
                let mut bytes = Bytes::zeroed(size as usize);
                let field = self.field(e.ty, *index)?;
                let value = self.eval(value)?;
                self.write_field(&mut bytes, &field, &value)?;
                Ok(Value::Agg(bytes))
            }
            ExprKind::ArrayLit(items) => {
                let mut bytes = Bytes::default();
                for item in items {
                    let value = self.eval(item)?;
                    let encoded = self.encode(&value, item.ty)?;
                    let at = bytes.len();
                    bytes.data.extend(&encoded.data);
                    bytes.pointers.extend(encoded.pointers.into_iter().map(|(o, p)| (o + at, p)));
                }
                Ok(Value::Agg(bytes))
            }
            ExprKind::PointerObject(p) => {
                let p = self.eval_pointer(p)?;
                self.int_result(u128::from(p.object.0), e.ty)
            }
            ExprKind::PointerOffset(p) => {
                let p = self.eval_pointer(p)?;
                self.int_result(sign_extend(u128::from(p.offset), 64) as u128, e.ty)
            }
            ExprKind::ObjectSize(p) => {
                let p = self.eval_pointer(p)?;
                let size = self.memory.object(p.object).size;
                self.int_result(u128::from(size), e.ty)
            }
            ExprKind::IsDynamic(p) => {
                let p = self.eval_pointer(p)?;
                let heap = matches!(self.memory.object(p.object).kind, ObjectKind::Heap);
                Ok(Value::Scalar(u128::from(heap)))
            }
            ExprKind::IsInvalid(p) => {
                let p = self.eval_pointer(p)?;
                Ok(Value::Scalar(u128::from(p.object == INVALID_OBJECT)))
            }
            ExprKind::ByteExtract { value: source, offset } => {
                let value = self.eval(source)?;
                let bytes = self.encode(&value, source.ty)?;
                let at = self.eval_index(offset)?;
                let size = self.size(e.ty)?;
                let start = self.checked_range(at, size, bytes.len())?;
                self.decode(bytes.slice(start, size), e.ty)
            }
            ExprKind::ByteUpdate { value, offset, update } => {
                let base = self.eval(value)?;
                let mut bytes = self.encode(&base, value.ty)?;
                let at = self.eval_index(offset)?;
                let patch_value = self.eval(update)?;
                let patch = self.encode(&patch_value, update.ty)?;
                let start = self.checked_range(at, patch.len(), bytes.len())?;
                bytes.write(start, &patch);
                self.decode(bytes, e.ty)
            }
        }
    }

    fn eval_pointer(&mut self, e: &Expr) -> Flow<Pointer> {
        let value = self.eval(e)?;
        self.pointer(&value)
    }

    /// `bits` as a value of the integer type `ty` (truncated to its width).
    pub(super) fn int_result(&self, bits: u128, ty: TypeId) -> Flow<Value> {
        let (width, _) = self.int_type(ty).ok_or_else(|| {
            self.malformed(format!("an integer result of type {}", self.program.types.display(ty)))
        })?;
        if width > wide::NARROW_BITS {
            return self.wide_value(&Wide::from_u128(bits, 128, false, width), ty);
        }
        Ok(Value::Scalar(bits & low_mask(width)))
    }

    /// Width and signedness of `ty` if it is an integer wider than 128
    /// bits, whose values are their memory bytes (see [`wide`]).
    fn wide_type(&self, ty: TypeId) -> Option<(u32, bool)> {
        self.int_type(ty).filter(|&(width, _)| width > wide::NARROW_BITS)
    }

    /// The value of the wide integer type `ty` with bits `w`.
    fn wide_value(&self, w: &Wide, ty: TypeId) -> Flow<Value> {
        let size = self.program.types.size_of(ty, self.program.data_model).ok_or_else(|| self.malformed("an unsized integer".into()))?;
        Ok(Value::Agg(Bytes::from_data(w.to_le_bytes(size as usize))))
    }

    /// An integer or `_Bool` value of type `ty`, at its own width.
    fn as_wide(&self, value: &Value, ty: TypeId) -> Flow<Wide> {
        let (width, signed) = self.int_type(ty).ok_or_else(|| self.malformed("a non-integer operand".into()))?;
        match value {
            Value::Scalar(bits) => Ok(Wide::from_u128(*bits, width, signed, width)),
            Value::Agg(bytes) => Ok(Wide::from_le_bytes(&bytes.data, width)),
            Value::Ptr(_) => Err(self.malformed("a pointer as an integer operand".into())),
        }
    }

    /// `op` on operands of the integer type `a_ty` wider than 128 bits (a
    /// shift's right operand has its own type `b_ty`).
    fn wide_binary(&self, op: BinOp, lhs: &Value, rhs: &Value, a_ty: TypeId, b_ty: TypeId, ty: TypeId) -> Flow<Value> {
        let (width, signed) = self.wide_type(a_ty).expect("called for wide operands");
        let x = self.as_wide(lhs, a_ty)?;
        let y = self.as_wide(rhs, b_ty)?;
        if op.is_comparison() {
            let truth = wide::wide_compare(op, &x, &y, signed).ok_or_else(|| self.malformed(format!("{op:?} on integers")))?;
            return Ok(Value::Scalar(u128::from(truth)));
        }
        let b_signed = self.int_type(b_ty).is_some_and(|(_, s)| s);
        let amount = wide::shift_amount(&y, b_signed, width);
        let result = wide::wide_binary(op, &x, &y, signed, amount).ok_or_else(|| self.malformed(format!("{op:?} on integers")))?;
        self.wide_value(&result, ty)
    }

    /// A conversion from or to an integer type wider than 128 bits:
    /// between integers, to `_Bool` and from floats (the other way is
    /// unsupported).
    fn convert_wide(&self, value: &Value, from: TypeId, to: TypeId) -> Flow<Value> {
        let integer = |t: &Type| matches!(t, Type::Int { .. } | Type::Bool);
        if let (Type::Float(format), Some((width, signed)), Value::Scalar(bits)) = (self.ty(from), self.wide_type(to), value) {
            let converted = float_to_wide(*format, *bits, width, signed).ok_or_else(|| self.ub(UbKind::FloatToIntOverflow))?;
            return self.wide_value(&converted, to);
        }
        if !integer(self.ty(from)) || !integer(self.ty(to)) {
            let (from, to) = (self.program.types.display(from), self.program.types.display(to));
            return Err(Outcome::Unsupported(format!("conversion from {from} to {to} (integers wider than 128 bits)")));
        }
        let w = self.as_wide(value, from)?;
        if matches!(self.ty(to), Type::Bool) {
            return Ok(Value::Scalar(u128::from(!w.is_zero())));
        }
        let (width, _) = self.int_type(to).expect("an integer type");
        let from_signed = self.int_type(from).is_some_and(|(_, s)| s);
        let converted = w.resize(width, from_signed);
        match width > wide::NARROW_BITS {
            true => self.wide_value(&converted, to),
            false => Ok(Value::Scalar(converted.low_u128())),
        }
    }

    /// The start of `[at, at + len)` inside `0..total`, or out-of-bounds.
    fn checked_range(&self, at: i128, len: u64, total: u64) -> Flow<u64> {
        let end = at.checked_add(i128::from(len));
        match end {
            Some(end) if at >= 0 && end <= i128::from(total) => Ok(at as u64),
            _ => Err(self.ub(UbKind::OutOfBounds)),
        }
    }

    fn eval_unary(&mut self, op: UnOp, a: &Expr, ty: TypeId) -> Flow<Value> {
        if self.wide_type(ty).is_some() {
            let value = self.eval(a)?;
            let x = self.as_wide(&value, a.ty)?;
            let result = match op {
                UnOp::Neg => x.negated(),
                UnOp::BitNot => x.complement(),
                UnOp::Not => return Err(self.malformed("`!` of a wide integer".into())),
            };
            return self.wide_value(&result, ty);
        }
        let bits = {
            let value = self.eval(a)?;
            self.scalar(&value)?
        };
        let result = match (op, self.ty(ty)) {
            (UnOp::Neg, Type::Int { bits: width, .. }) => bits.wrapping_neg() & low_mask(*width),
            (UnOp::Neg, Type::Float(format)) => bits ^ (1u128 << (format.storage_bits() - 1)),
            (UnOp::BitNot, Type::Int { bits: width, .. }) => !bits & low_mask(*width),
            (UnOp::Not, Type::Bool) => u128::from(bits == 0),
            _ => return Err(self.malformed(format!("{op:?} of type {}", self.program.types.display(ty)))),
        };
        Ok(Value::Scalar(result))
    }

    fn eval_binary(&mut self, op: BinOp, a: &Expr, b: &Expr, ty: TypeId) -> Flow<Value> {
        match op {
            BinOp::And => return Ok(Value::Scalar(u128::from(self.eval_bool(a)? && self.eval_bool(b)?))),
            BinOp::Or => return Ok(Value::Scalar(u128::from(self.eval_bool(a)? || self.eval_bool(b)?))),
            BinOp::PtrAdd => {
                let p = self.eval_pointer(a)?;
                let count = self.eval_index(b)?;
                let elem = self.pointee_size(a.ty)?;
                let delta = (count as i64 as u64).wrapping_mul(elem);
                return Ok(Value::Ptr(Pointer { object: p.object, offset: p.offset.wrapping_add(delta) }));
            }
            _ => {}
        }
        let lhs = self.eval(a)?;
        let rhs = self.eval(b)?;
        if self.wide_type(a.ty).is_some() {
            return self.wide_binary(op, &lhs, &rhs, a.ty, b.ty, ty);
        }
        if self.wide_type(b.ty).is_some() {
            return Err(Outcome::Unsupported("a shift by an amount of an integer type wider than 128 bits".into()));
        }
        match (self.ty(a.ty).clone(), lhs, rhs) {
            (Type::Pointer(_), Value::Ptr(p), Value::Ptr(q)) => self.pointer_binary(op, p, q, a.ty, ty),
            (Type::Composite(_) | Type::Array(..), Value::Agg(x), Value::Agg(y)) if matches!(op, BinOp::Eq | BinOp::Ne) => {
                Ok(Value::Scalar(u128::from((x.data == y.data) == (op == BinOp::Eq))))
            }
            (Type::Float(format), Value::Scalar(x), Value::Scalar(y)) => {
                let unsupported = || Outcome::Unsupported(format!("arithmetic on {format:?} floating point"));
                if op.is_comparison() {
                    let truth = float_compare(op, format, x, y).ok_or_else(|| self.malformed(format!("{op:?} on floats")))?;
                    return Ok(Value::Scalar(u128::from(truth)));
                }
                let mode = self.rounding_mode()?;
                let result = float_binary(op, format, x, y, mode).ok_or_else(unsupported)?;
                Ok(Value::Scalar(result))
            }
            (Type::Int { .. } | Type::Bool, Value::Scalar(x), Value::Scalar(y)) => {
                let operand = |bits, ty| self.int_type(ty).map(|(width, signed)| IntOperand { bits, width, signed });
                let (x, y) = operand(x, a.ty).zip(operand(y, b.ty)).ok_or_else(|| self.malformed("operand".into()))?;
                let result =
                    if op.is_comparison() { int_compare(op, x, y).map(u128::from) } else { int_binary(op, x, y) };
                result.map(Value::Scalar).ok_or_else(|| self.malformed(format!("{op:?} on integers")))
            }
            _ => Err(self.malformed(format!("{op:?} of {}", self.program.types.display(a.ty)))),
        }
    }

    fn pointee_size(&mut self, pointer_ty: TypeId) -> Flow<u64> {
        match self.ty(pointer_ty).clone() {
            // GNU C: arithmetic on `void *` and function pointers steps by one byte.
            Type::Pointer(pointee) if matches!(self.ty(pointee), Type::Void | Type::Function(_)) => Ok(1),
            Type::Pointer(pointee) => self.size(pointee),
            _ => Err(self.malformed("pointer arithmetic on a non-pointer".into())),
        }
    }

    fn pointer_binary(&mut self, op: BinOp, p: Pointer, q: Pointer, operand_ty: TypeId, ty: TypeId) -> Flow<Value> {
        let (pa, qa) = (self.memory.address_of(p), self.memory.address_of(q));
        // A pointer made from an integer equals an object's pointer when
        // their addresses are equal, which exposes the object.
        let mixed = Memory::is_from_integer(p) != Memory::is_from_integer(q) && !p.is_null() && !q.is_null();
        if mixed && matches!(op, BinOp::Eq | BinOp::Ne) {
            self.expose(p.object)?;
            self.expose(q.object)?;
        }
        let equal = if mixed { pa == qa } else { p == q };
        let truth = match op {
            BinOp::Eq => equal,
            BinOp::Ne => !equal,
            BinOp::Lt => pa < qa,
            BinOp::Le => pa <= qa,
            BinOp::Gt => pa > qa,
            BinOp::Ge => pa >= qa,
            BinOp::PtrDiff => {
                let elem = self.pointee_size(operand_ty)?.max(1);
                let width = self.program.data_model.pointer_bits();
                let bytes = sign_extend(u128::from(pa.wrapping_sub(qa)), width);
                return self.int_result((bytes / i128::from(elem)) as u128, ty);
            }
            _ => return Err(self.malformed(format!("{op:?} on pointers"))),
        };
        Ok(Value::Scalar(u128::from(truth)))
    }

    /// Converts `value` from type `from` to type `to` (the `Cast` semantics).
    pub(super) fn convert(&mut self, value: Value, from: TypeId, to: TypeId) -> Flow<Value> {
        if from == to {
            return Ok(value);
        }
        if self.wide_type(from).is_some() || self.wide_type(to).is_some() {
            return self.convert_wide(&value, from, to);
        }
        let pointer_width = self.program.data_model.pointer_bits();
        let (source, target) = (self.ty(from).clone(), self.ty(to).clone());
        let result = match (&source, &target, &value) {
            (_, Type::Bool, Value::Ptr(p)) => u128::from(!p.is_null()),
            (Type::Float(format), Type::Bool, Value::Scalar(bits)) => {
                u128::from(bits & low_mask(format.storage_bits() - 1) != 0)
            }
            (Type::Int { .. } | Type::Bool, Type::Bool, Value::Scalar(bits)) => u128::from(*bits != 0),
            (Type::Int { .. } | Type::Bool, Type::Int { bits: width, .. }, Value::Scalar(bits)) => {
                self.int_convert(*bits, from, *width)
            }
            (Type::Int { .. } | Type::Bool, Type::Float(format), Value::Scalar(bits)) => {
                let (width, signed) = self.int_type(from).unwrap_or((1, false));
                let mode = self.rounding_mode()?;
                int_to_float(*format, *bits, width, signed, mode)
            }
            (Type::Float(format), Type::Int { bits: width, signed }, Value::Scalar(bits)) => {
                float_to_int(*format, *bits, *width, *signed).ok_or_else(|| self.ub(UbKind::FloatToIntOverflow))?
            }
            (Type::Float(from_format), Type::Float(to_format), Value::Scalar(bits)) => {
                let mode = self.rounding_mode()?;
                float_convert(*from_format, *to_format, *bits, mode)
            }
            (Type::Pointer(_), Type::Int { bits: width, .. }, Value::Ptr(p)) => {
                self.expose(p.object)?;
                u128::from(self.memory.address_of(*p)) & low_mask(*width)
            }
            (Type::Int { .. } | Type::Bool, Type::Pointer(_), Value::Scalar(bits)) => {
                let address = self.int_convert(*bits, from, pointer_width) as u64;
                return Ok(Value::Ptr(self.memory.pointer_from_address(address)));
            }
            (Type::Pointer(_), Type::Pointer(_), Value::Ptr(p)) => return Ok(Value::Ptr(*p)),
            _ => {
                let (from, to) = (self.program.types.display(from), self.program.types.display(to));
                return Err(self.malformed(format!("no conversion from {from} to {to}")));
            }
        };
        Ok(Value::Scalar(result))
    }

    /// An integer of type `from` truncated or extended (by `from`'s sign) to `width` bits.
    fn int_convert(&self, bits: u128, from: TypeId, width: u32) -> u128 {
        let (from_width, signed) = self.int_type(from).unwrap_or((1, false));
        let extended = if signed { sign_extend(bits, from_width) as u128 } else { bits & low_mask(from_width) };
        extended & low_mask(width)
    }

    /// The place an lvalue denotes.
    pub(super) fn place(&mut self, e: &Expr) -> Flow<Place> {
        self.enter()?;
        let result = self.place_node(e);
        self.depth -= 1;
        result
    }

    fn place_node(&mut self, e: &Expr) -> Flow<Place> {
        match &e.kind {
            ExprKind::Sym(sym) => Ok(Place::whole(Pointer { object: self.symbol_object(*sym)?, offset: 0 })),
            ExprKind::Deref(p) => {
                let ptr = self.eval_pointer(p)?;
                // Objects are laid out aligned, so the offset decides.
                let alignment = self.program.types.align_of(e.ty, self.program.data_model).unwrap_or(1).max(1);
                let reserved = ptr.object == NULL_OBJECT || ptr.object == INVALID_OBJECT;
                let misaligned = !reserved && ptr.offset % alignment != 0;
                Ok(Place { misaligned, ..Place::whole(ptr) })
            }
            ExprKind::Member(base, index) => {
                let base_place = self.place(base)?;
                let field = self.field(base.ty, *index)?;
                let ptr =
                    Pointer { offset: base_place.ptr.offset.wrapping_add(field.offset_bits / 8), ..base_place.ptr };
                let bitfield = field.bit_width.map(|width| ((field.offset_bits % 8) as u32, width));
                Ok(Place { ptr, bitfield, ..base_place })
            }
            ExprKind::Index(base, index) => {
                let base_place = self.place(base)?;
                let i = self.eval_index(index)?;
                let elem = self.size(e.ty)?;
                let delta = (i as i64 as u64).wrapping_mul(elem);
                let ptr = Pointer { offset: base_place.ptr.offset.wrapping_add(delta), ..base_place.ptr };
                let length = match self.program.types.get(base.ty) {
                    Type::Array(_, ArrayLen::Fixed(length)) => Some(i128::from(*length)),
                    Type::Array(_, ArrayLen::Var(length)) => {
                        let length = *length;
                        Some(self.load_symbol_int(length, self.program.symbols[length].ty)?)
                    }
                    _ => None,
                };
                let checked = !base.array_may_extend_its_object(&self.program.types);
                let outside = checked && length.is_some_and(|length| i < 0 || i >= length);
                let index_out_of_range = base_place.index_out_of_range || outside;
                Ok(Place { ptr, bitfield: None, misaligned: base_place.misaligned, index_out_of_range })
            }
            _ => Err(self.malformed(format!("{} is not an lvalue", self.program.display_expr(e)))),
        }
    }

    fn field(&self, composite_ty: TypeId, index: u32) -> Flow<Field> {
        let field = match self.ty(composite_ty) {
            Type::Composite(id) => self.program.types.composites[*id].fields.get(index as usize),
            _ => None,
        };
        field.cloned().ok_or_else(|| self.malformed(format!("field {index} of a non-composite or missing field")))
    }

    /// The object of a symbol in the current frame (locals) or globally.
    pub(super) fn symbol_object(&mut self, sym: SymbolId) -> Flow<super::memory::ObjectId> {
        let Some(symbol) = self.program.symbols.get(sym) else {
            return Err(self.malformed(format!("unknown symbol {sym}")));
        };
        let found = match symbol.kind {
            SymbolKind::Local(_) => self.frames.last().and_then(|f| f.locals.get(&sym).copied()),
            SymbolKind::Global if symbol.thread_local => match self.globals.get(&sym).copied() {
                Some(global) => Some(self.thread_local_object(sym, global)?),
                None => None,
            },
            SymbolKind::Global | SymbolKind::StringLiteral => self.globals.get(&sym).copied(),
            SymbolKind::Function(func) => self.function_objects.get(&func).copied(),
        };
        found.ok_or_else(|| self.ub(UbKind::OutsideLifetime))
    }

    /// The undefined behaviour of accessing `place` that the memory cannot
    /// see: an index outside its array, a misaligned pointer.
    fn check_place(&self, place: &Place) -> Flow<()> {
        if place.index_out_of_range {
            return Err(self.ub(UbKind::OutOfBounds));
        }
        if place.misaligned && self.config.alignment_checks {
            return Err(self.ub(UbKind::Misaligned));
        }
        Ok(())
    }

    /// Reads the value of type `ty` at `place`.
    pub(super) fn load(&mut self, place: Place, ty: TypeId) -> Flow<Value> {
        self.check_place(&place)?;
        match place.bitfield {
            None => {
                let size = self.size(ty)?;
                self.watch_access(place.ptr, size, false)?;
                if let Some(kind) = self.scalar_kind(ty).filter(|_| size <= 16) {
                    let (bits, stored) = self.memory.read_scalar(place.ptr, size).map_err(|e| self.access_error(e))?;
                    if kind != ScalarKind::Pointer {
                        self.expose_pointer_bytes(place.ptr, size)?;
                    }
                    return Ok(self.scalar_value(kind, bits, stored));
                }
                let bytes = self.memory.read(place.ptr, size).map_err(|e| self.access_error(e))?;
                if matches!(self.ty(ty), Type::Bool | Type::Int { .. } | Type::Float(_)) {
                    self.expose_pointer_bytes(place.ptr, size)?;
                }
                self.decode(bytes, ty)
            }
            Some((bit, width)) => {
                let len = bitfield_bytes(bit, width);
                self.watch_access(place.ptr, len, false)?;
                let bytes = self.memory.read(place.ptr, len).map_err(|e| self.access_error(e))?;
                self.expose_pointer_bytes(place.ptr, len)?;
                Ok(Value::Scalar(self.extract_bits(&bytes, bit, width, ty)))
            }
        }
    }

    /// Bytes `[p, p + len)` read as a non-pointer value show the
    /// addresses of the stored pointers among them, as a cast does
    /// (PNVI-ae), so their objects are exposed.
    fn expose_pointer_bytes(&mut self, p: Pointer, len: u64) -> Flow<()> {
        for object in self.memory.stored_pointer_objects(p, len) {
            self.expose(object)?;
        }
        Ok(())
    }

    /// Writes `value` of type `ty` to `place`.
    pub(super) fn store(&mut self, place: Place, ty: TypeId, value: &Value) -> Flow<()> {
        self.check_place(&place)?;
        let len = match place.bitfield {
            None => self.size(ty)?,
            Some((bit, width)) => bitfield_bytes(bit, width),
        };
        self.watch_access(place.ptr, len, true)?;
        if place.bitfield.is_none() {
            let size = self.size(ty)?;
            let scalar = match value {
                Value::Scalar(bits) if size <= 16 => Some((*bits, None)),
                Value::Ptr(p) if size <= MAX_POINTER_BYTES => Some((u128::from(self.memory.address_of(*p)), Some(*p))),
                _ => None,
            };
            if let Some((bits, pointer)) = scalar {
                return self.memory.write_scalar(place.ptr, size, bits, pointer).map_err(|e| self.access_error(e));
            }
        }
        let bytes = match place.bitfield {
            None => self.encode(value, ty)?,
            Some((bit, width)) => {
                let mut bytes =
                    self.memory.read(place.ptr, bitfield_bytes(bit, width)).map_err(|e| self.access_error(e))?;
                insert_bits(&mut bytes, bit, width, self.scalar(value)?);
                bytes
            }
        };
        self.memory.write(place.ptr, &bytes).map_err(|e| self.access_error(e))
    }

    /// A bit-field's value read as its declared type.
    fn extract_bits(&self, bytes: &Bytes, bit: u32, width: u32, ty: TypeId) -> u128 {
        let raw = (bytes.to_u128() >> bit) & low_mask(width);
        match self.int_type(ty) {
            Some((_, false)) if matches!(self.ty(ty), Type::Bool) => u128::from(raw != 0),
            Some((type_width, true)) => sign_extend(raw, width) as u128 & low_mask(type_width),
            _ => raw,
        }
    }

    fn read_field(&mut self, bytes: &Bytes, field: &Field) -> Flow<Value> {
        let start = field.offset_bits / 8;
        match field.bit_width {
            Some(width) => {
                let bit = (field.offset_bits % 8) as u32;
                let len = bitfield_bytes(bit, width);
                let start = self.checked_range(i128::from(start), len, bytes.len())?;
                Ok(Value::Scalar(self.extract_bits(&bytes.slice(start, len), bit, width, field.ty)))
            }
            None => {
                let size = self.size(field.ty)?;
                let start = self.checked_range(i128::from(start), size, bytes.len())?;
                self.decode(bytes.slice(start, size), field.ty)
            }
        }
    }

    fn write_field(&mut self, bytes: &mut Bytes, field: &Field, value: &Value) -> Flow<()> {
        let start = field.offset_bits / 8;
        match field.bit_width {
            Some(width) => {
                let bit = (field.offset_bits % 8) as u32;
                let len = bitfield_bytes(bit, width);
                let start = self.checked_range(i128::from(start), len, bytes.len())?;
                let mut span = bytes.slice(start, len);
                insert_bits(&mut span, bit, width, self.scalar(value)?);
                bytes.write(start, &span);
            }
            None => {
                let encoded = self.encode(value, field.ty)?;
                let start = self.checked_range(i128::from(start), encoded.len(), bytes.len())?;
                bytes.write(start, &encoded);
            }
        }
        Ok(())
    }

    fn build_struct(&mut self, items: &[Expr], ty: TypeId) -> Flow<Value> {
        let size = self.size(ty)?;
        let mut bytes = Bytes::zeroed(size as usize);
        for (index, item) in items.iter().enumerate() {
            let field = self.field(ty, index as u32)?;
            let value = self.eval(item)?;
            self.write_field(&mut bytes, &field, &value)?;
        }
        Ok(Value::Agg(bytes))
    }

    /// How a value of type `ty` is decoded from its bytes (the first 16
    /// count), when it is a scalar.
    fn scalar_kind(&self, ty: TypeId) -> Option<ScalarKind> {
        let kind = match self.ty(ty) {
            Type::Bool => ScalarKind::Bool,
            Type::Int { bits, .. } if *bits <= wide::NARROW_BITS => ScalarKind::Bits(low_mask(*bits)),
            Type::Float(format) => ScalarKind::Bits(low_mask(format.storage_bits())),
            Type::Pointer(_) => ScalarKind::Pointer,
            _ => return None,
        };
        Some(kind)
    }

    /// The scalar whose bytes hold the little-endian `bits`, with `stored`
    /// the pointer stored exactly over them, if any.
    fn scalar_value(&self, kind: ScalarKind, bits: u128, stored: Option<Pointer>) -> Value {
        match kind {
            ScalarKind::Bool => Value::Scalar(u128::from(bits & 0xff != 0)),
            ScalarKind::Bits(mask) => Value::Scalar(bits & mask),
            ScalarKind::Pointer => {
                let address = bits as u64;
                let stored = stored.filter(|p| self.memory.address_of(*p) == address);
                Value::Ptr(stored.unwrap_or_else(|| self.memory.pointer_from_address(address)))
            }
        }
    }

    /// The value of type `ty` that `bytes` represent.
    pub(super) fn decode(&self, bytes: Bytes, ty: TypeId) -> Flow<Value> {
        if let Some((width, _)) = self.wide_type(ty) {
            return self.wide_value(&Wide::from_le_bytes(&bytes.data, width), ty);
        }
        if let Some(kind) = self.scalar_kind(ty) {
            let stored = bytes.pointers.get(&0).filter(|(_, width)| *width == bytes.len()).map(|(p, _)| *p);
            return Ok(self.scalar_value(kind, bytes.to_u128(), stored));
        }
        match self.ty(ty) {
            Type::Array(..) | Type::Composite(_) => Ok(Value::Agg(bytes)),
            _ => Err(self.malformed(format!("a value of type {}", self.program.types.display(ty)))),
        }
    }

    /// The bytes representing `value` of type `ty`.
    pub(super) fn encode(&mut self, value: &Value, ty: TypeId) -> Flow<Bytes> {
        let size = self.size(ty)?;
        match value {
            Value::Scalar(bits) => Ok(Bytes::from_u128(*bits, size)),
            Value::Ptr(_) if size > MAX_POINTER_BYTES => {
                Err(self.malformed(format!("a pointer stored as {size} bytes")))
            }
            Value::Ptr(p) => {
                let mut bytes = Bytes::from_u128(u128::from(self.memory.address_of(*p)), size);
                bytes.pointers.insert(0, (*p, size));
                Ok(bytes)
            }
            Value::Agg(bytes) if bytes.len() == size => Ok(bytes.clone()),
            Value::Agg(bytes) => Err(self.malformed(format!("{}-byte value of a {size}-byte type", bytes.len()))),
        }
    }

    /// A nondeterministic value of type `ty` from the input provider.
    pub(super) fn input(&mut self, kind: InputKind, ty: TypeId) -> Flow<Value> {
        let size = self.size(ty)?;
        let bytes = self.request_input(kind, Some(ty), size)?;
        self.decode(Bytes::from_data(bytes), ty)
    }

    /// Sets an object's bytes from the input provider (zero past a short
    /// answer).
    pub(super) fn fill_uninitialized(&mut self, object: super::memory::ObjectId, ty: Option<TypeId>) -> Flow<()> {
        let (name, size) = {
            let object = self.memory.object(object);
            (object.name.clone(), object.size)
        };
        let bytes = self.request_input(InputKind::Uninitialized(name), ty, size)?;
        let given = bytes.len() as u64;
        self.memory.write(Pointer { object, offset: 0 }, &Bytes::from_data(bytes)).map_err(|e| self.access_error(e))?;
        self.memory.fill(Pointer { object, offset: given }, 0, size - given).map_err(|e| self.access_error(e))
    }
}

/// How a scalar of at most 16 bytes is read from its little-endian bits.
#[derive(Copy, Clone, PartialEq, Eq)]
enum ScalarKind {
    /// Any nonzero first byte is true.
    Bool,
    /// An integer or float: the bits under the mask.
    Bits(u128),
    Pointer,
}

/// Bytes spanned by a bit-field starting `bit` bits into its first byte.
fn bitfield_bytes(bit: u32, width: u32) -> u64 {
    u64::from((bit + width).div_ceil(8))
}

fn insert_bits(bytes: &mut Bytes, bit: u32, width: u32, value: u128) {
    let mask = low_mask(width) << bit;
    let merged = (bytes.to_u128() & !mask) | ((value << bit) & mask);
    let len = bytes.len();
    bytes.write(0, &Bytes::from_u128(merged, len));
}

impl Machine<'_> {
    /// The rounding mode the program state selects (see `crate::rounding`).
    pub(super) fn rounding_mode(&mut self) -> Flow<RoundingMode> {
        let Some(variable) = self.program.rounding_mode_variable() else { return Ok(RoundingMode::NearestEven) };
        let ty = self.program.symbols[variable].ty;
        match self.eval(&Expr::sym(variable, ty))? {
            Value::Scalar(value) => Ok(RoundingMode::from_value(value)),
            _ => Err(self.malformed("rounding-mode variable".into())),
        }
    }
}
