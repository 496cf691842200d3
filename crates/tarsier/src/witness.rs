//! SV-COMP witnesses on the command line: `--witness FILE` writes the
//! witness of a TRUE or FALSE result in the chosen format (the formats
//! are `report::witness`'s), and `--validate-witness FILE` checks a
//! violation witness (YAML or GraphML) by replaying its values with the
//! interpreter, following its threads' steps when it has them: the
//! witness is confirmed only when the run reaches a violation of the
//! property at the witness's target line.

use crate::config::{Config, WitnessFormat};
use crate::exit::Exit;
use engine::{Outcome, Verdict};
use ir::interp::{InputKind, InputProvider, InputRequest};
use report::witness::{self, lines::InputLines, TaskInfo, Waypoint};
use std::io::Write;

/// Writes the witness of `outcome` where `--witness` asks, when the
/// result is one SV-COMP counts (TRUE, or FALSE of the property).
pub fn write(config: &Config, program: &ir::Program, outcome: &Outcome) {
    let Some(path) = &config.verify.witness else { return };
    let Some(specification) = &config.verify.specification else {
        eprintln!("tarsier: warning: no witness written: a witness states an SV-COMP property (--property FILE.prp)");
        return;
    };
    let report = report::Report { outcome, program: Some(program), property: config.verify.property };
    if !report.svcomp_result().is_some_and(|result| result.starts_with("TRUE") || result.starts_with("FALSE")) {
        return;
    }
    let lines = InputLines::of(&config.inputs);
    let Some(content) = witness::content(&report, &lines) else { return };
    let content = match content {
        witness::Content::Violation(waypoints) => witness::Content::Violation(passed_before_target(config, program, &lines, waypoints)),
        correctness => correctness,
    };
    let task = TaskInfo {
        input_files: config.inputs.clone(),
        specification: specification.clone(),
        data_model: config.front.data_model,
        version: env!("CARGO_PKG_VERSION").to_string(),
    };
    let text = match config.verify.witness_format {
        WitnessFormat::Yaml => witness::yaml::render(&content, &task),
        WitnessFormat::GraphMl => witness::graphml::render(&content, &task),
    };
    if let Err(err) = text.and_then(|text| std::fs::write(path, text).map_err(|e| format!("cannot write '{}': {e}", path.display()))) {
        eprintln!("tarsier: warning: no witness written: {err}");
    }
}

/// The waypoints a replay of the witness passes before its target. A
/// counterexample gives values to every input of the unrolled program,
/// also to those after the violation (a call in the loop body after a
/// failing loop condition), which a witness must not name as waypoints
/// on the way to its target. When the replay does not reach the target
/// (values the witness leaves free matter), every waypoint stays.
fn passed_before_target(config: &Config, program: &ir::Program, lines: &InputLines, waypoints: Vec<Waypoint>) -> Vec<Waypoint> {
    let Some((Waypoint::Target { location: target, .. }, path)) = waypoints.split_last() else { return waypoints };
    if path.iter().any(|w| matches!(w, Waypoint::Step { .. })) {
        // A schedule's steps are kept whole.
        return waypoints;
    }
    let engine_config = crate::verify::engine_config(config, program);
    let mut inputs = WitnessInputs { program, lines, path, next: 0, unreadable: None };
    let reached = engine::replay_inputs(program, &engine_config, None, &mut inputs).and_then(|reached| at_target(config, program, lines, &reached, target));
    let passed = inputs.next;
    match (reached, inputs.unreadable) {
        (Ok(_), None) if passed < path.len() => path[..passed].iter().chain([&waypoints[waypoints.len() - 1]]).cloned().collect(),
        _ => waypoints,
    }
}

/// The `--validate-witness` action.
pub fn validate(config: &Config, program: ir::Program) -> Exit {
    let path = config.verify.witness_to_validate.as_deref().expect("the action is set with its witness");
    let read = |text: String| match text.contains("<graphml") {
        true => witness::graphml::read_violation(&text),
        false => witness::yaml::read_violation(&text),
    };
    let waypoints = match std::fs::read_to_string(path).map_err(|e| e.to_string()).and_then(read) {
        Ok(waypoints) => waypoints,
        Err(err) => {
            eprintln!("tarsier: error: {}: {err}", path.display());
            return Exit::InputError;
        }
    };
    let verdict = confirm(config, program, &waypoints);
    let (lines, exit) = match &verdict {
        Ok(what) => (format!("witness confirmed: {what}\nVERIFICATION FAILED\n"), Exit::Failed),
        Err(why) => (format!("witness not confirmed: {why}\nVERIFICATION UNKNOWN\n"), Exit::Unknown),
    };
    // A closed stdout (e.g. `| head`) must not turn into a panic.
    let _ = std::io::stdout().lock().write_all(lines.as_bytes());
    exit
}

/// Confirms the witness by replaying its values, or else by searching
/// for the values it leaves free ([`crate::witness_search`]); says what
/// was reached, or why the witness is not confirmed. The run must pass
/// every waypoint, in order, at its line, and violate the property at the
/// target's file and line.
fn confirm(config: &Config, mut program: ir::Program, waypoints: &[Waypoint]) -> Result<String, String> {
    let Some((Waypoint::Target { location: target, thread }, waypoints)) = waypoints.split_last() else {
        return Err("the witness has no target".into());
    };
    let (steps, path): (Vec<Waypoint>, Vec<Waypoint>) = waypoints.iter().cloned().partition(|w| matches!(w, Waypoint::Step { .. }));
    let path = &path[..];
    crate::verify::instrument(config, &mut program)?;
    if config.verify.checks.termination {
        // As the verification did: the witness's values include the
        // choices of the lasso instrumentation at loop heads.
        engine::termination::prepare(&mut program, config.verify.property.is_none());
    }
    let lines = InputLines::of(&config.inputs);
    let schedule = (!steps.is_empty()).then(|| schedule(&program, &lines, &steps, *thread));
    let replayed = replay(config, &program, &lines, path, schedule).and_then(|reached| at_target(config, &program, &lines, &reached, target));
    match replayed {
        Ok(what) => Ok(what),
        Err(why) => search(config, program, &lines, path, target).map_err(|searched| format!("{why}; {searched}")),
    }
}

/// The schedule of a witness's thread steps: each at the program's lines
/// that are the step's line of the witness's file; where the steps end,
/// the target's thread runs on to it.
fn schedule(program: &ir::Program, lines: &InputLines, steps: &[Waypoint], violator: Option<u32>) -> ir::interp::Schedule {
    let mut places = std::collections::BTreeMap::new();
    for function in program.functions.values() {
        for instr in function.body.iter().flatten() {
            places.entry((instr.loc.file, instr.loc.line)).or_insert_with(|| lines.locate(program.files.name(instr.loc.file), instr.loc.line));
        }
    }
    let scheduled = steps.iter().filter_map(|step| {
        let Waypoint::Step { location, thread, started } = step else { return None };
        let at = places.iter().filter(|(_, (file, line))| *line == location.line && same_file(file, &location.file)).map(|(place, _)| *place);
        Some(ir::interp::ScheduledStep { thread: *thread, at: ir::interp::StepAt::Line(at.collect()), started: started.clone() })
    });
    ir::interp::Schedule { steps: scheduled.collect(), violator }
}

/// Replays the witness's values, zero for those it leaves free, on its
/// threads' schedule if it has one.
fn replay(config: &Config, program: &ir::Program, lines: &InputLines, path: &[Waypoint], schedule: Option<ir::interp::Schedule>) -> Result<engine::Reached, String> {
    let engine_config = crate::verify::engine_config(config, program);
    let mut inputs = WitnessInputs { program, lines, path, next: 0, unreadable: None };
    let reached = engine::replay_inputs(program, &engine_config, schedule, &mut inputs);
    if let Some(why) = inputs.unreadable {
        return Err(why);
    }
    if let Some(missed) = path.get(inputs.next) {
        return Err(format!("the run never passes the waypoint at line {} (the witness follows another path)", missed.location().line));
    }
    reached
}

/// Verifies the program constrained to the witness: a violation found
/// follows every waypoint, with values for what the witness leaves free.
fn search(config: &Config, mut program: ir::Program, lines: &InputLines, path: &[Waypoint], target: &witness::Location) -> Result<String, String> {
    crate::witness_search::constrain(&mut program, lines, path).map_err(|why| format!("no search: {why}"))?;
    let engine_config = crate::verify::engine_config(config, &program);
    match engine::verify(&program, &engine_config).verdict {
        Verdict::False(cex) => {
            let reached = engine::Reached { class: cex.property.class, loc: Some(cex.loc) };
            at_target(config, &program, lines, &reached, target).map(|what| format!("{what} (values the witness leaves free found by search)"))
        }
        Verdict::True | Verdict::BoundedTrue { .. } => Err("no run that follows the witness violates the property".into()),
        Verdict::Unknown(why) => Err(format!("the search for the values the witness leaves free gave no answer ({why})")),
    }
}

/// Whether `reached` is a violation of the property at the target.
fn at_target(config: &Config, program: &ir::Program, lines: &InputLines, reached: &engine::Reached, target: &witness::Location) -> Result<String, String> {
    let result = match config.verify.property {
        Some(category) => category.violation(reached.class).ok_or_else(|| format!("the run violates {}, which is not the property's", reached.class))?,
        None => "FALSE",
    };
    let Some(loc) = reached.loc else {
        return Ok(format!("{result}: {} when the program ends", reached.class));
    };
    let (file, line) = lines.locate(program.files.name(loc.file), loc.line);
    if line != target.line || !same_file(&file, &target.file) {
        return Err(format!("the run violates {} at {}:{line}, not at the target {}:{}", reached.class, file.display(), target.file, target.line));
    }
    Ok(format!("{result}: {} at {}:{line}", reached.class, file.display()))
}

/// Whether the witness's `named` file is `file` (the same file, or, for a
/// name that is not a path here, one with the same name).
fn same_file(file: &std::path::Path, named: &str) -> bool {
    let named = std::path::Path::new(named);
    match (file.canonicalize(), named.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => file.file_name() == named.file_name(),
    }
}

/// Serves the witness's values in the witness's order: an input takes the
/// next waypoint's value when that waypoint is of its kind (a call's
/// result for a `function_return`, a variable's initial value for an
/// assumption about it) at its line; any other input the witness leaves
/// free, and the run takes zero.
struct WitnessInputs<'a> {
    program: &'a ir::Program,
    lines: &'a InputLines,
    /// The waypoints before the target.
    path: &'a [Waypoint],
    /// The first waypoint not passed yet.
    next: usize,
    /// A value that is not a constant of its input's type, if one was met.
    unreadable: Option<String>,
}

impl WitnessInputs<'_> {
    /// The next waypoint's value, if it states the input `request` asks for.
    fn take(&mut self, request: &InputRequest) -> Option<&str> {
        let (_, line) = self.lines.locate(self.program.files.name(request.loc.file), request.loc.line);
        let value = match (self.path.get(self.next)?, &request.kind) {
            (Waypoint::Return { location, value, .. }, InputKind::Nondet | InputKind::NondetCall(_) | InputKind::ExternalCall(_)) if location.line == line => value,
            (Waypoint::Assumption { location, variable, value }, InputKind::Uninitialized(name)) if location.line == line && variable == name => value,
            _ => return None,
        };
        self.next += 1;
        Some(value)
    }
}

impl InputProvider for WitnessInputs<'_> {
    fn next_input(&mut self, request: &InputRequest) -> Option<Vec<u8>> {
        let size = usize::try_from(request.size).ok()?;
        let float = request.ty.is_some_and(|ty| matches!(self.program.types.get(ty), ir::Type::Float(_)));
        let Some(text) = self.take(request) else {
            return Some(if matches!(request.kind, InputKind::Uninitialized(_)) { Vec::new() } else { vec![0; size] });
        };
        let bytes = witness::constant_bytes(text, size, float);
        if bytes.is_none() {
            // Ends the run: the witness does not say what it means.
            self.unreadable = Some(format!("the value `{text}` at line {} is not a constant of the input's type", request.loc.line));
        }
        bytes
    }
}
