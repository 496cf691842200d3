//! Prints throughput figures of the term layer: building (hash-consing and
//! rewriting), evaluating and printing large term DAGs.
//!
//! Run: `cargo run --release -p smt --example term_bench [steps]`.

use std::time::Instant;

use smt::{eval, to_smtlib2, BvValue, Model, Sort, TermStore, Value};

fn main() {
    let steps: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let mut store = TermStore::new();
    let x = store.var("x", Sort::BitVec(32));
    let y = store.var("y", Sort::BitVec(32));

    let start = Instant::now();
    let mut t = x;
    for k in 0..steps {
        let c = store.bv_u64(32, k as u64);
        let sum = store.bv_add(t, y);
        let mixed = store.bv_xor(sum, c);
        // The same subterm again: found by hash-consing, not rebuilt.
        let again = store.bv_add(t, y);
        assert_eq!(again, sum);
        t = store.bv_mul(mixed, x);
    }
    let built = start.elapsed();
    let nodes = store.len();
    let rss_after_build = resident_mb();

    let mut model = Model::new();
    model.set(
        store.as_var(x).unwrap(),
        Value::Bv(BvValue::from_u64(32, 3)),
    );
    model.set(
        store.as_var(y).unwrap(),
        Value::Bv(BvValue::from_u64(32, 7)),
    );
    let start = Instant::now();
    let value = eval(&store, t, &model).expect("evaluates");
    let evaluated = start.elapsed();

    let zero = store.bv_u64(32, 0);
    let goal = store.eq(t, zero);
    let start = Instant::now();
    let text = to_smtlib2(&store, &[goal], "QF_BV");
    let printed = start.elapsed();

    println!("steps {steps}, terms {nodes}, result {value}");
    println!(
        "resident after build {rss_after_build:.0} MB ({:.0} bytes per term)",
        rss_after_build * 1e6 / nodes as f64
    );
    println!(
        "build   {:>8.1} ms  ({:.0} ns per app call)",
        ms(built),
        built.as_nanos() as f64 / (4 * steps) as f64
    );
    println!("eval    {:>8.1} ms", ms(evaluated));
    println!("smtlib2 {:>8.1} ms  ({} bytes)", ms(printed), text.len());
}

/// Resident memory of this process (Linux), 0 where unavailable.
fn resident_mb() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0.0);
    pages * 4096.0 / 1e6
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
