//! `cargo xtask c-oracle`: checks tarsier's integer and memory semantics
//! against gcc. A seeded generator writes small C functions without
//! undefined behaviour (every division, shift, negation and signed
//! operation guarded or done in the unsigned type of its width) over
//! integer inputs, in feature classes: random expressions (promotions,
//! usual arithmetic conversions, literals, shifts, division and remainder
//! of negatives, conversions, compound assignment, `++`/`--`, `?:`, `,`,
//! `sizeof`), bit-fields, unions and `memcpy`/`memmove`/`memset`,
//! `__builtin_*` bit operations, overflow builtins, `switch` with
//! fall-through, struct layout and pointer arithmetic, short-circuit
//! evaluation, compound literals and enums, calls passing and returning
//! structs, conversions between integer and floating types, variadic
//! calls; and memory: pointers, object representations, the heap and
//! `<string.h>`/`printf` on small buffers (`memory`, `strings`).
//!
//! gcc compiles every case into one batch program and runs it natively.
//! Each case then becomes verification tasks:
//! - *pinned*: inputs nondeterministic but pinned by
//!   `__VERIFIER_assume(in == value)`, the result asserted equal to the
//!   native one (TRUE expected) and, in a twin, to it with one bit flipped
//!   (FALSE expected);
//! - *symbolic*, for cases that compute their result a second way (see
//!   `expr`, `shapes`): one or two inputs left free in windows of values, the two
//!   ways asserted equal (TRUE) and, in a twin, unequal (FALSE). The batch
//!   program checks the two ways natively over the whole windows first, so
//!   a generator mistake is never blamed on tarsier.
//!
//! Any other definite answer is a soundness bug. Only LP64 is generated.

mod conversions;
mod expr;
mod memory;
mod shapes;
pub mod statements;
mod strings;
pub mod types;
mod variadic;

use crate::oracle::{fresh_dir, report_wrong, run_native, run_tarsier, score, unknown_reasons, Rng, Score, Task};
use crate::runner::parallel_map;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;
use types::{canonical, typed_constant, IntTy};

/// The statements of a case: `text` sets `r`, `alt` (when the class has a
/// second way) sets `alt`. Both run in the body of one function whose
/// parameters are `in0`, `in1`, ... `top` holds declarations before that
/// function; `@` in all three stands for the function's name, so that
/// the batch program's cases do not clash.
#[derive(Default, Debug)]
pub struct Body {
    pub top: String,
    pub text: String,
    pub alt: String,
}

/// A feature class of generated programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    Expr,
    BitField,
    BitFieldLayout,
    Union,
    Builtin,
    Overflow,
    Switch,
    Layout,
    Logic,
    Literal,
    Call,
    /// Conversions between integer and floating types at their edges.
    Convert,
    /// Variadic calls with arguments of mixed kinds read by `va_arg`.
    Variadic,
    Pointer,
    Bytes,
    Heap,
    String,
    /// Expression statements and side effects, undefined behaviour
    /// included (see [`statements`]).
    Statement,
}

impl Class {
    pub const ALL: [Class; 18] = [
        Class::Expr,
        Class::BitField,
        Class::BitFieldLayout,
        Class::Union,
        Class::Builtin,
        Class::Overflow,
        Class::Switch,
        Class::Layout,
        Class::Logic,
        Class::Literal,
        Class::Call,
        Class::Convert,
        Class::Variadic,
        Class::Pointer,
        Class::Bytes,
        Class::Heap,
        Class::String,
        Class::Statement,
    ];

    /// The memory classes, whose tasks take longer than the others'.
    pub const MEMORY: [Class; 4] = [Class::Pointer, Class::Bytes, Class::Heap, Class::String];

    pub fn name(self) -> &'static str {
        match self {
            Class::Expr => "expr",
            Class::BitField => "bitfield",
            Class::BitFieldLayout => "bitfield-layout",
            Class::Union => "union",
            Class::Builtin => "builtin",
            Class::Overflow => "overflow",
            Class::Switch => "switch",
            Class::Layout => "layout",
            Class::Logic => "logic",
            Class::Literal => "literal",
            Class::Call => "call",
            Class::Convert => "convert",
            Class::Variadic => "variadic",
            Class::Pointer => "pointer",
            Class::Bytes => "bytes",
            Class::Heap => "heap",
            Class::String => "string",
            Class::Statement => "stmt",
        }
    }
}

/// A comma-separated selection of classes by name, or `all`.
pub fn parse_classes(list: &str) -> Result<Vec<Class>, String> {
    if list == "all" {
        return Ok(Class::ALL.to_vec());
    }
    list.split(',')
        .map(|word| {
            Class::ALL.iter().copied().find(|c| c.name() == word).ok_or_else(|| {
                let known: Vec<&str> = Class::ALL.iter().map(|c| c.name()).collect();
                format!("unknown class '{word}' (known: {}, all)", known.join(","))
            })
        })
        .collect()
}

/// An input: its type and pinned value (canonical form).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input {
    pub ty: IntTy,
    pub value: u64,
}

/// The values a symbolic task leaves input `input` free over: `count`
/// consecutive values from `low` (canonical), none wrapping around.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub input: usize,
    pub low: u64,
    pub count: u64,
}

impl Window {
    fn high(self, ty: IntTy) -> u64 {
        canonical(ty, self.low.wrapping_add(self.count - 1))
    }
}

#[derive(Debug)]
pub struct Case {
    pub class: Class,
    pub inputs: Vec<Input>,
    pub body: Body,
    /// The symbolic windows (of distinct inputs), for a case that computes
    /// its result two ways; empty otherwise.
    pub windows: Vec<Window>,
    /// Which result bit the pinned FALSE twin flips.
    pub flip_bit: u32,
}

/// A value of `ty` where integer semantics have corner cases (extremes,
/// zero, ±1, powers of two and their neighbours) or a random one.
pub fn edge_value(rng: &mut Rng, ty: IntTy) -> u64 {
    let width = ty.width();
    let power = 1u64 << rng.below(u64::from(width));
    let value = match rng.below(12) {
        0 => 0,
        1 => 1,
        2 => u64::MAX,
        3 => ty.max_canonical(),
        4 => ty.min_canonical(),
        5 => ty.max_canonical().wrapping_sub(1),
        6 => ty.min_canonical().wrapping_add(1),
        7 => power.wrapping_add(rng.pick(&[0, 1, u64::MAX])),
        8 => power.wrapping_neg(),
        9 => rng.below(20).wrapping_sub(10),
        _ => rng.next_u64() >> rng.below(64),
    };
    canonical(ty, value)
}

fn random_inputs(rng: &mut Rng, count: usize) -> Vec<Input> {
    (0..count)
        .map(|_| {
            let ty = rng.pick(&IntTy::ALL);
            Input { ty, value: edge_value(rng, ty) }
        })
        .collect()
}

/// A window of up to `size` values of input `input` around its pinned
/// value.
fn window_around(rng: &mut Rng, inputs: &[Input], input: usize, size: u64) -> Window {
    let Input { ty, value } = inputs[input];
    let count = if ty == IntTy::Bool { 2 } else { size };
    let shift = rng.below(count);
    let low = if ty.is_signed() {
        let (min, max) = (ty.min_canonical() as i64, ty.max_canonical() as i64);
        (value as i64).saturating_sub(shift as i64).clamp(min, max - (count as i64 - 1)) as u64
    } else {
        value.saturating_sub(shift).min(ty.max_canonical() - (count - 1))
    };
    Window { input, low, count }
}

/// One case of `class`.
pub fn generate_case(rng: &mut Rng, class: Class) -> Case {
    let count = 1 + rng.below(3) as usize;
    let mut inputs = random_inputs(rng, count);
    let mut body = Body::default();
    let two_ways = match class {
        Class::Expr => {
            let types: Vec<IntTy> = inputs.iter().map(|i| i.ty).collect();
            let steps = 2 + rng.below(6) as usize;
            body = expr::ExprBuilder::new(rng, &types).build(steps);
            true
        }
        Class::BitField => shapes::bit_fields(rng, &inputs, &mut body, true),
        Class::BitFieldLayout => shapes::bit_fields(rng, &inputs, &mut body, false),
        Class::Union => shapes::union_bytes(rng, &inputs, &mut body),
        Class::Builtin => shapes::bit_builtins(rng, &inputs, &mut body),
        Class::Overflow => shapes::overflow_builtins(rng, &mut inputs, &mut body),
        Class::Switch => shapes::switch_fall_through(rng, &inputs, &mut body),
        Class::Layout => shapes::layout(rng, &inputs, &mut body),
        Class::Logic => shapes::short_circuit(rng, &inputs, &mut body),
        Class::Literal => shapes::compound_literals(rng, &inputs, &mut body),
        Class::Call => shapes::calls(rng, &inputs, &mut body),
        Class::Convert => conversions::conversions(rng, &inputs, &mut body),
        Class::Variadic => variadic::variadic_calls(rng, &inputs, &mut body),
        Class::Pointer => memory::pointers(rng, &inputs, &mut body),
        Class::Bytes => memory::bytes(rng, &inputs, &mut body),
        Class::Heap => memory::heap(rng, &inputs, &mut body),
        Class::String => strings::strings(rng, &inputs, &mut body),
        Class::Statement => unreachable!("statement cases are whole programs (statements::generate)"),
    };
    let mut windows = Vec::new();
    if two_ways {
        let first = rng.below(inputs.len() as u64) as usize;
        windows.push(window_around(rng, &inputs, first, 16));
        let second = rng.below(inputs.len() as u64) as usize;
        if second != first && rng.chance(2) {
            windows.push(window_around(rng, &inputs, second, 4));
        }
    }
    let flip_bit = if rng.chance(2) { rng.below(8) } else { rng.below(64) } as u32;
    Case { class, inputs, body, windows, flip_bit }
}

/// `count` cases of every class in `classes` but [`Class::Statement`],
/// whose cases [`statements`] makes.
pub fn generate_cases(rng: &mut Rng, classes: &[Class], count: usize) -> Vec<Case> {
    let classes = classes.iter().filter(|&&class| class != Class::Statement);
    classes.flat_map(|&class| (0..count).map(|_| generate_case(rng, class)).collect::<Vec<_>>()).collect()
}

const HEADERS: &str = "#include <limits.h>\n#include <stddef.h>\n#include <string.h>\n";

/// The headers a task of `class` includes besides [`HEADERS`] (the batch
/// program includes them all).
fn class_headers(class: Class) -> &'static str {
    match class {
        Class::Pointer | Class::Bytes | Class::Heap => "#include <stdint.h>\n#include <stdlib.h>\n",
        Class::String => "#include <stdio.h>\n",
        Class::Variadic => "#include <stdarg.h>\n",
        _ => "",
    }
}

/// The case as a function `name(in0, ..., out)` storing the result in
/// `out[0]` and its second computation (or 0) in `out[1]`.
pub fn function_text(case: &Case, name: &str) -> String {
    let mut params: Vec<String> = case.inputs.iter().enumerate().map(|(i, input)| format!("{} in{i}", input.ty.c_name())).collect();
    params.push("unsigned long long out[2]".into());
    format!(
        "{}static void {name}({}) {{\n  unsigned long long r = 0, alt = 0;\n{}{}  out[0] = r;\n  out[1] = alt;\n}}\n",
        case.body.top.replace('@', name),
        params.join(", "),
        case.body.text.replace('@', name),
        case.body.alt.replace('@', name)
    )
}

/// The batch program: every case's function, and a `main` printing
/// `<index> <result> <alt>` per case and `<index> mismatch <k>` for every
/// window offset `k` (the offsets of the windows as base-256 digits) where
/// the two ways differ.
pub fn native_program(cases: &[Case]) -> String {
    let mut text = String::from(HEADERS);
    text.push_str("#include <stdarg.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n");
    for (index, case) in cases.iter().enumerate() {
        text.push_str(&function_text(case, &format!("case_{index}")));
    }
    text.push_str("int main(void) {\n  unsigned long long out[2];\n");
    for (index, case) in cases.iter().enumerate() {
        let args = |free: &[Window]| {
            let mut args: Vec<String> = case
                .inputs
                .iter()
                .enumerate()
                .map(|(i, input)| match free.iter().position(|w| w.input == i) {
                    Some(k) => format!("({})(0x{:x}ull + k{k})", input.ty.c_name(), free[k].low),
                    None => typed_constant(input.ty, input.value),
                })
                .collect();
            args.push("out".into());
            args.join(", ")
        };
        let _ = writeln!(text, "  case_{index}({});\n  printf(\"{index} %llx %llx\\n\", out[0], out[1]);", args(&[]));
        if !case.windows.is_empty() {
            let mut offset = String::from("0");
            for (k, window) in case.windows.iter().enumerate() {
                let _ = write!(text, "  for (unsigned long long k{k} = 0; k{k} < {}; k{k}++)", window.count);
                offset = format!("({offset} * 256 + k{k})");
            }
            let _ = writeln!(text, " {{ case_{index}({}); if (out[0] != out[1]) printf(\"{index} mismatch %llx\\n\", {offset}); }}", args(&case.windows));
        }
    }
    text.push_str("  return 0;\n}\n");
    text
}

/// What the batch program printed for one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Native {
    pub result: u64,
    pub alt: u64,
    /// A window offset where the two ways differ natively.
    pub mismatch: Option<u64>,
}

/// Reads the batch program's output: one result per case, in order.
pub fn parse_native_output(text: &str, count: usize) -> Result<Vec<Native>, String> {
    let mut results: Vec<Option<Native>> = vec![None; count];
    let mut mismatches: BTreeMap<usize, u64> = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let malformed = || format!("native output line {}: malformed '{line}'", number + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let index: usize = words.first().and_then(|w| w.parse().ok()).filter(|&i| i < count).ok_or_else(malformed)?;
        let hex = |word: &str| u64::from_str_radix(word, 16).map_err(|_| malformed());
        match words[1..] {
            ["mismatch", offset] => {
                mismatches.entry(index).or_insert(hex(offset)?);
            }
            [result, alt] => results[index] = Some(Native { result: hex(result)?, alt: hex(alt)?, mismatch: None }),
            _ => return Err(malformed()),
        }
    }
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let native = r.ok_or(format!("native output has no result for case {i}"))?;
            Ok(Native { mismatch: mismatches.get(&i).copied(), ..native })
        })
        .collect()
}

/// Which task of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Flavour {
    /// Inputs pinned, the native result asserted.
    Pinned,
    /// Inputs pinned, the native result with one bit flipped asserted.
    PinnedFlip,
    /// Inputs in their windows, the two ways asserted equal.
    Symbolic,
    /// Inputs in their windows, the two ways asserted unequal.
    SymbolicFlip,
}

impl Flavour {
    fn name(self) -> &'static str {
        match self {
            Flavour::Pinned => "same",
            Flavour::PinnedFlip => "flip",
            Flavour::Symbolic => "sym",
            Flavour::SymbolicFlip => "symflip",
        }
    }

    pub fn expect_true(self) -> bool {
        matches!(self, Flavour::Pinned | Flavour::Symbolic)
    }

    fn is_symbolic(self) -> bool {
        matches!(self, Flavour::Symbolic | Flavour::SymbolicFlip)
    }
}

/// The verification task of one flavour of a case whose native result is
/// `native`.
pub fn task_program(case: &Case, native: u64, flavour: Flavour) -> String {
    let verdict = if flavour.expect_true() { "TRUE" } else { "FALSE" };
    let (condition, checks) = match flavour {
        Flavour::Pinned => (format!("out[0] == 0x{native:x}ull"), "the result equals gcc's".to_string()),
        Flavour::PinnedFlip => {
            let flipped = native ^ (1u64 << case.flip_bit);
            (format!("out[0] == 0x{flipped:x}ull"), format!("the result equals gcc's 0x{native:x} with bit {} flipped", case.flip_bit))
        }
        Flavour::Symbolic => ("out[0] == out[1]".into(), "the two computations agree over windows of inputs".into()),
        Flavour::SymbolicFlip => ("out[0] != out[1]".into(), "the two computations differ somewhere in windows of inputs".into()),
    };
    let mut text = format!("/* c-oracle: {} case; checks that {checks}; expected {verdict}. */\n{HEADERS}{}", case.class.name(), class_headers(case.class));
    text.push_str("extern void __VERIFIER_assume(int);\nextern void __VERIFIER_assert(int);\n");
    let mut declared: Vec<IntTy> = case.inputs.iter().map(|i| i.ty).collect();
    declared.sort();
    declared.dedup();
    for ty in declared {
        let _ = writeln!(text, "extern {} __VERIFIER_nondet_{}(void);", ty.c_name(), ty.nondet_suffix());
    }
    text.push_str(&function_text(case, "compute"));
    text.push_str("int main(void) {\n");
    let mut args = Vec::new();
    for (i, input) in case.inputs.iter().enumerate() {
        let _ = writeln!(text, "  {} in{i} = __VERIFIER_nondet_{}();", input.ty.c_name(), input.ty.nondet_suffix());
        match case.windows.iter().find(|w| w.input == i) {
            Some(window) if flavour.is_symbolic() => {
                let (low, high) = (typed_constant(input.ty, window.low), typed_constant(input.ty, window.high(input.ty)));
                let _ = writeln!(text, "  __VERIFIER_assume(in{i} >= {low} && in{i} <= {high});");
            }
            _ => {
                let _ = writeln!(text, "  __VERIFIER_assume(in{i} == {});", typed_constant(input.ty, input.value));
            }
        }
        args.push(format!("in{i}"));
    }
    let _ = writeln!(text, "  unsigned long long out[2];\n  compute({}, out);\n  __VERIFIER_assert({condition});\n  return 0;\n}}", args.join(", "));
    text
}

/// Options of `cargo xtask c-oracle`.
pub struct Options {
    pub cases: usize,
    pub classes: Vec<Class>,
    pub seed: u64,
    pub jobs: usize,
    pub timeout: Duration,
    pub tarsier: Option<PathBuf>,
    /// Flags added to tarsier's defaults (an engine, checks that must not
    /// fire on these programs without undefined behaviour).
    pub flags: Vec<String>,
}

/// Compiles (with `flags` added) and runs the batch program once for all
/// cases.
pub fn native_results(cases: &[Case], out_dir: &Path, flags: &[&str]) -> Result<Vec<Native>, String> {
    let flags: Vec<&str> = ["-O0", "-w"].into_iter().chain(flags.iter().copied()).collect();
    let output = run_native(&native_program(cases), out_dir, &flags, Duration::from_secs(120))?;
    parse_native_output(&output, cases.len())
}

/// Writes the tasks of every case the native run vouches for; a case whose
/// two ways differ natively is a generator mistake, listed and skipped.
pub fn write_tasks(cases: &[Case], native: &[Native], dir: &Path) -> Result<Vec<(Task, Flavour)>, String> {
    fresh_dir(dir)?;
    let mut tasks = Vec::new();
    for (index, (case, result)) in cases.iter().zip(native).enumerate() {
        let disagreement = !case.windows.is_empty() && (result.result != result.alt || result.mismatch.is_some());
        let mut flavours = vec![Flavour::Pinned, Flavour::PinnedFlip];
        if !case.windows.is_empty() {
            flavours.extend([Flavour::Symbolic, Flavour::SymbolicFlip]);
        }
        if disagreement {
            let path = dir.join(format!("generator-mistake-{index:05}.c"));
            std::fs::write(&path, function_text(case, "compute")).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!("c-oracle: generator mistake: the two ways of case {index} differ natively ({result:?}), see {}", path.display());
            continue;
        }
        for flavour in flavours {
            let path = dir.join(format!("{}-{index:05}-{}.c", case.class.name(), flavour.name()));
            std::fs::write(&path, task_program(case, result.result, flavour)).map_err(|e| format!("{}: {e}", path.display()))?;
            tasks.push((Task { case: index, path, expect_true: flavour.expect_true() }, flavour));
        }
    }
    Ok(tasks)
}

/// Generates, computes natively, writes and runs every case; returns the
/// number of tasks per [`Score`] (indexed by `Score as usize`).
pub fn run(opts: &Options, binary: &Path, out_dir: &Path) -> Result<[usize; 5], String> {
    if opts.cases == 0 || opts.classes.is_empty() {
        return Err("no case selected (--cases 0?)".into());
    }
    let mut counts = [0; 5];
    if opts.classes.iter().any(|&class| class != Class::Statement) {
        counts = run_value_classes(opts, binary, out_dir)?;
    }
    if opts.classes.contains(&Class::Statement) {
        let statements = statements::run(opts, binary, &out_dir.join("stmt"))?;
        for (total, count) in counts.iter_mut().zip(statements) {
            *total += count;
        }
    }
    Ok(counts)
}

/// [`run`] for the classes whose cases compute a value.
fn run_value_classes(opts: &Options, binary: &Path, out_dir: &Path) -> Result<[usize; 5], String> {
    let cases = generate_cases(&mut Rng::new(opts.seed), &opts.classes, opts.cases);
    let native = native_results(&cases, out_dir, &[])?;
    let tasks = write_tasks(&cases, &native, &out_dir.join("cases"))?;
    eprintln!("c-oracle: {} cases, {} tasks, {} jobs, seed {}", cases.len(), tasks.len(), opts.jobs, opts.seed);
    let total = tasks.len();
    let outcomes = parallel_map(&tasks, opts.jobs, |(task, _)| run_tarsier(binary, &task.path, &opts.flags, opts.timeout), |done| {
        if done % 200 == 0 || done == total {
            eprintln!("  {done}/{total}");
        }
    });
    let scores: Vec<Score> = tasks.iter().zip(&outcomes).map(|((t, _), o)| score(o, t.expect_true)).collect();
    print!("{}", render_table(&cases, &tasks, &scores));
    print!("{}", unknown_reasons(&outcomes));
    let wrong: Vec<&Task> = tasks.iter().zip(&scores).filter(|(_, &s)| s == Score::Wrong).map(|((t, _), _)| t).collect();
    report_wrong(&wrong, &out_dir.join("wrong"))?;
    Ok(crate::oracle::score_counts(&scores))
}

/// The class × pinned/symbolic table with totals.
fn render_table(cases: &[Case], tasks: &[(Task, Flavour)], scores: &[Score]) -> String {
    let mut rows: BTreeMap<(Class, bool), [usize; 5]> = BTreeMap::new();
    for ((task, flavour), &score) in tasks.iter().zip(scores) {
        rows.entry((cases[task.case].class, flavour.is_symbolic())).or_default()[score as usize] += 1;
    }
    let mut text = format!("{:<16} {:<8} {:>7} {:>6} {:>7} {:>7} {:>6}\n", "class", "inputs", "correct", "wrong", "unknown", "timeout", "error");
    let mut totals = [0usize; 5];
    for ((class, symbolic), counts) in &rows {
        let inputs = if *symbolic { "symbolic" } else { "pinned" };
        let _ = writeln!(text, "{:<16} {inputs:<8} {:>7} {:>6} {:>7} {:>7} {:>6}", class.name(), counts[0], counts[1], counts[2], counts[3], counts[4]);
        for (total, count) in totals.iter_mut().zip(counts) {
            *total += count;
        }
    }
    let _ = writeln!(text, "{:<25} {:>7} {:>6} {:>7} {:>7} {:>6}", "total", totals[0], totals[1], totals[2], totals[3], totals[4]);
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    #[test]
    fn generation_is_deterministic() {
        let text = |seed| generate_cases(&mut Rng::new(seed), &Class::ALL, 3).iter().map(|c| function_text(c, "f")).collect::<String>();
        assert_eq!(text(4), text(4));
        assert_ne!(text(4), text(5));
    }

    #[test]
    fn windows_stay_inside_their_type() {
        let mut rng = Rng::new(9);
        for _ in 0..2000 {
            let inputs = random_inputs(&mut rng, 2);
            let window = window_around(&mut rng, &inputs, 1, 16);
            let ty = inputs[window.input].ty;
            assert_eq!(canonical(ty, window.low), window.low);
            let (low, high) = (window.low, window.high(ty));
            if ty.is_signed() {
                assert!((low as i64) < (high as i64), "{ty:?} {low:x}..{high:x}");
            } else {
                assert!(low < high, "{ty:?} {low:x}..{high:x}");
            }
        }
    }

    #[test]
    fn tasks_pin_inputs_and_assert_the_native_result() {
        let mut rng = Rng::new(2);
        let case = generate_case(&mut rng, Class::Expr);
        let pinned = task_program(&case, 0x2a, Flavour::Pinned);
        assert!(pinned.contains("__VERIFIER_assume(in0 == ((") && pinned.contains("__VERIFIER_assert(out[0] == 0x2aull);"), "{pinned}");
        let flipped = task_program(&case, 0x2a, Flavour::PinnedFlip);
        assert!(flipped.contains(&format!("out[0] == 0x{:x}ull", 0x2a ^ (1u64 << case.flip_bit))), "{flipped}");
        let symbolic = task_program(&case, 0x2a, Flavour::SymbolicFlip);
        assert!(symbolic.contains(" >= ((") && symbolic.contains("__VERIFIER_assert(out[0] != out[1]);"), "{symbolic}");
        assert!(symbolic.contains("expected FALSE"), "{symbolic}");
    }

    #[test]
    fn native_output_is_read_back_with_mismatches() {
        let read = parse_native_output("1 5 5\n0 ff 0\n1 mismatch 3\n", 2).unwrap();
        assert_eq!(read[0], Native { result: 0xff, alt: 0, mismatch: None });
        assert_eq!(read[1], Native { result: 5, alt: 5, mismatch: Some(3) });
        assert!(parse_native_output("0 1 1\n", 2).unwrap_err().contains("no result for case 1"));
        assert!(parse_native_output("7 1 1\n", 2).unwrap_err().contains("malformed"));
    }

    #[test]
    fn classes_parse_by_name() {
        assert_eq!(parse_classes("expr,union"), Ok(vec![Class::Expr, Class::Union]));
        assert!(parse_classes("floats").unwrap_err().contains("known: expr,"));
    }

    /// Every class compiles with gcc, and the two ways agree natively.
    #[test]
    fn generated_cases_compile_and_their_two_ways_agree() {
        if Command::new("gcc").arg("--version").output().is_err() {
            eprintln!("skipped: gcc not found");
            return;
        }
        let dir = std::env::temp_dir().join(format!("c-oracle-test-{}", std::process::id()));
        let cases = generate_cases(&mut Rng::new(1), &Class::ALL, 40);
        let results = native_results(&cases, &dir, &[]);
        let _ = std::fs::remove_dir_all(&dir);
        for (case, native) in cases.iter().zip(results.expect("the batch program runs")) {
            if !case.windows.is_empty() {
                assert!(native.result == native.alt && native.mismatch.is_none(), "{native:?}\n{}", function_text(case, "f"));
            }
        }
    }

    /// Generates `count` cases of each of `classes`, runs their batch
    /// program built with the sanitizer `flags` and checks it ran to the
    /// end with the two ways agreeing (skipped where gcc cannot build with
    /// the flags).
    fn assert_cases_pass_sanitizers(classes: &[Class], count: usize, flags: &[&str]) {
        let probe = std::env::temp_dir().join(format!("c-oracle-probe-{}", std::process::id()));
        let probe_source = probe.with_extension("c");
        let _ = std::fs::write(&probe_source, "int main(void) { return 0; }\n");
        let usable = Command::new("gcc").args(flags).arg("-o").arg(&probe).arg(&probe_source).output().is_ok_and(|out| out.status.success());
        let _ = (std::fs::remove_file(&probe), std::fs::remove_file(&probe_source));
        if !usable {
            eprintln!("skipped: gcc cannot build with {flags:?} here");
            return;
        }
        let dir = std::env::temp_dir().join(format!("c-oracle-sanitized-{}-{}", classes[0].name(), std::process::id()));
        let cases = generate_cases(&mut Rng::new(3), classes, count);
        let results = native_results(&cases, &dir, flags);
        let _ = std::fs::remove_dir_all(&dir);
        for (case, native) in cases.iter().zip(results.expect("the sanitized batch program runs to the end")) {
            if !case.windows.is_empty() {
                assert!(native.result == native.alt && native.mismatch.is_none(), "{native:?}\n{}", function_text(case, "f"));
            }
        }
    }

    /// The memory classes are free of undefined behaviour as far as gcc's
    /// address and undefined-behaviour sanitizers see (every access in
    /// bounds and alive, no signed overflow), at every window offset.
    #[test]
    fn memory_cases_pass_the_sanitizers() {
        assert_cases_pass_sanitizers(&Class::MEMORY, 12, &["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]);
    }

    /// The variadic calls read every argument with its own type, within
    /// the arguments passed, with no signed overflow or bad shift.
    #[test]
    fn variadic_cases_pass_the_sanitizers() {
        assert_cases_pass_sanitizers(&[Class::Variadic], 100, &["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]);
    }

    /// Every conversion of the `convert` class to an integer type is in
    /// range: gcc's float-cast-overflow sanitizer (not part of
    /// `-fsanitize=undefined`) sees none out of it.
    #[test]
    fn conversion_cases_pass_the_float_cast_sanitizer() {
        assert_cases_pass_sanitizers(&[Class::Convert], 300, &["-fsanitize=undefined,float-cast-overflow", "-fno-sanitize-recover=all"]);
    }
}
