//! `BvValue` against `u128`/`i128` reference arithmetic (widths ≤ 64, where
//! every exact intermediate fits) and algebraic identities for wide values.

use super::*;
use crate::testing::Rng;

fn mask(width: u32) -> u128 {
    (1u128 << width) - 1
}

fn signed(width: u32, v: u128) -> i128 {
    ((v << (128 - width)) as i128) >> (128 - width)
}

fn bits(width: u32, v: i128) -> BvValue {
    BvValue::from_u128(width, v as u128 & mask(width))
}

fn fits_signed(width: u32, v: i128) -> bool {
    v >= -(1i128 << (width - 1)) && v < (1i128 << (width - 1))
}

/// Checks one pair of operands against the reference semantics.
fn check_pair(w: u32, a: u128, b: u128) {
    let (x, y) = (BvValue::from_u128(w, a), BvValue::from_u128(w, b));
    let (sa, sb) = (signed(w, a), signed(w, b));
    let u = |v: u128| BvValue::from_u128(w, v & mask(w));
    let ctx = format!("w={w} a={a:#x} b={b:#x}");
    assert_eq!(x.add(&y), u(a + b), "add {ctx}");
    assert_eq!(x.sub(&y), u(a.wrapping_sub(b)), "sub {ctx}");
    assert_eq!(x.mul(&y), u(a * b), "mul {ctx}");
    assert_eq!(x.neg(), u(0u128.wrapping_sub(a)), "neg {ctx}");
    assert_eq!(x.not(), u(!a), "not {ctx}");
    assert_eq!(x.and(&y), u(a & b), "and {ctx}");
    assert_eq!(x.or(&y), u(a | b), "or {ctx}");
    assert_eq!(x.xor(&y), u(a ^ b), "xor {ctx}");
    assert_eq!(
        x.udiv(&y),
        u(a.checked_div(b).unwrap_or(u128::MAX)),
        "udiv {ctx}"
    );
    assert_eq!(x.urem(&y), u(if b == 0 { a } else { a % b }), "urem {ctx}");
    let sdiv = if sb == 0 {
        if sa < 0 {
            1
        } else {
            -1
        }
    } else {
        sa / sb
    };
    assert_eq!(x.sdiv(&y), bits(w, sdiv), "sdiv {ctx}");
    assert_eq!(
        x.srem(&y),
        bits(w, if sb == 0 { sa } else { sa % sb }),
        "srem {ctx}"
    );
    assert_eq!(
        x.smod(&y),
        bits(
            w,
            if sb == 0 {
                sa
            } else {
                sa.rem_euclid(sb)
                    + if sb < 0 && sa.rem_euclid(sb) != 0 {
                        sb
                    } else {
                        0
                    }
            }
        ),
        "smod {ctx}"
    );
    let shift = if b >= w as u128 { w } else { b as u32 };
    assert_eq!(
        x.shl(&y),
        u(if shift >= w { 0 } else { a << shift }),
        "shl {ctx}"
    );
    assert_eq!(
        x.lshr(&y),
        u(if shift >= w { 0 } else { a >> shift }),
        "lshr {ctx}"
    );
    assert_eq!(x.ashr(&y), bits(w, sa >> shift.min(127)), "ashr {ctx}");
    assert_eq!(x.ucmp(&y), a.cmp(&b), "ucmp {ctx}");
    assert_eq!(x.scmp(&y), sa.cmp(&sb), "scmp {ctx}");
    assert_eq!(x.uadd_overflows(&y), a + b > mask(w), "uaddo {ctx}");
    assert_eq!(
        x.sadd_overflows(&y),
        !fits_signed(w, sa + sb),
        "saddo {ctx}"
    );
    assert_eq!(x.usub_overflows(&y), a < b, "usubo {ctx}");
    assert_eq!(
        x.ssub_overflows(&y),
        !fits_signed(w, sa - sb),
        "ssubo {ctx}"
    );
    assert_eq!(x.umul_overflows(&y), a * b > mask(w), "umulo {ctx}");
    assert_eq!(
        x.smul_overflows(&y),
        !fits_signed(w, sa * sb),
        "smulo {ctx}"
    );
    assert_eq!(
        x.sdiv_overflows(&y),
        sb == -1 && !fits_signed(w, -sa),
        "sdivo {ctx}"
    );
    assert_eq!(x.to_i128(), Some(sa), "to_i128 {ctx}");
}

#[test]
fn arithmetic_matches_reference_up_to_64_bits() {
    let mut rng = Rng::new(1);
    for w in 1..=64 {
        for _ in 0..300 {
            let (a, b) = (rng.interesting_u128(w), rng.interesting_u128(w));
            check_pair(w, a, b);
        }
    }
}

#[test]
fn small_widths_exhaustively() {
    for w in 1..=4 {
        for a in 0..1u128 << w {
            for b in 0..1u128 << w {
                check_pair(w, a, b);
            }
        }
    }
}

#[test]
fn structural_operations_match_reference() {
    let mut rng = Rng::new(2);
    for _ in 0..2000 {
        let w = 1 + rng.below(40) as u32;
        let a = rng.interesting_u128(w);
        let x = BvValue::from_u128(w, a);
        let lo = rng.below(w as u64) as u32;
        let hi = lo + rng.below((w - lo) as u64) as u32;
        assert_eq!(
            x.extract(hi, lo).to_u128(),
            Some((a >> lo) & mask(hi - lo + 1))
        );
        let extra = rng.below(20) as u32;
        assert_eq!(x.zero_extend(extra).to_u128(), Some(a));
        assert_eq!(x.sign_extend(extra), bits(w + extra, signed(w, a)));
        let v = 1 + rng.below(40) as u32;
        let b = rng.interesting_u128(v);
        assert_eq!(
            x.concat(&BvValue::from_u128(v, b)).to_u128(),
            Some(a << v | b)
        );
        let k = rng.below(100) as u32;
        let r = k % w;
        let rotated = if r == 0 {
            a
        } else {
            ((a << r) | (a >> (w - r))) & mask(w)
        };
        assert_eq!(
            x.rotate_left(k).to_u128(),
            Some(rotated),
            "rotl w={w} a={a} k={k}"
        );
        assert_eq!(x.rotate_left(k).rotate_right(k), x);
    }
}

#[test]
fn wide_values_satisfy_division_and_ring_identities() {
    let mut rng = Rng::new(3);
    for _ in 0..300 {
        let w = 65 + rng.below(300) as u32;
        let random = |rng: &mut Rng| {
            let words: Vec<u64> = (0..5).map(|_| rng.next_u64() >> rng.below(64)).collect();
            BvValue::from_words(w, &words)
        };
        let (a, mut b) = (random(&mut rng), random(&mut rng));
        if rng.below(3) == 0 {
            b = BvValue::from_u64(w, rng.next_u64() >> rng.below(64)).add(&BvValue::one(w));
        }
        let (q, r) = (a.udiv(&b), a.urem(&b));
        assert_eq!(q.mul(&b).add(&r), a, "a = q*b + r, w={w}");
        assert!(r.ult(&b) || b.is_zero());
        let (sq, sr) = (a.sdiv(&b), a.srem(&b));
        assert_eq!(sq.mul(&b).add(&sr), a, "signed division identity, w={w}");
        assert_eq!(a.sub(&b).add(&b), a);
        assert_eq!(a.mul(&b), b.mul(&a));
        assert_eq!(a.neg().add(&a), BvValue::zero(w));
        assert_eq!(a.not(), BvValue::ones(w).sub(&a));
        let k = rng.below(w as u64) as u32;
        assert_eq!(a.shl_by(k), a.mul(&BvValue::one(w).shl_by(k)));
    }
}

#[test]
fn wide_hand_cases() {
    let w = 200;
    let ones = BvValue::ones(w);
    assert_eq!(ones.add(&BvValue::one(w)), BvValue::zero(w));
    assert!(ones.uadd_overflows(&BvValue::one(w)));
    let two_100 = BvValue::one(w).shl_by(100);
    let two_199 = BvValue::one(w).shl_by(199);
    assert_eq!(two_100.mul(&two_100), BvValue::zero(w), "2^200 wraps to 0");
    assert!(two_100.umul_overflows(&two_100));
    assert_eq!(two_199, BvValue::signed_min(w));
    assert!(two_199.sdiv_overflows(&ones));
    assert_eq!(two_199.sdiv(&ones), two_199, "min / -1 wraps to min");
    assert_eq!(
        BvValue::from_i128(w, -5).sdiv(&BvValue::from_i128(w, 2)),
        BvValue::from_i128(w, -2)
    );
    assert_eq!(
        BvValue::from_i128(w, -5).smod(&BvValue::from_i128(w, 3)),
        BvValue::from_i128(w, 1)
    );
    assert_eq!(BvValue::from_i128(w, -5).to_i128(), Some(-5));
    assert_eq!(two_199.to_i128(), None);
    assert_eq!(
        two_100.udiv(&BvValue::from_u64(w, 1 << 40)),
        BvValue::one(w).shl_by(60)
    );
    assert_eq!(
        two_199.ashr(&BvValue::from_u64(w, 198)),
        BvValue::from_i128(w, -2)
    );
    assert_eq!(two_199.lshr(&BvValue::from_u64(w, 1000)), BvValue::zero(w));
    assert_eq!(two_199.udiv(&BvValue::zero(w)), ones);
    assert_eq!(two_199.urem(&BvValue::zero(w)), two_199);
    assert_eq!(ones.to_smtlib().len(), 202);
}

/// Word-level shifts, slices and extensions against bit-by-bit definitions
/// at widths that cross word boundaries.
#[test]
fn wide_structural_operations_match_bitwise_definitions() {
    let mut rng = Rng::new(4);
    for _ in 0..400 {
        let w = 1 + rng.below(300) as u32;
        let words: Vec<u64> = (0..5).map(|_| rng.next_u64()).collect();
        let x = BvValue::from_words(w, &words);
        let k = rng.below(w as u64 + 2) as u32;
        let bit_or = |i: i64, fill: bool| {
            if i >= 0 && i < w as i64 {
                x.bit(i as u32)
            } else {
                fill
            }
        };
        let by_bits = |f: &dyn Fn(u32) -> bool, width: u32| {
            BvValue::from_bits_lsb_first(&(0..width).map(f).collect::<Vec<_>>())
        };
        assert_eq!(
            x.shl_by(k),
            by_bits(&|i| bit_or(i as i64 - k as i64, false), w),
            "shl w={w} k={k}"
        );
        let amount = BvValue::from_u64(w.max(64), k as u64).extract(w - 1, 0);
        let k_eff = amount
            .to_u64()
            .filter(|&a| a < w as u64)
            .map_or(w, |a| a as u32);
        assert_eq!(
            x.lshr(&amount),
            by_bits(&|i| bit_or(i as i64 + k_eff as i64, false), w),
            "lshr w={w} k={k}"
        );
        assert_eq!(
            x.ashr(&amount),
            by_bits(&|i| bit_or(i as i64 + k_eff as i64, x.msb()), w),
            "ashr w={w} k={k}"
        );
        let lo = rng.below(w as u64) as u32;
        let hi = lo + rng.below((w - lo) as u64) as u32;
        assert_eq!(
            x.extract(hi, lo),
            by_bits(&|i| x.bit(lo + i), hi - lo + 1),
            "extract w={w} [{hi}:{lo}]"
        );
        let extra = rng.below(130) as u32;
        assert_eq!(
            x.sign_extend(extra),
            by_bits(&|i| bit_or(i as i64, x.msb()), w + extra),
            "sext w={w}"
        );
        let v = 1 + rng.below(200) as u32;
        let y = BvValue::from_words(
            v,
            &[
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
            ],
        );
        let joined = by_bits(&|i| if i < v { y.bit(i) } else { x.bit(i - v) }, w + v);
        assert_eq!(x.concat(&y), joined, "concat w={w} v={v}");
    }
}
