//! Word-level circuits over AIG literals: the bit-vector operations of the
//! SMT-LIB theory (and the helpers floating point needs: counting leading
//! zeros, normalising shifts, wide multiplication) as functions from words
//! to words.
//!
//! A word is a slice of literals, least significant bit first. Functions
//! never look at more than the AIG's constant folding: a constant operand is
//! just a word of constant literals, and the AIG's simplification removes
//! the gates it makes redundant. Binary operations require operands of
//! equal width (checked with `assert_eq!`: a mismatch is a bug in the
//! caller, not bad user input).

use crate::aig::{Aig, Lit};

pub type Word = Vec<Lit>;

/// A word of `width` constant bits taken from `value` (bits beyond 128 are 0).
pub fn constant(value: u128, width: usize) -> Word {
    (0..width).map(|i| Lit::constant(i < 128 && value >> i & 1 == 1)).collect()
}

/// A word of constant bits given least significant first.
pub fn from_bits(bits: impl IntoIterator<Item = bool>) -> Word {
    bits.into_iter().map(Lit::constant).collect()
}

/// A word of fresh inputs.
pub fn inputs(aig: &mut Aig, width: usize) -> Word {
    (0..width).map(|_| aig.new_input()).collect()
}

/// The constant value of a word whose bits are all constants, if it fits.
pub fn const_value(word: &[Lit]) -> Option<u128> {
    if word.len() > 128 || !word.iter().all(|l| l.is_const()) {
        return None;
    }
    Some(word.iter().enumerate().fold(0, |acc, (i, &l)| acc | (u128::from(l == Lit::TRUE) << i)))
}

fn msb(word: &[Lit]) -> Lit {
    *word.last().expect("zero-width word")
}

fn check_widths(a: &[Lit], b: &[Lit]) {
    assert_eq!(a.len(), b.len(), "word width mismatch");
}

pub fn not(a: &[Lit]) -> Word {
    a.iter().map(|&l| !l).collect()
}

fn zip_with(aig: &mut Aig, a: &[Lit], b: &[Lit], gate: fn(&mut Aig, Lit, Lit) -> Lit) -> Word {
    check_widths(a, b);
    a.iter().zip(b).map(|(&x, &y)| gate(aig, x, y)).collect()
}

pub fn and(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    zip_with(aig, a, b, Aig::and)
}

pub fn or(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    zip_with(aig, a, b, Aig::or)
}

pub fn xor(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    zip_with(aig, a, b, Aig::xor)
}

/// `if cond { then } else { other }`, bitwise.
pub fn mux(aig: &mut Aig, cond: Lit, then: &[Lit], other: &[Lit]) -> Word {
    check_widths(then, other);
    then.iter().zip(other).map(|(&t, &e)| aig.mux(cond, t, e)).collect()
}

/// True when any bit is set.
pub fn reduce_or(aig: &mut Aig, a: &[Lit]) -> Lit {
    aig.or_all(a.iter().copied())
}

/// True when every bit is set.
pub fn reduce_and(aig: &mut Aig, a: &[Lit]) -> Lit {
    aig.and_all(a.iter().copied())
}

pub fn is_zero(aig: &mut Aig, a: &[Lit]) -> Lit {
    !reduce_or(aig, a)
}

pub fn eq(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    check_widths(a, b);
    let mut acc = Lit::TRUE;
    for (&x, &y) in a.iter().zip(b) {
        let same = aig.xnor(x, y);
        acc = aig.and(acc, same);
    }
    acc
}

/// Unsigned `a < b`, computed from the least significant bit up: at each bit
/// the result is decided by that bit when the bits differ, else by the
/// lower bits.
pub fn ult(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    check_widths(a, b);
    let mut less = Lit::FALSE;
    for (&x, &y) in a.iter().zip(b) {
        let differ = aig.xor(x, y);
        less = aig.mux(differ, y, less);
    }
    less
}

pub fn ule(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    !ult(aig, b, a)
}

/// Signed `a < b`: unsigned comparison with the sign bits swapped.
pub fn slt(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    check_widths(a, b);
    let mut a_flipped = a.to_vec();
    let mut b_flipped = b.to_vec();
    let top = a.len() - 1;
    a_flipped[top] = !a[top];
    b_flipped[top] = !b[top];
    ult(aig, &a_flipped, &b_flipped)
}

pub fn sle(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    !slt(aig, b, a)
}

/// Ripple-carry addition with a carry in; returns the sum and the carry out.
/// The carry is `half ? carry : x` (the majority of x, y and the carry),
/// which shares the half sum and is one multiplexer gate in the CNF.
pub fn add_with_carry(aig: &mut Aig, a: &[Lit], b: &[Lit], carry_in: Lit) -> (Word, Lit) {
    check_widths(a, b);
    let mut carry = carry_in;
    let mut sum = Vec::with_capacity(a.len());
    for (&x, &y) in a.iter().zip(b) {
        let half = aig.xor(x, y);
        sum.push(aig.xor(half, carry));
        carry = aig.mux(half, carry, x);
    }
    (sum, carry)
}

pub fn add(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    add_with_carry(aig, a, b, Lit::FALSE).0
}

/// `a - b` as `a + !b + 1`; the carry out is set exactly when no borrow
/// occurred (`a >= b` unsigned).
pub fn sub_with_carry(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> (Word, Lit) {
    add_with_carry(aig, a, &not(b), Lit::TRUE)
}

pub fn sub(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    sub_with_carry(aig, a, b).0
}

pub fn neg(aig: &mut Aig, a: &[Lit]) -> Word {
    sub(aig, &constant(0, a.len()), a)
}

/// Bits `lo..=hi` of `a`.
pub fn extract(a: &[Lit], hi: usize, lo: usize) -> Word {
    assert!(lo <= hi && hi < a.len(), "extract [{hi}:{lo}] out of a {}-bit word", a.len());
    a[lo..=hi].to_vec()
}

/// `high ++ low`: `low` supplies the least significant bits.
pub fn concat(high: &[Lit], low: &[Lit]) -> Word {
    low.iter().chain(high).copied().collect()
}

pub fn zero_extend(a: &[Lit], extra: usize) -> Word {
    a.iter().copied().chain(std::iter::repeat_n(Lit::FALSE, extra)).collect()
}

pub fn sign_extend(a: &[Lit], extra: usize) -> Word {
    a.iter().copied().chain(std::iter::repeat_n(msb(a), extra)).collect()
}

/// `a` shifted left by the constant `amount`, zeros shifted in.
pub fn shl_const(a: &[Lit], amount: usize) -> Word {
    let width = a.len();
    (0..width).map(|i| if i >= amount { a[i - amount] } else { Lit::FALSE }).collect()
}

/// `a` shifted right by the constant `amount`, `fill` shifted in.
fn shr_const(a: &[Lit], amount: usize, fill: Lit) -> Word {
    let width = a.len();
    (0..width).map(|i| if i + amount < width { a[i + amount] } else { fill }).collect()
}

pub fn lshr_const(a: &[Lit], amount: usize) -> Word {
    shr_const(a, amount, Lit::FALSE)
}

pub fn ashr_const(a: &[Lit], amount: usize) -> Word {
    shr_const(a, amount, msb(a))
}

/// Rotation left by a constant amount (taken modulo the width).
pub fn rotate_left_const(a: &[Lit], amount: usize) -> Word {
    let width = a.len();
    if width == 0 {
        return Vec::new();
    }
    let amount = amount % width;
    (0..width).map(|i| a[(i + width - amount) % width]).collect()
}

pub fn rotate_right_const(a: &[Lit], amount: usize) -> Word {
    let width = a.len();
    if width == 0 {
        return Vec::new();
    }
    rotate_left_const(a, width - amount % width)
}

/// True when the unsigned `amount` is at least the constant `bound`.
fn at_least_const(aig: &mut Aig, amount: &[Lit], bound: usize) -> Lit {
    let representable = amount.len() >= 128 || (bound as u128) < 1u128 << amount.len();
    if !representable {
        return Lit::FALSE;
    }
    let bound = constant(bound as u128, amount.len());
    !ult(aig, amount, &bound)
}

/// Logarithmic shifter: stage `k` shifts by `2^k` when bit `k` of `amount`
/// is set; amounts of at least the width give `fill` in every bit. Here and
/// in the public shifts, `amount` is unsigned and may have any width.
fn barrel_shift(
    aig: &mut Aig,
    a: &[Lit],
    amount: &[Lit],
    fill: Lit,
    shift_const: impl Fn(&[Lit], usize) -> Word,
) -> Word {
    let width = a.len();
    let mut current = a.to_vec();
    for (k, &bit) in amount.iter().enumerate() {
        if k >= usize::BITS as usize - 1 || 1usize << k >= width {
            break;
        }
        // Amounts are often scaled or zero-extended: skip constant stages.
        if bit == Lit::FALSE {
            continue;
        }
        let shifted = shift_const(&current, 1 << k);
        current = if bit == Lit::TRUE { shifted } else { mux(aig, bit, &shifted, &current) };
    }
    let overflow = at_least_const(aig, amount, width);
    let filled = vec![fill; width];
    mux(aig, overflow, &filled, &current)
}

/// `a << amount`; 0 when `amount >= width`.
pub fn shl(aig: &mut Aig, a: &[Lit], amount: &[Lit]) -> Word {
    barrel_shift(aig, a, amount, Lit::FALSE, shl_const)
}

/// Logical `a >> amount`; 0 when `amount >= width`.
pub fn lshr(aig: &mut Aig, a: &[Lit], amount: &[Lit]) -> Word {
    barrel_shift(aig, a, amount, Lit::FALSE, lshr_const)
}

/// Arithmetic `a >> amount`; all sign bits when `amount >= width`.
pub fn ashr(aig: &mut Aig, a: &[Lit], amount: &[Lit]) -> Word {
    let sign = msb(a);
    barrel_shift(aig, a, amount, sign, |w, k| shr_const(w, k, sign))
}

/// Rotation left by a symbolic amount, taken modulo the width.
pub fn rotate_left(aig: &mut Aig, a: &[Lit], amount: &[Lit]) -> Word {
    let width = a.len();
    let amount = amount_mod_width(aig, amount, width);
    let mut current = a.to_vec();
    for (k, &bit) in amount.iter().enumerate() {
        if 1usize << k >= width {
            break;
        }
        let rotated = rotate_left_const(&current, 1 << k);
        current = mux(aig, bit, &rotated, &current);
    }
    current
}

/// Rotation right by a symbolic amount, taken modulo the width.
pub fn rotate_right(aig: &mut Aig, a: &[Lit], amount: &[Lit]) -> Word {
    let width = a.len();
    let amount = amount_mod_width(aig, amount, width);
    let amount = zero_extend(&amount, 1);
    let width_word = constant(width as u128, amount.len());
    let left = sub(aig, &width_word, &amount);
    rotate_left(aig, a, &left)
}

/// `amount mod width`, in a word just wide enough to hold `width - 1`.
fn amount_mod_width(aig: &mut Aig, amount: &[Lit], width: usize) -> Word {
    let needed = bits_for(width.saturating_sub(1) as u128).max(1);
    if width.is_power_of_two() {
        return zero_extend(&amount[..needed.min(amount.len())], needed.saturating_sub(amount.len()));
    }
    let common = amount.len().max(needed + 1);
    let amount = zero_extend(amount, common - amount.len());
    let remainder = urem(aig, &amount, &constant(width as u128, common));
    remainder[..needed].to_vec()
}

/// Number of bits needed to write `value` in binary (0 for 0).
pub fn bits_for(value: u128) -> usize {
    (u128::BITS - value.leading_zeros()) as usize
}

/// `a * b` truncated to the width: shift-add, skipping partial products of
/// constant-zero multiplier bits. The operand with more constant bits is
/// used as the multiplier so constant multiplications stay small.
pub fn mul(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    check_widths(a, b);
    let constant_bits = |w: &[Lit]| w.iter().filter(|l| l.is_const()).count();
    let (multiplicand, multiplier) = if constant_bits(a) > constant_bits(b) { (b, a) } else { (a, b) };
    let width = a.len();
    let mut product = constant(0, width);
    for (i, &bit) in multiplier.iter().enumerate() {
        if bit == Lit::FALSE {
            continue;
        }
        // Only bits i.. of the product can change; add into that slice.
        let partial: Word = multiplicand[..width - i].iter().map(|&m| aig.and(m, bit)).collect();
        let upper = add(aig, &product[i..], &partial);
        product.truncate(i);
        product.extend(upper);
    }
    product
}

/// The full product of `a` and `b` (`a.len() + b.len()` bits, so it never
/// overflows): each partial product is added into its own window of the
/// product, a square-size circuit rather than the double-width
/// multiplier's four-fold one.
pub fn mul_wide(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    let constant_bits = |w: &[Lit]| w.iter().filter(|l| l.is_const()).count();
    let (multiplicand, multiplier) = if constant_bits(a) > constant_bits(b) { (b, a) } else { (a, b) };
    let n = multiplicand.len();
    let mut product = constant(0, a.len() + b.len());
    for (i, &bit) in multiplier.iter().enumerate() {
        if bit == Lit::FALSE {
            continue;
        }
        // Bit i + n is still zero here: earlier windows end below it.
        let partial: Word = multiplicand.iter().map(|&m| aig.and(m, bit)).collect();
        let (sum, carry) = add_with_carry(aig, &product[i..i + n], &partial, Lit::FALSE);
        product[i..i + n].copy_from_slice(&sum);
        product[i + n] = carry;
    }
    product
}

/// `a · a` in `2·a.len()` bits, about half the adders of [`mul_wide`]:
/// each cross product `a_i·a_j` (`i < j`) is added once at weight
/// `i + j + 1`, row `i` into its own window whose carry lands on a bit no
/// earlier row reached, and the squares `a_i·a_i = a_i` at weight `2i`
/// are added last.
pub fn square(aig: &mut Aig, a: &[Lit]) -> Word {
    let n = a.len();
    let mut product = constant(0, 2 * n);
    for i in 0..n.saturating_sub(1) {
        let row: Word = a[i + 1..].iter().map(|&other| aig.and(a[i], other)).collect();
        let window = 2 * i + 2..i + n + 1;
        let (sum, carry) = add_with_carry(aig, &product[window.clone()], &row, Lit::FALSE);
        product[window].copy_from_slice(&sum);
        product[i + n + 1] = carry;
    }
    let diagonal: Word = (0..2 * n).map(|k| if k % 2 == 0 { a[k / 2] } else { Lit::FALSE }).collect();
    add(aig, &product, &diagonal)
}

/// Logical `a >> amount` together with the sticky bit: the OR of every bit
/// shifted out (what rounding needs to know about the discarded part).
pub fn lshr_sticky(aig: &mut Aig, a: &[Lit], amount: &[Lit]) -> (Word, Lit) {
    let width = a.len();
    let mut current = a.to_vec();
    let mut sticky = Lit::FALSE;
    for (k, &bit) in amount.iter().enumerate() {
        if k >= usize::BITS as usize - 1 || 1usize << k >= width {
            break;
        }
        let lost = reduce_or(aig, &current[..1 << k]);
        let lost_here = aig.and(bit, lost);
        sticky = aig.or(sticky, lost_here);
        let shifted = lshr_const(&current, 1 << k);
        current = mux(aig, bit, &shifted, &current);
    }
    let overflow = at_least_const(aig, amount, width);
    let everything = reduce_or(aig, a);
    let sticky = aig.mux(overflow, everything, sticky);
    let zeros = constant(0, width);
    (mux(aig, overflow, &zeros, &current), sticky)
}

/// Unsigned quotient and remainder by restoring division. With a zero
/// divisor every trial subtraction succeeds, which yields exactly the
/// SMT-LIB results: quotient all ones, remainder the dividend.
pub fn udiv_urem(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> (Word, Word) {
    check_widths(a, b);
    let width = a.len();
    let divisor = zero_extend(b, 1);
    let mut remainder = constant(0, width);
    let mut quotient = vec![Lit::FALSE; width];
    for i in (0..width).rev() {
        // remainder * 2 + a[i], one bit wider so nothing is lost.
        let mut trial = vec![a[i]];
        trial.extend_from_slice(&remainder);
        let (difference, no_borrow) = sub_with_carry(aig, &trial, &divisor);
        quotient[i] = no_borrow;
        remainder = mux(aig, no_borrow, &difference[..width], &trial[..width]);
    }
    (quotient, remainder)
}

pub fn udiv(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    udiv_urem(aig, a, b).0
}

pub fn urem(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    udiv_urem(aig, a, b).1
}

/// Absolute value (the most negative number stays itself, as an unsigned
/// magnitude it is right).
pub fn abs(aig: &mut Aig, a: &[Lit]) -> Word {
    let negated = neg(aig, a);
    mux(aig, msb(a), &negated, a)
}

/// Magnitudes of both operands and the unsigned quotient and remainder.
fn signed_parts(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> (Word, Word) {
    check_widths(a, b);
    let abs_a = abs(aig, a);
    let abs_b = abs(aig, b);
    udiv_urem(aig, &abs_a, &abs_b)
}

fn negate_if(aig: &mut Aig, cond: Lit, a: &[Lit]) -> Word {
    let negated = neg(aig, a);
    mux(aig, cond, &negated, a)
}

/// Signed division rounding toward zero (SMT-LIB `bvsdiv`).
pub fn sdiv(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    let (quotient, _) = signed_parts(aig, a, b);
    let signs_differ = aig.xor(msb(a), msb(b));
    negate_if(aig, signs_differ, &quotient)
}

/// Signed remainder with the sign of the dividend (SMT-LIB `bvsrem`).
pub fn srem(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    let (_, remainder) = signed_parts(aig, a, b);
    negate_if(aig, msb(a), &remainder)
}

/// Signed modulus with the sign of the divisor (SMT-LIB `bvsmod`).
pub fn smod(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    let (_, remainder) = signed_parts(aig, a, b);
    let remainder_zero = is_zero(aig, &remainder);
    let signs_differ = aig.xor(msb(a), msb(b));
    // Same signs: the remainder carries the dividend's sign. Different
    // signs: add the divisor to the dividend-signed remainder.
    let dividend_signed = negate_if(aig, msb(a), &remainder);
    let adjusted = add(aig, &dividend_signed, b);
    let nonzero = mux(aig, signs_differ, &adjusted, &dividend_signed);
    mux(aig, remainder_zero, &remainder, &nonzero)
}

/// Unsigned `a + b` does not fit the width.
pub fn uadd_overflow(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    add_with_carry(aig, a, b, Lit::FALSE).1
}

/// Signed `a + b` does not fit: operands of equal sign, result of the other.
pub fn sadd_overflow(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    let sum = add(aig, a, b);
    let same_signs = aig.xnor(msb(a), msb(b));
    let sign_changed = aig.xor(msb(&sum), msb(a));
    aig.and(same_signs, sign_changed)
}

/// Unsigned `a - b` borrows.
pub fn usub_overflow(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    !sub_with_carry(aig, a, b).1
}

/// Signed `a - b` does not fit: operands of different sign, result's sign
/// differs from `a`'s.
pub fn ssub_overflow(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    let difference = sub(aig, a, b);
    let signs_differ = aig.xor(msb(a), msb(b));
    let sign_changed = aig.xor(msb(&difference), msb(a));
    aig.and(signs_differ, sign_changed)
}

/// Unsigned `a * b` does not fit: the full product has a high bit.
pub fn umul_overflow(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    check_widths(a, b);
    let wide = mul_wide(aig, a, b);
    reduce_or(aig, &wide[a.len()..])
}

/// Signed `a * b` does not fit: the double-width product's top `width + 1`
/// bits are not all equal.
pub fn smul_overflow(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    let width = a.len();
    let wide = mul(aig, &sign_extend(a, width), &sign_extend(b, width));
    let sign = wide[width - 1];
    let mut any_differs = Lit::FALSE;
    for &bit in &wide[width..] {
        let differs = aig.xor(bit, sign);
        any_differs = aig.or(any_differs, differs);
    }
    any_differs
}

/// Signed `a / b` overflows: the most negative number divided by -1.
pub fn sdiv_overflow(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    let width = a.len();
    let min = shl_const(&constant(1, width), width - 1);
    let a_is_min = eq(aig, a, &min);
    let b_is_minus_one = reduce_and(aig, b);
    aig.and(a_is_min, b_is_minus_one)
}

/// Signed `-a` overflows: `a` is the most negative number.
pub fn neg_overflow(aig: &mut Aig, a: &[Lit]) -> Lit {
    let (rest, top) = a.split_at(a.len() - 1);
    let rest_zero = is_zero(aig, rest);
    aig.and(top[0], rest_zero)
}

/// Number of set bits, in a word of `result_width` bits (truncated if too
/// narrow). Built as a balanced tree of adders.
pub fn popcount(aig: &mut Aig, a: &[Lit], result_width: usize) -> Word {
    let mut counts: Vec<Word> = a.iter().map(|&bit| vec![bit]).collect();
    if counts.is_empty() {
        return constant(0, result_width);
    }
    while counts.len() > 1 {
        let mut next = Vec::with_capacity(counts.len().div_ceil(2));
        for pair in counts.chunks(2) {
            next.push(match pair {
                [x, y] => add_widening(aig, x, y),
                _ => pair[0].clone(),
            });
        }
        counts = next;
    }
    resize_unsigned(&counts[0], result_width)
}

/// Unsigned sum one bit wider than the wider operand: it never overflows.
fn add_widening(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    let width = a.len().max(b.len()) + 1;
    add(aig, &zero_extend(a, width - a.len()), &zero_extend(b, width - b.len()))
}

/// Zero-extends or truncates to `width`.
pub fn resize_unsigned(a: &[Lit], width: usize) -> Word {
    if a.len() >= width {
        a[..width].to_vec()
    } else {
        zero_extend(a, width - a.len())
    }
}

/// Shifts `a` left until its top bit is set; returns the shifted word and
/// the shift distance (the number of leading zeros, `result_width` bits).
/// For a zero input the word is zero and the distance is the width.
pub fn normalize(aig: &mut Aig, a: &[Lit], result_width: usize) -> (Word, Word) {
    let width = a.len();
    let mut current = a.to_vec();
    let mut count = constant(0, result_width);
    let mut stage = if width > 1 { 1usize << (bits_for(width as u128 - 1) - 1) } else { 0 };
    // Greedy binary search from the largest power of two below the width:
    // a leading-zero count below the width fits in the sum of the stages.
    while stage > 0 {
        let top_zero = is_zero(aig, &current[width - stage..]);
        let shifted = shl_const(&current, stage);
        current = mux(aig, top_zero, &shifted, &current);
        let bumped = add(aig, &count, &constant(stage as u128, result_width));
        count = mux(aig, top_zero, &bumped, &count);
        stage /= 2;
    }
    let all_zero = is_zero(aig, a);
    let full = constant(width as u128, result_width);
    let count = mux(aig, all_zero, &full, &count);
    (current, count)
}

/// Number of leading zero bits, in a word of `result_width` bits.
pub fn clz(aig: &mut Aig, a: &[Lit], result_width: usize) -> Word {
    normalize(aig, a, result_width).1
}

/// Number of trailing zero bits, in a word of `result_width` bits.
pub fn ctz(aig: &mut Aig, a: &[Lit], result_width: usize) -> Word {
    let reversed: Word = a.iter().rev().copied().collect();
    clz(aig, &reversed, result_width)
}

#[cfg(test)]
mod tests;
