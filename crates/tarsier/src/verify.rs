//! The verify action: instruments the program with the requested
//! properties, runs the engine, and prints its outcome ([`crate::report`]).

use crate::config::{Config, Engine, VerifyOptions};
use engine::SolverChoice;
use crate::exit::Exit;
use crate::output::{Printer, Style};

/// Checks and options the engine does not implement yet: asking for them
/// gives UNKNOWN rather than a verdict that ignores them.
fn unsupported_request(config: &Config) -> Option<&'static str> {
    config.verify.multi_property.then_some("--multi-property")
}

pub(crate) fn engine_config(config: &Config, program: &ir::Program) -> engine::Config {
    let verify = &config.verify;
    let engine = safety_engine_config(config, program);
    match verify.checks.termination {
        false => engine,
        // Termination asks whether runs end, nothing else.
        true => engine::Config { strategy: engine::Strategy::Termination, ..engine_config_without_memory_checks(engine) },
    }
}

/// `engine` with no memory check as a property (the interpreter still
/// refuses a replay that faults).
fn engine_config_without_memory_checks(engine: engine::Config) -> engine::Config {
    engine::Config {
        pointer_checks: false,
        bounds_checks: false,
        alignment_checks: false,
        vla_length_checks: false,
        memory_leak_checks: false,
        memory_cleanup_checks: false,
        esbmc_memory_leak_check: false,
        ..engine
    }
}

fn safety_engine_config(config: &Config, program: &ir::Program) -> engine::Config {
    let verify = &config.verify;
    engine::Config {
        unwind: verify.unwind,
        unwinding_assertions: verify.unwinding_assertions,
        pointer_checks: verify.checks.pointer,
        bounds_checks: verify.checks.bounds,
        // SV-COMP's memory safety is about the memory a program may access:
        // C's rules on alignment and array lengths are not part of it.
        alignment_checks: verify.checks.alignment && verify.property.is_none(),
        vla_length_checks: verify.checks.bounds && verify.checks.vla_length && verify.property.is_none(),
        memory_leak_checks: verify.checks.memory_leak,
        // The command-line flag has ESBMC's meaning; a property file's
        // memory properties keep SV-COMP's.
        esbmc_memory_leak_check: verify.checks.memory_leak && verify.property.is_none(),
        data_race_checks: verify.checks.data_races,
        deadlock_checks: verify.checks.deadlock,
        memory_cleanup_checks: verify.memory_cleanup,
        force_malloc_success: verify.force_malloc_success,
        force_realloc_success: verify.force_realloc_success,
        timeout: verify.timeout,
        smt_formula: verify.smt_formula.clone(),
        strategy: strategy(verify, program),
        // SV-COMP answers only its own property; a loop past the bound is
        // not a violation of it.
        unwinding_failures_are_violations: verify.property.is_none(),
        solver: solver_choice(verify),
        context_bound: verify.context_bound,
        max_bound: verify.max_k_step.unwrap_or(engine::Config::default().max_bound),
        max_k_step: verify.max_k_step.unwrap_or(engine::Config::default().max_k_step),
        k_step: verify.k_step,
        parallel: verify.parallel,
        bidirectional: verify.bidirectional,
        invariants: verify.invariants,
    }
}

/// The engine's strategy: k-induction unless a bound is given (then plain
/// BMC) or another engine is asked for; an explicit `--k-induction` is not
/// bounded by `--unwind`, and `--incremental-bmc` with `--unwind` is BMC. A
/// program that gives a loop its own bound (`#pragma unroll N`,
/// `__ESBMC_unroll(N)`) asks for that loop to be checked with it: without
/// an engine option it gets BMC, whose unwinding assertions report it.
fn strategy(verify: &VerifyOptions, program: &ir::Program) -> engine::Strategy {
    let bounds_its_loops = program.loop_unwinds.iter().any(|l| l.bound.is_some());
    match (verify.engine, verify.unwind) {
        (Engine::Bmc, None) if bounds_its_loops => engine::Strategy::Bmc,
        (Engine::KInduction, _) | (Engine::Bmc, None) => engine::Strategy::KInduction,
        (Engine::IncrementalBmc, None) => engine::Strategy::IncrementalBmc,
        (Engine::Bmc | Engine::IncrementalBmc, Some(_)) => engine::Strategy::Bmc,
    }
}

fn solver_choice(verify: &VerifyOptions) -> SolverChoice {
    match &verify.crosscheck {
        Some(external) => SolverChoice::CrossCheck {
            external: external.clone(),
            dir: verify.crosscheck_dir.clone().unwrap_or_else(engine::default_crosscheck_dir),
        },
        None => verify.solver.clone(),
    }
}

/// Why the external solver the command line names cannot run, if it cannot.
pub fn missing_solver(config: &Config) -> Option<String> {
    let verify = &config.verify;
    let external = match (&verify.crosscheck, &verify.solver) {
        (Some(external), _) | (None, SolverChoice::External(external)) => external,
        (None, _) => return None,
    };
    external.check_installed().err()
}

fn analysis_checks(config: &Config) -> analysis::Checks {
    let checks = &config.verify.checks;
    if checks.termination {
        // A failed assertion aborts and a division by zero traps: the
        // termination engine makes both end the run. Signed overflow is
        // undefined: no run is judged past it (as if it trapped), so no
        // lasso rests on a wrapped signed value.
        return analysis::Checks {
            assertions: true,
            div_by_zero: true,
            signed_overflow: true,
            pointer_relation: false,
            bit_count: false,
            ..analysis::Checks::default()
        };
    }
    analysis::Checks {
        assertions: checks.assertions,
        library_assertions: checks.library_assertions,
        div_by_zero: checks.div_by_zero,
        signed_overflow: checks.signed_overflow,
        unsigned_overflow: checks.unsigned_overflow,
        float_overflow: checks.float_overflow,
        shift: checks.shift,
        shift_result: checks.shift_result,
        nan: checks.nan,
        pointer_relation: checks.pointer && checks.pointer_relation,
        bit_count: checks.bit_count,
        error_label: config.verify.error_label.clone(),
        reach_error: checks.reach_error,
        ..analysis::Checks::default()
    }
}

/// How the result is printed (`--json`, property file).
pub fn printer<'a>(config: &Config, program: Option<&'a ir::Program>) -> Printer<'a> {
    let style = if config.verify.json { Style::Json } else { Style::Text };
    let test_suite = config.verify.test_suite.clone().zip(config.inputs.first().cloned());
    Printer {
        style,
        program,
        property: config.verify.property,
        sarif: config.verify.sarif.clone(),
        html: config.verify.html.clone(),
        inputs: config.inputs.clone(),
        harness: config.verify.harness.clone(),
        test_suite,
    }
}

/// The `--show-invariants` action: the candidates at every loop head of
/// the instrumented program, one per line (`file:line: function: C text`)
/// with whether the solver certified it, then the counts.
pub fn show_invariants(config: &Config, mut program: ir::Program) -> Exit {
    use std::io::Write;
    if let Err(message) = instrument(config, &mut program) {
        eprintln!("tarsier: error: {message}");
        return Exit::UsageError;
    }
    let sites = analysis::invariants::loop_sites(&program);
    let mut invariants = analysis::invariants::generate(&program, &sites);
    if config.verify.inject_wrong_invariants {
        invariants.candidates = analysis::invariants::with_wrong_twins(&invariants.candidates);
    }
    let certification = engine::certify_invariants(&program, &invariants, &engine_config(config, &program));
    let mut out = String::new();
    for c in &invariants.candidates {
        let function = &program.functions[c.func].name;
        let certified = certification.certified.iter().any(|d| d.func == c.func && d.head == c.head && d.c_text == c.c_text);
        let status = if certified { "certified" } else { "not certified" };
        out += &format!("{}:{}: {function}: {} ({status})\n", program.files.name(c.loc.file), c.loc.line, c.c_text);
    }
    for note in &certification.notes {
        out += &format!("note: {note}\n");
    }
    if invariants.abandoned > 0 {
        out += &format!("note: the analysis of {} function(s) ran out of its budget\n", invariants.abandoned);
    }
    out += &format!(
        "{} candidate invariants, {} certified (analysis {:.3}s, certification {:.3}s in {} rounds)\n",
        certification.found,
        certification.certified.len(),
        invariants.time.as_secs_f64(),
        certification.time.as_secs_f64(),
        certification.rounds
    );
    // A closed stdout (e.g. `| head`) must not turn into a panic.
    let _ = write!(std::io::stdout().lock(), "{out}");
    Exit::Success
}

/// The `--show-loops` action: the loops of the instrumented program (the
/// one `--unwindset` applies to) with their ids.
pub fn show_loops(config: &Config, mut program: ir::Program) -> Exit {
    use std::io::Write;
    analysis::instrument(&mut program, &analysis_checks(config));
    // A closed stdout (e.g. `| head`) must not turn into a panic.
    let _ = write!(std::io::stdout().lock(), "{}", crate::loop_ids::listing(&program));
    Exit::Success
}

pub fn run(config: &Config, mut program: ir::Program) -> Exit {
    if let Some(why) = &config.verify.unsupported_property {
        return printer(config, None).print(&report::unknown(why));
    }
    if let Some(what) = unsupported_request(config) {
        return printer(config, None).print(&report::unknown(&format!("unsupported: {what}")));
    }
    if let Err(message) = instrument(config, &mut program) {
        eprintln!("tarsier: error: {message}");
        return Exit::UsageError;
    }
    if let Some(loc) = program.atomic_qualified.filter(|_| config.verify.checks.data_races && program.creates_threads()) {
        // Accesses of `_Atomic` objects never race, and the IR cannot tell them.
        let at = format!("{}:{}", program.files.name(loc.file), loc.line);
        return printer(config, None).print(&report::unknown(&format!("unsupported: data-race checks of a program with `_Atomic` types ({at})")));
    }
    let mut obligation = None;
    if config.verify.checks.termination {
        // The lasso and bounded arguments follow one thread's loops only.
        if program.creates_threads() {
            return printer(config, None).print(&report::unknown("unsupported: termination of programs that start threads"));
        }
        obligation = config.verify.property.is_some().then(|| engine::termination::overflow_obligation(&program));
        engine::termination::prepare(&mut program, config.verify.property.is_none());
    }
    crate::progress::start(config.verify.verbosity, config.verify.json);
    let started = std::time::Instant::now();
    let mut outcome = engine::verify(&program, &engine_config(config, &program));
    if let (Some(obligation), engine::Verdict::True) = (&obligation, &outcome.verdict) {
        if let Some(why) = signed_overflow_possible(config, obligation, started.elapsed()) {
            outcome = report::unknown(&format!("termination holds for the runs without signed overflow, but {why}"));
        }
    }
    crate::witness::write(config, &program, &outcome);
    printer(config, Some(&program)).print(&outcome)
}

/// Why a signed overflow in `obligation` (see
/// `engine::termination::overflow_obligation`) is not ruled out, in the
/// time `config` leaves after `spent`; `None` when k-induction proves
/// every overflow check.
fn signed_overflow_possible(config: &Config, obligation: &ir::Program, spent: std::time::Duration) -> Option<String> {
    let safety = safety_engine_config(config, obligation);
    let timeout = safety.timeout.map(|t| t.saturating_sub(spent));
    if timeout.is_some_and(|t| t.is_zero()) {
        return Some("no time was left to rule out a signed overflow".into());
    }
    let checks = engine::Config { strategy: engine::Strategy::KInduction, timeout, ..engine_config_without_memory_checks(safety) };
    match engine::verify(obligation, &checks).verdict {
        engine::Verdict::True => None,
        engine::Verdict::False(_) => Some("a signed overflow is reachable, and what follows it is undefined".into()),
        engine::Verdict::Unknown(reason) => Some(format!("a signed overflow was not ruled out ({reason})")),
        engine::Verdict::BoundedTrue { .. } => Some("a signed overflow was ruled out only up to a bound".into()),
    }
}

/// Adds the checks `config` asks for to `program`, gives the loops
/// `--unwindset` names their bounds (an unknown name is the error), and
/// removes the loop iterations that change nothing (whole busy-waits
/// among them) when only the reachable states matter.
pub(crate) fn instrument(config: &Config, program: &mut ir::Program) -> Result<(), String> {
    analysis::instrument(program, &analysis_checks(config));
    // The names are those of the loops `--show-loops` lists, before any goes.
    crate::loop_ids::apply_unwindset(program, &config.verify.unwindset)?;
    analysis::threads::separate_shared_writes(program);
    if only_reachable_states_matter(config) {
        analysis::spin::remove_stutter_loops(program);
        analysis::spin::cut_stutter_iterations(program);
    }
    analysis::invariants::intern_types(program);
    analysis::invariants::segments::intern_segment_indices(program);
    Ok(())
}

/// Whether the checks ask only which states the program reaches, so that
/// loop iterations that change nothing can go (`analysis::spin`): not
/// termination, data races or deadlocks, whose answers depend on the
/// iterations; not memory leaks, which SV-COMP's memtrack also judges on
/// a path that loops for ever (symex sees it repeat a state); nor a bound
/// given without a property file, whose unwinding assertions ask how
/// often each loop runs.
fn only_reachable_states_matter(config: &Config) -> bool {
    let checks = &config.verify.checks;
    let bound_asked = config.verify.unwind.is_some() && config.verify.property.is_none();
    !(checks.termination || checks.data_races || checks.deadlock || checks.memory_leak || bound_asked)
}
