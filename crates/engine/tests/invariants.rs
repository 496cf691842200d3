//! Certification of candidate loop invariants (Houdini over the abstract
//! program of `analysis::invariants::abstraction`): candidates the
//! analysis finds are certified, and wrong candidates, written by hand
//! where the analysis would never propose them (written through callees,
//! function pointers, gotos into a loop, inner loops, wrap-around), are
//! not. A wrong certified candidate would let the inductive step prove a
//! false program.

use analysis::invariants::{generate, intern_types, loop_sites, Candidate, Invariants};
use engine::{certify_invariants, Config};
use ir::{BinOp, Expr, InstrIdx, Program, Type};
use std::io::Write;

fn compile(source: &str) -> Program {
    let dir = std::env::temp_dir().join(format!("tarsier-invariants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("t{:x}.c", fxhash(source)));
    std::fs::File::create(&path).unwrap().write_all(source.as_bytes()).unwrap();
    let mut diags = cfront::diag::Diagnostics::default();
    let program = cfront::compile(std::slice::from_ref(&path), &cfront::Options::default(), &mut diags);
    let mut program = program.unwrap_or_else(|| panic!("does not compile: {:?}", diags.list));
    analysis::instrument(&mut program, &analysis::Checks::default());
    program
}

fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// The heads of `main`'s loops, in program order.
fn heads(program: &Program) -> Vec<InstrIdx> {
    let main = program.function("main").unwrap();
    loop_sites(program).into_iter().filter(|s| s.func == main).map(|s| s.head).collect()
}

/// `var op value` at `head` of `main`, for a variable named `var`.
fn candidate(program: &mut Program, head: InstrIdx, var: &str, op: BinOp, value: i64) -> Candidate {
    let (sym, symbol) = program.symbols.iter().find(|(_, s)| s.display_name == var).expect("variable exists");
    let ty = symbol.ty;
    let bool_ty = program.types.intern(Type::Bool);
    let expr = Expr::binary(op, Expr::sym(sym, ty), Expr::int(value as u128 & 0xffff_ffff, ty), bool_ty);
    let main = program.function("main").unwrap();
    Candidate { func: main, head, expr, c_text: format!("{var} {op:?} {value}"), loc: ir::Loc::NONE, arithmetic: false, bound: None }
}

/// The certified candidates' texts; `checked` says whether every
/// function's candidates could be checked at all (no notes).
fn certify(program: &Program, candidates: Vec<Candidate>) -> (Vec<String>, bool) {
    let invariants = Invariants { candidates, ..Invariants::default() };
    let result = certify_invariants(program, &invariants, &Config::default());
    (result.certified.into_iter().map(|c| c.c_text).collect(), result.notes.is_empty())
}

fn certified(program: &Program, candidates: Vec<Candidate>) -> Vec<String> {
    let (certified, checked) = certify(program, candidates);
    assert!(checked, "some candidates could not be checked");
    certified
}

const PRELUDE: &str = "extern int __VERIFIER_nondet_int(void);\nextern unsigned __VERIFIER_nondet_uint(void);\n";

#[test]
fn the_analysis_candidates_are_certified_and_their_negations_are_not() {
    let source = format!(
        "{PRELUDE}int main() {{ int n = __VERIFIER_nondet_int(); if (n < 0 || n > 1000) return 0;\n\
         int i = 0, j = 0, k = 0; unsigned x = 0;\n\
         while (i < n) {{ i++; k += 3; x += 4; if (__VERIFIER_nondet_int()) j++; }}\n\
         return i + j + k + (int)x; }}\n"
    );
    let mut program = compile(&source);
    intern_types(&mut program);
    let sites = loop_sites(&program);
    let invariants = generate(&program, &sites);
    let texts: Vec<&str> = invariants.candidates.iter().map(|c| c.c_text.as_str()).collect();
    for expected in ["i <= n", "4*(unsigned int)i == x", "(x & 3) == 0", "j <= i", "i >= 0"] {
        assert!(texts.contains(&expected), "missing candidate {expected}: {texts:?}");
    }
    let twins = analysis::invariants::with_wrong_twins(&invariants.candidates);
    let result = certified(&program, twins);
    for expected in ["i <= n", "4*(unsigned int)i == x", "(x & 3) == 0", "j <= i"] {
        assert!(result.iter().any(|c| c == expected), "{expected} not certified: {result:?}");
    }
    assert!(result.iter().all(|c| !c.starts_with("!(")), "a negated candidate was certified: {result:?}");
}

#[test]
fn writes_the_abstraction_must_see_break_wrong_candidates() {
    let cases: &[(&str, &str, BinOp, i64)] = &[
        // a callee writes the global
        ("int g; void f(void) { g++; }\nint main() { g = 0; int i = 0; while (i < 10) { f(); i++; } return g; }", "g", BinOp::Eq, 0),
        // through a function pointer
        ("int g; void f(void) { g = 7; } void h(void) {}\nint main() { void (*p)(void) = __VERIFIER_nondet_int() ? f : h; g = 0; int i = 0; while (i < 10) { p(); i++; } return g; }", "g", BinOp::Eq, 0),
        // an inner loop
        ("int main() { int x = 0; int i = 0; while (i < 10) { for (int k = 0; k < 3; k++) x++; i++; } return x; }", "x", BinOp::Le, 2),
        // a goto into the loop body from before it
        ("int main() { int x = 0, i = 0; if (__VERIFIER_nondet_int()) goto inside;\nwhile (i < 10) { i++; inside: x = x + 1; if (x > 20) break; } return x; }", "x", BinOp::Le, 0),
        // wrap-around: u stays even, but not below 100
        ("int main() { unsigned u = 0; while (__VERIFIER_nondet_int()) u += 2; return (int)u; }", "u", BinOp::Le, 100),
        // a value read from memory the loop writes
        ("int main() { int a[4] = {0}; int x = 0, i = 0; while (i < 4) { a[i] = 5; x = a[i]; i++; } return x; }", "x", BinOp::Eq, 0),
        // continue skips the reset
        ("int main() { int x = 0, i = 0; while (i < 10) { i++; if (i == 5) { x = 1; continue; } x = 0; } return x; }", "x", BinOp::Eq, 0),
        // a loop after a loop: entry values come through the first
        ("int main() { int x = 0; while (__VERIFIER_nondet_int()) x++; int i = 0; while (i < 3) i++; return x; }", "x", BinOp::Eq, 0),
    ];
    for (i, (body, var, op, value)) in cases.iter().enumerate() {
        let mut program = compile(&format!("{PRELUDE}{body}\n"));
        let heads = heads(&program);
        let wrong: Vec<Candidate> = heads.iter().map(|h| candidate(&mut program, *h, var, *op, *value)).collect();
        let (result, _) = certify(&program, wrong);
        assert!(result.is_empty(), "case {i}: a wrong candidate was certified: {result:?}");
    }
}

#[test]
fn true_hand_written_candidates_are_certified_together() {
    // x == 0 is inductive only together with y == 0.
    let source = format!("{PRELUDE}int main() {{ int x = 0, y = 0; while (__VERIFIER_nondet_int()) {{ x = x + y; y = y * 2; }} return x; }}\n");
    let mut program = compile(&source);
    let head = heads(&program)[0];
    let both = vec![candidate(&mut program, head, "x", BinOp::Eq, 0), candidate(&mut program, head, "y", BinOp::Eq, 0)];
    assert_eq!(certified(&program, both).len(), 2);
    let alone = vec![candidate(&mut program, head, "x", BinOp::Eq, 0)];
    assert!(certified(&program, alone).is_empty(), "x == 0 alone is not inductive");
}
