//! Symbolic semantics of the intrinsics `ir::intrinsics` names (pointer
//! primitives, `__builtin_object_size`, GCC bit built-ins): terms over the
//! pointer encoding and the objects a pointer may target. `ir::interp`
//! computes the same values concretely, so replays confirm what symex finds.

use crate::exec::Symex;
use crate::memory::{ObjectKind, NULL_OBJECT};
use crate::{repr, Result, Stop};
use ir::intrinsics::{bit_builtin, generic_bit_builtin, pointer_intrinsic, BitOp, PointerIntrinsic};
use smt::{BvValue, Sort, TermId};

/// The `int` result of GCC's type-generic bit built-ins.
const GENERIC_RESULT_BITS: u32 = 32;

impl<'a> Symex<'a> {
    /// The value of intrinsic `name` on `values`; `None` if `name` is not
    /// a value intrinsic. Predicates are 1-bit vectors.
    pub(crate) fn intrinsic(&mut self, name: &str, values: &[TermId]) -> Result<Option<TermId>> {
        if let Some(kind) = pointer_intrinsic(name) {
            return self.pointer_intrinsic(kind, name, values).map(Some);
        }
        if let Some((op, width)) = bit_builtin(name, self.program.data_model.long_bits()) {
            let x = self.intrinsic_arg(values, 0, name)?;
            let x = repr::resize(self.store, x, width, false);
            return Ok(Some(self.bit_operation(op, x, width)));
        }
        if let Some(op) = generic_bit_builtin(name) {
            return self.generic_bit_operation(op, name, values).map(Some);
        }
        Ok(None)
    }

    /// A type-generic bit built-in on its operand's own width, as an `int`;
    /// `clzg`/`ctzg` give their second argument for 0.
    fn generic_bit_operation(&mut self, op: BitOp, name: &str, values: &[TermId]) -> Result<TermId> {
        let x = self.intrinsic_arg(values, 0, name)?;
        let Some(width) = self.store.sort(x).bv_width() else {
            return Err(Stop::unsupported(format!("`{name}` of a value that is not an integer"), self.loc));
        };
        let count = self.bit_operation(op, x, width);
        let count = repr::resize(self.store, count, GENERIC_RESULT_BITS, false);
        let Some(&at_zero) = values.get(1) else { return Ok(count) };
        let at_zero = repr::resize(self.store, at_zero, GENERIC_RESULT_BITS, true);
        let zero = self.store.bv_u64(width, 0);
        let is_zero = self.store.eq(x, zero);
        Ok(self.store.ite(is_zero, at_zero, count))
    }

    /// The size in bytes (wide) of the object `p` points to: 0 for NULL,
    /// unknown for a pointer to no object.
    pub(crate) fn size_of_object_at(&mut self, p: TermId) -> TermId {
        let null = self.points_to_null(p);
        let zero = self.store.bv_u64(self.layout.wide_bits(), 0);
        let unknown = self.store.var("object_size", Sort::BitVec(self.layout.wide_bits()));
        let other = self.store.ite(null, zero, unknown);
        let targets = self.pointer_targets(p);
        targets.into_iter().fold(other, |acc, (o, cond)| {
            let size = self.object_size(o);
            self.store.ite(cond, size, acc)
        })
    }

    fn intrinsic_arg(&self, values: &[TermId], index: usize, name: &str) -> Result<TermId> {
        values.get(index).copied().ok_or_else(|| Stop::unsupported(format!("call of `{name}` with too few arguments"), self.loc))
    }

    fn pointer_intrinsic(&mut self, kind: PointerIntrinsic, name: &str, values: &[TermId]) -> Result<TermId> {
        let p = self.intrinsic_arg(values, 0, name)?;
        if self.store.sort(p) != self.layout.sort() {
            return Err(Stop::unsupported(format!("`{name}` of something that is not a pointer"), self.loc));
        }
        let wide = self.layout.wide_bits();
        Ok(match kind {
            PointerIntrinsic::Offset => {
                // The offset of a pointer to no object is its address.
                self.observe_addresses();
                self.layout.wide_offset_of(self.store, p)
            }
            PointerIntrinsic::Object => self.layout.object_of(self.store, p),
            PointerIntrinsic::SameObject => {
                let q = self.intrinsic_arg(values, 1, name)?;
                let (a, b) = (self.layout.object_of(self.store, p), self.layout.object_of(self.store, q));
                let same = self.store.eq(a, b);
                self.bit(same)
            }
            PointerIntrinsic::ObjectSize => self.size_of_object_at(p),
            PointerIntrinsic::AllocSizeClaim => {
                let n = self.intrinsic_arg(values, 1, name)?;
                let n = repr::resize(self.store, n, wide, false);
                let size = self.size_of_object_at(p);
                let same = self.store.eq(n, size);
                let other = self.store.not(same);
                self.approximate_when(other, "`__ESBMC_alloc_size` set to another size than the object's is ignored");
                n
            }
            PointerIntrinsic::IsDynamic => {
                let conds: Vec<TermId> = self
                    .pointer_targets(p)
                    .into_iter()
                    .filter(|(o, _)| self.objects.get(*o).is_dynamic())
                    .map(|(_, c)| c)
                    .collect();
                let any = self.store.or(&conds);
                self.bit(any)
            }
            PointerIntrinsic::IsLive => {
                let mut conds = Vec::new();
                for (o, cond) in self.pointer_targets(p) {
                    let alive = self.object_alive(o);
                    conds.push(self.store.and2(cond, alive));
                }
                let any = self.store.or(&conds);
                self.bit(any)
            }
            PointerIntrinsic::Accessible { write } => {
                let n = self.intrinsic_arg(values, 1, name)?;
                let n = repr::resize(self.store, n, wide, false);
                let readable = self.accessible(p, n, write);
                self.bit(readable)
            }
            PointerIntrinsic::GccObjectSize => {
                let t = self.intrinsic_arg(values, 1, name)?;
                let t = self
                    .store
                    .as_bv_const(t)
                    .and_then(BvValue::to_u64)
                    .filter(|t| *t <= 3)
                    .ok_or_else(|| Stop::unsupported("`__builtin_object_size` type that is not a constant 0 to 3", self.loc))?;
                self.gcc_object_size(p, t)
            }
        })
    }

    fn bit(&mut self, b: TermId) -> TermId {
        let (one, zero) = (self.store.bv_u64(1, 1), self.store.bv_u64(1, 0));
        self.store.ite(b, one, zero)
    }

    pub(crate) fn points_to_null(&mut self, p: TermId) -> TermId {
        let object = self.layout.object_of(self.store, p);
        let null = self.layout.object_number_term(self.store, NULL_OBJECT);
        self.store.eq(object, null)
    }

    /// Whether the `n` bytes at `p` lie in one live object, for `write` a
    /// writable one (the wide offset is compared unsigned, so a negative
    /// offset is out of bounds); zero bytes are accessible anywhere.
    fn accessible(&mut self, p: TermId, n: TermId, write: bool) -> TermId {
        let offset = self.layout.wide_offset_of(self.store, p);
        let end = self.store.bv_add(offset, n);
        let no_wrap = self.store.bv_ule(offset, end);
        let mut conds = Vec::new();
        for (o, cond) in self.pointer_targets(p) {
            if write && self.is_read_only(o) {
                continue;
            }
            let alive = self.object_alive(o);
            let size = self.object_size(o);
            let fits = self.store.bv_ule(end, size);
            conds.push(self.store.and(&[cond, alive, no_wrap, fits]));
        }
        let zero = self.store.bv_u64(self.layout.wide_bits(), 0);
        conds.push(self.store.eq(n, zero));
        self.store.or(&conds)
    }

    pub(crate) fn is_read_only(&self, o: crate::ObjectId) -> bool {
        match self.objects.get(o).kind {
            ObjectKind::StringLiteral(_) => true,
            ObjectKind::Global(symbol) => self.program.symbols[symbol].read_only,
            _ => false,
        }
    }

    /// GCC's answer when it knows the object: the bytes from `p` to the end
    /// of its object (0 when `p` is outside it); for a pointer to no object
    /// (NULL, invalid) GCC's "unknown": `(size_t)-1` for types 0 and 1, 0
    /// for types 2 and 3. The closest-subobject refinement of types 1 and 3
    /// is applied by the front end, where the member access is visible.
    fn gcc_object_size(&mut self, p: TermId, object_size_type: u64) -> TermId {
        let wide = self.layout.wide_bits();
        let zero = self.store.bv_u64(wide, 0);
        let unknown = if object_size_type & 2 == 0 { self.store.bv_not(zero) } else { zero };
        let offset = self.layout.wide_offset_of(self.store, p);
        let targets = self.pointer_targets(p);
        targets.into_iter().fold(unknown, |acc, (o, cond)| {
            let size = self.object_size(o);
            let inside = self.store.bv_ule(offset, size);
            let rest = self.store.bv_sub(size, offset);
            let remaining = self.store.ite(inside, rest, zero);
            self.store.ite(cond, remaining, acc)
        })
    }

    /// A GCC bit built-in on the `width`-bit operand `x`; `clz` and `ctz`
    /// of 0, which GCC leaves undefined, are unconstrained (the replay
    /// refuses a counterexample that relies on them).
    fn bit_operation(&mut self, op: BitOp, x: TermId, width: u32) -> TermId {
        let bits: Vec<TermId> = (0..width).map(|i| self.store.extract(i, i, x)).collect();
        let one = self.store.bv_u64(1, 1);
        let set: Vec<TermId> = bits.iter().map(|&b| self.store.eq(b, one)).collect();
        let zero = self.store.bv_u64(width, 0);
        let is_zero = self.store.eq(x, zero);
        let number = |s: &mut Self, n: u32| s.store.bv_u64(width, u64::from(n));
        match op {
            BitOp::Clz | BitOp::Ctz => {
                let undefined = self.store.var("bit_count_of_zero", Sort::BitVec(width));
                let clz = op == BitOp::Clz;
                // The bit that decides ends up as the outermost `ite`.
                let order: Vec<u32> = if clz { (0..width).collect() } else { (0..width).rev().collect() };
                order.into_iter().fold(undefined, |acc, i| {
                    let count = if clz { width - 1 - i } else { i };
                    let count = number(self, count);
                    self.store.ite(set[i as usize], count, acc)
                })
            }
            BitOp::Ffs => {
                let lowest = (0..width).rev().fold(zero, |acc, i| {
                    let position = number(self, i + 1);
                    self.store.ite(set[i as usize], position, acc)
                });
                self.store.ite(is_zero, zero, lowest)
            }
            BitOp::Popcount | BitOp::Parity => {
                let count = bits.iter().fold(zero, |acc, &b| {
                    let b = self.store.zero_extend(width - 1, b);
                    self.store.bv_add(acc, b)
                });
                if op == BitOp::Parity {
                    let low = self.store.extract(0, 0, count);
                    self.store.zero_extend(width - 1, low)
                } else {
                    count
                }
            }
            BitOp::Bswap => {
                let bytes: Vec<TermId> = (0..width / 8).map(|i| self.store.extract(i * 8 + 7, i * 8, x)).collect();
                bytes.into_iter().reduce(|high, low| self.store.concat(high, low)).unwrap_or(x)
            }
            // Bit 0 becomes the highest.
            BitOp::Bitreverse => bits.into_iter().reduce(|high, low| self.store.concat(high, low)).unwrap_or(x),
        }
    }
}
