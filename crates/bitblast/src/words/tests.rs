//! Word circuits checked against `u128`/`i128` arithmetic: every operation
//! is built once over input words and simulated on edge-case and random
//! values, and built again over constant words to check that constant
//! folding computes the same result.

use super::*;
use crate::testing::{mask, to_signed, Rng};

type Binary = fn(&mut Aig, &[Lit], &[Lit]) -> Word;
type BinaryRef = fn(u128, u128, usize) -> u128;

const WIDTHS: [usize; 13] = [1, 2, 3, 4, 5, 7, 8, 16, 31, 33, 64, 100, 128];
const SAMPLES: usize = 48;

/// A circuit over fresh input words, ready to simulate.
struct Circuit {
    aig: Aig,
    inputs: Vec<Word>,
    output: Word,
}

impl Circuit {
    fn build(widths: &[usize], body: impl FnOnce(&mut Aig, &[Word]) -> Word) -> Circuit {
        let mut aig = Aig::new();
        let inputs: Vec<Word> = widths.iter().map(|&w| inputs(&mut aig, w)).collect();
        let output = body(&mut aig, &inputs);
        Circuit { aig, inputs, output }
    }

    fn run(&self, values: &[u128]) -> u128 {
        let mut assignment = vec![false; self.aig.num_vars()];
        for (word, value) in self.inputs.iter().zip(values) {
            for (i, lit) in word.iter().enumerate() {
                assignment[lit.var().index()] = i < 128 && value >> i & 1 == 1;
            }
        }
        self.aig.simulate(|var| assignment[var.index()]).word_u128(&self.output)
    }
}

fn bit(value: bool) -> u128 {
    u128::from(value)
}

fn check_binary(name: &str, circuit: Binary, reference: BinaryRef, widths: &[usize]) {
    let mut rng = Rng::new(name.len() as u64 * 7919);
    for &width in widths {
        let built = Circuit::build(&[width, width], |aig, w| circuit(aig, &w[0], &w[1]));
        for _ in 0..SAMPLES {
            let (a, b) = (rng.edgy_value(width), rng.edgy_value(width));
            let want = reference(a, b, width);
            let got = built.run(&[a, b]);
            assert_eq!(got, want, "{name} width {width}: a={a:#x} b={b:#x}");
            let mut folding = Aig::new();
            let folded = circuit(&mut folding, &constant(a, width), &constant(b, width));
            assert_eq!(const_value(&folded), Some(want), "{name} folded, width {width}: a={a:#x} b={b:#x}");
            assert_eq!(folding.num_ands(), 0, "{name}: constant operands must fold completely");
        }
    }
}

fn signed_division_by_zero(a: u128, width: usize) -> u128 {
    if to_signed(a, width) < 0 {
        1
    } else {
        mask(width)
    }
}

fn in_signed_range(value: Option<i128>, width: usize) -> bool {
    let max = to_signed(mask(width) >> 1, width);
    value.is_some_and(|v| (-max - 1..=max).contains(&v))
}

fn rotate_left_ref(a: u128, amount: u128, width: usize) -> u128 {
    let r = (amount % width as u128) as u32;
    if r == 0 {
        a
    } else {
        (a << r | a >> (width as u32 - r)) & mask(width)
    }
}

#[test]
fn arithmetic_matches_reference() {
    let cases: [(&str, Binary, BinaryRef); 8] = [
        ("add", add, |a, b, w| a.wrapping_add(b) & mask(w)),
        ("sub", sub, |a, b, w| a.wrapping_sub(b) & mask(w)),
        ("mul", mul, |a, b, w| a.wrapping_mul(b) & mask(w)),
        ("udiv", udiv, |a, b, w| a.checked_div(b).unwrap_or(mask(w))),
        ("urem", urem, |a, b, _| if b == 0 { a } else { a % b }),
        ("sdiv", sdiv, |a, b, w| match to_signed(b, w) {
            0 => signed_division_by_zero(a, w),
            sb => to_signed(a, w).wrapping_div(sb) as u128 & mask(w),
        }),
        ("srem", srem, |a, b, w| match to_signed(b, w) {
            0 => a,
            sb => to_signed(a, w).wrapping_rem(sb) as u128 & mask(w),
        }),
        ("smod", smod, |a, b, w| match to_signed(b, w) {
            0 => a,
            sb => {
                let r = to_signed(a, w).wrapping_rem(sb);
                let r = if r != 0 && (r < 0) != (sb < 0) { r + sb } else { r };
                r as u128 & mask(w)
            }
        }),
    ];
    for (name, circuit, reference) in cases {
        check_binary(name, circuit, reference, &WIDTHS);
    }
}

#[test]
fn bitwise_and_shifts_match_reference() {
    let cases: [(&str, Binary, BinaryRef); 8] = [
        ("and", and, |a, b, _| a & b),
        ("or", or, |a, b, _| a | b),
        ("xor", xor, |a, b, _| a ^ b),
        ("shl", shl, |a, b, w| if b >= w as u128 { 0 } else { a << b & mask(w) }),
        ("lshr", lshr, |a, b, w| if b >= w as u128 { 0 } else { a >> b }),
        ("ashr", ashr, |a, b, w| {
            let shift = b.min(w as u128 - 1) as u32;
            (to_signed(a, w) >> shift) as u128 & mask(w)
        }),
        ("rotate_left", rotate_left, rotate_left_ref),
        ("rotate_right", rotate_right, |a, b, w| {
            let r = (b % w as u128) as usize;
            rotate_left_ref(a, (w - r) as u128, w)
        }),
    ];
    for (name, circuit, reference) in cases {
        check_binary(name, circuit, reference, &WIDTHS);
    }
}

#[test]
fn comparisons_match_reference() {
    let cases: [(&str, Binary, BinaryRef); 5] = [
        ("eq", |g, a, b| vec![eq(g, a, b)], |a, b, _| bit(a == b)),
        ("ult", |g, a, b| vec![ult(g, a, b)], |a, b, _| bit(a < b)),
        ("ule", |g, a, b| vec![ule(g, a, b)], |a, b, _| bit(a <= b)),
        ("slt", |g, a, b| vec![slt(g, a, b)], |a, b, w| bit(to_signed(a, w) < to_signed(b, w))),
        ("sle", |g, a, b| vec![sle(g, a, b)], |a, b, w| bit(to_signed(a, w) <= to_signed(b, w))),
    ];
    for (name, circuit, reference) in cases {
        check_binary(name, circuit, reference, &WIDTHS);
    }
}

#[test]
fn overflow_predicates_match_reference() {
    let cases: [(&str, Binary, BinaryRef); 7] = [
        (
            "uadd_overflow",
            |g, a, b| vec![uadd_overflow(g, a, b)],
            |a, b, w| bit(a.checked_add(b).is_none_or(|s| s > mask(w))),
        ),
        (
            "sadd_overflow",
            |g, a, b| vec![sadd_overflow(g, a, b)],
            |a, b, w| bit(!in_signed_range(to_signed(a, w).checked_add(to_signed(b, w)), w)),
        ),
        ("usub_overflow", |g, a, b| vec![usub_overflow(g, a, b)], |a, b, _| bit(a < b)),
        (
            "ssub_overflow",
            |g, a, b| vec![ssub_overflow(g, a, b)],
            |a, b, w| bit(!in_signed_range(to_signed(a, w).checked_sub(to_signed(b, w)), w)),
        ),
        (
            "umul_overflow",
            |g, a, b| vec![umul_overflow(g, a, b)],
            |a, b, w| bit(a.checked_mul(b).is_none_or(|p| p > mask(w))),
        ),
        (
            "smul_overflow",
            |g, a, b| vec![smul_overflow(g, a, b)],
            |a, b, w| bit(!in_signed_range(to_signed(a, w).checked_mul(to_signed(b, w)), w)),
        ),
        ("sdiv_overflow", |g, a, b| vec![sdiv_overflow(g, a, b)], |a, b, w| bit(a == 1 << (w - 1) && b == mask(w))),
    ];
    let widths = [1, 2, 3, 5, 8, 16, 33, 64];
    for (name, circuit, reference) in cases {
        check_binary(name, circuit, reference, &widths);
    }
}

#[test]
fn unary_operations_match_reference() {
    type Unary = fn(&mut Aig, &[Lit]) -> Word;
    type UnaryRef = fn(u128, usize) -> u128;
    let cases: [(&str, Unary, UnaryRef); 8] = [
        ("not", |_, a| not(a), |a, w| !a & mask(w)),
        ("neg", neg, |a, w| a.wrapping_neg() & mask(w)),
        ("abs", abs, |a, w| to_signed(a, w).unsigned_abs() & mask(w)),
        ("neg_overflow", |g, a| vec![neg_overflow(g, a)], |a, w| bit(a == 1 << (w - 1))),
        ("popcount", |g, a| popcount(g, a, 8), |a, _| u128::from(a.count_ones())),
        ("clz", |g, a| clz(g, a, 8), |a, w| u128::from(a.leading_zeros()) - (128 - w as u128)),
        ("ctz", |g, a| ctz(g, a, 8), |a, w| u128::from(a.trailing_zeros()).min(w as u128)),
        (
            "normalize",
            |g, a| normalize(g, a, 8).0,
            |a, w| {
                let zeros = a.leading_zeros() as usize - (128 - w);
                if zeros >= w {
                    0
                } else {
                    a << zeros & mask(w)
                }
            },
        ),
    ];
    let mut rng = Rng::new(17);
    for (name, circuit, reference) in cases {
        for width in WIDTHS {
            let built = Circuit::build(&[width], |aig, w| circuit(aig, &w[0]));
            for _ in 0..SAMPLES {
                let a = rng.edgy_value(width);
                assert_eq!(built.run(&[a]), reference(a, width), "{name} width {width}: a={a:#x}");
            }
        }
    }
}

#[test]
fn wide_product_square_and_sticky_shift_match_reference() {
    let mut rng = Rng::new(5);
    for (wa, wb) in [(1, 1), (3, 5), (8, 8), (24, 24), (53, 11), (64, 64)] {
        let built = Circuit::build(&[wa, wb], |aig, w| mul_wide(aig, &w[0], &w[1]));
        for _ in 0..SAMPLES {
            let (a, b) = (rng.edgy_value(wa), rng.edgy_value(wb));
            assert_eq!(built.run(&[a, b]), a * b, "mul_wide {wa}x{wb}: a={a:#x} b={b:#x}");
        }
    }
    for width in [1, 2, 3, 8, 24, 53, 64] {
        let built = Circuit::build(&[width], |aig, w| square(aig, &w[0]));
        for _ in 0..SAMPLES {
            let a = rng.edgy_value(width);
            assert_eq!(built.run(&[a]), a * a, "square {width}: a={a:#x}");
        }
    }
    for width in WIDTHS {
        let built = Circuit::build(&[width, width], |aig, w| {
            let (shifted, sticky) = lshr_sticky(aig, &w[0], &w[1]);
            let mut out = resize_unsigned(&shifted, 127);
            out.push(sticky);
            out
        });
        for _ in 0..SAMPLES {
            let a = rng.edgy_value(width);
            let near_width = rng.below(width + 3) as u128 & mask(width);
            let amount = if rng.below(2) == 0 { near_width } else { rng.edgy_value(width) };
            let (shifted, lost) =
                if amount >= width as u128 { (0, a) } else { (a >> amount, a & mask(amount as usize)) };
            let want = shifted & mask(127) | u128::from(lost != 0) << 127;
            assert_eq!(built.run(&[a, amount]), want, "lshr_sticky width {width}: a={a:#x} amount={amount}");
        }
    }
}

#[test]
fn structural_operations_rewire_bits() {
    let mut aig = Aig::new();
    let a = inputs(&mut aig, 8);
    let b = inputs(&mut aig, 4);
    assert_eq!(extract(&a, 5, 2), a[2..6].to_vec());
    let joined = concat(&b, &a);
    assert_eq!(joined.len(), 12);
    assert_eq!(joined[..8], a[..]);
    assert_eq!(joined[8..], b[..]);
    assert_eq!(zero_extend(&b, 2)[4..], [Lit::FALSE, Lit::FALSE]);
    assert_eq!(sign_extend(&b, 2)[4..], [b[3], b[3]]);
    assert_eq!(rotate_left_const(&b, 1), vec![b[3], b[0], b[1], b[2]]);
    assert_eq!(rotate_right_const(&b, 1), vec![b[1], b[2], b[3], b[0]]);
    assert_eq!(ashr_const(&b, 3), vec![b[3]; 4]);
    assert_eq!(aig.num_ands(), 0);
}

#[test]
fn constant_multipliers_stay_small() {
    let mut aig = Aig::new();
    let a = inputs(&mut aig, 32);
    let times_eight = mul(&mut aig, &a, &constant(8, 32));
    assert_eq!(times_eight, shl_const(&a, 3));
    assert_eq!(aig.num_ands(), 0, "a power-of-two factor is a rewiring");
    let before = aig.num_ands();
    mul(&mut aig, &constant(10, 32), &a);
    assert!(aig.num_ands() - before < 32 * 12, "x*10 is one adder, got {}", aig.num_ands() - before);
}

#[test]
fn wide_words_beyond_128_bits() {
    let width = 200;
    let mut rng = Rng::new(99);
    let built = Circuit::build(&[width, width], |aig, w| {
        let sum = add(aig, &w[0], &w[1]);
        let low_bits = extract(&sum, 127, 0);
        let ordered = ult(aig, &w[0], &w[1]);
        let mut out = low_bits;
        out[127] = ordered;
        out
    });
    for _ in 0..SAMPLES {
        // Values live in the low 120 bits; the upper bits stay zero.
        let (a, b) = (rng.next_u128() >> 8, rng.next_u128() >> 8);
        let got = built.run(&[a, b]);
        let want = (a + b) & mask(127) | bit(a < b) << 127;
        assert_eq!(got, want, "a={a:#x} b={b:#x}");
    }
}
