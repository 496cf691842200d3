//! Tests of the SMT-LIB2 printer: structure and naming, linear size on
//! shared DAGs, literals, and a semantic cross-check against `z3` when a
//! trusted one is installed (skipped with a message otherwise, see
//! `reference_solver`; its `unknown` answers are skipped too); with `z3`,
//! also the rewriter: each random term, as generated and as rewritten,
//! must be equal for every value of its variables.

use std::io::Write as _;
use std::process::{Command, Stdio};

use super::*;
use crate::bv::BvValue;
use crate::eval::eval;
use crate::testing::{Expr, Generator};

#[test]
fn prints_declarations_definitions_and_assertions() {
    let mut s = TermStore::new();
    let x = s.var("x", Sort::BitVec(8));
    let y = s.var("y", Sort::BitVec(8));
    let sum = s.bv_add(x, y);
    let wide = s.sign_extend(4, sum);
    let ten = s.bv_u64(12, 10);
    let lt = s.bv_slt(wide, ten);
    let text = to_smtlib2(&s, &[lt], "QF_BV");
    let expected = format!(
        "(set-logic QF_BV)\n\
         (declare-fun |x| () (_ BitVec 8))\n\
         (declare-fun |y| () (_ BitVec 8))\n\
         (define-fun |t!{sum}| () (_ BitVec 8) (bvadd |x| |y|))\n\
         (define-fun |t!{wide}| () (_ BitVec 12) ((_ sign_extend 4) |t!{sum}|))\n\
         (define-fun |t!{lt}| () Bool (bvslt |t!{wide}| #b000000001010))\n\
         (assert |t!{lt}|)\n\
         (check-sat)\n",
        sum = sum.0,
        wide = wide.0,
        lt = lt.0
    );
    assert_eq!(text, expected);
}

#[test]
fn quantifiers_bind_the_nodes_that_depend_on_their_variable() {
    let mut s = TermStore::new();
    let x = s.var("x", Sort::BitVec(8));
    let y = s.var("y", Sort::BitVec(8));
    let sum = s.bv_add(x, y);
    let lt = s.bv_ult(y, sum);
    let q = s.forall(x, lt);
    let text = to_smtlib2(&s, &[q], "BV");
    let expected = format!(
        "(define-fun |t!{q}| () Bool (forall ((|x| (_ BitVec 8))) \
         (let ((|t!{sum}| (bvadd |x| |y|))) (let ((|t!{lt}| (bvult |y| |t!{sum}|))) |t!{lt}|))))\n",
        q = q.0,
        sum = sum.0,
        lt = lt.0
    );
    assert!(text.contains(&expected), "{expected} missing in\n{text}");
}

#[test]
fn symbols_are_quoted_cleaned_and_unique() {
    let mut s = TermStore::new();
    let a = s.var("a|b", Sort::Bool);
    let b = s.var("a_b", Sort::Bool);
    let c = s.var("t!1", Sort::Bool);
    let d = s.var("", Sort::Bool);
    let all = s.and(&[a, b, c, d]);
    let text = to_smtlib2(&s, &[all], "QF_BV");
    for declared in ["|a_b|", "|a_b#1|", "|t!1#1|", "|v|"] {
        assert!(
            text.contains(&format!("(declare-fun {declared} () Bool)")),
            "{declared} missing in\n{text}"
        );
    }
}

#[test]
fn output_is_linear_in_the_dag_size() {
    let mut s = TermStore::new();
    let mut t = s.var("x", Sort::BitVec(32));
    for _ in 0..10_000 {
        t = s.bv_mul(t, t);
    }
    let zero = s.bv_u64(32, 0);
    let goal = s.eq(t, zero);
    let text = to_smtlib2(&s, &[goal], "QF_BV");
    assert!(
        text.len() < 10_000 * 80,
        "{} bytes for 10000 shared nodes",
        text.len()
    );
}

#[test]
fn literals_of_every_scalar_sort() {
    let f32 = |bits: u64| Value::Fp(FpValue::from_bits(8, 24, BvValue::from_u64(32, bits)));
    assert_eq!(
        value_literal(&f32(0x3f80_0000)),
        "(fp #b0 #b01111111 #b00000000000000000000000)"
    );
    assert_eq!(
        value_literal(&f32(0xff80_0000)),
        "(fp #b1 #b11111111 #b00000000000000000000000)"
    );
    assert_eq!(value_literal(&f32(0x7fc0_1234)), "(_ NaN 8 24)");
    assert_eq!(value_literal(&Value::Bool(false)), "false");
    assert_eq!(value_literal(&Value::Bv(BvValue::from_u64(3, 5))), "#b101");
    assert_eq!(
        value_literal(&Value::Rm(crate::sort::RoundingMode::Rtz)),
        "RTZ"
    );
}

/// Runs `script` through `z3` and returns its answer lines, or `None` when
/// no trusted `z3` is installed (`test` then says it skips).
fn run_z3(test: &str, script: &str) -> Option<Vec<String>> {
    if !crate::reference_solver::trusted_z3(test) {
        return None;
    }
    let mut child = Command::new("z3")
        .args(["-in", "-smt2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write to z3");
    let output = child.wait_with_output().expect("z3 runs");
    Some(
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

/// Random formulas, each with all variables pinned to a random model: the
/// solver must find `t = eval(t)` satisfiable and `t ≠ eval(t)` unsatisfiable.
/// This checks the printed meaning of every operator the evaluator knows
/// (including the expanded overflow predicates and `FpToBits`) and our
/// floating-point semantics against the solver's.
#[test]
fn printed_formulas_mean_what_the_evaluator_says() {
    let mut g = Generator::new(11);
    let mut script = String::from("(set-logic ALL)\n");
    let mut expected = Vec::new();
    let mut texts = Vec::new();
    for case in 0..150 {
        let sort = g.random_sort();
        let e = g.expr(sort, 4);
        let t = g.build(&e);
        let model = g.random_model();
        let value = eval(&g.store, t, &model).expect("evaluates");
        let pins: Vec<TermId> = g
            .vars
            .clone()
            .into_iter()
            .map(|v| {
                let c = g
                    .store
                    .constant(model.get(g.store.as_var(v).unwrap()).unwrap().clone());
                g.store.eq(v, c)
            })
            .collect();
        let value_term = g.store.constant(value);
        let agrees = g.store.eq(t, value_term);
        let disagrees = g.store.not(agrees);
        for (goal, answer) in [(agrees, "sat"), (disagrees, "unsat")] {
            let mut assertions = pins.clone();
            assertions.push(goal);
            let body = to_smtlib2(&g.store, &assertions, "ALL");
            let body = body.strip_prefix("(set-logic ALL)\n").expect("header");
            script.push_str(&format!("(push 1)\n{body}(pop 1)\n"));
            expected.push((case, answer));
            texts.push(body.to_string());
        }
    }
    let Some(answers) = run_z3("printed_formulas_mean_what_the_evaluator_says", &script) else {
        return;
    };
    assert_eq!(
        answers.len(),
        expected.len(),
        "z3 answered:\n{}",
        answers.join("\n")
    );
    for (((case, want), got), text) in expected.iter().zip(&answers).zip(&texts) {
        if got != "unknown" {
            assert_eq!(got, want, "case {case}: z3 disagrees with the evaluator on\n{text}");
        }
    }
}

#[test]
fn terms_print_compactly_for_messages() {
    let mut s = TermStore::new();
    let x = s.var("x", Sort::BitVec(8));
    let wide = s.sign_extend(8, x);
    let mut t = wide;
    for _ in 0..100 {
        t = s.bv_mul(t, wide);
    }
    assert_eq!(term_to_string(&s, wide, 5), "((_ sign_extend 8) |x|)");
    let short = term_to_string(&s, t, 3);
    let mut deeper = t;
    for _ in 0..1000 {
        deeper = s.bv_add(deeper, wide);
    }
    let capped = term_to_string(&s, deeper, u32::MAX);
    assert_eq!(
        capped.matches("bvadd").count(),
        200,
        "rendering depth is capped"
    );
    // Commutative operands are ordered by id: the older `wide` comes first.
    assert_eq!(
        short,
        "(bvmul ((_ sign_extend 8) |x|) (bvmul ((_ sign_extend 8) |x|) (bvmul … …)))"
    );
}

/// A script that asks, for each `(pins, t)`, whether `t` can differ from its
/// evaluator value when the variables are pinned (`pins`: var, value).
fn disagreement_queries(s: &mut TermStore, cases: &[(Vec<(TermId, Value)>, TermId)]) -> String {
    let mut script = String::from("(set-logic ALL)\n");
    for (pins, t) in cases {
        let mut model = crate::eval::Model::new();
        let mut assertions = Vec::new();
        for (var, value) in pins {
            model.set(s.as_var(*var).unwrap(), value.clone());
            let c = s.constant(value.clone());
            assertions.push(s.eq(*var, c));
        }
        let expected = eval(s, *t, &model).unwrap();
        let expected = s.constant(expected);
        let agrees = s.eq(*t, expected);
        assertions.push(s.not(agrees));
        let body = to_smtlib2(s, &assertions, "ALL");
        script.push_str(&format!(
            "(push 1)\n{}(pop 1)\n",
            body.strip_prefix("(set-logic ALL)\n").unwrap()
        ));
    }
    script
}

fn assert_z3_finds_no_disagreement(test: &str, s: &mut TermStore, cases: &[(Vec<(TermId, Value)>, TermId)]) {
    let script = disagreement_queries(s, cases);
    let Some(answers) = run_z3(test, &script) else {
        return;
    };
    assert_eq!(answers.len(), cases.len(), "z3 answered:\n{}", answers.join("\n"));
    for (case, answer) in answers.iter().enumerate() {
        assert!(answer == "unsat" || answer == "unknown", "case {case}: z3 finds a value the evaluator does not give ({answer})");
    }
}

fn f32_value(x: f32) -> Value {
    Value::Fp(FpValue::from_bits(
        8,
        24,
        BvValue::from_u64(32, x.to_bits() as u64),
    ))
}

/// The printer spells out tarsier's choice for `fp.min`/`fp.max` of zeros,
/// so a solver must agree with the evaluator on every combination of signs.
#[test]
fn solvers_see_the_fixed_min_max_of_zeros() {
    let mut s = TermStore::new();
    let [a, b] = ["a", "b"].map(|n| s.var(n, Sort::float32()));
    let mut cases = Vec::new();
    for op in [Op::FpMin, Op::FpMax] {
        let t = s.mk(op, &[a, b]);
        for (a_zero, b_zero) in [(0.0, 0.0), (0.0, -0.0), (-0.0, 0.0), (-0.0, -0.0)] {
            cases.push((vec![(a, f32_value(a_zero)), (b, f32_value(b_zero))], t));
        }
    }
    assert_z3_finds_no_disagreement("solvers_see_the_fixed_min_max_of_zeros", &mut s, &cases);
}

/// Conversions to 8-bit integers at and beyond the range limits, where the
/// printer spells out the fixed `10…0` result.
#[test]
fn solvers_see_the_fixed_out_of_range_conversions() {
    let mut s = TermStore::new();
    let x = s.var("x", Sort::float32());
    let rtz = s.rm_const(crate::sort::RoundingMode::Rtz);
    let rne = s.rm_const(crate::sort::RoundingMode::Rne);
    let mut cases = Vec::new();
    for op in [Op::FpToSbv(8), Op::FpToUbv(8)] {
        for rm in [rtz, rne] {
            let t = s.mk(op, &[rm, x]);
            for value in [
                127.0,
                127.5,
                128.0,
                -128.0,
                -128.5,
                -129.0,
                255.0,
                255.5,
                256.0,
                -0.5,
                -1.0,
                f32::NAN,
                f32::INFINITY,
            ] {
                cases.push((vec![(x, f32_value(value))], t));
            }
        }
    }
    assert_z3_finds_no_disagreement("solvers_see_the_fixed_out_of_range_conversions", &mut s, &cases);
}

/// `e` as generated, no rule applied: each operator spelled by the printer
/// (`application`), variables by `writer`'s names; `None` when `e` holds
/// `FpToBits`, which the printer writes as a fresh constant, not a term.
fn unrewritten_text(g: &Generator, writer: &SmtLibWriter, e: &Expr) -> Option<String> {
    Some(match e {
        Expr::Var(t) => writer.reference(&g.store, *t),
        Expr::Const(v) => value_literal(v),
        Expr::App(Op::FpToBits, _) => return None,
        // SMT-LIB's `and`/`or` take two or more arguments.
        Expr::App(Op::And, args) if args.is_empty() => "true".into(),
        Expr::App(Op::Or, args) if args.is_empty() => "false".into(),
        Expr::App(Op::And | Op::Or, args) if args.len() == 1 => unrewritten_text(g, writer, &args[0])?,
        Expr::App(op, args) => {
            let texts = args.iter().map(|a| unrewritten_text(g, writer, a)).collect::<Option<Vec<_>>>()?;
            let sorts: Vec<Sort> = args.iter().map(|a| g.sort_of(a)).collect();
            application(&g.store, *op, &texts, &sorts)
        }
    })
}

/// Asks z3 whether each of `count` random terms (bit-vectors up to 128
/// bits, arrays, floats) can differ from its rewritten form; every answer
/// must be `unsat` (or `unknown` at z3's 3 s limit, counted and skipped).
fn rewriter_agrees_with_z3(seed: u64, count: usize) {
    let mut g = Generator::wide(seed);
    let mut writer = SmtLibWriter::default();
    let mut script = String::from("(set-logic ALL)\n(set-option :timeout 3000)\n");
    for v in g.vars.clone() {
        writer.define_reachable(&g.store, v, &mut script);
    }
    let mut cases = Vec::new();
    while cases.len() < count {
        let sort = g.random_sort();
        let e = g.expr(sort, 4);
        let Some(original) = unrewritten_text(&g, &writer, &e) else { continue };
        let rewritten = g.build(&e);
        let mut definitions = String::new();
        writer.define_reachable(&g.store, rewritten, &mut definitions);
        let reference = writer.reference(&g.store, rewritten);
        // FpToBits definitions assert facts: keep them outside the push.
        script.push_str(&definitions);
        script.push_str(&format!("(push 1)\n(assert (not (= {original} {reference})))\n(check-sat)\n(pop 1)\n"));
        cases.push((original, term_to_string(&g.store, rewritten, 12)));
    }
    let Some(answers) = run_z3("rewritten_terms_mean_what_they_meant", &script) else {
        return;
    };
    assert_eq!(answers.len(), cases.len(), "z3 answered:\n{}", answers.join("\n"));
    let mut unknown = 0;
    for ((original, rewritten), answer) in cases.iter().zip(&answers) {
        match answer.as_str() {
            "unsat" => {}
            "unknown" => unknown += 1,
            _ => panic!("z3 says the rewriter changed the meaning ({answer}):\n  {original}\nbecame\n  {rewritten}"),
        }
    }
    eprintln!("{} rewritten terms checked by z3 ({unknown} unknown at its time limit)", cases.len());
    // An `unknown` (at the time limit, which a busy machine reaches sooner) is no answer to judge.
    assert!(unknown < cases.len(), "z3 decided none of the {} terms", cases.len());
}

#[test]
fn rewritten_terms_mean_what_they_meant() {
    rewriter_agrees_with_z3(21, 150);
}

/// The long run of the test above (several minutes):
/// `cargo test -p smt --release -- --ignored rewriter`.
#[test]
#[ignore]
fn rewriter_agrees_with_z3_on_many_terms() {
    for seed in 100..110 {
        rewriter_agrees_with_z3(seed, 1000);
    }
}
