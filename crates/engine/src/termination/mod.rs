//! The termination engine (`--termination`, SV-COMP's `F end`): proves
//! that every run of the program ends, or finds one that does not.
//!
//! The program is prepared first ([`prepare`]): a failing check ends the
//! run (an assertion aborts, a division by zero traps), so every `Assert`
//! becomes an `Assume` and paths past a failure are dropped; then every
//! loop whose state can be compared gets a lasso check (`lasso`), and
//! every recursive function whose entry state can be compared one at its
//! entry (`recursion`). The
//! engine then runs incremental BMC's bounds 1, 2, 4, ... on it:
//!
//! - a violated lasso check, replayed by the interpreter, is a run that
//!   never ends: FALSE, the counterexample being the stem and the loop;
//! - no reachable unwinding assertion at some bound (the forward condition)
//!   means every loop and recursion exits within the bound: TRUE.
//!
//! Before BMC, `ranking` looks for a certified ranking function for every
//! loop (on a copy of the program with shadow state at the loop heads):
//! when every loop has one and nothing recurses, TRUE.
//!
//! Calls to functions without bodies are assumed to return (symex's own
//! models of `exit`, `abort` and the like end the run), which the outcome
//! lists as an approximation when the program makes such calls.

mod heads;
mod lasso;
mod ranking;
mod recursion;

use crate::{bmc, Approximation, Config, Outcome, Proof, ProofMethod, ProvedRanking, Stats, Verdict};
use ir::{InstrKind, Program, PropertyClass};
use std::borrow::Cow;
use std::time::Instant;

/// What [`prepare`] did.
#[derive(Clone, Copy, Debug, Default)]
pub struct Prepared {
    /// Loops that got a lasso check.
    pub lasso_loops: usize,
    /// Recursive functions that got a lasso check at their entry.
    pub lasso_functions: usize,
}

/// Prepares an instrumented `program` for [`termination`]: checks end the
/// run instead of being properties, and loops get their lasso checks.
/// With `esbmc` (ESBMC's `--termination`, not SV-COMP's `F end`), a call
/// of an error function without a body (`__VERIFIER_error`) returns, as
/// every body-less call does, instead of ending the run (ESBMC's
/// github_6031), and signed-overflow checks stay assertions: ESBMC and
/// 2LS let signed arithmetic wrap, SV-COMP excludes overflow, and
/// [`termination`] only answers what holds under both readings.
pub fn prepare(program: &mut Program, esbmc: bool) -> Prepared {
    let error_returns = esbmc;
    if error_returns && !has_error_function_body(program) {
        for (_, function) in program.functions.iter_mut() {
            for instr in function.body.iter_mut().flatten() {
                if matches!(&instr.kind, InstrKind::Assert(_, p) if p.class == PropertyClass::ReachError) {
                    instr.kind = InstrKind::Skip;
                }
            }
        }
    }
    failures_end_the_run(program, esbmc);
    // Before the loops' checks, which then compare the recursion's shadow
    // state too (harmlessly: a run that never saves keeps it).
    let lasso_functions = recursion::instrument(program);
    Prepared { lasso_loops: lasso::instrument(program), lasso_functions }
}

/// Under SV-COMP's `F end` a TRUE is right only if no run overflows a
/// signed integer: the tasks read integers mathematically (a loop that
/// doubles `x` for ever does not terminate), and behaviour after undefined
/// behaviour may be anything, a run that never ends among it. The
/// termination engine judges no run past an overflow, so its TRUE comes
/// with this obligation: `program` (instrumented, not yet [`prepare`]d)
/// with its signed-overflow checks as the only assertions, for an engine
/// that must prove them all.
pub fn overflow_obligation(program: &Program) -> Program {
    let mut obligation = program.clone();
    failures_end_the_run(&mut obligation, true);
    obligation
}

/// Whether the program defines `reach_error` or `__VERIFIER_error`.
fn has_error_function_body(program: &Program) -> bool {
    ["reach_error", "__VERIFIER_error"].iter().any(|name| program.function(name).is_some_and(|f| program.functions[f].body.is_some()))
}

/// Every `Assert` becomes an `Assume`: a run that fails a check stops
/// there (C's `assert` and `reach_error` abort, a division by zero traps),
/// and a run that stops has ended. Signed-overflow checks are left to
/// [`signed_overflow`] when `keep_overflow`.
fn failures_end_the_run(program: &mut Program, keep_overflow: bool) {
    for (_, function) in program.functions.iter_mut() {
        for instr in function.body.iter_mut().flatten() {
            if let InstrKind::Assert(cond, p) = &instr.kind {
                if !(keep_overflow && p.class == PropertyClass::SignedOverflow) {
                    instr.kind = InstrKind::Assume(cond.clone());
                }
            }
        }
    }
}

/// `program` with the signed-overflow checks [`prepare`] left made to end
/// the run (`ends_the_run`: no run is judged past an overflow) or dropped
/// (the arithmetic wraps). A lasso found when overflow ends the run has
/// none on it, so it is a run under wrapping too; a ranking proof under
/// wrapping covers every run, and a run that overflow ends is a prefix of
/// one. The program itself when it has no such check.
fn signed_overflow(program: &Program, ends_the_run: bool) -> Cow<'_, Program> {
    let is_check = |i: &ir::Instr| matches!(&i.kind, InstrKind::Assert(_, p) if p.class == PropertyClass::SignedOverflow);
    if !program.functions.iter().any(|(_, f)| f.body.iter().flatten().any(is_check)) {
        return Cow::Borrowed(program);
    }
    let mut changed = program.clone();
    for (_, function) in changed.functions.iter_mut() {
        for instr in function.body.iter_mut().flatten() {
            if let InstrKind::Assert(cond, p) = &instr.kind {
                if p.class == PropertyClass::SignedOverflow {
                    instr.kind = if ends_the_run { InstrKind::Assume(cond.clone()) } else { InstrKind::Skip };
                }
            }
        }
    }
    Cow::Owned(changed)
}

/// Whether `program` starts threads: termination of concurrent programs
/// is not decided.
fn starts_threads(program: &Program) -> bool {
    program.functions.iter().any(|(_, f)| f.body.iter().flatten().any(|i| matches!(i.kind, InstrKind::StartThread(_))))
}

/// Decides termination of a program [`prepare`]d for it.
pub(crate) fn termination(program: &Program, config: &Config, deadline: Option<Instant>) -> Outcome {
    if starts_threads(program) {
        return crate::unknown("unsupported: termination of a program that starts threads");
    }
    let started = Instant::now();
    // Half the time at most: what is left goes to lassos and bounds.
    let ranking_deadline = deadline.map(|d| started + d.saturating_duration_since(started) / 2);
    let ranking_failure = match ranking::prove(&signed_overflow(program, false), config, ranking_deadline) {
        Ok(rankings) => return ranked(program, rankings, started),
        Err(why) => why,
    };
    let config = Config { unwinding_assertions: true, unwinding_failures_are_violations: false, ..config.clone() };
    let mut outcome = lassos_and_bounds(&signed_overflow(program, true), &config, deadline);
    if matches!(outcome.verdict, Verdict::True) {
        let method = ProofMethod::BoundedExhaustion { bound: outcome.stats.bound };
        outcome.proof = Some(Box::new(Proof { method, invariants: Vec::new(), rankings: Vec::new() }));
    }
    if let Verdict::Unknown(reason) = &outcome.verdict {
        outcome.verdict = Verdict::Unknown(format!("termination: {reason}; {ranking_failure}"));
    }
    outcome
}

/// Incremental BMC on `program`: lassos and bounded exhaustion. With
/// recursion checks, a quarter of the time is theirs: showing that a deep
/// recursion never repeats its entry state (LogRecursive's divisions) can
/// cost far more than exhausting it, so the rest goes to the program
/// without them (their choices stay: a witness replays on either).
fn lassos_and_bounds(program: &Program, config: &Config, deadline: Option<Instant>) -> Outcome {
    let (Some(plain), Some(deadline)) = (recursion::without_checks(program), deadline) else {
        return bmc::incremental(program, config, deadline);
    };
    let now = Instant::now();
    let outcome = bmc::incremental(program, config, Some(now + deadline.saturating_duration_since(now) / 4));
    match outcome.verdict {
        Verdict::Unknown(_) => bmc::incremental(&plain, config, Some(deadline)),
        _ => outcome,
    }
}

/// The TRUE of a proof by `rankings`: calls of functions without a body
/// that may not return are its approximations.
fn ranked(program: &Program, rankings: Vec<ProvedRanking>, started: Instant) -> Outcome {
    let approximations = assumed_to_return(program)
        .into_iter()
        .map(|(name, loc)| Approximation { what: format!("the call of {name}, which has no body, is assumed to return"), loc, affects_true: false })
        .collect();
    let stats = Stats { symex_time: started.elapsed(), ..Stats::default() };
    let proof = Proof { method: ProofMethod::RankingFunctions, invariants: Vec::new(), rankings };
    Outcome { verdict: Verdict::True, approximations, stats, proof: Some(Box::new(proof)) }
}

/// Calls of functions without a body other than those that end the run
/// and those that only give a nondeterministic value.
fn assumed_to_return(program: &Program) -> Vec<(String, ir::Loc)> {
    let mut calls = Vec::new();
    for (_, function) in program.functions.iter() {
        for instr in function.body.iter().flatten() {
            let InstrKind::Call { callee, args, .. } = &instr.kind else { continue };
            let ir::ExprKind::Sym(s) = callee.kind else { continue };
            let ir::SymbolKind::Function(f) = program.symbols[s].kind else { continue };
            let name = &program.functions[f].name;
            let modelled = ["__VERIFIER_", "__tarsier_", "__builtin_", "__CPROVER_", "__ESBMC_"].iter().any(|p| name.starts_with(p));
            let ends = analysis::absint::vars::never_returns(program, callee);
            if program.functions[f].body.is_none() && !modelled && !ends && !ir::external::is_nondet_value_call(program, name, args) {
                calls.push((name.clone(), instr.loc));
            }
        }
    }
    calls
}
