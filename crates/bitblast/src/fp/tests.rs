//! The FP circuits against the term evaluator (which computes with the
//! exact `ieee` crate), bit for bit: circuits built on constant words fold
//! to constant results that must equal the evaluator's, for special and
//! random operands in every rounding mode, exhaustively on a tiny format;
//! plus solver queries whose answers the evaluator confirms.

use smt::{
    BvValue, FpValue, Op, RoundingMode, SatResult, Solver, Sort, SortTable, TermId, TermStore,
    Value,
};

use super::*;
use crate::blast::{constant_word, value_from_bits};
use crate::testing::{mask, Rng};
use crate::BitBlastSolver;

const TINY: (u32, u32) = (3, 4);
const F16: (u32, u32) = (5, 11);
const F32: (u32, u32) = (8, 24);
const F64: (u32, u32) = (11, 53);
/// The value set of x87 `long double`.
const X87: (u32, u32) = (15, 64);

const ROUNDING_ARITHMETIC: [Op; 4] = [Op::FpAdd, Op::FpSub, Op::FpMul, Op::FpDiv];
const BINARY: [Op; 8] = [
    Op::FpRem,
    Op::FpMin,
    Op::FpMax,
    Op::FpEq,
    Op::FpLt,
    Op::FpLeq,
    Op::FpGt,
    Op::FpGeq,
];
const UNARY: [Op; 9] = [
    Op::FpAbs,
    Op::FpNeg,
    Op::FpIsNaN,
    Op::FpIsInfinite,
    Op::FpIsZero,
    Op::FpIsNormal,
    Op::FpIsSubnormal,
    Op::FpIsNegative,
    Op::FpIsPositive,
];

fn float(format: (u32, u32), bits: u128) -> Value {
    let (exp, sig) = format;
    Value::Fp(FpValue::from_bits(
        exp,
        sig,
        BvValue::from_u128(exp + sig, bits & mask((exp + sig) as usize)),
    ))
}

/// Checks the circuit of `op` on constant `args` against the evaluator.
fn check(op: Op, args: &[Value]) {
    let sorts = SortTable::default();
    let refs: Vec<&Value> = args.iter().collect();
    let expected = smt::eval_op(op, &refs, &sorts).expect("evaluator handles the operands");
    let mut aig = Aig::new();
    let arg_sorts: Vec<Sort> = args.iter().map(Value::sort).collect();
    let arg_words: Vec<Word> = args
        .iter()
        .map(|a| constant_word(a).expect("scalar operand"))
        .collect();
    let word = apply(&mut aig, op, expected.sort(), &arg_sorts, &arg_words)
        .expect("operator has a circuit");
    let bits: Option<Vec<bool>> = word
        .iter()
        .map(|l| l.is_const().then_some(*l == Lit::TRUE))
        .collect();
    let got = value_from_bits(
        expected.sort(),
        &bits.expect("constant operands fold to a constant"),
    );
    let shown: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    assert_eq!(got, Some(expected), "{op:?} {}", shown.join(" "));
}

/// Interesting encodings of a format: zeros, infinities, NaNs, the
/// extremes of the subnormal and normal ranges, one and its neighbours.
fn special_values(format: (u32, u32)) -> Vec<u128> {
    let (exp, sig) = (format.0 as usize, format.1 as usize);
    let sign = 1u128 << (exp + sig - 1);
    let exponent_one = 1u128 << (sig - 1);
    let infinity = mask(exp) << (sig - 1);
    let one = (mask(exp - 1)) << (sig - 1);
    let positives = [
        0,
        1,
        exponent_one - 1,
        exponent_one,
        exponent_one + 1,
        infinity - 1,
        infinity,
        infinity | 1,
        infinity | (exponent_one >> 1),
        one,
        one + 1,
        one - 1,
        one + exponent_one,
    ];
    positives.iter().flat_map(|&p| [p, p | sign]).collect()
}

fn operands(format: (u32, u32), rng: &mut Rng, random_count: usize) -> Vec<u128> {
    let width = (format.0 + format.1) as usize;
    let mut values = special_values(format);
    values.extend((0..random_count).map(|_| rng.next_u128() & mask(width)));
    values
}

fn modes() -> impl Iterator<Item = Value> {
    RoundingMode::ALL.into_iter().map(Value::Rm)
}

fn check_all_ops(format: (u32, u32), values: &[u128], pairs: impl Iterator<Item = (u128, u128)>) {
    for &x in values {
        for op in UNARY {
            check(op, &[float(format, x)]);
        }
    }
    for (x, y) in pairs {
        let (a, b) = (float(format, x), float(format, y));
        for op in BINARY {
            check(op, &[a.clone(), b.clone()]);
        }
        for rm in modes() {
            check(Op::FpRoundToIntegral, &[rm.clone(), a.clone()]);
            check(Op::FpSqrt, &[rm.clone(), a.clone()]);
            for op in ROUNDING_ARITHMETIC {
                check(op, &[rm.clone(), a.clone(), b.clone()]);
            }
        }
    }
}

#[test]
fn tiny_format_every_operand_pair() {
    let all: Vec<u128> = (0..1u128 << (TINY.0 + TINY.1)).collect();
    let pairs = all.iter().flat_map(|&x| all.iter().map(move |&y| (x, y)));
    check_all_ops(TINY, &all, pairs);
}

fn random_pairs(format: (u32, u32), seed: u64, random_count: usize, pair_count: usize) {
    let mut rng = Rng::new(seed);
    let values = operands(format, &mut rng, random_count);
    let specials = special_values(format);
    let mut pairs: Vec<(u128, u128)> = specials
        .iter()
        .flat_map(|&x| specials.iter().map(move |&y| (x, y)))
        .collect();
    pairs.extend((0..pair_count).map(|_| {
        (
            values[rng.below(values.len())],
            values[rng.below(values.len())],
        )
    }));
    // Operands of nearby exponents exercise cancellation and rounding.
    let width = (format.0 + format.1) as usize;
    pairs.extend((0..pair_count).map(|_| {
        let x = rng.next_u128() & mask(width);
        (x, x ^ (rng.next_u128() & mask(format.1 as usize + 1)))
    }));
    check_all_ops(format, &values, pairs.into_iter());
}

#[test]
fn half_precision_special_and_random_operands() {
    random_pairs(F16, 16, 200, 400);
}

#[test]
fn single_precision_special_and_random_operands() {
    random_pairs(F32, 32, 100, 200);
}

#[test]
fn double_precision_random_operands() {
    random_pairs(F64, 64, 30, 40);
}

#[test]
fn x87_precision_random_operands() {
    random_pairs(X87, 80, 20, 20);
}

/// The encoding of `-(x · y)` rounded to nearest.
fn negated_product(format: (u32, u32), x: u128, y: u128) -> u128 {
    let args = [
        Value::Rm(RoundingMode::Rne),
        float(format, x),
        float(format, y),
    ];
    let refs: Vec<&Value> = args.iter().collect();
    let product = smt::eval_op(Op::FpMul, &refs, &SortTable::default()).expect("evaluator");
    let bits = product
        .as_fp()
        .expect("float")
        .bits()
        .to_u128()
        .expect("narrow");
    bits ^ 1 << (format.0 + format.1 - 1)
}

/// Special operands in every combination, then random ones.
#[test]
fn fused_multiply_add() {
    let mut rng = Rng::new(5);
    for (format, random_triples) in [(TINY, 3000), (F16, 1500), (F32, 1500), (F64, 600)] {
        let specials = special_values(format);
        let values = operands(format, &mut rng, 100);
        let mut triples = Vec::new();
        for &x in &specials {
            for &y in &specials {
                triples.push((x, y, specials[rng.below(specials.len())]));
            }
        }
        for _ in 0..random_triples {
            let pick = |rng: &mut Rng| values[rng.below(values.len())];
            let (x, y) = (pick(&mut rng), pick(&mut rng));
            // Half of the addends cancel the product's leading bits.
            let z = match rng.below(2) {
                0 => pick(&mut rng),
                _ => negated_product(format, x, y),
            };
            triples.push((x, y, z));
        }
        for (x, y, z) in triples {
            let args = [float(format, x), float(format, y), float(format, z)];
            for rm in modes() {
                let mut all = vec![rm];
                all.extend(args.iter().cloned());
                check(Op::FpFma, &all);
            }
        }
    }
}

#[test]
fn conversions_between_formats() {
    let formats = [TINY, (4, 5), F16, F32, F64, X87];
    let mut rng = Rng::new(7);
    for from in formats {
        for x in operands(from, &mut rng, 60) {
            for to in formats {
                for rm in modes() {
                    check(
                        Op::ToFp {
                            exp: to.0,
                            sig: to.1,
                        },
                        &[rm, float(from, x)],
                    );
                }
            }
        }
    }
}

#[test]
fn conversions_from_integers() {
    let mut rng = Rng::new(8);
    for width in [1u32, 3, 8, 32, 64, 65] {
        for _ in 0..60 {
            let bits = rng.edgy_value(width as usize);
            let bv = Value::Bv(BvValue::from_u128(width, bits));
            for to in [TINY, F16, F32, F64, X87] {
                for rm in modes() {
                    check(
                        Op::ToFpFromSbv {
                            exp: to.0,
                            sig: to.1,
                        },
                        &[rm.clone(), bv.clone()],
                    );
                    check(
                        Op::ToFpFromUbv {
                            exp: to.0,
                            sig: to.1,
                        },
                        &[rm, bv.clone()],
                    );
                }
            }
        }
    }
}

#[test]
fn conversions_to_integers() {
    let mut rng = Rng::new(9);
    for from in [TINY, F16, F32, F64, X87] {
        let mut values = operands(from, &mut rng, 80);
        // Values near the integer ranges and halfway cases.
        let integral: [f64; 12] = [
            0.5, 1.5, 2.5, -0.5, -1.5, 127.5, 128.0, -128.0, -128.5, 255.5, 256.0, -0.7,
        ];
        if from == F64 {
            values.extend(integral.iter().map(|v| v.to_bits() as u128));
        }
        if from == X87 {
            // 2^63, 2^64 - 1, -2^63 and 2^63 - 0.5: the 64-bit limits.
            let (two_63, sign, fraction) = (0x403Eu128 << 63, 1u128 << 78, mask(63));
            values.extend([two_63, two_63 | fraction, two_63 | sign, 0x403D << 63 | fraction]);
        }
        for x in values {
            for width in [1u32, 2, 8, 16, 32, 64] {
                for rm in modes() {
                    check(Op::FpToSbv(width), &[rm.clone(), float(from, x)]);
                    check(Op::FpToUbv(width), &[rm, float(from, x)]);
                }
            }
        }
    }
}

#[test]
fn operators_without_circuits_are_left_to_the_approximation() {
    let mut aig = Aig::new();
    let f32_sort = Sort::Float { exp: 8, sig: 24 };
    let x = words::inputs(&mut aig, 32);
    // A format whose largest values are not integers (emax 3, sig 8).
    let odd_sort = Sort::Float { exp: 3, sig: 8 };
    let odd = words::inputs(&mut aig, 11);
    let sorts = [Sort::RoundingMode, odd_sort];
    let rne = words::constant(0, 3);
    assert!(apply(
        &mut aig,
        Op::FpRoundToIntegral,
        odd_sort,
        &sorts,
        &[rne, odd]
    )
    .is_none());
    // Remainders of significands wider than x87's.
    let f128_sort = Sort::Float { exp: 15, sig: 113 };
    let y = words::inputs(&mut aig, 128);
    let sorts = [f128_sort, f128_sort];
    let remainder = apply(&mut aig, Op::FpRem, f128_sort, &sorts, &[y.clone(), y]);
    assert!(remainder.is_none());
    assert!(apply(
        &mut aig,
        Op::FpRem,
        f32_sort,
        &[f32_sort, f32_sort],
        &[x.clone(), x.clone()]
    )
    .is_some());
    let huge = Sort::Float { exp: 100, sig: 24 };
    let wide = words::inputs(&mut aig, 124);
    assert!(apply(&mut aig, Op::FpIsNaN, Sort::Bool, &[huge], &[wide]).is_none());
}

fn f32_const(store: &mut TermStore, x: f32) -> TermId {
    store.constant(float(F32, x.to_bits() as u128))
}

/// Solves `op(rm, x, c) == d` for `x` and checks the model by evaluation.
#[test]
fn solver_finds_operands_the_evaluator_confirms() {
    let f32_sort = Sort::Float { exp: 8, sig: 24 };
    for op in ROUNDING_ARITHMETIC {
        let mut store = TermStore::new();
        let x = store.var("x", f32_sort);
        let rm = store.constant(Value::Rm(RoundingMode::Rne));
        let c = f32_const(&mut store, 3.0);
        let d = f32_const(&mut store, 7.5);
        let applied = store.mk(op, &[rm, x, c]);
        let goal = store.mk(Op::Eq, &[applied, d]);
        let mut solver = BitBlastSolver::new();
        solver.assert(&store, goal);
        assert_eq!(solver.check(&store, &[]), SatResult::Sat, "{op:?}");
        let found = solver.model_value(&store, goal).expect("model evaluates");
        assert_eq!(found, Value::Bool(true), "{op:?}");
    }
}

/// `x + 0 = x` for every non-NaN `x` except `-0` (which gives `+0` in
/// nearest-even); `x · 1 = x` for non-NaN `x`; no `x` with `x < x`.
#[test]
fn solver_proves_simple_identities() {
    let f32_sort = Sort::Float { exp: 8, sig: 24 };
    let mut store = TermStore::new();
    let x = store.var("x", f32_sort);
    let rm = store.constant(Value::Rm(RoundingMode::Rne));
    let zero = f32_const(&mut store, 0.0);
    let one = f32_const(&mut store, 1.0);
    let not_nan = {
        let nan = store.mk(Op::FpIsNaN, &[x]);
        store.mk(Op::Not, &[nan])
    };
    let sum = store.mk(Op::FpAdd, &[rm, x, zero]);
    let product = store.mk(Op::FpMul, &[rm, x, one]);
    let negative_zero = {
        let is_zero = store.mk(Op::FpIsZero, &[x]);
        let negative = store.mk(Op::FpIsNegative, &[x]);
        store.mk(Op::And, &[is_zero, negative])
    };
    let sum_changed = store.mk(Op::Distinct, &[sum, x]);
    let product_changed = store.mk(Op::Distinct, &[product, x]);
    let below_itself = store.mk(Op::FpLt, &[x, x]);
    let mut solver = BitBlastSolver::new();
    solver.assert(&store, not_nan);
    assert_eq!(solver.check(&store, &[product_changed]), SatResult::Unsat);
    assert_eq!(solver.check(&store, &[below_itself]), SatResult::Unsat);
    assert_eq!(
        solver.check(&store, &[sum_changed]),
        SatResult::Sat,
        "-0 + +0 is +0"
    );
    let found = solver.model_value(&store, x).expect("model");
    assert_eq!(found, float(F32, (-0.0f32).to_bits() as u128));
    let not_negative_zero = store.mk(Op::Not, &[negative_zero]);
    assert_eq!(
        solver.check(&store, &[sum_changed, not_negative_zero]),
        SatResult::Unsat
    );
}

/// The remainder circuit `residue` on constant operands against the
/// evaluator.
fn check_rem(format: (u32, u32), residue: rem::Residue, x: u128, y: u128) {
    let (a, b) = (float(format, x), float(format, y));
    let expected = smt::eval_op(Op::FpRem, &[&a, &b], &SortTable::default()).expect("evaluator");
    let mut aig = Aig::new();
    let fmt = Format::of(a.sort()).expect("format within the limits");
    let nearest = round::Mode::decode(&mut aig, &words::constant(0, 3));
    let words_of = |v: &Value| constant_word(v).expect("scalar operand");
    let word = rem::rem(&mut aig, fmt, &nearest, residue, &words_of(&a), &words_of(&b));
    let bits: Vec<bool> = word
        .iter()
        .map(|l| {
            assert!(l.is_const(), "constant operands fold to a constant");
            *l == Lit::TRUE
        })
        .collect();
    let got = value_from_bits(expected.sort(), &bits);
    assert_eq!(got, Some(expected), "{residue:?} rem {a} {b}");
}

/// The finite encoding of `significand · 2^exponent` (positive, normal:
/// the caller keeps the exponent in range).
fn finite(format: (u32, u32), significand: u128, exponent: i64) -> u128 {
    let sig = format.1 as i64;
    let shift = sig - (128 - significand.leading_zeros()) as i64;
    let normalized = significand << shift;
    let biased = exponent - shift + sig - 1 + (1i64 << (format.0 - 1)) - 1;
    assert!(biased > 0 && biased < (1i64 << format.0) - 1, "normal exponent");
    (biased as u128) << (sig - 1) | (normalized & mask(sig as usize - 1))
}

/// Operand pairs that stress the residue: equal significands, exponent
/// differences up to the whole range (subnormal divisors included), exact
/// halfway quotients in both parities, besides specials and random pairs.
fn remainder_pairs(format: (u32, u32), rng: &mut Rng, count: usize) -> Vec<(u128, u128)> {
    let (exp, sig) = (format.0, format.1 as usize);
    let width = (exp + format.1) as usize;
    let emax = (1i64 << (exp - 1)) - 1;
    let specials = special_values(format);
    let mut pairs: Vec<(u128, u128)> = specials
        .iter()
        .flat_map(|&x| specials.iter().map(move |&y| (x, y)))
        .collect();
    let sign = |rng: &mut Rng| (rng.below(2) as u128) << (width - 1);
    let small_significand = |rng: &mut Rng| (rng.next_u128() & mask(sig.saturating_sub(8).max(1))) | 1;
    for _ in 0..count {
        let m = small_significand(rng);
        let top = emax - sig as i64;
        let spread = 2 * emax as usize - sig;
        let (e1, e2) = (top - rng.below(spread) as i64, top - rng.below(spread) as i64);
        pairs.push((finite(format, m, e1) | sign(rng), finite(format, m, e2) | sign(rng)));
        // y = m · 2^e and x = (2n + 1) · m · 2^(e - 1): the quotient is n + 1/2.
        let n = rng.below(100) as u128;
        let e = top - rng.below(spread) as i64;
        pairs.push((finite(format, (2 * n + 1) * m, e - 1) | sign(rng), finite(format, m, e) | sign(rng)));
        let largest = mask(width - 1) - mask(sig - 1) - 1;
        let subnormal = rng.next_u128() & mask(sig - 1);
        pairs.push((largest - rng.below(1000) as u128, subnormal.max(1) | sign(rng)));
        pairs.push((rng.next_u128() & mask(width), rng.next_u128() & mask(width)));
        let x = rng.next_u128() & mask(width);
        pairs.push((x, x ^ (rng.next_u128() & mask(sig + 1))));
    }
    pairs
}

#[test]
fn both_remainder_circuits_agree_with_the_evaluator() {
    use rem::Residue::*;
    let all: Vec<u128> = (0..1u128 << (TINY.0 + TINY.1)).collect();
    for &x in &all {
        for &y in &all {
            check_rem(TINY, LongDivision, x, y);
            check_rem(TINY, Modular, x, y);
        }
    }
    let mut rng = Rng::new(44);
    // Long division is only chosen for narrow exponents (binary16 here).
    for (format, count, residues) in [
        (F16, 150, &[LongDivision, Modular][..]),
        (F32, 80, &[Modular]),
        (F64, 50, &[Modular]),
        (X87, 60, &[Modular]),
    ] {
        for (x, y) in remainder_pairs(format, &mut rng, count) {
            for &residue in residues {
                check_rem(format, residue, x, y);
            }
        }
    }
}

/// AND gates of the remainder circuit `residue` on free operands.
fn remainder_gates(format: (u32, u32), residue: rem::Residue) -> usize {
    let mut aig = Aig::new();
    let fmt = Format::of(Sort::Float { exp: format.0, sig: format.1 }).expect("format within the limits");
    let nearest = round::Mode::decode(&mut aig, &words::constant(0, 3));
    let x = words::inputs(&mut aig, fmt.width());
    let y = words::inputs(&mut aig, fmt.width());
    rem::rem(&mut aig, fmt, &nearest, residue, &x, &y);
    aig.num_ands()
}

/// Each format gets the smaller circuit (x87's long division, some 2^15
/// stages, is not built: it is far beyond the squarings' size).
#[test]
fn the_chosen_remainder_circuit_is_the_smaller() {
    for format in [TINY, F16, F32, F64] {
        let fmt = Format::of(Sort::Float { exp: format.0, sig: format.1 }).expect("format");
        let chosen = rem::Residue::for_format(fmt);
        let other = match chosen {
            rem::Residue::LongDivision => rem::Residue::Modular,
            rem::Residue::Modular => rem::Residue::LongDivision,
        };
        let (chosen_gates, other_gates) = (remainder_gates(format, chosen), remainder_gates(format, other));
        assert!(chosen_gates <= other_gates, "{format:?}: {chosen:?} {chosen_gates} gates, {other:?} {other_gates}");
    }
}
