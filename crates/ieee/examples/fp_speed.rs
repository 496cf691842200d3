//! Prints the time per operation (ns) for each standard format, on a fixed
//! set of ordinary operands (normal values of mixed exponents):
//! `cargo run --release -p ieee --example fp_speed`.

use ieee::{Format, Fp, RoundingMode};
use std::hint::black_box;
use std::time::Instant;

const OPERANDS: usize = 256;
const ROUNDS: usize = 200;

/// An operation under test, on two operands (unary ones ignore the second).
type Operation = fn(Fp, Fp, RoundingMode) -> Fp;

/// Normal operands with exponents within ±8 of 1 and random fractions.
fn operands(format: Format) -> Vec<Fp> {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let frac_bits = format.sig_bits() - 1;
    let bias = (1u128 << (format.exp_bits() - 1)) - 1;
    (0..OPERANDS)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let fraction = ((state as u128) << 64 | state.rotate_left(17) as u128) & ((1 << frac_bits) - 1);
            let biased = bias + (state % 17) as u128 - 8;
            let sign = (state >> 63) as u128;
            Fp::from_bits(format, sign << (format.width() - 1) | biased << frac_bits | fraction)
        })
        .collect()
}

fn nanoseconds_per_op(values: &[Fp], op: impl Fn(Fp, Fp) -> Fp) -> f64 {
    let start = Instant::now();
    for _ in 0..ROUNDS {
        for pair in values.windows(2) {
            black_box(op(black_box(pair[0]), black_box(pair[1])));
        }
    }
    start.elapsed().as_nanos() as f64 / (ROUNDS * (values.len() - 1)) as f64
}

fn main() {
    let mode = RoundingMode::NearestEven;
    let formats = [("f16", Format::HALF), ("f32", Format::SINGLE), ("f64", Format::DOUBLE), ("x87", Format::X87), ("f128", Format::QUAD)];
    let ops: [(&str, Operation); 9] = [
        ("add", |a, b, m| a.add(b, m)),
        ("mul", |a, b, m| a.mul(b, m)),
        ("div", |a, b, m| a.div(b, m)),
        ("fma", |a, b, m| a.fma(b, a, m)),
        ("sqrt", |a, _, m| a.abs().sqrt(m)),
        ("remainder", |a, b, _| a.remainder(b)),
        ("roundToIntegral", |a, _, m| a.round_to_integral(m)),
        ("convert->f64", |a, _, m| a.convert(Format::DOUBLE, m)),
        ("parse(print)", |a, _, m| Fp::parse(a.format(), &a.to_string(), m).unwrap_or(a)),
    ];
    print!("{:<16}", "ns per op");
    for (name, _) in formats {
        print!("{name:>8}");
    }
    println!();
    for (op_name, op) in ops {
        print!("{op_name:<16}");
        for (_, format) in formats {
            let values = operands(format);
            print!("{:>8.0}", nanoseconds_per_op(&values, |a, b| op(a, b, mode)));
        }
        println!();
    }
}
