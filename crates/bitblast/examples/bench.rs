//! Benchmark of the bit-blasting solver: a few typical workloads (hard
//! arithmetic, factoring, array store chains, incremental unrolling), each
//! printed with its answer, wall time and the solver's statistics.
//!
//! Run: `cargo run --release -p bitblast --example bench`

use std::time::Instant;

use bitblast::BitBlastSolver;
use smt::{Op, SatResult, Solver, Sort, TermId, TermStore};

fn report(name: &str, start: Instant, result: &SatResult, solver: &BitBlastSolver) {
    println!("{name:<40} {:<8} {:>8.3}s  {}", format!("{result:?}"), start.elapsed().as_secs_f64(), solver.stats());
}

/// `a * b != b * a` over `width` bits: unsatisfiable, hard for CDCL.
fn commutativity(width: u32) {
    let start = Instant::now();
    let mut store = TermStore::new();
    let a = store.var("a", Sort::BitVec(width));
    let b = store.var("b", Sort::BitVec(width));
    let ab = store.bv_mul(a, b);
    // The store orders commutative operands, so build b*a from shifted
    // copies that the rewriter cannot identify with a*b.
    let b_neg = store.bv_neg(b);
    let minus_ba = store.bv_mul(b_neg, a);
    let sum = store.bv_add(ab, minus_ba);
    let zero = store.bv_u64(width, 0);
    let nonzero = store.eq(sum, zero);
    let formula = store.not(nonzero);
    let mut solver = BitBlastSolver::new();
    solver.assert(&store, formula);
    let result = solver.check(&store, &[]);
    report(&format!("a*b - b*a != 0, {width} bits"), start, &result, &solver);
}

/// Factor a product of two 16-bit primes in 32-bit arithmetic.
fn factoring() {
    let start = Instant::now();
    let mut store = TermStore::new();
    let x = store.var("x", Sort::BitVec(32));
    let y = store.var("y", Sort::BitVec(32));
    let product = store.bv_mul(x, y);
    let target = store.bv_u64(32, 65521 * 65519);
    let limit = store.bv_u64(32, 65536);
    let one = store.bv_u64(32, 1);
    let mut solver = BitBlastSolver::new();
    let is_product = store.eq(product, target);
    solver.assert(&store, is_product);
    for v in [x, y] {
        let small = store.bv_ult(v, limit);
        let nontrivial = store.bv_ult(one, v);
        solver.assert(&store, small);
        solver.assert(&store, nontrivial);
    }
    let result = solver.check(&store, &[]);
    report("factor 65521*65519 (32 bits)", start, &result, &solver);
}

/// A chain of `stores` writes at symbolic indices, then `reads` reads.
fn array_chain(stores: u64, reads: u64) {
    let start = Instant::now();
    let mut store = TermStore::new();
    let sort = store.array_sort(Sort::BitVec(64), Sort::BitVec(8));
    let mut array = store.var("mem", sort);
    let base = store.var("p", Sort::BitVec(64));
    for k in 0..stores {
        let offset = store.bv_u64(64, k * 3);
        let index = store.bv_add(base, offset);
        let value = store.bv_u64(8, k % 251);
        array = store.store(array, index, value);
    }
    let q = store.var("q", Sort::BitVec(64));
    let mut sum = store.bv_u64(8, 0);
    for k in 0..reads {
        let offset = store.bv_u64(64, k);
        let index = store.bv_add(q, offset);
        let read = store.select(array, index);
        sum = store.bv_add(sum, read);
    }
    let target = store.bv_u64(8, 200);
    let formula = store.eq(sum, target);
    let mut solver = BitBlastSolver::new();
    solver.assert(&store, formula);
    let result = solver.check(&store, &[]);
    report(&format!("array: {stores} stores, {reads} reads (64-bit)"), start, &result, &solver);
}

/// Incremental unrolling of `x := x * 5 + 3` over 32 bits: at each step ask
/// whether `x` can be 0 after `k` steps, from a nondeterministic start.
fn incremental_unrolling(steps: usize) {
    let start = Instant::now();
    let mut store = TermStore::new();
    let mut x: TermId = store.var("x0", Sort::BitVec(32));
    let five = store.bv_u64(32, 5);
    let three = store.bv_u64(32, 3);
    let zero = store.bv_u64(32, 0);
    let mut solver = BitBlastSolver::new();
    let mut last = SatResult::Unsat;
    for k in 0..steps {
        let next = store.var(&format!("x{}", k + 1), Sort::BitVec(32));
        let times = store.bv_mul(x, five);
        let step = store.mk(Op::BvAdd, &[times, three]);
        let transition = store.eq(next, step);
        solver.assert(&store, transition);
        x = next;
        let reaches_zero = store.eq(x, zero);
        last = solver.check(&store, &[reaches_zero]);
    }
    report(&format!("incremental unrolling, {steps} checks"), start, &last, &solver);
}

/// Memory as one wide bit-vector (`bytes` bytes), as symbolic execution
/// lays out objects: `writes` 32-bit stores and one load, all at symbolic
/// byte offsets (shift-and-mask updates, shift-and-extract reads).
fn wide_object(bytes: u32, writes: u64) {
    let start = Instant::now();
    let mut store = TermStore::new();
    let width = bytes * 8;
    let mut object = store.var("object", Sort::BitVec(width));
    let offset_sort = Sort::BitVec(64);
    let bit_offset = |store: &mut TermStore, name: &str| {
        let index = store.var(name, offset_sort);
        let mask = store.bv_u64(64, u64::from(bytes / 4 - 1));
        let index = store.bv_and(index, mask);
        let bits = store.bv_u64(64, 32);
        let offset = store.bv_mul(index, bits);
        store.zero_extend(width - 64, offset)
    };
    for k in 0..writes {
        let amount = bit_offset(&mut store, &format!("i{k}"));
        let ones = store.bv_u64(32, 0xFFFF_FFFF);
        let ones = store.zero_extend(width - 32, ones);
        let mask = store.mk(Op::BvShl, &[ones, amount]);
        let keep = store.bv_not(mask);
        let kept = store.bv_and(object, keep);
        let value = store.bv_u64(32, k + 1);
        let value = store.zero_extend(width - 32, value);
        let moved = store.mk(Op::BvShl, &[value, amount]);
        object = store.bv_or(kept, moved);
    }
    let amount = bit_offset(&mut store, "j");
    let shifted = store.mk(Op::BvLshr, &[object, amount]);
    let loaded = store.extract(31, 0, shifted);
    let target = store.bv_u64(32, writes);
    let formula = store.eq(loaded, target);
    let mut solver = BitBlastSolver::new();
    solver.assert(&store, formula);
    let result = solver.check(&store, &[]);
    report(&format!("wide object: {bytes} bytes, {writes} symbolic writes"), start, &result, &solver);
}

fn main() {
    for width in [8, 10] {
        commutativity(width);
    }
    factoring();
    array_chain(200, 20);
    array_chain(50, 100);
    incremental_unrolling(40);
    wide_object(256, 8);
    wide_object(4096, 4);
}
