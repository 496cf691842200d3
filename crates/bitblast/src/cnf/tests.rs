//! Incremental solving checked on small circuits whose answers are known:
//! factorisation, commutativity, assumptions, and models replayed through
//! the AIG simulator.

use super::*;
use crate::words::{self, Word};

fn model_word(solver: &mut CnfSolver, aig: &Aig, word: &[Lit]) -> u128 {
    word.iter().enumerate().fold(0, |acc, (i, &l)| acc | (u128::from(solver.value(aig, l)) << i))
}

fn factor_circuit(aig: &mut Aig, product: u128) -> (Word, Word, Lit) {
    let x = words::inputs(aig, 8);
    let y = words::inputs(aig, 8);
    let wide_x = words::zero_extend(&x, 8);
    let wide_y = words::zero_extend(&y, 8);
    let p = words::mul(aig, &wide_x, &wide_y);
    let is_product = words::eq(aig, &p, &words::constant(product, 16));
    let one = words::constant(1, 8);
    let x_big = words::ult(aig, &one, &x);
    let y_big = words::ult(aig, &one, &y);
    let nontrivial = aig.and(x_big, y_big);
    let goal = aig.and(is_product, nontrivial);
    (x, y, goal)
}

#[test]
fn finds_factors_and_proves_primes() {
    let mut aig = Aig::new();
    let (x, y, goal) = factor_circuit(&mut aig, 143);
    let mut solver = CnfSolver::new();
    solver.assert(&aig, goal);
    assert_eq!(solver.solve(&aig, &[]), SatResult::Sat);
    let (vx, vy) = (model_word(&mut solver, &aig, &x), model_word(&mut solver, &aig, &y));
    assert_eq!(vx * vy, 143);
    assert!(vx > 1 && vy > 1);

    let mut prime = Aig::new();
    let (_, _, goal) = factor_circuit(&mut prime, 251);
    let mut solver = CnfSolver::new();
    solver.assert(&prime, goal);
    assert_eq!(solver.solve(&prime, &[]), SatResult::Unsat);
}

#[test]
fn multiplication_commutes() {
    let mut aig = Aig::new();
    let a = words::inputs(&mut aig, 8);
    let b = words::inputs(&mut aig, 8);
    let ab = words::mul(&mut aig, &a, &b);
    let ba = words::mul(&mut aig, &b, &a);
    let same = words::eq(&mut aig, &ab, &ba);
    assert_ne!(same, Lit::TRUE, "the two products must differ structurally for a real test");
    let mut solver = CnfSolver::new();
    solver.assert(&aig, !same);
    assert_eq!(solver.solve(&aig, &[]), SatResult::Unsat);
}

#[test]
fn incremental_assertions_and_assumptions() {
    let mut aig = Aig::new();
    let (x, y, goal) = factor_circuit(&mut aig, 143);
    let mut solver = CnfSolver::new();
    solver.assert(&aig, goal);
    assert_eq!(solver.solve(&aig, &[]), SatResult::Sat);
    let clauses_after_first = solver.num_clauses();

    // 143 = 11 * 13: forbidding x = 11 leaves x = 13.
    let eleven = words::eq(&mut aig, &x, &words::constant(11, 8));
    assert_eq!(solver.solve(&aig, &[!eleven]), SatResult::Sat);
    assert_eq!(model_word(&mut solver, &aig, &x), 13);
    let thirteen = words::eq(&mut aig, &x, &words::constant(13, 8));
    assert_eq!(solver.solve(&aig, &[!eleven, !thirteen]), SatResult::Unsat);
    assert!(solver.failed_assumption(!thirteen));

    // Assumptions do not stick: the same query without them is satisfiable.
    assert_eq!(solver.solve(&aig, &[]), SatResult::Sat);
    solver.assert(&aig, !thirteen);
    assert_eq!(solver.solve(&aig, &[]), SatResult::Sat);
    assert_eq!(model_word(&mut solver, &aig, &y), 13);
    assert!(solver.num_clauses() > clauses_after_first);
    solver.assert(&aig, !eleven);
    assert_eq!(solver.solve(&aig, &[]), SatResult::Unsat);
}

#[test]
fn only_the_cone_of_influence_is_encoded() {
    let mut aig = Aig::new();
    let a = words::inputs(&mut aig, 16);
    let b = words::inputs(&mut aig, 16);
    let product = words::mul(&mut aig, &a, &b);
    let unrelated = words::reduce_or(&mut aig, &product);
    let small = aig.and(a[0], b[0]);
    let mut solver = CnfSolver::new();
    solver.assert(&aig, small);
    assert!(solver.num_vars() <= 3, "two inputs and the constant, got {}", solver.num_vars());
    assert_eq!(solver.solve(&aig, &[]), SatResult::Sat);
    // A node outside the cone still gets a value consistent with the circuit.
    let expected = {
        let va = model_word(&mut solver, &aig, &a);
        let vb = model_word(&mut solver, &aig, &b);
        (va * vb) & 0xFFFF != 0
    };
    assert_eq!(solver.value(&aig, unrelated), expected);
}

#[test]
fn constants_need_no_special_case() {
    let aig = Aig::new();
    let mut solver = CnfSolver::new();
    solver.assert(&aig, Lit::TRUE);
    assert_eq!(solver.solve(&aig, &[]), SatResult::Sat);
    assert!(solver.value(&aig, Lit::TRUE));
    assert_eq!(solver.solve(&aig, &[Lit::FALSE]), SatResult::Unsat);
    solver.assert(&aig, Lit::FALSE);
    assert_eq!(solver.solve(&aig, &[]), SatResult::Unsat);
}

#[test]
fn deep_chains_do_not_overflow_the_stack() {
    let mut aig = Aig::new();
    let mut acc = aig.new_input();
    for _ in 0..200_000 {
        let fresh = aig.new_input();
        acc = aig.xor(acc, fresh);
    }
    let mut solver = CnfSolver::new();
    solver.assert(&aig, acc);
    assert_eq!(solver.solve(&aig, &[]), SatResult::Sat);
    assert!(solver.value(&aig, acc));
}

/// Multiplexers and exclusive ors get one SAT variable each; their
/// clauses must force exactly the gate's value under every input.
#[test]
fn multiplexers_are_encoded_as_single_gates() {
    let mut aig = Aig::new();
    let [c, t, e] = [aig.new_input(), aig.new_input(), aig.new_input()];
    let mux = aig.mux(c, t, e);
    let xor = aig.xor(t, e);
    let mut solver = CnfSolver::new();
    solver.encode(&aig, mux);
    solver.encode(&aig, xor);
    assert_eq!(solver.num_vars(), 1 + 3 + 2, "constant, three inputs, two gates");
    for pattern in 0..8u32 {
        let inputs = [c, t, e];
        let assumptions: Vec<Lit> =
            inputs.iter().enumerate().map(|(i, &l)| if pattern >> i & 1 == 1 { l } else { !l }).collect();
        let (vc, vt, ve) = (pattern & 1 == 1, pattern & 2 == 2, pattern & 4 == 4);
        let want_mux = if vc { vt } else { ve };
        for (gate, want) in [(mux, want_mux), (xor, vt ^ ve)] {
            let mut with_gate = assumptions.clone();
            with_gate.push(if want { !gate } else { gate });
            assert_eq!(solver.solve(&aig, &with_gate), SatResult::Unsat, "pattern {pattern:03b}");
        }
        assert_eq!(solver.solve(&aig, &assumptions), SatResult::Sat);
        assert_eq!(solver.value(&aig, mux), want_mux);
    }
}

/// A random circuit over `inputs` fresh inputs: and, or, exclusive or,
/// multiplexer, implication and word equality nodes over earlier ones.
fn random_circuit(aig: &mut Aig, rng: &mut crate::testing::Rng, inputs: usize, nodes: usize) -> Vec<Lit> {
    let mut lits: Vec<Lit> = (0..inputs).map(|_| aig.new_input()).collect();
    for _ in 0..nodes {
        let pick = |rng: &mut crate::testing::Rng| {
            let lit = lits[rng.below(lits.len())];
            if rng.below(2) == 0 { !lit } else { lit }
        };
        let (a, b, c) = (pick(rng), pick(rng), pick(rng));
        let node = match rng.below(6) {
            0 => aig.and(a, b),
            1 => aig.or(a, b),
            2 => aig.xor(a, b),
            3 => aig.mux(a, b, c),
            4 => aig.implies(a, b),
            _ => {
                let d = pick(rng);
                words::eq(aig, &[a, b], &[c, d])
            }
        };
        lits.push(node);
    }
    lits
}

#[test]
fn an_assumed_literal_holds_exactly_where_the_circuit_says() {
    let mut rng = crate::testing::Rng::new(7);
    for _ in 0..40 {
        let mut aig = Aig::new();
        let lits = random_circuit(&mut aig, &mut rng, 4, 30);
        let inputs: Vec<Lit> = lits[..4].to_vec();
        let mut solver = CnfSolver::new();
        for &root in lits[4..].iter().rev().take(12) {
            for assignment in 0..16u32 {
                let fixed: Vec<Lit> = (0..4).map(|i| if assignment >> i & 1 == 1 { inputs[i] } else { !inputs[i] }).collect();
                let simulation = aig.simulate(|var| (0..4).any(|i| inputs[i].var() == var && assignment >> i & 1 == 1));
                for lit in [root, !root] {
                    let mut assumptions = fixed.clone();
                    assumptions.push(lit);
                    let expected = if simulation.lit(lit) { SatResult::Sat } else { SatResult::Unsat };
                    assert_eq!(solver.solve(&aig, &assumptions), expected, "assignment {assignment:04b}");
                    if expected == SatResult::Sat {
                        assert!(solver.value(&aig, lit), "the model evaluates the assumption to true");
                    }
                }
            }
        }
    }
}

#[test]
fn an_implied_equality_is_two_clauses_per_bit() {
    let mut aig = Aig::new();
    let choice = aig.new_input();
    let (read, write) = (words::inputs(&mut aig, 32), words::inputs(&mut aig, 32));
    let same = words::eq(&mut aig, &read, &write);
    let from = aig.implies(choice, same);
    let mut solver = CnfSolver::new();
    let before = solver.num_clauses();
    assert_eq!(solver.solve(&aig, &[from, choice]), SatResult::Sat);
    assert_eq!(model_word(&mut solver, &aig, &read), model_word(&mut solver, &aig, &write));
    assert_eq!(solver.num_clauses() - before, 64, "no Tseitin variable for the equality's gates");
}
