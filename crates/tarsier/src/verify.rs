//! The verify action: instruments the program with the requested
//! properties, runs the engine, and prints the counterexample, the
//! approximations and the verdict (last line).

use crate::config::{Config, Engine, RoundingMode};
use crate::exit::Exit;
use engine::{Verdict, TraceLine};
use std::io::Write;

/// Checks and options the engine does not implement yet: asking for them
/// gives UNKNOWN rather than a verdict that ignores them.
fn unsupported_request(config: &Config) -> Option<&'static str> {
    let verify = &config.verify;
    let checks = &verify.checks;
    [
        (checks.nan, "NaN checks"),
        (checks.data_races, "data-race checks"),
        (checks.deadlock, "deadlock checks"),
        (checks.termination, "termination checks"),
        (verify.rounding != RoundingMode::NearestEven, "rounding modes other than nearest-even"),
        (verify.property_file.is_some(), "property files"),
        (verify.json, "JSON output"),
        (verify.multi_property, "--multi-property"),
    ]
    .into_iter()
    .find_map(|(asked, what)| asked.then_some(what))
}

fn engine_config(config: &Config) -> engine::Config {
    let verify = &config.verify;
    engine::Config {
        unwind: verify.unwind,
        unwinding_assertions: verify.unwinding_assertions,
        pointer_checks: verify.checks.pointer,
        bounds_checks: verify.checks.bounds,
        memory_leak_checks: verify.checks.memory_leak,
        memory_cleanup_checks: false,
        force_malloc_success: verify.force_malloc_success,
        timeout: verify.timeout,
        smt_formula: verify.smt_formula.clone(),
        incremental: verify.engine != Engine::Bmc && verify.unwind.is_none(),
        ..engine::Config::default()
    }
}

fn analysis_checks(config: &Config) -> analysis::Checks {
    let checks = &config.verify.checks;
    analysis::Checks {
        assertions: checks.assertions,
        div_by_zero: checks.div_by_zero,
        signed_overflow: checks.signed_overflow,
        unsigned_overflow: checks.unsigned_overflow,
        shift: checks.shift,
        error_label: config.verify.error_label.clone(),
        ..analysis::Checks::default()
    }
}

fn location(program: &ir::Program, loc: ir::Loc) -> String {
    match loc.is_none() {
        true => "<built-in>".to_string(),
        false => format!("{}:{}", program.files.name(loc.file), loc.line),
    }
}

pub fn run(config: &Config, mut program: ir::Program) -> Exit {
    let mut out = std::io::stdout().lock();
    // A closed stdout (e.g. `| head`) must not turn into a panic, so write errors are ignored.
    if let Some(what) = unsupported_request(config) {
        let _ = writeln!(out, "unsupported: {what}\nVERIFICATION UNKNOWN");
        return Exit::Unknown;
    }
    if config.verify.engine == Engine::KInduction {
        let _ = writeln!(out, "note: k-induction is not implemented yet; running incremental BMC");
    }
    analysis::instrument(&mut program, &analysis_checks(config));
    let outcome = engine::verify(&program, &engine_config(config));
    for approximation in &outcome.approximations {
        let _ = writeln!(out, "approximation: {}: {}", location(&program, approximation.loc), approximation.what);
    }
    match outcome.verdict {
        Verdict::True => {
            let _ = writeln!(out, "VERIFICATION SUCCESSFUL");
            Exit::Success
        }
        Verdict::BoundedTrue { bound } => {
            let _ = writeln!(out, "no violation within the unwinding bound {bound} (assumed, not checked)\nVERIFICATION SUCCESSFUL");
            Exit::Success
        }
        Verdict::False(cex) => {
            let _ = writeln!(out, "Counterexample:");
            for TraceLine { loc, function, lhs, value } in &cex.trace {
                let _ = writeln!(out, "  {} {function}: {lhs} = {value}", location(&program, *loc));
            }
            let _ = writeln!(
                out,
                "Violated property:\n  {} {}\n  {}\n  {}\nVERIFICATION FAILED",
                location(&program, cex.loc),
                cex.function,
                cex.property.message,
                cex.property.class
            );
            Exit::Failed
        }
        Verdict::Unknown(reason) => {
            let _ = writeln!(out, "{reason}\nVERIFICATION UNKNOWN");
            Exit::Unknown
        }
    }
}
