//! Evaluation of IR expressions to terms in the current state, and
//! assignment.

use crate::equation::TraceStep;
use crate::exec::Symex;
use crate::memory::INVALID_OBJECT;
use crate::{arith, repr, Result, Stop};
use crate::equation::InputKind;
use ir::{BinOp, Expr, ExprKind, SymbolKind, Type, TypeId, UnOp};
use smt::{BvValue, Sort, TermId};

/// Deepest expression nesting evaluated (the executor runs on a thread
/// with a stack large enough for it).
const MAX_EXPRESSION_DEPTH: u32 = 5_000;

/// CBMC's rounding-mode variable, whose numbering differs from the one
/// float operations read (`ir::ROUNDING_MODE_VARIABLE`).
const ROUNDING_MODE_VARIABLES: [&str; 1] = ["__CPROVER_rounding_mode"];

impl<'a> Symex<'a> {
    pub(crate) fn eval(&mut self, e: &Expr) -> Result<TermId> {
        if self.depth >= MAX_EXPRESSION_DEPTH {
            return Err(Stop::unsupported(format!("expression nested deeper than {MAX_EXPRESSION_DEPTH}"), self.loc));
        }
        self.depth += 1;
        let result = self.eval_node(e);
        self.depth -= 1;
        result
    }

    fn is_float(&self, ty: TypeId) -> bool {
        self.program.types.is_float(ty)
    }

    fn eval_node(&mut self, e: &Expr) -> Result<TermId> {
        match &e.kind {
            ExprKind::Sym(symbol) => self.symbol_value(e, *symbol),
            ExprKind::IntConst(v) => self.constant(*v, e.ty),
            ExprKind::FloatConst(v) => self.constant(*v, e.ty),
            ExprKind::Null => Ok(self.layout.null(self.store)),
            ExprKind::Zero => repr::zero_value(self.program, self.store, e.ty, self.loc),
            ExprKind::Nondet => self.fresh("nondet", e.ty, InputKind::Nondet),
            ExprKind::Unary(op, operand) => self.unary(*op, operand, e.ty),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.ty),
            ExprKind::Cast(operand) => self.cast(operand, e.ty),
            ExprKind::Ite(c, a, b) => {
                let (c, a, b) = (self.eval(c)?, self.eval(a)?, self.eval(b)?);
                Ok(self.store.ite(c, a, b))
            }
            ExprKind::AddrOf(lvalue) => self.address_of(lvalue),
            ExprKind::Deref(_) => {
                let place = self.place(e)?;
                self.read_place(&place, e.ty)
            }
            ExprKind::Member(base, index) => self.member_value(e, base, *index),
            ExprKind::Index(base, index) => self.element_value(e, base, index),
            ExprKind::StructLit(fields) => self.struct_literal(fields, e.ty),
            ExprKind::UnionLit(index, value) => self.union_literal(*index, value, e.ty),
            ExprKind::ArrayLit(_) if repr::is_empty(self.program, e.ty) => repr::zero_value(self.program, self.store, e.ty, self.loc),
            ExprKind::ArrayLit(items) => self.array_literal(items),
            ExprKind::PointerObject(p) => {
                let p = self.eval(p)?;
                let object = self.layout.object_of(self.store, p);
                self.resize_to_type(object, false, e.ty)
            }
            ExprKind::PointerOffset(p) => {
                let p = self.eval(p)?;
                let offset = self.layout.wide_offset_of(self.store, p);
                self.resize_to_type(offset, true, e.ty)
            }
            ExprKind::ObjectSize(p) => self.object_size_value(p, e.ty),
            ExprKind::IsDynamic(p) => self.points_to_dynamic(p, e.ty),
            ExprKind::IsInvalid(p) => {
                let p = self.eval(p)?;
                let object = self.layout.object_of(self.store, p);
                let invalid = self.layout.object_number_term(self.store, INVALID_OBJECT);
                let result = self.store.eq(object, invalid);
                self.bool_result(result, e.ty)
            }
            ExprKind::ByteExtract { value, offset } => {
                let v = self.eval(value)?;
                let whole = repr::to_memory(self.program, self.store, value.ty, v, self.loc)?;
                let bit_offset = self.byte_offset_to_bits(offset)?;
                self.extract_typed(whole, bit_offset, e.ty)
            }
            ExprKind::ByteUpdate { value, offset, update } => self.byte_update(value, offset, update, e.ty),
        }
    }

    /// The value of the symbol expression `e`: a function's address, or
    /// the object's current value.
    fn symbol_value(&mut self, e: &Expr, symbol: ir::SymbolId) -> Result<TermId> {
        if let SymbolKind::Function(func) = self.program.symbols[symbol].kind {
            let o = self.function_object(func);
            return self.address_of_object(o);
        }
        if self.entry_pointer_params.contains(&symbol) {
            let name = &self.program.symbols[symbol].display_name;
            self.approximate(format!("pointer parameter `{name}` of the entry function is unconstrained"), true);
            self.equation.unconstrained_entry_pointers = true;
        }
        let place = self.place(e)?;
        self.read_place(&place, e.ty)
    }

    /// `e`, the member `index` of `base`: read from memory when `base` is
    /// an object, else cut from `base`'s value.
    fn member_value(&mut self, e: &Expr, base: &Expr, index: u32) -> Result<TermId> {
        if base.is_lvalue() {
            let place = self.place(e)?;
            return self.read_place(&place, e.ty);
        }
        let value = self.eval(base)?;
        let field = self.field(base.ty, index)?;
        let whole = repr::to_memory(self.program, self.store, base.ty, value, self.loc)?;
        let offset = self.store.bv_u64(self.layout.wide_bits(), field.offset_bits);
        match field.bit_width {
            Some(width) => {
                let raw = self.value_bits(whole, offset, width)?;
                let signed = self.program.types.is_signed(field.ty);
                Ok(repr::resize(self.store, raw, repr::value_sort(self.program, e.ty, self.loc)?.bv_width().unwrap_or(1), signed))
            }
            None => self.extract_typed(whole, offset, e.ty),
        }
    }

    /// `e`, the element `index` of `base`: read from memory when `base` is
    /// an object, else cut from `base`'s value.
    fn element_value(&mut self, e: &Expr, base: &Expr, index: &Expr) -> Result<TermId> {
        if base.is_lvalue() {
            let place = self.place(e)?;
            return self.read_place(&place, e.ty);
        }
        let value = self.eval(base)?;
        let whole = repr::to_memory(self.program, self.store, base.ty, value, self.loc)?;
        let i = self.eval(index)?;
        let i = self.widen_index(i, index.ty);
        let elem_size = repr::size_of(self.program, e.ty, self.loc)?;
        let stride = self.store.bv_u64(self.layout.wide_bits(), elem_size * 8);
        let offset = self.store.bv_mul(i, stride);
        self.extract_typed(whole, offset, e.ty)
    }

    /// A union of type `ty` whose member `index` is `value`, the rest zero.
    fn union_literal(&mut self, index: u32, value: &Expr, ty: TypeId) -> Result<TermId> {
        let bits = repr::memory_bits(self.program, ty, self.loc)?;
        let zero = self.store.bv_u64(bits, 0);
        let field = self.field(ty, index)?;
        let v = self.eval(value)?;
        if repr::is_empty(self.program, value.ty) {
            return Ok(zero);
        }
        let m = repr::to_memory(self.program, self.store, value.ty, v, self.loc)?;
        let offset = self.store.bv_u64(self.layout.wide_bits(), field.offset_bits);
        self.insert_bits(zero, offset, m)
    }

    /// The memory bits of an array of `items`, the first lowest.
    fn array_literal(&mut self, items: &[Expr]) -> Result<TermId> {
        let mut result: Option<TermId> = None;
        for item in items {
            let v = self.eval(item)?;
            let m = repr::to_memory(self.program, self.store, item.ty, v, self.loc)?;
            result = Some(match result {
                None => m,
                Some(low) => self.store.concat(m, low),
            });
        }
        result.ok_or_else(|| Stop::unsupported("empty array literal", self.loc))
    }

    /// The size of the object `p` points to, as a value of type `ty`.
    fn object_size_value(&mut self, p: &Expr, ty: TypeId) -> Result<TermId> {
        let p = self.eval(p)?;
        let size_bits = repr::value_sort(self.program, ty, self.loc)?.bv_width().unwrap_or(64);
        let mut value = self.store.var("object_size", Sort::BitVec(size_bits));
        for (o, cond) in self.pointer_targets(p) {
            let size = self.object_size(o);
            let size = repr::resize(self.store, size, size_bits, false);
            value = self.store.ite(cond, size, value);
        }
        Ok(value)
    }

    /// Whether `p` points into a heap object, as a value of type `ty`.
    fn points_to_dynamic(&mut self, p: &Expr, ty: TypeId) -> Result<TermId> {
        let p = self.eval(p)?;
        let mut any = Vec::new();
        for (o, cond) in self.pointer_targets(p) {
            if self.objects.get(o).is_dynamic() {
                any.push(cond);
            }
        }
        let result = self.store.or(&any);
        self.bool_result(result, ty)
    }

    /// `value` with the bytes at `offset` replaced by `update`, read back
    /// as type `ty`.
    fn byte_update(&mut self, value: &Expr, offset: &Expr, update: &Expr, ty: TypeId) -> Result<TermId> {
        let v = self.eval(value)?;
        if repr::is_empty(self.program, update.ty) {
            return Ok(v);
        }
        let whole = repr::to_memory(self.program, self.store, value.ty, v, self.loc)?;
        let bit_offset = self.byte_offset_to_bits(offset)?;
        let u = self.eval(update)?;
        let part = repr::to_memory(self.program, self.store, update.ty, u, self.loc)?;
        let updated = match repr::is_byte_array(self.store, whole) {
            true => {
                let always = self.store.true_term();
                self.write_array_bits_if(whole, bit_offset, part, always)?
            }
            false => self.insert_bits(whole, bit_offset, part)?,
        };
        repr::from_memory(self.program, self.store, ty, updated, self.loc)
    }

    fn constant(&mut self, bits: u128, ty: TypeId) -> Result<TermId> {
        Ok(match repr::value_sort(self.program, ty, self.loc)? {
            Sort::Bool => self.store.bool_const(bits != 0),
            Sort::BitVec(w) => self.store.bv_const(BvValue::from_u128(w, bits)),
            other => unreachable!("constant of sort {other:?}"),
        })
    }

    fn bool_result(&mut self, b: TermId, ty: TypeId) -> Result<TermId> {
        match repr::value_sort(self.program, ty, self.loc)? {
            Sort::Bool => Ok(b),
            Sort::BitVec(w) => {
                let one = self.store.bv_u64(w, 1);
                let zero = self.store.bv_u64(w, 0);
                Ok(self.store.ite(b, one, zero))
            }
            other => unreachable!("predicate of sort {other:?}"),
        }
    }

    fn resize_to_type(&mut self, v: TermId, signed: bool, ty: TypeId) -> Result<TermId> {
        match repr::value_sort(self.program, ty, self.loc)? {
            Sort::BitVec(w) => Ok(repr::resize(self.store, v, w, signed)),
            _ => Err(Stop::unsupported("pointer primitive of non-integer type", self.loc)),
        }
    }

    fn byte_offset_to_bits(&mut self, offset: &Expr) -> Result<TermId> {
        let o = self.eval(offset)?;
        let wide = self.widen_index(o, offset.ty);
        let eight = self.store.bv_u64(self.layout.wide_bits(), 8);
        Ok(self.store.bv_mul(wide, eight))
    }

    /// The value of type `ty` at `bit_offset` in memory bits `whole`.
    fn extract_typed(&mut self, whole: TermId, bit_offset: TermId, ty: TypeId) -> Result<TermId> {
        if repr::is_empty(self.program, ty) {
            return repr::zero_value(self.program, self.store, ty, self.loc);
        }
        if repr::is_large(self.program, ty) {
            return self.large_part(whole, bit_offset, ty);
        }
        let bits = repr::memory_bits(self.program, ty, self.loc)?;
        let raw = self.value_bits(whole, bit_offset, bits)?;
        repr::from_memory(self.program, self.store, ty, raw, self.loc)
    }

    /// `bits` bits at `bit_offset` of a value's memory bits `whole` (a
    /// bit-vector, or a large value's byte array).
    fn value_bits(&mut self, whole: TermId, bit_offset: TermId, bits: u32) -> Result<TermId> {
        match repr::is_byte_array(self.store, whole) {
            true => self.read_array_bits(whole, bit_offset, bits),
            false => self.extract_bits(whole, bit_offset, bits),
        }
    }

    /// The large value of type `ty` at `bit_offset` of the large value
    /// `whole`: only its start, whose bytes are `whole`'s (see [`crate::large`]).
    fn large_part(&mut self, whole: TermId, bit_offset: TermId, ty: TypeId) -> Result<TermId> {
        if self.store.as_bv_const(bit_offset).is_some_and(BvValue::is_zero) {
            return Ok(whole);
        }
        let size = repr::size_of(self.program, ty, self.loc)?;
        Err(Stop::unsupported(format!("a part of {size} bytes inside a larger value (only whole large values are copied)"), self.loc))
    }

    fn struct_literal(&mut self, fields: &[Expr], ty: TypeId) -> Result<TermId> {
        let bits = repr::memory_bits(self.program, ty, self.loc)?;
        let mut whole = self.store.bv_u64(bits, 0);
        for (index, value) in fields.iter().enumerate() {
            let field = self.field(ty, index as u32)?;
            let v = self.eval(value)?;
            if repr::is_empty(self.program, value.ty) {
                continue;
            }
            let part = match field.bit_width {
                Some(width) if self.store.sort(v) == Sort::Bool => {
                    let one = self.store.bv_u64(width, 1);
                    let zero = self.store.bv_u64(width, 0);
                    self.store.ite(v, one, zero)
                }
                Some(width) => repr::resize(self.store, v, width, false),
                None => repr::to_memory(self.program, self.store, value.ty, v, self.loc)?,
            };
            let offset = self.store.bv_u64(self.layout.wide_bits(), field.offset_bits);
            whole = self.insert_bits(whole, offset, part)?;
        }
        Ok(whole)
    }

    fn unary(&mut self, op: UnOp, operand: &Expr, ty: TypeId) -> Result<TermId> {
        let v = self.eval(operand)?;
        if self.is_float(ty) && op == UnOp::Neg {
            return Ok(self.float_negate(v));
        }
        Ok(match op {
            UnOp::Neg => self.store.bv_neg(v),
            UnOp::BitNot => self.store.bv_not(v),
            UnOp::Not => self.store.not(v),
        })
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, ty: TypeId) -> Result<TermId> {
        let (x, y) = (self.eval(a)?, self.eval(b)?);
        if self.is_float(a.ty) {
            return self.float_binary(op, x, y, a.ty);
        }
        let signed = self.program.types.is_signed(a.ty);
        let is_bool = self.store.sort(x) == Sort::Bool;
        Ok(match op {
            BinOp::And => self.store.and2(x, y),
            BinOp::Or => self.store.or2(x, y),
            BinOp::BitAnd if is_bool => self.store.and2(x, y),
            BinOp::BitOr if is_bool => self.store.or2(x, y),
            BinOp::BitXor if is_bool => self.store.xor(x, y),
            BinOp::Add => self.store.bv_add(x, y),
            BinOp::Sub => self.store.bv_sub(x, y),
            BinOp::Mul => self.store.bv_mul(x, y),
            BinOp::Div => arith::div(self.store, x, y, signed),
            BinOp::Rem => arith::rem(self.store, x, y, signed),
            BinOp::Shl => arith::shl(self.store, x, y, self.program.types.is_signed(b.ty)),
            BinOp::Shr => arith::shr(self.store, x, y, signed, self.program.types.is_signed(b.ty)),
            BinOp::BitAnd => self.store.bv_and(x, y),
            BinOp::BitOr => self.store.bv_or(x, y),
            BinOp::BitXor => self.store.bv_xor(x, y),
            BinOp::Eq | BinOp::Ne if is_bool => {
                let eq = self.store.eq(x, y);
                if op == BinOp::Eq { eq } else { self.store.not(eq) }
            }
            cmp if cmp.is_comparison() && self.program.types.is_pointer(a.ty) => self.pointer_compare(cmp, x, y),
            cmp if cmp.is_comparison() => arith::compare(self.store, cmp, x, y, signed),
            BinOp::PtrAdd => {
                let delta = self.element_offset(a.ty, y, b.ty)?;
                let offset = self.layout.wide_offset_of(self.store, x);
                let moved = self.store.bv_add(offset, delta);
                self.move_pointer(x, moved)
            }
            BinOp::PtrDiff => {
                self.observe_addresses();
                let (ox, oy) = (self.layout.wide_offset_of(self.store, x), self.layout.wide_offset_of(self.store, y));
                let bytes = self.store.bv_sub(ox, oy);
                let size = self.pointee_size(a.ty)?;
                let elements = arith::div(self.store, bytes, size, true);
                let elements = self.resize_to_type(elements, true, ty)?;
                // Pointers into different objects have no defined difference.
                let unrelated = self.store.var("pointer_difference", self.store.sort(elements));
                let same = self.same_object(x, y);
                return Ok(self.store.ite(same, elements, unrelated));
            }
            other => unreachable!("{other:?} handled above"),
        })
    }

    /// The size of `*pointer` in bytes, in the wide width (GNU C: 1 for
    /// `void` and functions).
    fn pointee_size(&mut self, pointer_ty: TypeId) -> Result<TermId> {
        let pointee = self.program.types.pointee(pointer_ty).expect("pointer arithmetic on a pointer");
        match self.program.types.get(pointee) {
            Type::Void | Type::Function(_) => Ok(self.store.bv_u64(self.layout.wide_bits(), 1)),
            _ => self.type_size(pointee),
        }
    }

    /// `index * sizeof(*pointer)` in the wide width.
    fn element_offset(&mut self, pointer_ty: TypeId, index: TermId, index_ty: TypeId) -> Result<TermId> {
        let size = self.pointee_size(pointer_ty)?;
        let i = self.widen_index(index, index_ty);
        Ok(self.store.bv_mul(i, size))
    }

    /// Pointer comparison: equality is on the whole pointer; ordering
    /// compares offsets within one object (for pointers into different
    /// objects C leaves it unspecified, so it is nondeterministic).
    fn pointer_compare(&mut self, op: BinOp, x: TermId, y: TermId) -> TermId {
        // A null test sees no address bits beyond the offset field.
        if !self.is_null_constant(x) && !self.is_null_constant(y) {
            self.observe_addresses();
        }
        if matches!(op, BinOp::Eq | BinOp::Ne) {
            let unknown = |s: &Self, p: TermId| !s.is_null_constant(p) && s.layout.known_targets(s.store, p).is_none();
            let bits_equal = self.store.eq(x, y);
            let mixed = self.integer_meets_object(x, y);
            let equal = if self.store.is_false(mixed) {
                self.equal_or_adjacent(x, y, bits_equal)
            } else if unknown(self, x) || unknown(self, y) {
                // Both answers stay open, so no verdict rests on the
                // layout; leaving the objects unexposed only makes later
                // integer-made pointers name no object, which every use
                // over-approximates (or checks, or approximates itself).
                let unrelated = self.store.var("address_equality", Sort::Bool);
                let could_be = self.store.and2(mixed, unrelated);
                self.store.or2(bits_equal, could_be)
            } else {
                // A pointer made from an integer equals an object's pointer
                // when their addresses are equal (which exposes the object).
                let (ax, ay) = (self.pointer_to_address(x), self.pointer_to_address(y));
                let same_address = self.store.eq(ax, ay);
                self.store.ite(mixed, same_address, bits_equal)
            };
            return if op == BinOp::Eq { equal } else { self.store.not(equal) };
        }
        let same = self.same_object(x, y);
        let (fx, fy) = (self.layout.wide_offset_of(self.store, x), self.layout.wide_offset_of(self.store, y));
        let by_offset = arith::compare(self.store, op, fx, fy, true);
        let unrelated = self.store.var("pointer_order", Sort::Bool);
        self.store.ite(same, by_offset, unrelated)
    }

    /// `x == y` for two object pointers with equal bits `bits_equal`, or —
    /// unspecified in C (6.5.9p6), and true where gcc places the objects
    /// next to each other — one just past the end of its object and the
    /// other at the start of another.
    fn equal_or_adjacent(&mut self, x: TermId, y: TermId, bits_equal: TermId) -> TermId {
        let x_after_y = self.just_past_then_start(y, x);
        let y_after_x = self.just_past_then_start(x, y);
        let touching = self.store.or2(x_after_y, y_after_x);
        if self.store.is_false(touching) {
            return bits_equal;
        }
        let same = self.same_object(x, y);
        let different = self.store.not(same);
        let placed_so = self.store.var("objects_adjacent", Sort::Bool);
        let adjacent = self.store.and2(different, placed_so);
        let adjacent = self.store.and2(touching, adjacent);
        self.store.or2(bits_equal, adjacent)
    }

    /// Whether `end` points just past the end of its (nonempty) object and
    /// `start` at the first byte of its own, neither being NULL.
    fn just_past_then_start(&mut self, end: TermId, start: TermId) -> TermId {
        let (end_offset, start_offset) = (self.layout.wide_offset_of(self.store, end), self.layout.wide_offset_of(self.store, start));
        let zero = self.store.bv_u64(self.layout.wide_bits(), 0);
        let at_start = self.store.eq(start_offset, zero);
        if self.store.is_false(at_start) {
            return at_start;
        }
        // gcc gives an object of size zero a byte of its own.
        let size = self.size_of_object_at(end);
        let empty = self.store.eq(size, zero);
        let nonempty = self.store.not(empty);
        let past_end = self.store.eq(end_offset, size);
        let past_end = self.store.and2(past_end, nonempty);
        let (end_null, start_null) = (self.points_to_null(end), self.points_to_null(start));
        let either_null = self.store.or2(end_null, start_null);
        let neither_null = self.store.not(either_null);
        let both = self.store.and2(past_end, at_start);
        self.store.and2(both, neither_null)
    }

    /// Whether one of `x` and `y` is a pointer made from an integer (the
    /// null or invalid object, but not NULL itself) and the other points
    /// to an object: whether they are equal depends on where the object
    /// lies in memory, which the model leaves open.
    fn integer_meets_object(&mut self, x: TermId, y: TermId) -> TermId {
        let made_from_integer = |s: &mut Self, p: TermId| {
            let object = s.layout.object_of(s.store, p);
            let invalid = s.layout.object_number_term(s.store, INVALID_OBJECT);
            let first_real = s.layout.object_number_term(s.store, INVALID_OBJECT + 1);
            let null = s.layout.null(s.store);
            let is_null = s.store.eq(p, null);
            let not_null = s.store.not(is_null);
            let numbered = s.store.bv_ule(object, invalid);
            let real = s.store.bv_ule(first_real, object);
            (s.store.and2(numbered, not_null), real)
        };
        let (x_integer, x_real) = made_from_integer(self, x);
        let (y_integer, y_real) = made_from_integer(self, y);
        let one_way = self.store.and2(x_integer, y_real);
        let other_way = self.store.and2(y_integer, x_real);
        self.store.or2(one_way, other_way)
    }

    fn same_object(&mut self, x: TermId, y: TermId) -> TermId {
        let (ox, oy) = (self.layout.object_of(self.store, x), self.layout.object_of(self.store, y));
        self.store.eq(ox, oy)
    }

    fn cast(&mut self, operand: &Expr, to: TypeId) -> Result<TermId> {
        let from = operand.ty;
        let v = self.eval(operand)?;
        if self.is_float(from) || self.is_float(to) {
            return self.float_cast(v, from, to);
        }
        let types = &self.program.types;
        let (from_ptr, to_ptr) = (types.is_pointer(from), types.is_pointer(to));
        match repr::value_sort(self.program, to, self.loc)? {
            Sort::Bool => {
                if self.store.sort(v) == Sort::Bool {
                    return Ok(v);
                }
                let w = self.store.sort(v).bv_width().expect("scalar");
                let zero = self.store.bv_u64(w, 0);
                let is_zero = self.store.eq(v, zero);
                Ok(self.store.not(is_zero))
            }
            Sort::BitVec(w) => {
                let v = if self.store.sort(v) == Sort::Bool {
                    let one = self.store.bv_u64(w, 1);
                    let zero = self.store.bv_u64(w, 0);
                    self.store.ite(v, one, zero)
                } else {
                    v
                };
                let signed = self.program.types.is_signed(from);
                if from_ptr == to_ptr || self.is_null_constant(v) {
                    return Ok(repr::resize(self.store, v, w, signed));
                }
                if from_ptr {
                    let address = self.pointer_to_address(v);
                    return Ok(repr::resize(self.store, address, w, false));
                }
                let address = repr::resize(self.store, v, self.layout.pointer_bits, signed);
                Ok(self.address_to_pointer(address))
            }
            other => unreachable!("cast to sort {other:?}"),
        }
    }

    fn is_null_constant(&self, v: TermId) -> bool {
        self.store.as_bv_const(v).is_some_and(BvValue::is_zero)
    }

    pub(crate) fn address_of_object(&mut self, object: crate::ObjectId) -> Result<TermId> {
        let number = self.objects.number(object, &self.layout).ok_or_else(|| {
            Stop::unsupported(format!("more objects have their address taken than {} pointer bits can number", self.layout.object_bits), self.loc)
        })?;
        Ok(self.layout.constant(self.store, number, 0))
    }

    pub(crate) fn address_of(&mut self, lvalue: &Expr) -> Result<TermId> {
        match &lvalue.kind {
            ExprKind::Sym(symbol) => {
                let object = self.variable_object(*symbol)?;
                self.address_of_object(object)
            }
            ExprKind::Deref(pointer) => self.eval(pointer),
            ExprKind::Member(base, index) => {
                let p = self.address_of(base)?;
                let field = self.field(base.ty, *index)?;
                if field.bit_width.is_some() {
                    return Err(Stop::unsupported("address of a bit-field", self.loc));
                }
                let offset = self.layout.wide_offset_of(self.store, p);
                let delta = self.store.bv_u64(self.layout.wide_bits(), field.offset_bits / 8);
                let moved = self.store.bv_add(offset, delta);
                Ok(self.move_pointer(p, moved))
            }
            ExprKind::Index(base, index) => {
                let p = self.address_of(base)?;
                let elem = match self.program.types.get(base.ty) {
                    Type::Array(elem, _) => *elem,
                    _ => return Err(Stop::unsupported("indexing of a value that is not an array", self.loc)),
                };
                let size = self.type_size(elem)?;
                let i = self.eval(index)?;
                let i = self.widen_index(i, index.ty);
                let delta = self.store.bv_mul(i, size);
                let offset = self.layout.wide_offset_of(self.store, p);
                let moved = self.store.bv_add(offset, delta);
                Ok(self.move_pointer(p, moved))
            }
            _ => Err(Stop::unsupported("address of a value that is not an lvalue", self.loc)),
        }
    }

    /// `lhs = value`, recorded for the trace.
    pub(crate) fn assign(&mut self, lhs: &Expr, value: TermId) -> Result<()> {
        if let ExprKind::Sym(symbol) = lhs.kind {
            let name = self.program.symbols[symbol].name.as_str();
            if ROUNDING_MODE_VARIABLES.contains(&name) {
                return Err(Stop::unsupported(format!("changing the rounding mode through `{name}`"), self.loc));
            }
        }
        let place = self.place(lhs)?;
        self.write_place(&place, lhs.ty, value)?;
        if self.is_string_literal(lhs) {
            return Ok(());
        }
        let function = self.frames.last().map(|f| f.func).unwrap_or(ir::FuncId(0));
        let text = self.lvalue_text(lhs);
        self.equation.steps.push(TraceStep { when: self.thread_time_seen(), guard: self.state.guard, loc: self.loc, function, lhs: text, ty: lhs.ty, value });
        Ok(())
    }

    /// String literal contents are set up by the init function; they are
    /// not steps of the user's program.
    fn is_string_literal(&self, lvalue: &Expr) -> bool {
        matches!(lvalue.kind, ExprKind::Sym(s) if self.program.symbols[s].kind == SymbolKind::StringLiteral)
    }

    /// The lvalue as C text for traces (indices shown symbolically).
    fn lvalue_text(&self, lvalue: &Expr) -> String {
        match &lvalue.kind {
            ExprKind::Sym(s) => self.program.symbols[*s].display_name.clone(),
            ExprKind::Deref(p) => match &p.kind {
                ExprKind::Sym(s) => format!("*{}", self.program.symbols[*s].display_name),
                _ => "*(...)".to_string(),
            },
            ExprKind::Member(base, index) => {
                let name = self.field(base.ty, *index).map(|f| f.name).unwrap_or_default();
                match &base.kind {
                    ExprKind::Deref(p) if matches!(p.kind, ExprKind::Sym(_)) => {
                        let ExprKind::Sym(s) = p.kind else { unreachable!() };
                        format!("{}->{name}", self.program.symbols[s].display_name)
                    }
                    _ => format!("{}.{name}", self.lvalue_text(base)),
                }
            }
            ExprKind::Index(base, _) => format!("{}[...]", self.lvalue_text(base)),
            _ => "(...)".to_string(),
        }
    }
}
