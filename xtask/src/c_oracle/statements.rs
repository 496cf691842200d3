//! The `stmt` class of `cargo xtask c-oracle`: expression statements and
//! side effects, undefined behaviour allowed. A case is a `main` over
//! pinned integer inputs whose statements use expressions as statements
//! (discarded values, the comma operator, `?:` arms, `&&`/`||` short
//! circuits), compound assignments whose value is used, chained
//! assignments (the value stored, converted to the left operand's type),
//! `++`/`--` inside expressions and discarded reads of array elements and
//! of `*p`. Every operation is guarded against undefined behaviour except,
//! in about half of the cases, one: a division, a signed `+ - *`, a shift,
//! a negation, an index, a dereference of a pointer that may be NULL, a
//! compound assignment or an increment left unguarded, which the pinned
//! inputs may or may not drive into undefined behaviour.
//!
//! gcc decides which: all cases are compiled into one program under
//! `-fsanitize=address,undefined -fno-sanitize-recover=all` and each is run
//! on its own. Natively a discarded expression `E;` is written `sink =
//! (E);` into a volatile `sink`, on the same line, so that gcc evaluates
//! what C evaluates (gcc drops an unused `x + y` or `*p` before its
//! sanitizers see it). tarsier then verifies the case, as written, with
//! the checks of every undefined behaviour generated (`--overflow-check
//! --ub-shift-check` besides the defaults): where a sanitizer reported
//! undefined behaviour it must answer FAILED with that behaviour's
//! property class on the reported line; otherwise SUCCESSFUL for the
//! assertion that the folded values equal gcc's, and FAILED (a user
//! assertion) for its twin with one bit flipped. Any other definite
//! answer is a wrong one.

use super::types::{common_type, typed_constant, IntTy};
use super::{edge_value, Input};
use crate::oracle::{fresh_dir, score, Rng, Score};
use crate::runner::{parallel_map, Outcome};
use crate::process::{run_with_timeout, Ending};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The flags that switch on a check for every undefined behaviour the
/// class generates (bounds, pointer and division checks are defaults).
pub const CHECK_FLAGS: [&str; 2] = ["--overflow-check", "--ub-shift-check"];

/// Length of the case's array.
const ARRAY_LEN: u64 = 4;

/// One line of `main`: a statement and whether it is an expression
/// statement whose value is discarded.
#[derive(Clone, Debug)]
struct Line {
    text: String,
    discarded: bool,
}

/// A generated case: its inputs and the lines of its `main` after them.
#[derive(Debug)]
pub struct StmtCase {
    pub inputs: Vec<Input>,
    decls: Vec<String>,
    lines: Vec<Line>,
    /// The variables folded into the result.
    folded: Vec<String>,
    pub flip_bit: u32,
}

/// `((T)opaque(0x...ull))`: a constant gcc cannot fold into the
/// expression around it (its front end folds `x * C != 0` into `x != 0`
/// before the sanitizers see the multiplication).
fn constant(ty: IntTy, value: u64) -> String {
    format!("(({})opaque(0x{value:x}ull))", ty.c_name())
}

/// An integer expression: its C text and type.
#[derive(Clone, Debug)]
struct Operand {
    text: String,
    ty: IntTy,
}

/// The kinds of unguarded operation a case may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hazard {
    Divide,
    Arithmetic,
    Shift,
    Negate,
    Index,
    Deref,
    Compound,
    Increment,
}

const HAZARDS: [Hazard; 8] =
    [Hazard::Divide, Hazard::Arithmetic, Hazard::Shift, Hazard::Negate, Hazard::Index, Hazard::Deref, Hazard::Compound, Hazard::Increment];

struct Builder<'a> {
    rng: &'a mut Rng,
    inputs: Vec<Operand>,
    temps: Vec<Operand>,
    element: IntTy,
}

/// Generates one case.
pub fn generate(rng: &mut Rng) -> StmtCase {
    let count = 1 + rng.below(3) as usize;
    let inputs: Vec<Input> = (0..count)
        .map(|_| {
            let ty = rng.pick(&IntTy::ALL);
            Input { ty, value: edge_value(rng, ty) }
        })
        .collect();
    let mut decls = Vec::new();
    let mut temps = Vec::new();
    for index in 0..3 + rng.below(3) {
        let ty = rng.pick(&IntTy::ALL);
        let source = rng.below(count as u64);
        decls.push(format!("{} t{index} = ({})in{source};", ty.c_name(), ty.c_name()));
        temps.push(Operand { text: format!("t{index}"), ty });
    }
    let element = rng.pick(&IntTy::ALL);
    let items: Vec<String> = (0..ARRAY_LEN).map(|k| format!("({})in{}", element.c_name(), k % count as u64)).collect();
    decls.push(format!("{} arr[{ARRAY_LEN}] = {{{}}};", element.c_name(), items.join(", ")));
    // Points to `t0` or is NULL, as the last input's low bit says.
    let last = count - 1;
    decls.push(format!("{0} *ptr = (in{last} & 1) ? &t0 : ({0} *)0;", temps[0].ty.c_name()));
    let inputs_as_operands = inputs.iter().enumerate().map(|(i, input)| Operand { text: format!("in{i}"), ty: input.ty }).collect();
    let mut builder = Builder { rng, inputs: inputs_as_operands, temps, element };
    let statements = 3 + builder.rng.below(5) as usize;
    let hazard_at = if builder.rng.chance(2) { Some(builder.rng.below(statements as u64) as usize) } else { None };
    let mut lines = Vec::new();
    for index in 0..statements {
        let hazard = (hazard_at == Some(index)).then(|| builder.rng.pick(&HAZARDS));
        lines.push(builder.statement(hazard));
    }
    let mut folded: Vec<String> = (0..count).map(|i| format!("in{i}")).collect();
    folded.extend(builder.temps.iter().map(|t| t.text.clone()));
    folded.extend((0..ARRAY_LEN).map(|k| format!("arr[{k}]")));
    let flip_bit = if builder.rng.chance(2) { builder.rng.below(8) } else { builder.rng.below(64) } as u32;
    StmtCase { inputs, decls, lines, folded, flip_bit }
}

impl Builder<'_> {
    fn temp(&mut self) -> usize {
        self.rng.below(self.temps.len() as u64) as usize
    }

    /// Two distinct temporaries.
    fn two_temps(&mut self) -> (usize, usize) {
        let a = self.temp();
        let b = (a + 1 + self.rng.below(self.temps.len() as u64 - 1) as usize) % self.temps.len();
        (a, b)
    }

    /// An operand that reads none of `exclude` (temporaries that the
    /// statement modifies, so that nothing is unsequenced).
    fn operand(&mut self, exclude: &[usize]) -> Operand {
        match self.rng.below(6) {
            0 => {
                let ty = self.rng.pick(&IntTy::ALL);
                let value = edge_value(self.rng, ty);
                Operand { text: constant(ty, value), ty }
            }
            1 | 2 => self.rng.pick_operand(&self.inputs),
            3 => Operand { text: format!("arr[{}]", self.rng.below(ARRAY_LEN)), ty: self.element },
            _ => {
                let free: Vec<Operand> = (0..self.temps.len()).filter(|i| !exclude.contains(i)).map(|i| self.temps[i].clone()).collect();
                if free.is_empty() {
                    self.rng.pick_operand(&self.inputs)
                } else {
                    self.rng.pick_operand(&free)
                }
            }
        }
    }

    /// A pure expression without undefined behaviour, reading none of
    /// `exclude`.
    fn expression(&mut self, exclude: &[usize], depth: u32) -> Operand {
        if depth == 0 || self.rng.chance(3) {
            return self.operand(exclude);
        }
        let a = self.expression(exclude, depth - 1);
        let b = self.expression(exclude, depth - 1);
        match self.rng.below(8) {
            0 => {
                let c = self.operand(exclude);
                Operand { text: format!("({} ? {} : {})", c.text, a.text, b.text), ty: common_type(a.ty, b.ty) }
            }
            1 => Operand { text: format!("({}, {})", a.text, b.text), ty: b.ty },
            2 => {
                let op = self.rng.pick(&["&&", "||", "<", "==", "!="]);
                Operand { text: format!("({} {op} {})", a.text, b.text), ty: IntTy::Int }
            }
            _ => {
                let op = self.rng.pick(&["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"]);
                guarded(op, &a, &b)
            }
        }
    }

    /// One statement; `hazard` leaves one operation of that kind unguarded.
    fn statement(&mut self, hazard: Option<Hazard>) -> Line {
        if let Some(hazard) = hazard {
            return self.hazard(hazard);
        }
        let (a, b) = self.two_temps();
        let (ta, tb) = (self.temps[a].text.clone(), self.temps[b].text.clone());
        let line = |text: String, discarded: bool| Line { text, discarded };
        match self.rng.below(11) {
            0 => line(format!("{};", self.expression(&[], 2).text), true),
            1 => line(format!("{ta} = {};", self.expression(&[a], 2).text), false),
            2 => {
                let e = self.expression(&[a, b], 1);
                let (op, value) = self.compound(a, &e);
                line(format!("{tb} = ({ta} {op}= {value});"), false)
            }
            3 => line(format!("{tb} = {ta} = {};", self.expression(&[a, b], 2).text), false),
            4 => {
                let step = self.increment(a);
                let e = self.expression(&[a, b], 1);
                let op = self.rng.pick(&["+", "-", "^", "|"]);
                line(format!("{tb} = {};", guarded(op, &Operand { text: step, ty: self.temps[a].ty }, &e).text), false)
            }
            5 => {
                let c = self.expression(&[a], 1);
                let e = self.expression(&[a], 2);
                let op = self.rng.pick(&["&&", "||"]);
                line(format!("{} {op} ({ta} = {});", c.text, e.text), true)
            }
            6 => {
                let c = self.expression(&[a, b], 1);
                let (e1, e2) = (self.expression(&[a, b], 1), self.expression(&[a, b], 1));
                let (op, value) = self.compound(b, &e2);
                line(format!("{} ? ({ta} = {}) : ({tb} {op}= {value});", c.text, e1.text), true)
            }
            7 => {
                let e1 = self.expression(&[a], 1);
                let e2 = self.expression(&[a], 2);
                line(format!("({ta} = {}, {});", e1.text, e2.text), true)
            }
            8 => {
                let step = self.increment(a);
                line(format!("{step};"), true)
            }
            9 => {
                // The assignment's value is the value stored: re-reading
                // the element would find another one when the index read
                // the element the store changes.
                let e = self.expression(&[b], 2);
                line(format!("{tb} = (arr[arr[{}] & 3] = {});", self.rng.below(ARRAY_LEN), e.text), false)
            }
            _ => {
                let read = if self.rng.chance(2) { format!("arr[{}]", self.rng.below(ARRAY_LEN)) } else { "(ptr ? *ptr : 0)".to_string() };
                line(format!("{read};"), true)
            }
        }
    }

    /// A compound assignment to temporary `target` with `value` that
    /// cannot overflow: the operator and the right operand's text.
    fn compound(&mut self, target: usize, value: &Operand) -> (&'static str, String) {
        let ty = self.temps[target].ty;
        let computation = common_type(ty, value.ty);
        let op = self.rng.pick(&["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"]);
        let unsigned = computation.to_unsigned().c_name();
        match op {
            // `t op= v` is `t = t op v` in the common type; an unsigned
            // right operand makes the computation unsigned only if it has
            // the rank, so the value is made unsigned of the full width.
            "+" | "-" | "*" if computation.is_signed() => ("^", format!("({unsigned})({})", value.text)),
            "/" | "%" => (op, format!("((({unsigned}){} | 1u) & 0x7fu)", value.text)),
            "<<" | ">>" => {
                let bits = computation.width() - 1;
                if op == "<<" && computation.is_signed() {
                    ("|", format!("({})", value.text))
                } else {
                    (op, format!("(({}) & {bits})", value.text))
                }
            }
            _ => (op, format!("({})", value.text)),
        }
    }

    /// `++t`, `t++`, `--t` or `t--` on temporary `target`, where the
    /// promoted computation cannot overflow (narrow and unsigned types);
    /// on other types `+= 1` done as unsigned.
    fn increment(&mut self, target: usize) -> String {
        let t = self.temps[target].clone();
        let token = self.rng.pick(&["++", "--"]);
        let safe = !t.ty.is_signed() || t.ty.width() < 32;
        if !safe {
            let sign = if token == "++" { "+" } else { "-" };
            return format!("({0} = ({1})(({2}){0} {sign} 1u))", t.text, t.ty.c_name(), t.ty.to_unsigned().c_name());
        }
        if self.rng.chance(2) {
            format!("{token}{}", t.text)
        } else {
            format!("{}{token}", t.text)
        }
    }

    /// A statement whose one unguarded operation of kind `hazard` may be
    /// undefined for the pinned inputs.
    fn hazard(&mut self, hazard: Hazard) -> Line {
        let (a, b) = self.two_temps();
        let (ta, tb) = (self.temps[a].text.clone(), self.temps[b].text.clone());
        let x = self.operand(&[a, b]);
        let y = if self.rng.chance(2) { risky_operand(self.rng, hazard) } else { self.operand(&[a, b]) };
        let core = match hazard {
            Hazard::Divide => format!("{} {} {}", x.text, self.rng.pick(&["/", "%"]), y.text),
            Hazard::Arithmetic => format!("{} {} {}", x.text, self.rng.pick(&["+", "-", "*"]), y.text),
            Hazard::Shift => format!("{} {} {}", x.text, self.rng.pick(&["<<", ">>"]), y.text),
            Hazard::Negate => format!("-{}", x.text),
            Hazard::Index => format!("arr[{}]", y.text),
            Hazard::Deref => "*ptr".to_string(),
            Hazard::Compound => {
                let op = self.rng.pick(&["+", "-", "*", "/", "%", "<<", ">>"]);
                return self.wrap_side_effect(format!("{ta} {op}= {}", y.text), a, b);
            }
            Hazard::Increment => {
                let token = self.rng.pick(&["++", "--"]);
                let step = if self.rng.chance(2) { format!("{token}{ta}") } else { format!("{ta}{token}") };
                return self.wrap_side_effect(step, a, b);
            }
        };
        let core = format!("({core})");
        let line = |text: String, discarded: bool| Line { text, discarded };
        match self.rng.below(6) {
            0 => line(format!("{core};"), true),
            1 => line(format!("{ta} = {core};"), false),
            2 => {
                let c = self.expression(&[a, b], 1);
                line(format!("{} ? {core} : {};", c.text, self.expression(&[a, b], 1).text), true)
            }
            3 => {
                let c = self.expression(&[a, b], 1);
                line(format!("{} {} {core};", c.text, self.rng.pick(&["&&", "||"])), true)
            }
            4 => line(format!("({ta} = {}, {core});", self.expression(&[a, b], 1).text), true),
            _ => line(format!("{tb} = {ta} = {core};"), false),
        }
    }

    /// A statement around the unguarded side effect `effect` on `a`.
    fn wrap_side_effect(&mut self, effect: String, a: usize, b: usize) -> Line {
        let tb = self.temps[b].text.clone();
        match self.rng.below(4) {
            0 => Line { text: format!("{effect};"), discarded: true },
            1 => Line { text: format!("{tb} = ({effect});"), discarded: false },
            2 => {
                let c = self.expression(&[a, b], 1);
                Line { text: format!("{} && ({effect});", c.text), discarded: true }
            }
            _ => Line { text: format!("({effect}, {tb});"), discarded: true },
        }
    }
}

/// A right operand that often makes `hazard` undefined: a zero or minus
/// one divisor, an extreme addend, a shift amount at or past the width
/// or negative, an index just outside the array.
fn risky_operand(rng: &mut Rng, hazard: Hazard) -> Operand {
    let (ty, values): (IntTy, &[u64]) = match hazard {
        Hazard::Divide => (IntTy::Int, &[0, u64::MAX]),
        Hazard::Arithmetic | Hazard::Compound => (rng.pick(&[IntTy::Int, IntTy::Long]), &[0x7fff_ffff, 0xffff_ffff_8000_0000, 0x7fff_ffff_ffff_ffff, 2]),
        Hazard::Shift => (IntTy::Int, &[31, 32, 63, 64, u64::MAX]),
        Hazard::Index => (IntTy::Int, &[ARRAY_LEN, ARRAY_LEN + 1, u64::MAX]),
        Hazard::Negate | Hazard::Deref | Hazard::Increment => (IntTy::Int, &[1]),
    };
    let value = super::types::canonical(ty, rng.pick(values));
    Operand { text: constant(ty, value), ty }
}

trait PickOperand {
    fn pick_operand(&mut self, items: &[Operand]) -> Operand;
}

impl PickOperand for Rng {
    fn pick_operand(&mut self, items: &[Operand]) -> Operand {
        items[self.below(items.len() as u64) as usize].clone()
    }
}

/// `a op b` without undefined behaviour: signed `+ - *` and `<<` computed
/// unsigned and converted back, divisors made nonzero and never -1 with
/// the minimum, shift amounts masked.
fn guarded(op: &str, a: &Operand, b: &Operand) -> Operand {
    let shift = matches!(op, "<<" | ">>");
    let ty = if shift { a.ty.promoted() } else { common_type(a.ty, b.ty) };
    let name = ty.c_name();
    let unsigned = ty.to_unsigned().c_name();
    let (x, y) = (&a.text, &b.text);
    let text = match op {
        "+" | "-" | "*" if ty.is_signed() => format!("(({name})(({unsigned}){x} {op} ({unsigned}){y}))"),
        "/" | "%" if ty.is_signed() => {
            format!("((({name}){y} != 0 && !(({name}){x} == {} && ({name}){y} == -1)) ? {x} {op} {y} : ({name}){x})", ty.min_macro())
        }
        "/" | "%" => format!("(({y}) != 0 ? {x} {op} {y} : ({name}){x})"),
        "<<" if ty.is_signed() => format!("(({name})(({unsigned}){x} << (({y}) & {})))", ty.width() - 1),
        "<<" | ">>" => format!("({x} {op} (({y}) & {}))", ty.width() - 1),
        _ => format!("({x} {op} {y})"),
    };
    Operand { text, ty }
}

impl StmtCase {
    /// The lines of `main`, from its opening line: expression statements
    /// as written, or (`native`) with their value stored into `sink`.
    fn main_text(&self, native: bool, result: &str) -> String {
        let mut text = String::from("int main(void) {\n");
        for (i, input) in self.inputs.iter().enumerate() {
            let _ = writeln!(text, "  {} in{i} = __VERIFIER_nondet_{}();", input.ty.c_name(), input.ty.nondet_suffix());
            let _ = writeln!(text, "  __VERIFIER_assume(in{i} == {});", typed_constant(input.ty, input.value));
        }
        for decl in &self.decls {
            let _ = writeln!(text, "  {decl}");
        }
        for line in &self.lines {
            match line.text.strip_suffix(';') {
                Some(expression) if native && line.discarded => {
                    let _ = writeln!(text, "  sink = (long long)({expression});");
                }
                _ => {
                    let _ = writeln!(text, "  {}", line.text);
                }
            }
        }
        text.push_str("  unsigned long long r = 0;\n");
        for value in &self.folded {
            let _ = writeln!(text, "  r = r * 1000003u + (unsigned long long){value};");
        }
        let _ = writeln!(text, "  __VERIFIER_assert(r == {result});\n  return 0;\n}}");
        text
    }

    /// The verification task asserting `result` (a C expression).
    pub fn task_text(&self, comment: &str, result: &str) -> String {
        format!("{}{}", self.prologue(comment), self.main_text(false, result))
    }

    /// Everything before `main` in the task.
    fn prologue(&self, comment: &str) -> String {
        let mut text = format!("/* c-oracle: stmt case; {comment} */\n#include <limits.h>\n");
        text.push_str("extern void __VERIFIER_assume(int);\nextern void __VERIFIER_assert(int);\n");
        text.push_str("static unsigned long long opaque(unsigned long long x) { return x; }\n");
        let mut declared: Vec<IntTy> = self.inputs.iter().map(|i| i.ty).collect();
        declared.sort();
        declared.dedup();
        for ty in declared {
            let _ = writeln!(text, "extern {} __VERIFIER_nondet_{}(void);", ty.c_name(), ty.nondet_suffix());
        }
        text
    }

    /// The line of the task on which `main` opens.
    fn main_line(&self) -> usize {
        self.prologue("").lines().count() + 1
    }
}

/// The batch program: every case's `main` as `case_<i>`, at the task's
/// line numbers (`#line`), its inputs served in order by the nondet
/// functions, and a `main` that runs the case its argument names and
/// prints the folded result.
fn native_program(cases: &[StmtCase]) -> String {
    let mut text = String::from("#include <limits.h>\n#include <stdio.h>\n#include <stdlib.h>\n");
    text.push_str("__attribute__((noinline)) static unsigned long long opaque(unsigned long long x) { return x; }\n");
    text.push_str("static volatile long long sink;\nstatic const unsigned long long *inputs;\n");
    text.push_str("static unsigned long long next_input(void) { return *inputs++; }\n");
    for ty in IntTy::ALL {
        let _ = writeln!(text, "{0} __VERIFIER_nondet_{1}(void) {{ return ({0})next_input(); }}", ty.c_name(), ty.nondet_suffix());
    }
    text.push_str("void __VERIFIER_assume(int c) { if (!c) { puts(\"assumption fails\"); exit(3); } }\n");
    text.push_str("void __VERIFIER_assert(int c) { (void)c; }\n");
    text.push_str("static unsigned long long observed(unsigned long long r) { printf(\"result %llx\\n\", r); return r; }\n");
    for (index, case) in cases.iter().enumerate() {
        let values: Vec<String> = case.inputs.iter().map(|i| format!("0x{:x}ull", i.value)).collect();
        let _ = writeln!(text, "static const unsigned long long inputs_{index}[] = {{{}}};", values.join(", "));
        let _ = writeln!(text, "#line {} \"{}\"", case.main_line(), task_name(index));
        let main = case.main_text(true, "observed(r)");
        text.push_str(&main.replacen("int main(void)", &format!("static int case_{index}(void)"), 1));
    }
    text.push_str("int main(int argc, char **argv) {\n  int which = argc > 1 ? atoi(argv[1]) : -1;\n  switch (which) {\n");
    for index in 0..cases.len() {
        let _ = writeln!(text, "  case {index}: inputs = inputs_{index}; return case_{index}();");
    }
    text.push_str("  }\n  return 2;\n}\n");
    text
}

fn task_name(index: usize) -> String {
    format!("stmt-{index:05}.c")
}

/// What gcc's run of one case showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Native {
    /// No undefined behaviour; the folded result.
    Defined(u64),
    /// A sanitizer's report: the property classes that name it and the
    /// line.
    Undefined { classes: &'static [&'static str], line: usize, report: String },
    /// An ending the oracle cannot read (the case is skipped).
    Unreadable(String),
}

/// The property classes of tarsier that name the undefined behaviour of
/// a sanitizer report.
fn classes_of(report: &str) -> Option<&'static [&'static str]> {
    const TABLE: [(&str, &[&str]); 11] = [
        ("division by zero", &["division-by-zero"]),
        ("signed integer overflow", &["signed-overflow"]),
        ("negation of", &["signed-overflow"]),
        ("cannot be represented in type", &["signed-overflow"]),
        ("shift exponent", &["shift"]),
        ("left shift of negative value", &["shift", "signed-overflow"]),
        ("out of bounds for type", &["array-bounds", "pointer-dereference"]),
        ("null pointer", &["pointer-dereference"]),
        ("misaligned address", &["pointer-dereference"]),
        ("AddressSanitizer: stack-buffer-overflow", &["array-bounds", "pointer-dereference"]),
        ("AddressSanitizer: SEGV", &["pointer-dereference"]),
    ];
    TABLE.iter().find(|(text, _)| report.contains(text)).map(|(_, classes)| *classes)
}

/// Reads one native run: a sanitizer report (its first `file:line:col:
/// runtime error:` line, or ASan's first frame in the case's file) or
/// the printed result.
fn read_native(out: &crate::process::Output, index: usize) -> Native {
    let name = task_name(index);
    let report = out.stderr.lines().find(|l| l.contains("runtime error:") || l.contains("ERROR: AddressSanitizer"));
    if let Some(report) = report {
        let line = out
            .stderr
            .lines()
            .filter_map(|l| l.split(&format!("{name}:")).nth(1))
            .find_map(|rest| rest.split(':').next()?.trim().parse().ok());
        return match (classes_of(report), line) {
            (Some(classes), Some(line)) => Native::Undefined { classes, line, report: report.trim().to_string() },
            _ => Native::Unreadable(format!("unread sanitizer report: {report}")),
        };
    }
    let result = out.stdout.lines().find_map(|l| l.strip_prefix("result ")).and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok());
    match (&out.ending, result) {
        (Ending::Exited(0), Some(result)) => Native::Defined(result),
        (ending, _) => Native::Unreadable(format!("native run ended with {ending:?}: {}", out.stderr.lines().next().unwrap_or(""))),
    }
}

/// Compiles the batch program under the sanitizers into `dir` and runs
/// every case.
pub fn native_results(cases: &[StmtCase], dir: &Path) -> Result<Vec<Native>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let source = dir.join("native-stmt.c");
    let exe = dir.join("native-stmt");
    std::fs::write(&source, native_program(cases)).map_err(|e| format!("{}: {e}", source.display()))?;
    let compiler = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let mut compile = Command::new(&compiler);
    compile.args(["-O0", "-g", "-w", "-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-o"]).arg(&exe).arg(&source);
    let out = run_with_timeout(&mut compile, Duration::from_secs(600)).map_err(|e| format!("cannot run {compiler}: {e}"))?;
    if out.ending != Ending::Exited(0) {
        return Err(format!("{compiler} failed on {}: {:?}\n{}", source.display(), out.ending, out.stderr));
    }
    (0..cases.len())
        .map(|index| {
            let mut run = Command::new(&exe);
            run.arg(index.to_string()).env("ASAN_OPTIONS", "detect_leaks=0");
            let out = run_with_timeout(&mut run, Duration::from_secs(60)).map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
            Ok(read_native(&out, index))
        })
        .collect()
}

/// What tarsier must answer for one task.
#[derive(Clone, Debug)]
pub enum Expected {
    Successful,
    /// FAILED with one of these classes on this line.
    Failed { classes: Vec<&'static str>, line: Option<usize> },
}

/// One task of the class.
pub struct StmtTask {
    pub case: usize,
    pub path: std::path::PathBuf,
    pub expected: Expected,
}

/// Writes the tasks of every case the native run could read.
pub fn write_tasks(cases: &[StmtCase], native: &[Native], dir: &Path) -> Result<Vec<StmtTask>, String> {
    fresh_dir(dir)?;
    let mut tasks = Vec::new();
    let mut write = |case: usize, flavour: &str, text: String, expected: Expected| -> Result<(), String> {
        let path = dir.join(task_name(case).replace(".c", &format!("-{flavour}.c")));
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        tasks.push(StmtTask { case, path, expected });
        Ok(())
    };
    for (index, (case, native)) in cases.iter().zip(native).enumerate() {
        match native {
            Native::Defined(result) => {
                let same = case.task_text(&format!("no undefined behaviour natively, the result is gcc's 0x{result:x}; expected TRUE"), &format!("0x{result:x}ull"));
                write(index, "same", same, Expected::Successful)?;
                let flipped = result ^ (1u64 << case.flip_bit);
                let flip = case.task_text(&format!("the result is gcc's 0x{result:x} with bit {} flipped; expected FALSE", case.flip_bit), &format!("0x{flipped:x}ull"));
                write(index, "flip", flip, Expected::Failed { classes: vec!["user-assertion"], line: None })?;
            }
            Native::Undefined { classes, line, report } => {
                let text = case.task_text(&format!("gcc's sanitizers report \"{report}\"; expected FALSE there"), "r");
                write(index, "ub", text, Expected::Failed { classes: classes.to_vec(), line: Some(*line) })?;
            }
            Native::Unreadable(why) => eprintln!("c-oracle: stmt case {index} skipped: {why}"),
        }
    }
    Ok(tasks)
}

/// tarsier's answer to one task (run with `--json`), scored.
pub fn score_answer(out: &crate::process::Output, expected: &Expected) -> (Score, String) {
    let outcome = crate::runner::classify(out, false);
    let doc: Option<serde_json::Value> = serde_json::from_str(out.stdout.trim()).ok();
    let property = |field: &str| doc.as_ref().map(|d| d["property"][field].clone()).unwrap_or_default();
    let said = || format!("{} {} on line {}", outcome.kind(), property("class"), property("line"));
    let score = match (&outcome, expected) {
        (Outcome::Successful, Expected::Successful) => Score::Correct,
        (Outcome::Failed, Expected::Failed { classes, line }) => {
            let class_ok = property("class").as_str().is_some_and(|c| classes.contains(&c));
            let line_ok = line.is_none_or(|l| property("line").as_u64() == Some(l as u64));
            if class_ok && line_ok {
                Score::Correct
            } else {
                Score::Wrong
            }
        }
        (Outcome::Successful | Outcome::Failed, _) => Score::Wrong,
        (other, Expected::Successful) => score(other, true),
        (other, Expected::Failed { .. }) => score(other, false),
    };
    (score, said())
}

/// Generates `opts.cases` cases from `opts.seed`, runs them natively and
/// under tarsier; returns the number of tasks per [`Score`].
pub fn run(opts: &super::Options, binary: &Path, out_dir: &Path) -> Result<[usize; 5], String> {
    let (count, seed) = (opts.cases, opts.seed);
    let mut rng = Rng::new(seed);
    let cases: Vec<StmtCase> = (0..count).map(|_| generate(&mut rng)).collect();
    let native = native_results(&cases, out_dir)?;
    let tasks = write_tasks(&cases, &native, &out_dir.join("stmt-cases"))?;
    let undefined = native.iter().filter(|n| matches!(n, Native::Undefined { .. })).count();
    eprintln!("c-oracle: {count} stmt cases ({undefined} with undefined behaviour natively), {} tasks, seed {seed}", tasks.len());
    let mut flags: Vec<String> = CHECK_FLAGS.iter().map(|f| f.to_string()).collect();
    flags.push("--json".into());
    flags.extend(opts.flags.iter().cloned());
    let answers = parallel_map(&tasks, opts.jobs, |task| {
        let mut command = Command::new(binary);
        command.arg(&task.path).args(&flags);
        match run_with_timeout(&mut command, opts.timeout) {
            Ok(out) => score_answer(&out, &task.expected),
            Err(err) => (Score::Error, format!("cannot run {}: {err}", binary.display())),
        }
    }, |_| {});
    let mut counts = [0; 5];
    let mut wrong = Vec::new();
    for (task, (score, said)) in tasks.iter().zip(&answers) {
        counts[*score as usize] += 1;
        match score {
            Score::Wrong => wrong.push(format!("  {} (expected {:?}, tarsier said {said})", task.path.display(), task.expected)),
            Score::Unknown | Score::Timeout | Score::Error => eprintln!("c-oracle: {} {said}", task.path.display()),
            Score::Correct => {}
        }
    }
    println!("stmt: {} correct, {} wrong, {} unknown, {} timeout, {} error", counts[0], counts[1], counts[2], counts[3], counts[4]);
    for line in &wrong {
        println!("WRONG {line}");
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn output(stdout: &str, stderr: &str, ending: Ending) -> crate::process::Output {
        crate::process::Output { ending, stdout: stdout.into(), stderr: stderr.into(), elapsed: Duration::ZERO, cpu: Duration::ZERO }
    }

    #[test]
    fn generation_is_deterministic() {
        let text = |seed| {
            let mut rng = Rng::new(seed);
            (0..20).map(|_| generate(&mut rng).task_text("", "0")).collect::<String>()
        };
        assert_eq!(text(7), text(7));
        assert_ne!(text(7), text(8));
    }

    #[test]
    fn discarded_expressions_are_stored_natively_on_the_same_line() {
        let mut rng = Rng::new(3);
        for _ in 0..50 {
            let case = generate(&mut rng);
            let (task, native) = (case.task_text("", "0"), case.main_text(true, "0"));
            let task_main: Vec<&str> = task.lines().skip(case.main_line() - 1).collect();
            assert_eq!(task_main.len(), native.lines().count());
            for (written, run) in task_main.iter().zip(native.lines()) {
                assert!(written == &run || run.starts_with("  sink = (long long)("), "{written} / {run}");
            }
        }
    }

    #[test]
    fn sanitizer_reports_name_their_class_and_line() {
        let ubsan = "stmt-00003.c:21:26: runtime error: shift exponent 64 is too large for 64-bit type 'long'\n";
        let read = read_native(&output("", ubsan, Ending::Exited(1)), 3);
        assert!(matches!(read, Native::Undefined { classes: ["shift"], line: 21, .. }), "{read:?}");
        let asan = "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000\n    #0 0x55 in case_4 /t/stmt-00004.c:17\n";
        let read = read_native(&output("", asan, Ending::Exited(1)), 4);
        assert!(matches!(read, Native::Undefined { classes: ["pointer-dereference"], line: 17, .. }), "{read:?}");
        assert_eq!(read_native(&output("result 2a\n", "", Ending::Exited(0)), 0), Native::Defined(0x2a));
        assert!(matches!(read_native(&output("", "", Ending::Signaled(9)), 0), Native::Unreadable(_)));
    }

    /// Every report the native runs give points at a statement of its
    /// case, on the task's line numbering.
    #[test]
    fn native_reports_point_at_statements() {
        let dir = std::env::temp_dir().join(format!("c-oracle-stmt-{}", std::process::id()));
        let cases: Vec<StmtCase> = {
            let mut rng = Rng::new(11);
            (0..40).map(|_| generate(&mut rng)).collect()
        };
        let results = native_results(&cases, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        let Ok(results) = results else {
            eprintln!("skipped: gcc cannot build with the sanitizers here ({})", results.unwrap_err());
            return;
        };
        let mut undefined = 0;
        for (case, native) in cases.iter().zip(&results) {
            match native {
                Native::Undefined { line, .. } => {
                    undefined += 1;
                    let text = case.task_text("", "r");
                    let statement = text.lines().nth(line - 1).unwrap_or_default().trim();
                    assert!(case.lines.iter().any(|l| l.text == statement), "line {line} is not a statement:\n{text}");
                }
                Native::Defined(_) => {}
                Native::Unreadable(why) => panic!("{why}"),
            }
        }
        assert!(undefined > 0, "no case had undefined behaviour natively");
    }
}
