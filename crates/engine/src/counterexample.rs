//! Counterexamples read off a solver model: the violated property (the
//! first in program order that the model violates), the assignments on the
//! path up to it, and the nondeterministic inputs in order.

use ir::interp::AddressKey;
use ir::{Loc, Program, Property, Type, TypeId};
use std::collections::HashMap;
use smt::{Evaluator, Model, TermId, TermStore, Value};
use symex::memory::{INVALID_OBJECT, NULL_OBJECT};
use symex::{Execution, InputKind};

/// One assignment of the trace, rendered for the user.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceLine {
    pub loc: Loc,
    pub function: String,
    pub lhs: String,
    /// The value in C syntax (`&x + 4` for pointers).
    pub value: String,
    /// Where the value comes from when it is a nondeterministic input
    /// (`__VERIFIER_nondet_int()`, `nondet`, ...), so the user sees which
    /// values the counterexample chose.
    pub input: Option<String>,
    /// The thread that took the step (0 is the main thread), when the
    /// program starts threads.
    pub thread: Option<u32>,
}

/// A nondeterministic input of the counterexample.
#[derive(Clone, Debug, PartialEq)]
pub struct InputValue {
    pub kind: InputKind,
    pub loc: Loc,
    /// The value's type; `None` for raw memory and allocation failures.
    pub ty: Option<TypeId>,
    /// Little-endian bytes, as the interpreter's input provider returns them.
    pub bytes: Vec<u8>,
    /// The byte of every later offset (a byte array's default; else zero),
    /// for a request larger than `bytes`.
    pub fill: u8,
    /// The index of the schedule's step that takes it, when the program
    /// starts threads (an input is a step others see).
    pub step: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct Counterexample {
    pub property: Property,
    pub loc: Loc,
    pub function: String,
    pub trace: Vec<TraceLine>,
    pub inputs: Vec<InputValue>,
    /// Functions without a body called on the path (their effect is only
    /// approximated, so such a counterexample is not trusted).
    pub unmodelled_calls: Vec<String>,
    /// Calls on the path whose only unknown is the address layout (an
    /// address printed), and the values standing for what depends on it:
    /// the counterexample is trusted only if it violates its assertion
    /// whatever those values are.
    pub layout_calls: Vec<String>,
    pub layout_values: Vec<TermId>,
    /// The index of the violated assertion in the equation.
    pub assertion_index: usize,
    /// The integer addresses the model gives the exposed objects, by the
    /// key the interpreter knows them by (keys naming several objects,
    /// such as a local of a recursive function, are left out).
    pub addresses: HashMap<AddressKey, u64>,
    /// Values of quantified variables that decide a quantifier (memory
    /// bytes), by the quantifier's location: the replay tries them.
    pub witnesses: Vec<(Loc, Vec<u8>)>,
    /// The threads' steps in the order they are taken, when the program
    /// starts threads: the replay follows it.
    pub schedule: Option<ir::interp::Schedule>,
}

fn is_true(evaluator: &mut Evaluator, t: TermId) -> Result<bool, String> {
    match evaluator.eval(t) {
        Ok(Value::Bool(b)) => Ok(b),
        Ok(other) => Err(format!("a condition evaluated to the non-Boolean {other}")),
        Err(e) => Err(format!("cannot evaluate the model: {e}")),
    }
}

/// Which assertions a counterexample may violate.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Target {
    Properties,
    UnwindingAssertions,
}

pub(crate) fn build(
    program: &Program,
    execution: &Execution,
    store: &TermStore,
    model: &Model,
    target: Target,
) -> Result<Counterexample, String> {
    let equation = &execution.equation;
    let mut evaluator = Evaluator::new(store, model);
    // With threads, the violation the schedule reaches first: the one a
    // replay following it meets.
    let mut failed = None;
    let mut failed_at = None;
    for (index, assertion) in equation.assertions.iter().enumerate() {
        let unwinding = assertion.property.class == ir::PropertyClass::UnwindingAssertion;
        if unwinding != (target == Target::UnwindingAssertions) {
            continue;
        }
        if is_true(&mut evaluator, assertion.guard)? && !is_true(&mut evaluator, assertion.condition)? {
            let at = match assertion.when {
                Some(when) => Some(clock_value(&mut evaluator, when.clock)?),
                None => None,
            };
            if failed.is_none() || at.is_some_and(|at| failed_at.is_some_and(|earliest| at < earliest)) {
                (failed, failed_at) = (Some((index, assertion)), at);
            }
            if at.is_none() {
                break;
            }
        }
    }
    let (failed_index, failed) = failed.ok_or("the solver's model violates no assertion (internal error)")?;
    let mut trace = environment_lines(program, execution, &mut evaluator)?;
    let failed_clock = match failed.when {
        Some(when) => Some(clock_value(&mut evaluator, when.clock)?),
        None => None,
    };
    // Other threads' steps up to the violation's, in the order taken.
    let traced = match failed_clock {
        Some(_) => &equation.steps[..],
        None => &equation.steps[..failed.steps_before],
    };
    let mut timed_lines = Vec::new();
    // Temporaries the front end introduces (`$ret`, ...) are not source-level steps.
    for step in traced.iter().filter(|s| !s.lhs.starts_with('$')) {
        if !is_true(&mut evaluator, step.guard)? {
            continue;
        }
        let time = match step.when {
            Some(when) => Some(clock_value(&mut evaluator, when.clock)?),
            None => None,
        };
        if failed_clock.is_some_and(|limit| time.is_some_and(|t| t > limit)) {
            continue;
        }
        let value = evaluator.eval(step.value).map_err(|e| format!("cannot evaluate the model: {e}"))?;
        let line = TraceLine {
            loc: step.loc,
            function: program.functions[step.function].name.clone(),
            lhs: step.lhs.clone(),
            value: render(program, execution, step.ty, &value),
            input: equation.inputs.iter().find(|i| i.value == step.value).map(|i| input_source(&i.kind)),
            thread: step.when.map(|w| w.thread),
        };
        timed_lines.push((time, line));
    }
    // Stable: symex's order within a step, which is the thread's.
    timed_lines.sort_by_key(|(time, _)| *time);
    trace.extend(timed_lines.into_iter().map(|(_, line)| line));
    let mut inputs = Vec::new();
    for input in &equation.inputs {
        if !is_true(&mut evaluator, input.guard)? {
            continue;
        }
        let value = evaluator.eval(input.value).map_err(|e| format!("cannot evaluate the model: {e}"))?;
        let time = match input.when {
            Some(when) => Some(clock_value(&mut evaluator, when.clock)?),
            None => None,
        };
        inputs.push((time, InputValue { kind: input.kind.clone(), loc: input.loc, ty: input.ty, bytes: to_bytes(&value), fill: fill_byte(&value), step: None }));
    }
    // The interpreter asks for them in the order the threads' steps run.
    inputs.sort_by_key(|(time, _)| *time);
    let (schedule, times) = match failed.when {
        Some(when) => {
            let (times, steps): (Vec<u64>, Vec<_>) = schedule(equation, &mut evaluator)?.into_iter().unzip();
            // A deadlock is every thread waiting where the steps end.
            let violator = (failed.property.class != ir::PropertyClass::Deadlock).then_some(when.thread);
            (Some(ir::interp::Schedule { steps, violator }), times)
        }
        None => (None, Vec::new()),
    };
    let inputs = inputs
        .into_iter()
        .map(|(time, input)| InputValue { step: time.and_then(|t| times.binary_search(&t).ok()), ..input })
        .collect();
    let mut unmodelled_calls = Vec::new();
    let mut layout_calls = Vec::new();
    let mut layout_values = Vec::new();
    for call in equation.unmodelled_calls.iter().filter(|c| c.assertions_before <= failed_index) {
        if !is_true(&mut evaluator, call.guard)? {
            continue;
        }
        let names = if call.layout_values.is_empty() { &mut unmodelled_calls } else { &mut layout_calls };
        if !names.contains(&call.name) {
            names.push(call.name.clone());
        }
        layout_values.extend(&call.layout_values);
    }
    let addresses = addresses(program, execution, &mut evaluator)?;
    Ok(Counterexample {
        addresses,
        unmodelled_calls,
        layout_calls,
        layout_values,
        assertion_index: failed_index,
        property: failed.property.clone(),
        loc: failed.loc,
        function: program.functions[failed.function].name.clone(),
        trace,
        inputs,
        witnesses: Vec::new(),
        schedule,
    })
}

/// A clock's value in the model.
fn clock_value(evaluator: &mut Evaluator, clock: TermId) -> Result<u64, String> {
    let value = evaluator.eval(clock).map_err(|e| format!("cannot evaluate the model: {e}"))?;
    value.as_bv().and_then(|bv| bv.to_u64()).ok_or_else(|| format!("a thread's clock evaluated to {value}"))
}

/// The steps the model's threads take, ordered by their clocks, with
/// their clocks.
fn schedule(equation: &symex::Equation, evaluator: &mut Evaluator) -> Result<Vec<(u64, ir::interp::ScheduledStep)>, String> {
    let mut taken = Vec::new();
    for step in &equation.thread_steps {
        if !is_true(evaluator, step.guard)? {
            continue;
        }
        let mut started = Vec::new();
        for &(thread, guard) in &step.started {
            if is_true(evaluator, guard)? {
                started.push(thread);
            }
        }
        let time = clock_value(evaluator, step.when.clock)?;
        let at = ir::interp::StepAt::Instruction { function: step.function, pc: step.pc };
        taken.push((time, ir::interp::ScheduledStep { thread: step.when.thread, at, started }));
    }
    taken.sort_by_key(|(time, _)| *time);
    Ok(taken)
}

/// The entry function's arguments and the environment strings the model
/// chose (`argc`, `argv[i]`, `getenv`, `p == NULL`, `elements of *p`;
/// not the contents of `*p`), as the first lines of the trace:
/// together with the other inputs they are what a rerun needs.
fn environment_lines(program: &Program, execution: &Execution, evaluator: &mut Evaluator) -> Result<Vec<TraceLine>, String> {
    let entry = program.entry.map_or(String::new(), |f| program.functions[f].name.clone());
    let mut lengths = HashMap::new();
    let mut lines = Vec::new();
    for input in &execution.equation.inputs {
        let (InputKind::EntryArgument(name) | InputKind::Environment(name)) = &input.kind else { continue };
        if !is_true(evaluator, input.guard)? {
            continue;
        }
        let value = evaluator.eval(input.value).map_err(|e| format!("cannot evaluate the model: {e}"))?;
        let function = match input.kind {
            InputKind::Environment(_) => "getenv".to_string(),
            _ => entry.clone(),
        };
        let rendered = if let Some(string) = name.strip_prefix("strlen(").and_then(|n| n.strip_suffix(')')) {
            let bytes = to_bytes(&value);
            lengths.insert(string.to_string(), u32::from_le_bytes(std::array::from_fn(|i| bytes.get(i).copied().unwrap_or(0))));
            continue;
        } else if let Some(&length) = lengths.get(name) {
            let mut bytes = to_bytes(&value);
            bytes.resize(length as usize, fill_byte(&value));
            string_literal(&bytes)
        } else if let Some(ty) = input.ty {
            render(program, execution, ty, &value)
        } else if let Value::Bool(flag) = value {
            // A pointer parameter's NULL flag.
            flag.to_string()
        } else if let Some(count) = value.as_bv().and_then(|bv| bv.to_u64()) {
            // A pointer parameter's element count.
            count.to_string()
        } else {
            continue;
        };
        lines.push(TraceLine { loc: input.loc, function, lhs: name.clone(), value: rendered, input: Some(input_source(&input.kind)), thread: None });
    }
    Ok(lines)
}

/// Characters of a string shown in a trace before it is cut.
const SHOWN_STRING_CHARS: usize = 256;

/// `bytes` as a C string literal, cut after [`SHOWN_STRING_CHARS`].
fn string_literal(bytes: &[u8]) -> String {
    let mut text = String::from("\"");
    for &b in bytes.iter().take(SHOWN_STRING_CHARS) {
        match b {
            b'"' | b'\\' => text += &format!("\\{}", b as char),
            0x20..=0x7e => text.push(b as char),
            // Three octal digits, so that a following digit is not absorbed.
            _ => text += &format!("\\{b:03o}"),
        }
    }
    text.push('"');
    if bytes.len() > SHOWN_STRING_CHARS {
        text += &format!(" ... ({} characters)", bytes.len());
    }
    text
}

/// The model's base address of every exposed object that one key names,
/// except blocks allocated inside library models: the library aligns
/// those, which the model's addresses do not follow.
fn addresses(program: &Program, execution: &Execution, evaluator: &mut Evaluator) -> Result<HashMap<AddressKey, u64>, String> {
    let in_library = |loc: &Loc| program.files.is_library_model(*loc);
    let mut found: HashMap<AddressKey, Option<u64>> = HashMap::new();
    for &object in execution.objects.exposed() {
        let object = execution.objects.get(object);
        let (Some(key), Some(base)) = (object.address_key(), object.base) else { continue };
        if matches!(&key, AddressKey::Allocation(loc) if in_library(loc)) {
            continue;
        }
        let value = match evaluator.eval(base).map_err(|e| format!("cannot evaluate the model: {e}"))? {
            Value::Bv(bv) => bv.to_u64(),
            _ => None,
        };
        found.entry(key).and_modify(|seen| *seen = None).or_insert(value);
    }
    Ok(found.into_iter().filter_map(|(key, base)| Some((key, base?))).collect())
}

/// How an input is named in the trace.
pub(crate) fn input_source(kind: &InputKind) -> String {
    match kind {
        InputKind::Nondet => "nondet".to_string(),
        InputKind::NondetCall(name) | InputKind::ExternalCall(name) => format!("{name}()"),
        InputKind::Uninitialized(name) => format!("uninitialised {name}"),
        InputKind::EntryArgument(name) => format!("argument {name}"),
        InputKind::Environment(name) => format!("environment {name}"),
        InputKind::AllocationFailure => "allocation failure".to_string(),
    }
}

/// Bytes of a byte-array value given back to the interpreter at most
/// (the contents of a large object; the replay pads with zeros).
const MAX_ARRAY_INPUT_BYTES: u64 = 1 << 20;

/// Little-endian bytes of a Boolean or bit-vector value; the bytes of a
/// byte array (offset to byte) up to its last explicit entry.
pub(crate) fn to_bytes(value: &Value) -> Vec<u8> {
    match value {
        Value::Bool(b) => vec![u8::from(*b)],
        Value::Bv(bv) => {
            let len = bv.width().div_ceil(8) as usize;
            bv.words().iter().flat_map(|w| w.to_le_bytes()).take(len).collect()
        }
        Value::Array(array) => {
            let byte = |v: &Value| v.as_bv().and_then(|b| b.to_u64()).unwrap_or(0) as u8;
            let entries: Vec<(u64, u8)> = array
                .entries()
                .filter_map(|(i, v)| Some((i.as_bv()?.to_u64()?, byte(v))))
                .filter(|&(i, _)| i < MAX_ARRAY_INPUT_BYTES)
                .collect();
            let len = entries.iter().map(|&(i, _)| i + 1).max().unwrap_or(0);
            let mut bytes = vec![byte(array.default_value()); len as usize];
            for (i, b) in entries {
                bytes[i as usize] = b;
            }
            bytes
        }
        other => other.to_string().into_bytes(),
    }
}

/// The byte a byte-array value holds past its explicit entries.
fn fill_byte(value: &Value) -> u8 {
    match value {
        Value::Array(array) => array.default_value().as_bv().and_then(|b| b.to_u64()).unwrap_or(0) as u8,
        _ => 0,
    }
}

/// A value of type `ty` in C syntax.
fn render(program: &Program, execution: &Execution, ty: TypeId, value: &Value) -> String {
    let Value::Bv(bv) = value else {
        return match value {
            Value::Bool(b) => b.to_string(),
            other => other.to_string(),
        };
    };
    match program.types.get(ty) {
        Type::Int { signed: true, .. } => bv.to_i128().map_or_else(|| bv.to_smtlib(), |v| v.to_string()),
        Type::Int { signed: false, .. } => bv.to_u128().map_or_else(|| bv.to_smtlib(), |v| v.to_string()),
        Type::Pointer(_) => render_pointer(program, execution, bv),
        Type::Float(ir::FloatFormat::Single) => match bv.to_u64() {
            Some(bits) => format!("{} /* 0x{bits:08x} */", float_literal(f64::from(f32::from_bits(bits as u32)), "f")),
            None => bv.to_smtlib(),
        },
        Type::Float(ir::FloatFormat::Double) => match bv.to_u64() {
            Some(bits) => format!("{} /* 0x{bits:016x} */", float_literal(f64::from_bits(bits), "")),
            None => bv.to_smtlib(),
        },
        Type::Composite(_) | Type::Array(..) => render_aggregate(program, execution, ty, bv).unwrap_or_else(|| bv.to_smtlib()),
        _ => bv.to_smtlib(),
    }
}

/// Array elements shown before the rest is cut.
const SHOWN_ELEMENTS: u64 = 16;

/// A struct, union or array value as a C initialiser (`{ .a = 1, .b = 2 }`,
/// `{ 1, 2, 3 }`), when its bits are its memory image.
fn render_aggregate(program: &Program, execution: &Execution, ty: TypeId, bits: &smt::BvValue) -> Option<String> {
    let size = program.types.size_of(ty, program.data_model)?;
    if u64::from(bits.width()) != size * 8 || size == 0 {
        return None;
    }
    let part = |ty: TypeId, offset_bits: u64, width: u64| -> Option<String> {
        let value = Value::Bv(bits.extract(u32::try_from(offset_bits + width - 1).ok()?, u32::try_from(offset_bits).ok()?));
        Some(render(program, execution, ty, &value))
    };
    match program.types.get(ty) {
        Type::Composite(id) => {
            let fields = &program.types.composites[*id].fields;
            let mut shown = Vec::new();
            for field in fields.iter().filter(|f| !f.name.is_empty()) {
                let width = match field.bit_width {
                    Some(width) => u64::from(width),
                    None => program.types.size_of(field.ty, program.data_model)? * 8,
                };
                if width > 0 {
                    shown.push(format!(".{} = {}", field.name, part(field.ty, field.offset_bits, width)?));
                }
            }
            Some(format!("{{ {} }}", shown.join(", ")))
        }
        Type::Array(element, ir::ArrayLen::Fixed(count)) => {
            let width = program.types.size_of(*element, program.data_model)? * 8;
            if width == 0 {
                return None;
            }
            let mut shown: Vec<String> =
                (0..(*count).min(SHOWN_ELEMENTS)).map(|i| part(*element, i * width, width)).collect::<Option<_>>()?;
            if *count > SHOWN_ELEMENTS {
                shown.push(format!("... ({count} elements)"));
            }
            Some(format!("{{ {} }}", shown.join(", ")))
        }
        _ => None,
    }
}

/// A float as a C literal with `suffix` (`NAN` and `INFINITY` from
/// math.h): the shortest decimal that reads back the same value.
fn float_literal(value: f64, suffix: &str) -> String {
    match value {
        v if v.is_nan() => "NAN".into(),
        v if v.is_infinite() => format!("{}INFINITY", if v < 0.0 { "-" } else { "" }),
        // The shortest text of the value in its own format.
        v if suffix == "f" => format!("{:?}{suffix}", v as f32),
        v => format!("{v:?}"),
    }
}

/// A heap object named by its allocation site: `malloc at list.c:12, 3rd`
/// (the 3rd object that call allocated on the path).
fn heap_object_name(program: &Program, execution: &Execution, object: symex::ObjectId, loc: Loc) -> String {
    let allocator = program
        .functions
        .values()
        .filter_map(|f| f.body.as_ref())
        .flatten()
        .filter(|i| i.loc == loc)
        .find_map(|i| match &i.kind {
            ir::InstrKind::Call { callee, .. } => match callee.kind {
                ir::ExprKind::Sym(sym) => Some(program.symbols[sym].display_name.clone()),
                _ => None,
            },
            _ => None,
        })
        .unwrap_or_else(|| "heap object".to_string());
    let earlier = execution
        .objects
        .iter()
        .filter(|(id, o)| *id < object && matches!(o.kind, symex::ObjectKind::Heap { loc: at } if at == loc))
        .count();
    format!("{allocator} at {}:{}, {}", program.files.name(loc.file), loc.line, ordinal(earlier + 1))
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `21st`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn render_pointer(program: &Program, execution: &Execution, bits: &smt::BvValue) -> String {
    let layout = execution.layout;
    let raw = bits.to_u128().unwrap_or(0);
    let number = (raw >> layout.offset_bits()) as u64;
    let offset_field = bits.extract(layout.offset_bits() - 1, 0).sign_extend(128 - layout.offset_bits());
    let offset = offset_field.to_i128().unwrap_or(0);
    match number {
        NULL_OBJECT if offset == 0 => "NULL".to_string(),
        NULL_OBJECT | INVALID_OBJECT => format!("INVALID-POINTER({})", bits.to_smtlib()),
        n => match execution.objects.by_number(n) {
            Some(o) => {
                let object = execution.objects.get(o);
                let name = match object.kind {
                    symex::ObjectKind::Heap { loc } => format!("({})", heap_object_name(program, execution, o, loc)),
                    _ => object.name.clone(),
                };
                match offset {
                    0 => format!("&{name}"),
                    _ => format!("&{name} + {offset}"),
                }
            }
            None => format!("INVALID-POINTER({})", bits.to_smtlib()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_and_ordinals_read_as_people_write_them() {
        assert_eq!(float_literal(1.5, "f"), "1.5f");
        assert_eq!(float_literal(f64::from(0.1f32), "f"), "0.1f");
        assert_eq!(float_literal(0.1, ""), "0.1");
        assert_eq!(float_literal(f64::NEG_INFINITY, ""), "-INFINITY");
        assert_eq!(float_literal(f64::NAN, "f"), "NAN");
        let ordinals: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].into_iter().map(ordinal).collect();
        assert_eq!(ordinals, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]);
    }

    #[test]
    fn strings_are_shown_as_c_literals_that_read_back_the_same_bytes() {
        assert_eq!(string_literal(b"ab\"c\\"), r#""ab\"c\\""#);
        // An escaped byte keeps three digits, so a following digit stays apart.
        assert_eq!(string_literal(&[1, b'7', 0xff]), r#""\0017\377""#);
        let long = vec![b'x'; SHOWN_STRING_CHARS + 1];
        assert!(string_literal(&long).ends_with(&format!("\" ... ({} characters)", SHOWN_STRING_CHARS + 1)));
    }
}
