//! SV-COMP witnesses on the command line: `--witness FILE` writes the
//! witness of a TRUE or FALSE result in the chosen format (the formats
//! are `report::witness`'s), and `--validate-witness FILE` checks a
//! violation witness by replaying its values with the interpreter: the
//! witness is confirmed only when the run reaches a violation of the
//! property at the witness's target line.

use crate::config::{Config, WitnessFormat};
use crate::exit::Exit;
use engine::Outcome;
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
    let Some(content) = witness::content(&report, &InputLines::of(&config.inputs)) else { return };
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

/// The `--validate-witness` action.
pub fn validate(config: &Config, program: ir::Program) -> Exit {
    let path = config.verify.witness_to_validate.as_deref().expect("the action is set with its witness");
    let waypoints = match std::fs::read_to_string(path).map_err(|e| e.to_string()).and_then(|text| witness::yaml::read_violation(&text)) {
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

/// Replays the witness's values; says what was reached, or why the
/// witness is not confirmed.
fn confirm(config: &Config, mut program: ir::Program, waypoints: &[Waypoint]) -> Result<String, String> {
    let Some(Waypoint::Target { location: target }) = waypoints.last() else {
        return Err("the witness has no target".into());
    };
    crate::verify::instrument(config, &mut program);
    let engine_config = crate::verify::engine_config(config, &program);
    let mut inputs = WitnessInputs { program: &program, waypoints, used: vec![false; waypoints.len()] };
    let reached = engine::replay_inputs(&program, &engine_config, &mut inputs)?;
    let result = match config.verify.property {
        Some(category) => category.violation(reached.class).ok_or_else(|| format!("the run violates {}, which is not the property's", reached.class))?,
        None => "FALSE",
    };
    let Some(loc) = reached.loc else {
        return Ok(format!("{result}: {} when the program ends", reached.class));
    };
    let lines = InputLines::of(&config.inputs);
    let (file, line) = lines.locate(program.files.name(loc.file), loc.line);
    if line != target.line {
        return Err(format!("the run violates {} at line {line}, not at the target's line {}", reached.class, target.line));
    }
    Ok(format!("{result}: {} at {}:{line}", reached.class, file.display()))
}

/// Serves the witness's values: a call's result from the next
/// `function_return` waypoint, a variable's initial value from the next
/// assumption about it; anything else the witness does not fix is zero.
struct WitnessInputs<'a> {
    program: &'a ir::Program,
    waypoints: &'a [Waypoint],
    used: Vec<bool>,
}

impl WitnessInputs<'_> {
    fn take(&mut self, wanted: impl Fn(&Waypoint) -> bool) -> Option<&str> {
        let index = (0..self.waypoints.len()).find(|&i| !self.used[i] && wanted(&self.waypoints[i]))?;
        self.used[index] = true;
        match &self.waypoints[index] {
            Waypoint::Return { value, .. } | Waypoint::Assumption { value, .. } => Some(value),
            Waypoint::Target { .. } => None,
        }
    }
}

impl InputProvider for WitnessInputs<'_> {
    fn next_input(&mut self, request: &InputRequest) -> Option<Vec<u8>> {
        let size = usize::try_from(request.size).ok()?;
        let float = request.ty.is_some_and(|ty| matches!(self.program.types.get(ty), ir::Type::Float(_)));
        let value = match &request.kind {
            InputKind::Nondet | InputKind::NondetCall(_) | InputKind::ExternalCall(_) => self.take(|w| matches!(w, Waypoint::Return { .. })),
            InputKind::Uninitialized(name) => self.take(|w| matches!(w, Waypoint::Assumption { variable, .. } if variable == name)),
            _ => None,
        };
        let bytes = value.and_then(|text| witness::constant_bytes(text, size, float));
        match (&request.kind, bytes) {
            (_, Some(bytes)) => Some(bytes),
            (InputKind::Uninitialized(_), None) => Some(Vec::new()),
            (_, None) => Some(vec![0; size]),
        }
    }
}
