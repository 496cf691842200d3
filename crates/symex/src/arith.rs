//! C integer operators on terms, exactly as `ir::expr` defines them
//! (wrapping arithmetic; total division, remainder and shifts).

use crate::repr::resize;
use smt::{Op, TermId, TermStore};

fn width(store: &TermStore, t: TermId) -> u32 {
    store.sort(t).bv_width().expect("integer operand is a bit-vector")
}

/// `a / b` truncating towards zero; `x / 0` is 0; `MIN / -1` wraps to `MIN`.
pub fn div(store: &mut TermStore, a: TermId, b: TermId, signed: bool) -> TermId {
    let w = width(store, a);
    let zero = store.bv_u64(w, 0);
    let by_zero = store.eq(b, zero);
    let quotient = store.mk(if signed { Op::BvSdiv } else { Op::BvUdiv }, &[a, b]);
    store.ite(by_zero, zero, quotient)
}

/// `a % b` with the sign of `a`; `x % 0` is `x` (which is also SMT-LIB's
/// `bvsrem`/`bvurem` by zero, so no case split is needed).
pub fn rem(store: &mut TermStore, a: TermId, b: TermId, signed: bool) -> TermId {
    store.mk(if signed { Op::BvSrem } else { Op::BvUrem }, &[a, b])
}

/// True when shift amount `amount` (an integer of its own type) is negative
/// or at least `value_width`.
fn shift_out_of_range(store: &mut TermStore, amount: TermId, amount_signed: bool, value_width: u32) -> TermId {
    let aw = width(store, amount);
    // Integer widths are at most 128, so 32 bits hold the limit with room for the sign.
    let wide = aw.max(32);
    let amount_wide = resize(store, amount, wide, amount_signed);
    let limit = store.bv_u64(wide, u64::from(value_width));
    let too_big = if amount_signed { store.bv_sle(limit, amount_wide) } else { store.bv_ule(limit, amount_wide) };
    if amount_signed {
        let zero = store.bv_u64(wide, 0);
        let negative = store.bv_slt(amount_wide, zero);
        store.or2(negative, too_big)
    } else {
        too_big
    }
}

/// `value << amount`; a negative amount or one of at least the width gives 0.
pub fn shl(store: &mut TermStore, value: TermId, amount: TermId, amount_signed: bool) -> TermId {
    let w = width(store, value);
    let out = shift_out_of_range(store, amount, amount_signed, w);
    let amount_w = resize(store, amount, w, false);
    let shifted = store.mk(Op::BvShl, &[value, amount_w]);
    let zero = store.bv_u64(w, 0);
    store.ite(out, zero, shifted)
}

/// `value >> amount`: arithmetic when `signed`, else logical; an amount
/// that is negative or at least the width fills with the sign (0 or -1).
pub fn shr(store: &mut TermStore, value: TermId, amount: TermId, signed: bool, amount_signed: bool) -> TermId {
    let w = width(store, value);
    let out = shift_out_of_range(store, amount, amount_signed, w);
    let amount_w = resize(store, amount, w, false);
    let op = if signed { Op::BvAshr } else { Op::BvLshr };
    let shifted = store.mk(op, &[value, amount_w]);
    let fill = if signed {
        let top = store.bv_u64(w, u64::from(w - 1));
        store.mk(Op::BvAshr, &[value, top])
    } else {
        store.bv_u64(w, 0)
    };
    store.ite(out, fill, shifted)
}

/// Ordered comparison `a op b` of integers.
pub fn compare(store: &mut TermStore, op: ir::BinOp, a: TermId, b: TermId, signed: bool) -> TermId {
    use ir::BinOp::*;
    let smt_op = match (op, signed) {
        (Lt, true) => Op::BvSlt,
        (Le, true) => Op::BvSle,
        (Gt, true) => Op::BvSgt,
        (Ge, true) => Op::BvSge,
        (Lt, false) => Op::BvUlt,
        (Le, false) => Op::BvUle,
        (Gt, false) => Op::BvUgt,
        (Ge, false) => Op::BvUge,
        (Eq, _) => return store.eq(a, b),
        (Ne, _) => {
            let eq = store.eq(a, b);
            return store.not(eq);
        }
        _ => unreachable!("{op:?} is not a comparison"),
    };
    store.mk(smt_op, &[a, b])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(store: &TermStore, t: TermId) -> u128 {
        store.as_bv_const(t).expect("folded to a constant").to_u128().unwrap()
    }

    #[test]
    fn division_and_remainder_follow_c() {
        let mut s = TermStore::new();
        let c = |s: &mut TermStore, v: i64| s.bv_u64(8, v as u64);
        let (m7, two, zero, min, m1) = (c(&mut s, -7), c(&mut s, 2), c(&mut s, 0), c(&mut s, -128), c(&mut s, -1));
        let q = div(&mut s, m7, two, true);
        assert_eq!(value(&s, q), (-3i8) as u8 as u128);
        let r = rem(&mut s, m7, two, true);
        assert_eq!(value(&s, r), (-1i8) as u8 as u128);
        let q = div(&mut s, m7, zero, true);
        assert_eq!(value(&s, q), 0);
        let r = rem(&mut s, m7, zero, true);
        assert_eq!(value(&s, r), (-7i8) as u8 as u128);
        let q = div(&mut s, min, m1, true);
        assert_eq!(value(&s, q), 0x80);
        let q = div(&mut s, m7, two, false);
        assert_eq!(value(&s, q), 249 / 2);
    }

    #[test]
    fn shifts_out_of_range_follow_the_ir_definition() {
        let mut s = TermStore::new();
        let x = s.bv_u64(8, 0x81);
        let amounts = [(1i64, 0x02u128, 0xc0u128, 0x40u128), (8, 0, 0xff, 0), (-1, 0, 0xff, 0), (7, 0x80, 0xff, 1)];
        for (amount, left, arith_right, logical_right) in amounts {
            let a = s.bv_u64(32, amount as u64);
            let l = shl(&mut s, x, a, true);
            assert_eq!(value(&s, l), left, "0x81 << {amount}");
            let r = shr(&mut s, x, a, true, true);
            assert_eq!(value(&s, r), arith_right, "signed 0x81 >> {amount}");
            let r = shr(&mut s, x, a, false, true);
            assert_eq!(value(&s, r), logical_right, "unsigned 0x81 >> {amount}");
        }
        let big_unsigned = s.bv_u64(64, u64::MAX);
        let l = shl(&mut s, x, big_unsigned, false);
        assert_eq!(value(&s, l), 0);
    }
}
