//! Concrete runs of the program for violations too deep for the base
//! cases: a loop that counts to 2^27 before its assertion fails needs 2^27
//! unwindings, while the interpreter jumps over such iterations exactly
//! (`ir::interp`'s loop fast-forwarding), and a loop over an array of
//! 100,000 elements makes a formula the solver does not finish while the
//! interpreter runs it in moments. One run gives nondeterministic integers
//! and uninitialised integer memory pseudo-random bits (two arrays filled
//! alike are equal; at random, not), a second gives every input zero, a
//! third gives each input site its own constant (`Strategy`). Every
//! input is a legal choice, so a violation such a run reaches is a real one;
//! it is reported as a counterexample with the run's inputs and
//! assignments, and replayed like every other before it stands (unless
//! the run called an inexact math function, whose value a compiler may
//! compute otherwise than the host library).

use crate::counterexample::{input_source, InputValue, TraceLine};
use crate::replay::{self, Budget};
use crate::{Config, Counterexample, Outcome, Stats, Verdict};
use ir::interp::{self, InputKind, InputRequest, Outcome as RunOutcome, TraceStep};
use ir::{Expr, ExprKind, Program, Type};
use std::collections::HashMap;

/// How a concrete run picks its inputs.
#[derive(Clone, Copy)]
enum Strategy {
    /// Pseudo-random bits for integers: two arrays filled alike are
    /// equal, at random not.
    Random,
    /// Every input zero: a search that stops at the first equal element,
    /// which a random one never meets.
    Zero,
    /// Every input site its own constant (`ND = nondet(); for (...) a[i] =
    /// nondet();` fills the array with a value the key differs from): a
    /// search that finds no element equal to its key, which random and
    /// zero inputs both meet at once.
    PerSite,
}

impl Strategy {
    const ALL: [Strategy; 3] = [Strategy::Random, Strategy::Zero, Strategy::PerSite];

    /// Instructions the run may execute: a few seconds for the random one
    /// (eight loops over arrays of 100,000 elements), linear searches for
    /// the others.
    fn steps(self) -> u64 {
        match self {
            Strategy::Random => 5_000_000,
            Strategy::Zero | Strategy::PerSite => 3_000_000,
        }
    }

    /// A source of this strategy's inputs (the same sequence each time).
    fn inputs(self, program: &Program) -> Box<dyn interp::InputProvider + Send + '_> {
        match self {
            Strategy::Random => {
                let mut state = 0x2545_f491_4f6c_dd1du64;
                Box::new(move |request: &InputRequest| {
                    let size = answer_len(request)?;
                    Some(match input_leaf(program, request) {
                        Leaf::Number => (0..size).map(|_| next_byte(&mut state)).collect(),
                        Leaf::Truth => (0..size).map(|_| next_byte(&mut state) & 1).collect(),
                        Leaf::Shape => shape_bytes(program, request)?,
                        Leaf::Other => vec![0u8; size],
                    })
                })
            }
            Strategy::Zero => Box::new(|request: &InputRequest| shape_bytes(program, request)),
            Strategy::PerSite => {
                let mut sites: HashMap<(ir::FuncId, ir::Loc), u8> = HashMap::new();
                Box::new(move |request: &InputRequest| {
                    let size = answer_len(request)?;
                    let count = sites.len();
                    // Sites numbered 1..=255 in the order first met (0 is the zero run's).
                    let site = *sites.entry((request.function, request.loc)).or_insert((count % 255) as u8 + 1);
                    Some(match input_leaf(program, request) {
                        Leaf::Number => vec![site; size],
                        Leaf::Truth => vec![site & 1; size],
                        Leaf::Shape => shape_bytes(program, request)?,
                        Leaf::Other => vec![0u8; size],
                    })
                })
            }
        }
    }
}

/// The FALSE outcome of a violation that a run of some [`Strategy`]
/// reaches, if one does and its replay confirms it.
pub(crate) fn violation(program: &Program, config: &Config) -> Option<Outcome> {
    Strategy::ALL.into_iter().find_map(|strategy| run_with(program, config, strategy))
}

/// The longest answer for an object's initial contents (the rest of the
/// object stays zero, a legal value too): a variable-length array whose
/// length is an input can be larger than the memory of the machine.
const MAX_CONTENT_BYTES: u64 = 16 << 20;

/// How many bytes to answer `request` with.
fn answer_len(request: &InputRequest) -> Option<usize> {
    let size = match request.kind {
        InputKind::Uninitialized(_) => request.size.min(MAX_CONTENT_BYTES),
        _ => request.size,
    };
    usize::try_from(size).ok()
}

/// What the bytes of a requested input may be; the environment's shape
/// and allocation failures stay plain.
fn input_leaf(program: &Program, request: &InputRequest) -> Leaf {
    match request.kind {
        InputKind::EntryArgument(_) => Leaf::Shape,
        InputKind::Environment(_) | InputKind::AllocationFailure => Leaf::Other,
        _ => request.ty.map_or(Leaf::Other, |ty| leaf(program, ty)),
    }
}

/// The bytes of an argument of the entry function in every run: the
/// smallest environment the program may start in. Counts are 1 (`argc`,
/// the elements a pointer parameter points to: 0 violates the
/// environment's assumption, and the run would end before it starts),
/// the rest zero (empty strings, pointers not NULL, integer parameters 0).
fn shape_bytes(program: &Program, request: &InputRequest) -> Option<Vec<u8>> {
    let mut bytes = vec![0u8; answer_len(request)?];
    let InputKind::EntryArgument(name) = &request.kind else { return Some(bytes) };
    let argc = program.entry.filter(|e| program.is_hosted_main(*e)).and_then(|e| program.functions[e].params.first().copied());
    let is_count = name.starts_with("elements of ") || argc.is_some_and(|p| program.symbols[p].display_name == *name);
    if is_count && !bytes.is_empty() {
        bytes[0] = 1;
    }
    Some(bytes)
}

/// What every byte of a value of some type may be at random: integers
/// take any bits, `_Bool`s 0 or 1; floats, pointers and aggregates with
/// fields stay zero (a random pointer names no object, random x87 bits may
/// be no value a program can make).
enum Leaf {
    Number,
    Truth,
    /// The entry function's arguments ([`shape_bytes`]).
    Shape,
    Other,
}

fn leaf(program: &Program, ty: ir::TypeId) -> Leaf {
    match program.types.get(ty) {
        Type::Int { .. } => Leaf::Number,
        Type::Bool => Leaf::Truth,
        Type::Array(element, _) => leaf(program, *element),
        _ => Leaf::Other,
    }
}

/// The next byte of a xorshift sequence.
fn next_byte(state: &mut u64) -> u8 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state >> 24) as u8
}

/// The FALSE outcome of a violation the run of `strategy` reaches within
/// its steps. The per-site run, which rarely finds one and can run long
/// (a loop over a variable-length array whose length is its constant),
/// first runs without recording its trace (millions of steps of trace
/// took seconds and gigabytes), and again with it only when it reaches a
/// violation: its inputs are the same each time.
fn run_with(program: &Program, config: &Config, strategy: Strategy) -> Option<Outcome> {
    let interp_config = interp::Config { step_limit: strategy.steps(), record_trace: true, ..replay::interp_config(config) };
    if matches!(strategy, Strategy::PerSite) {
        let quick = interp::Config { record_trace: false, ..interp_config.clone() };
        if !matches!(interp::run(program, &quick, &mut *strategy.inputs(program)).outcome, RunOutcome::Violation(_)) {
            return None;
        }
    }
    let run = interp::run(program, &interp_config, &mut *strategy.inputs(program));
    let RunOutcome::Violation(violation) = &run.outcome else { return None };
    if !run.unknown_functions.is_empty() || calls_inexact_math(program, &run.trace) {
        return None;
    }
    let mut cex = Counterexample {
        property: violation.property.clone(),
        loc: violation.loc,
        function: program.functions[violation.function].name.clone(),
        trace: Vec::new(),
        inputs: Vec::new(),
        unmodelled_calls: Vec::new(),
        layout_calls: Vec::new(),
        layout_values: Vec::new(),
        assertion_index: 0,
        addresses: HashMap::new(),
        witnesses: Vec::new(),
        schedule: None,
    };
    for step in &run.trace {
        match step {
            TraceStep::Input { kind, ty, bytes, loc, function } => {
                let name = program.functions[*function].name.clone();
                let value = match ty {
                    Some(ty) if bytes.len() <= 16 => run.format_value(program, *ty, &interp::Value::Scalar(little_endian(bytes))),
                    _ => format!("({} bytes)", bytes.len()),
                };
                cex.trace.push(TraceLine { loc: *loc, function: name, lhs: input_source(kind), value, input: Some(input_source(kind)), thread: None });
                cex.inputs.push(InputValue { kind: kind.clone(), loc: *loc, ty: *ty, bytes: bytes.clone(), fill: 0, step: None });
            }
            TraceStep::Assign { function, loc, lhs, value, .. } => {
                let name = lvalue_text(program, lhs);
                // Temporaries the front end introduces (`$ret`, ...) are not source-level steps.
                if name.starts_with('$') {
                    continue;
                }
                let value = run.format_value(program, lhs.ty, value);
                let function = program.functions[*function].name.clone();
                cex.trace.push(TraceLine { loc: *loc, function, lhs: name, value, input: None, thread: None });
            }
            TraceStep::Call { .. } | TraceStep::Return { .. } => {}
        }
    }
    let class = replay::confirm(program, &cex, config, None, None, Budget::Full).ok()?;
    cex.property.class = class;
    Some(Outcome { verdict: Verdict::False(Box::new(cex)), approximations: Vec::new(), stats: Stats::default(), proof: None })
}

/// Whether the run called a math function without an exact result: the
/// run took the host library's values, while a compiler may compute a
/// call with constant arguments itself (correctly rounded), so whether a
/// violation rests on them is left to the symbolic engines, which check it.
fn calls_inexact_math(program: &Program, trace: &[TraceStep]) -> bool {
    trace.iter().any(|step| matches!(step, TraceStep::Call { callee, .. } if ir::libm::Inexact::of_name(&program.functions[*callee].name).is_some()))
}

/// An lvalue as C text for the trace: a variable by its name.
fn lvalue_text(program: &Program, lhs: &Expr) -> String {
    match lhs.kind {
        ExprKind::Sym(sym) => program.symbols[sym].display_name.clone(),
        _ => program.display_expr(lhs).to_string(),
    }
}

fn little_endian(bytes: &[u8]) -> u128 {
    bytes.iter().rev().fold(0u128, |value, &b| (value << 8) | u128::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every strategy answers a request for the contents of an object
    /// larger than memory (a variable-length array of input length) with
    /// a bounded prefix, and the per-site one gives a site the same value
    /// each time and another site another.
    #[test]
    fn answers_are_bounded_and_per_site_values_stay_with_their_site() {
        let mut program = Program::new(ir::DataModel::LP64);
        let char_type = program.types.int(8, true);
        let request = |kind: InputKind, size: u64, line: u32| InputRequest {
            kind,
            ty: Some(char_type),
            size,
            function: ir::FuncId(0),
            loc: ir::Loc { line, ..ir::Loc::NONE },
        };
        for strategy in Strategy::ALL {
            let mut inputs = strategy.inputs(&program);
            let huge = inputs.next_input(&request(InputKind::Uninitialized("m".into()), 1 << 50, 3)).expect("an answer");
            assert!(huge.len() as u64 <= MAX_CONTENT_BYTES);
        }
        let mut inputs = Strategy::PerSite.inputs(&program);
        let site = |inputs: &mut Box<dyn interp::InputProvider + Send + '_>, line| inputs.next_input(&request(InputKind::Nondet, 1, line));
        let (first, second, again) = (site(&mut inputs, 5), site(&mut inputs, 6), site(&mut inputs, 5));
        assert_eq!(first, again);
        assert_ne!(first, second);
        assert_ne!(first, Some(vec![0]), "the zero run gives zeros already");
    }
}
