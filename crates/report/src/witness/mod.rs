//! SV-COMP witnesses: what a result says about the program, in the terms
//! the competition's validators read. A violation witness is the path to
//! the violation as waypoints (the value each nondeterministic input takes,
//! then the violation itself, the target); a correctness witness is the
//! loop invariants the proof rests on, as C expressions at the loop heads.
//! This module reads both off a [`Report`]; each format is one submodule:
//! [`yaml`] (format 2.0, SV-COMP 2025's) and [`graphml`] (format 1.0).
//! Locations are given in the files the verifier was given ([`lines`]).

pub mod graphml;
pub mod lines;
pub mod yaml;

use crate::Report;
use engine::{InputValue, Verdict};
use ir::interp::InputKind;
use ir::{DataModel, FloatFormat, Program, Type};
use lines::InputLines;
use std::path::PathBuf;

/// What a witness says about the task it belongs to.
pub struct TaskInfo {
    /// The program's files as given to the verifier.
    pub input_files: Vec<PathBuf>,
    /// The property file's text.
    pub specification: String,
    pub data_model: DataModel,
    /// The producer's version.
    pub version: String,
}

impl TaskInfo {
    /// Each input file with its SHA-256 (hex); unreadable files are errors.
    pub fn hashes(&self) -> Result<Vec<(String, String)>, String> {
        self.input_files
            .iter()
            .map(|path| {
                let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
                Ok((path.display().to_string(), crate::sha256::hex_digest(&bytes)))
            })
            .collect()
    }
}

/// A point of the program, in the files the verifier was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub line: u32,
    /// 1-based; 0 when unknown.
    pub column: u32,
    pub function: String,
}

/// One waypoint of a violation path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Waypoint {
    /// The call at `location` returns `value` (a C constant).
    Return { location: Location, function: String, value: String },
    /// `variable == value` holds at `location` (an uninitialised local).
    Assumption { location: Location, variable: String, value: String },
    /// The violation happens at `location` (in `thread`, when the program
    /// starts threads).
    Target { location: Location, thread: Option<u32> },
    /// A step of a program with threads: `thread` (0 is the main thread,
    /// the others numbered as they start) takes a step others see at
    /// `location`, which starts the threads in `started`. The waypoints of
    /// the values the step takes come right after it.
    Step { location: Location, thread: u32, started: Vec<u32> },
}

impl Waypoint {
    pub fn location(&self) -> &Location {
        match self {
            Waypoint::Return { location, .. } | Waypoint::Assumption { location, .. } | Waypoint::Target { location, .. } | Waypoint::Step { location, .. } => {
                location
            }
        }
    }
}

/// A loop invariant at the head of the loop at `location`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invariant {
    pub location: Location,
    /// A C expression over the variables in scope there.
    pub value: String,
}

/// What a result witnesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    Violation(Vec<Waypoint>),
    Correctness(Vec<Invariant>),
}

/// The content of the witness of `report`; `None` when the result is
/// neither TRUE nor FALSE (nothing to witness).
pub fn content(report: &Report, lines: &InputLines) -> Option<Content> {
    let program = report.program?;
    match &report.outcome.verdict {
        Verdict::False(cex) => {
            let mut waypoints = match &cex.schedule {
                Some(schedule) => scheduled_waypoints(program, lines, cex, schedule),
                None => cex.inputs.iter().filter_map(|input| input_waypoint(program, lines, input)).collect(),
            };
            let thread = cex.schedule.as_ref().and_then(|s| s.violator);
            waypoints.push(Waypoint::Target { location: location(program, lines, cex.loc, &cex.function), thread });
            Some(Content::Violation(waypoints))
        }
        Verdict::True => {
            let proved = report.outcome.proof.iter().flat_map(|proof| &proof.invariants);
            // Names the front end makes up (`$tmp`) are not the program's;
            // a quantified invariant is no C expression.
            let invariants = proved
                .filter(|inv| !inv.c_text.contains('$') && !inv.quantified)
                .map(|inv| Invariant { location: location(program, lines, inv.loc, &inv.function), value: inv.c_text.clone() })
                .collect();
            Some(Content::Correctness(invariants))
        }
        Verdict::BoundedTrue { .. } | Verdict::Unknown(_) => None,
    }
}

/// The schedule's steps in the program's own code, each followed by the
/// waypoints of the values it takes. A step inside a library model (the
/// start of a thread in `pthread_create`) has no place in the program:
/// the threads it starts go to the thread's latest step before it (the
/// call's), or its next one when it has none; the values it takes are
/// left free.
fn scheduled_waypoints(program: &Program, lines: &InputLines, cex: &engine::Counterexample, schedule: &ir::interp::Schedule) -> Vec<Waypoint> {
    // A value a library model takes has no place in the program's files
    // (a GraphML edge names only the program's line).
    let stated = |input: &&InputValue| !program.files.is_library_model(input.loc);
    let mut waypoints: Vec<Waypoint> = cex.inputs.iter().filter(|i| i.step.is_none()).filter(stated).filter_map(|i| input_waypoint(program, lines, i)).collect();
    let mut pending: std::collections::HashMap<u32, Vec<u32>> = Default::default();
    for (index, step) in schedule.steps.iter().enumerate() {
        let ir::interp::StepAt::Instruction { function, pc } = step.at else { continue };
        let loc = program.functions[function].body.as_deref().and_then(|body| body.get(pc as usize)).map_or(ir::Loc::NONE, |i| i.loc);
        if loc == ir::Loc::NONE || program.files.is_library_model(loc) {
            let latest = waypoints.iter_mut().rev().find_map(|w| match w {
                Waypoint::Step { thread, started, .. } if *thread == step.thread => Some(started),
                _ => None,
            });
            latest.unwrap_or_else(|| pending.entry(step.thread).or_default()).extend(&step.started);
        } else {
            let mut started = pending.remove(&step.thread).unwrap_or_default();
            started.extend(&step.started);
            let function = program.functions[function].name.clone();
            waypoints.push(Waypoint::Step { location: location(program, lines, loc, &function), thread: step.thread, started });
        }
        let taken = cex.inputs.iter().filter(|i| i.step == Some(index)).filter(stated);
        waypoints.extend(taken.filter_map(|input| input_waypoint(program, lines, input)));
    }
    waypoints
}

/// The waypoint of one nondeterministic input: the value a call returns
/// (`__VERIFIER_nondet_*`, a body-less function), or the initial value of
/// an uninitialised scalar local as an assumption at its declaration
/// (some tasks read one as their input). Inputs a witness cannot state
/// (pointers, aggregates, memory contents, NaNs) are left out.
fn input_waypoint(program: &Program, lines: &InputLines, input: &InputValue) -> Option<Waypoint> {
    let value = c_constant(program, input.ty?, &input.bytes)?;
    let function = function_at(program, input.loc);
    let callee = match &input.kind {
        InputKind::NondetCall(callee) | InputKind::ExternalCall(callee) => callee.clone(),
        // The order in which operands are evaluated is the compiler's, no input.
        InputKind::Nondet if program.is_evaluation_order_choice(input.loc) => return None,
        // The front end's own nondeterministic value: the call it stands for is not named.
        InputKind::Nondet => String::new(),
        // Names the front end makes up (`$tmp`) are not the program's.
        InputKind::Uninitialized(variable) if !variable.contains('$') => {
            let location = location(program, lines, input.loc, &function);
            return Some(Waypoint::Assumption { location, variable: variable.clone(), value });
        }
        _ => return None,
    };
    Some(Waypoint::Return { location: location(program, lines, input.loc, &function), function: callee, value })
}

fn location(program: &Program, lines: &InputLines, loc: ir::Loc, function: &str) -> Location {
    let (file, line) = lines.locate(program.files.name(loc.file), loc.line);
    Location { file: file.display().to_string(), line, column: loc.col, function: function.to_string() }
}

/// The function with an instruction at `loc` (the entry function if none).
fn function_at(program: &Program, loc: ir::Loc) -> String {
    let holds = |f: &ir::Function| f.body.as_ref().is_some_and(|body| body.iter().any(|instr| instr.loc == loc));
    let entry = program.entry.map(|f| program.functions[f].name.clone());
    program.functions.iter().map(|(_, f)| f).find(|f| holds(f)).map(|f| f.name.clone()).or(entry).unwrap_or_default()
}

/// A random (version 4) UUID naming a witness.
fn uuid() -> String {
    use std::hash::{BuildHasher, Hasher};
    let random = || {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
        hasher.finish()
    };
    let bits = (u128::from(random()) << 64 | u128::from(random())) & !(0xf000u128 << 64) & !(0xc000u128 << 48);
    let bits = bits | 0x4000u128 << 64 | 0x8000u128 << 48;
    let hex = format!("{bits:032x}");
    format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
}

/// The value of `bytes` (little-endian) as a C constant of type `ty`.
pub fn c_constant(program: &Program, ty: ir::TypeId, bytes: &[u8]) -> Option<String> {
    let word = |n: usize| -> Option<u128> { (bytes.len() >= n).then(|| bytes[..n].iter().rev().fold(0u128, |acc, &b| acc << 8 | u128::from(b))) };
    match program.types.get(ty) {
        Type::Bool => Some(if word(1)? & 1 == 1 { "1" } else { "0" }.to_string()),
        Type::Int { bits, signed } if *bits <= 64 => {
            let raw = word(bits.div_ceil(8) as usize)? & ((1u128 << bits) - 1);
            Some(integer_constant(raw, *bits, *signed))
        }
        Type::Float(FloatFormat::Single) => finite(f64::from(f32::from_bits(word(4)? as u32)), "f"),
        Type::Float(FloatFormat::Double) => finite(f64::from_bits(word(8)? as u64), ""),
        _ => None,
    }
}

fn integer_constant(raw: u128, bits: u32, signed: bool) -> String {
    if !signed {
        return format!("{raw}U");
    }
    let value = (raw << (128 - bits)) as i128 >> (128 - bits);
    match (value, bits) {
        // The most negative value has no literal: `-(2^63)` is out of range.
        (v, 64) if v == i128::from(i64::MIN) => "(-9223372036854775807LL - 1)".into(),
        (v, 64) => format!("{v}LL"),
        (v, _) => v.to_string(),
    }
}

/// The shortest decimal that reads back as the same value.
fn finite(value: f64, suffix: &str) -> Option<String> {
    if !value.is_finite() {
        return None;
    }
    let text = if suffix.is_empty() { format!("{value:e}") } else { format!("{:e}", value as f32) };
    Some(format!("{text}{suffix}"))
}

/// The value of a C constant [`c_constant`] wrote, as little-endian bytes
/// of `size` bytes of an integer, or of a float when `float` is true.
pub fn constant_bytes(text: &str, size: usize, float: bool) -> Option<Vec<u8>> {
    let text = text.trim();
    let text = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')).unwrap_or(text);
    if float {
        let digits = text.trim_end_matches(['f', 'F', 'l', 'L']);
        let value: f64 = digits.parse().ok()?;
        return match size {
            4 => Some((value as f32).to_bits().to_le_bytes().to_vec()),
            8 => Some(value.to_bits().to_le_bytes().to_vec()),
            _ => None,
        };
    }
    let value = if let Some((minuend, subtrahend)) = text.split_once(" - ") {
        integer(minuend)? - integer(subtrahend)?
    } else {
        integer(text)?
    };
    Some(value.to_le_bytes()[..size.min(16)].to_vec())
}

fn integer(text: &str) -> Option<i128> {
    text.trim().trim_end_matches(['u', 'U', 'l', 'L']).parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_well_formed() {
        let id = uuid();
        assert_eq!(id.len(), 36);
        assert_eq!((&id[14..15], id.matches('-').count()), ("4", 4), "{id}");
        assert!(matches!(&id[19..20], "8" | "9" | "a" | "b"), "{id}");
    }

    #[test]
    fn integers_read_back_to_their_bytes() {
        for (raw, bits, signed) in [(5u128, 32, true), (0xffff_ffff, 32, true), (0xffff_ffff, 32, false), (1 << 63, 64, true), (u64::MAX.into(), 64, false), (0x80, 8, true)] {
            let text = integer_constant(raw, bits, signed);
            let size = bits as usize / 8;
            let back = constant_bytes(&text, size, false).unwrap();
            assert_eq!(back, raw.to_le_bytes()[..size], "{text}");
        }
        assert_eq!(integer_constant(0xffff_ffff, 32, true), "-1");
        assert_eq!(integer_constant(1 << 63, 64, true), "(-9223372036854775807LL - 1)");
    }

    #[test]
    fn floats_read_back_exactly() {
        for value in [1.5f64, -0.1, 1e300, 5e-324] {
            let text = finite(value, "").unwrap();
            assert_eq!(constant_bytes(&text, 8, true).unwrap(), value.to_bits().to_le_bytes(), "{text}");
        }
        let single = finite(f64::from(0.1f32), "f").unwrap();
        assert_eq!(constant_bytes(&single, 4, true).unwrap(), 0.1f32.to_bits().to_le_bytes(), "{single}");
        assert_eq!(finite(f64::NAN, ""), None);
    }
}
