//! C text of a control-flow program, in two flavours from one walk:
//! - the *task* tarsier verifies: plain C whose assertion sites fail when
//!   their expression equals the site's constant, in one of four
//!   [`Shape`]s of the same program: with one back edge per loop
//!   (`continue` in a `while` and the inner jumps to a `goto` loop's head
//!   written as forward jumps to a single backward `goto`), and with each
//!   `switch` written as a chain of `goto`s. A disagreement that
//!   disappears in another shape is of the class that shape avoids;
//! - the *native* program gcc runs inside the enumeration harness
//!   (`native`), in any shape too: names prefixed per program, nondeterminism and
//!   assumptions through the harness, an assertion site a probe that
//!   records its value, and a counter per loop that counts back edges
//!   since the loop was entered, as tarsier's unwinding bound does.

use super::program::{Arm, AssertStyle, Cond, Function, FunctionKind, Limit, Loop, LoopKind, Place, Probe, Program, RangeShape, Stmt, Value};
use std::fmt::Write as _;

/// How the task text writes loops and `switch`es (the same program).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Every loop has a single backward jump.
    pub single_back_edge: bool,
    /// Every `switch` is a chain of `if (...) goto` before its arms.
    pub switch_as_gotos: bool,
}

impl Shape {
    pub fn describe(self) -> String {
        let edges = if self.single_back_edge { "one back edge per loop" } else { "continue as back edges" };
        let switch = if self.switch_as_gotos { "switch as gotos" } else { "switch" };
        format!("{edges}, {switch}")
    }
}

#[derive(Clone, Copy)]
pub enum Flavour<'a> {
    /// For tarsier: site `k` fails when its expression equals
    /// `constants[k]`.
    Task { constants: &'a [i64], shape: Shape },
    /// For the enumeration harness, every global name prefixed. With
    /// `entry_heads`, a loop with a conditional jump into it counts its
    /// iterations at that entry (the other choice of its head).
    Native { prefix: &'a str, shape: Shape, entry_heads: bool },
}

pub const TASK_PRELUDE: &str = "\
#include <assert.h>
extern void abort(void);
extern void reach_error(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
";

/// The task text (without a header comment).
pub fn task(program: &Program, constants: &[i64], shape: Shape) -> String {
    let mut text = String::from(TASK_PRELUDE);
    Emitter::new(&mut text, Flavour::Task { constants, shape }).program(program);
    text
}

/// The native text: functions `<prefix>reset` (globals and recursion
/// depths to their initial values) and `<prefix>run` (one execution).
pub fn native(program: &Program, prefix: &str, shape: Shape, entry_heads: bool) -> String {
    let mut text = String::new();
    Emitter::new(&mut text, Flavour::Native { prefix, shape, entry_heads }).program(program);
    text
}

/// A loop around the statement being written.
struct Around {
    id: u32,
    /// Natively, the counter of its iterations: its own, or the one of the
    /// loop whose head it shares.
    counter: u32,
    limit: Option<Limit>,
    /// Natively: its iterations are counted where the jump into it lands
    /// (its head is that entry), not at its backward jumps.
    counted_at_entry: bool,
}

struct Emitter<'t, 'a> {
    text: &'t mut String,
    flavour: Flavour<'a>,
    /// The loops around the statement being written (innermost last).
    loops: Vec<Around>,
    /// What `break` jumps to, innermost last: out of a loop or `switch`
    /// (`None`), or to the end label of a `switch` written as gotos.
    breaks: Vec<Option<String>>,
    /// `switch`es written as gotos so far in the function.
    switches: u32,
    /// The loop whose body is being started by a loop sharing its head.
    sharing: Option<u32>,
}

impl<'t, 'a> Emitter<'t, 'a> {
    fn new(text: &'t mut String, flavour: Flavour<'a>) -> Self {
        Emitter { text, flavour, loops: Vec::new(), breaks: Vec::new(), switches: 0, sharing: None }
    }

    fn native(&self) -> bool {
        matches!(self.flavour, Flavour::Native { .. })
    }

    fn shape(&self) -> Shape {
        match self.flavour {
            Flavour::Task { shape, .. } => shape,
            Flavour::Native { shape, .. } => shape,
        }
    }

    fn single_back_edge(&self) -> bool {
        self.shape().single_back_edge
    }

    /// A name at file scope (globals, functions).
    fn global(&self, name: &str) -> String {
        match self.flavour {
            Flavour::Native { prefix, .. } => format!("{prefix}{name}"),
            Flavour::Task { .. } => name.to_string(),
        }
    }

    fn place(&self, place: Place) -> String {
        match place {
            Place::Global(_) | Place::Trace => self.global(&place.name()),
            _ => place.name(),
        }
    }

    fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.text, "{:width$}{text}", "", width = 2 * depth);
    }

    fn program(&mut self, program: &'a Program) {
        let _ = writeln!(self.text, "{}int {} = 0;", self.storage(), self.global("t"));
        for (k, value) in program.globals.iter().enumerate() {
            let _ = writeln!(self.text, "{}int {} = {value};", self.storage(), self.global(&format!("g{k}")));
        }
        for function in &program.functions {
            if function.kind != FunctionKind::Main {
                let _ = writeln!(self.text, "{}int {}({});", self.storage(), self.global(&function.name), params(function));
            }
        }
        if self.native() {
            self.depth_counters(program);
        }
        for function in &program.functions {
            self.function(function);
        }
        if self.native() {
            self.reset_and_run(program);
        }
    }

    fn storage(&self) -> &'static str {
        if self.native() {
            "static "
        } else {
            ""
        }
    }

    /// Native: a count of active frames per function, checked on entry as
    /// tarsier bounds recursion.
    fn depth_counters(&mut self, program: &Program) {
        for function in program.functions.iter().filter(|f| f.kind != FunctionKind::Main) {
            let active = self.global(&format!("active_{}", function.name));
            let _ = writeln!(self.text, "static int {active};");
        }
    }

    fn reset_and_run(&mut self, program: &Program) {
        let _ = writeln!(self.text, "static void {}(void) {{\n  {} = 0;", self.global("reset"), self.global("t"));
        for (k, value) in program.globals.iter().enumerate() {
            let _ = writeln!(self.text, "  {} = {value};", self.global(&format!("g{k}")));
        }
        for function in program.functions.iter().filter(|f| f.kind != FunctionKind::Main) {
            let _ = writeln!(self.text, "  {} = 0;", self.global(&format!("active_{}", function.name)));
        }
        let _ = writeln!(self.text, "}}\nstatic void {}(void) {{ (void){}(); }}", self.global("run"), self.global("main"));
    }

    fn function(&mut self, function: &'a Function) {
        self.switches = 0;
        let native_wrapped = self.native() && function.kind != FunctionKind::Main;
        let name = if native_wrapped { self.global(&format!("{}_body", function.name)) } else { self.global(&function.name) };
        let _ = writeln!(self.text, "{}int {name}({}) {{", self.storage(), params(function));
        let mut locals: Vec<String> = (0..function.params).map(|k| format!("v{k} = p{k}")).collect();
        locals.extend(function.locals.iter().enumerate().map(|(k, value)| format!("v{} = {value}", k + function.params as usize)));
        self.line(1, &format!("int {};", locals.join(", ")));
        if function.loops > 0 {
            let counters: Vec<String> = (0..function.loops).map(|k| format!("i{k} = 0")).collect();
            self.line(1, &format!("int {};", counters.join(", ")));
            if self.native() {
                let counters: Vec<String> = (0..function.loops).map(|k| format!("oracle_lc{k} = 0")).collect();
                self.line(1, &format!("int {};", counters.join(", ")));
            }
        }
        self.block(&function.body, 1);
        let result = self.value(&function.result);
        self.line(1, &format!("return {result};"));
        self.text.push_str("}\n");
        if native_wrapped {
            self.wrapper(function);
        }
    }

    /// Native: `f` enters a frame (bounded like tarsier's recursion) and
    /// runs `f_body`.
    fn wrapper(&mut self, function: &Function) {
        let args: Vec<String> = (0..function.params).map(|k| format!("p{k}")).collect();
        let active = self.global(&format!("active_{}", function.name));
        let _ = writeln!(
            self.text,
            "static int {}({}) {{\n  oracle_enter(&{active});\n  int result = {}({});\n  {active}--;\n  return result;\n}}",
            self.global(&function.name),
            params(function),
            self.global(&format!("{}_body", function.name)),
            args.join(", ")
        );
    }

    fn block(&mut self, block: &'a [Stmt], depth: usize) {
        for stmt in block {
            self.stmt(stmt, depth);
        }
    }

    fn stmt(&mut self, stmt: &'a Stmt, depth: usize) {
        match stmt {
            Stmt::Assign(place, value) => {
                let line = format!("{} = {};", self.place(*place), self.value(value));
                self.line(depth, &line);
            }
            Stmt::Trace(mark) => {
                let t = self.place(Place::Trace);
                self.line(depth, &format!("{t} = ({t} * 3 + {mark}) & 1023;"));
            }
            Stmt::NondetBool(place) => {
                let source = if self.native() { "oracle_bool()" } else { "__VERIFIER_nondet_bool()" };
                let line = format!("{} = {source};", self.place(*place));
                self.line(depth, &line);
            }
            Stmt::NondetInt { place, low, high, shape } => self.nondet_int(*place, *low, *high, *shape, depth),
            Stmt::If(cond, then, other) => {
                let line = format!("if ({}) {{", self.cond(cond));
                self.line(depth, &line);
                self.block(then, depth + 1);
                if !other.is_empty() {
                    self.line(depth, "} else {");
                    self.block(other, depth + 1);
                }
                self.line(depth, "}");
            }
            Stmt::Loop(l) => self.loop_stmt(l, depth),
            Stmt::Switch(selector, arms) => self.switch(selector, arms, depth),
            Stmt::Break => {
                let line = match self.breaks.last() {
                    Some(Some(end)) => format!("goto {end};"),
                    _ => "break;".to_string(),
                };
                self.line(depth, &line);
            }
            Stmt::Continue(id, kind) => self.continue_stmt(*id, *kind, depth),
            Stmt::GotoHead(id) => self.goto_head(*id, depth),
            Stmt::GotoForward(id) => self.line(depth, &format!("goto E{id};")),
            Stmt::Label(id) => self.line(depth, &format!("E{id}: ;")),
            Stmt::Return(value) => {
                let line = format!("return {};", self.value(value));
                self.line(depth, &line);
            }
            Stmt::Call(target, callee, args) => self.call(*target, *callee, args, depth),
            Stmt::Assume(cond) => {
                let function = if self.native() { "oracle_assume" } else { "__VERIFIER_assume" };
                let line = format!("{function}({});", self.cond(cond));
                self.line(depth, &line);
            }
            Stmt::Assert { site, probe, style } => self.assert(*site, probe, *style, depth),
        }
    }

    fn nondet_int(&mut self, place: Place, low: i32, high: i32, shape: RangeShape, depth: usize) {
        let name = self.place(place);
        // Natively one value past each end too: the assumption must cut them.
        let source = if self.native() { format!("oracle_int({}, {})", low - 1, high + 1) } else { "__VERIFIER_nondet_int()".into() };
        self.line(depth, &format!("{name} = {source};"));
        let assume = if self.native() { "oracle_assume" } else { "__VERIFIER_assume" };
        match shape {
            RangeShape::Both => self.line(depth, &format!("{assume}({name} >= {low} && {name} <= {high});")),
            RangeShape::Two => {
                self.line(depth, &format!("{assume}({low} <= {name});"));
                self.line(depth, &format!("{assume}({name} < {});", high + 1));
            }
            RangeShape::Unsigned => {
                self.line(depth, &format!("{assume}((unsigned){name} - (unsigned)({low}) <= {}u);", high - low));
            }
        }
    }

    fn guard(&self, id: u32, limit: &Option<Limit>, cond: &Cond) -> String {
        let cond = self.cond(cond);
        match limit {
            Some(limit) => format!("i{id} < {} && ({cond})", self.limit(limit)),
            None => cond,
        }
    }

    fn limit(&self, limit: &Limit) -> String {
        match limit {
            Limit::Const(c) => c.to_string(),
            Limit::Masked(place) => format!("({} & 3)", self.place(*place)),
        }
    }

    /// Whether loop `l`'s head, natively, is the target of its jump-in:
    /// always for its only entry, for a second entry when asked.
    fn counted_at_entry(&self, l: &Loop) -> bool {
        let entry_heads = matches!(self.flavour, Flavour::Native { entry_heads: true, .. });
        l.entry.as_ref().is_some_and(|entry| entry.cond.is_none() || entry_heads)
    }

    fn loop_stmt(&mut self, l: &'a Loop, depth: usize) {
        let id = l.id;
        let guard = self.guard(id, &l.limit, &l.cond);
        // The first loop of a body that shares its enclosing loop's head is
        // that loop: its counter, never reset inside it.
        let merged = self.sharing.take();
        let counter = merged.unwrap_or(id);
        if merged.is_none() {
            if self.native() {
                self.line(depth, &format!("oracle_lc{id} = 0;"));
            }
            self.line(depth, &format!("i{id} = 0;"));
        }
        self.loops.push(Around { id, counter, limit: l.limit.clone(), counted_at_entry: self.counted_at_entry(l) });
        if l.kind != LoopKind::Goto {
            self.breaks.push(None);
        }
        if let Some(entry) = &l.entry {
            let jump = match &entry.cond {
                Some(cond) => format!("if ({}) goto M{id};", self.cond(cond)),
                None => format!("goto M{id};"),
            };
            self.line(depth, &jump);
        }
        match l.kind {
            LoopKind::While => {
                self.line(depth, &format!("while ({guard}) {{"));
                self.body(l, depth + 1);
                if self.single_back_edge() {
                    self.line(depth + 1, &format!("C{id}: ;"));
                }
                let back = self.back_edge(id, "");
                if !back.is_empty() {
                    self.line(depth + 1, &back);
                }
                self.line(depth, "}");
            }
            LoopKind::DoWhile => {
                self.line(depth, "do {");
                self.body(l, depth + 1);
                let condition = if self.native() { format!("({guard}) && oracle_back_taken(&oracle_lc{counter})") } else { guard };
                self.line(depth, &format!("}} while ({condition});"));
            }
            LoopKind::For => {
                let step = if self.native() { format!("i{id}++, oracle_back(&oracle_lc{counter})") } else { format!("i{id}++") };
                self.line(depth, &format!("for (i{id} = 0; {guard}; {step}) {{"));
                self.body(l, depth + 1);
                self.line(depth, "}");
            }
            LoopKind::Forever => {
                let step = if self.native() { format!("oracle_back(&oracle_lc{counter})") } else { String::new() };
                self.line(depth, &format!("for (;; {step}) {{"));
                self.body(l, depth + 1);
                self.line(depth, "}");
            }
            LoopKind::Goto => self.goto_loop(l, &guard, depth),
        }
        self.loops.pop();
        if l.kind != LoopKind::Goto {
            self.breaks.pop();
        }
    }

    /// The counter's increment that starts every body (natively a step too,
    /// so the step budget ends any execution that never leaves a loop);
    /// none in a body that starts with a loop sharing its head.
    fn increment(&mut self, l: &Loop, depth: usize) {
        if l.shares_head {
            self.sharing = Some(l.id);
            return;
        }
        let step = if self.native() { " oracle_step();" } else { "" };
        self.line(depth, &format!("i{}++;{step}", l.id));
    }

    /// The loop's body, with the label its jump-in lands on (natively
    /// counted there when that entry is the head).
    fn body(&mut self, l: &'a Loop, depth: usize) {
        if l.kind != LoopKind::For {
            self.increment(l, depth);
        }
        let Some(entry) = &l.entry else { return self.block(&l.body, depth) };
        self.block(&l.body[..entry.at], depth);
        if self.native() && self.counted_at_entry(l) {
            self.line(depth, &format!("oracle_back(&oracle_lc{});", l.id));
        }
        self.line(depth, &format!("M{}: ;", l.id));
        self.block(&l.body[entry.at..], depth);
    }

    fn goto_loop(&mut self, l: &'a Loop, guard: &str, depth: usize) {
        let id = l.id;
        // A head shared with the first inner loop labels that loop itself:
        // an empty statement there would be an instruction of its own, the
        // head of a loop around the inner one.
        let label = if l.shares_head { format!("L{id}:") } else { format!("L{id}: ;") };
        self.line(depth, &label);
        self.body(l, depth);
        if self.single_back_edge() {
            self.line(depth, &format!("if (!({guard})) goto X{id};"));
            let jump = self.back_edge(id, &format!("goto L{id};"));
            self.line(depth, &format!("B{id}: {jump}"));
            self.line(depth, &format!("X{id}: ;"));
        } else {
            let jump = self.back_edge(id, &format!("goto L{id};"));
            self.line(depth, &format!("if ({guard}) {jump}"));
        }
    }

    /// The backward `jump` of loop `id` (a statement, or nothing for the
    /// end of a `while` body); natively counted first, unless the loop
    /// counts at its entry.
    fn back_edge(&self, id: u32, jump: &str) -> String {
        let Some(around) = self.loops.iter().rev().find(|a| a.id == id) else { return jump.to_string() };
        let counter = around.counter;
        match (self.native() && !around.counted_at_entry, jump.is_empty()) {
            (true, true) => format!("oracle_back(&oracle_lc{counter});"),
            (true, false) => format!("{{ oracle_back(&oracle_lc{counter}); {jump} }}"),
            (false, _) => jump.to_string(),
        }
    }

    fn continue_stmt(&mut self, id: u32, kind: LoopKind, depth: usize) {
        let line = match kind {
            LoopKind::While if self.single_back_edge() => format!("goto C{id};"),
            LoopKind::While => self.back_edge(id, "continue;"),
            _ => "continue;".to_string(),
        };
        self.line(depth, &line);
    }

    fn goto_head(&mut self, id: u32, depth: usize) {
        let limit = self.loops.iter().rev().find(|a| a.id == id).and_then(|a| a.limit.clone());
        let jump = if self.single_back_edge() { format!("goto B{id};") } else { self.back_edge(id, &format!("goto L{id};")) };
        let line = match limit {
            Some(limit) => format!("if (i{id} < {}) {jump}", self.limit(&limit)),
            None => jump,
        };
        self.line(depth, &line);
    }

    fn switch(&mut self, selector: &Value, arms: &'a [Arm], depth: usize) {
        if self.shape().switch_as_gotos {
            return self.switch_as_gotos(selector, arms, depth);
        }
        let line = format!("switch ({}) {{", self.value(selector));
        self.line(depth, &line);
        self.breaks.push(None);
        for (k, arm) in arms.iter().enumerate() {
            let mut labels: Vec<String> = arm.labels.iter().map(|l| format!("case {l}:")).collect();
            if arm.default {
                labels.push("default:".into());
            }
            self.line(depth, &labels.join(" "));
            self.block(&arm.body, depth + 1);
            if arm.breaks {
                self.line(depth + 1, "break;");
            } else if arm.body.is_empty() && k + 1 == arms.len() {
                self.line(depth + 1, ";");
            }
        }
        self.breaks.pop();
        self.line(depth, "}");
    }

    /// `switch` as a dispatch of forward `goto`s to the arms' labels (the
    /// selector has no side effects, so it is read once per comparison).
    fn switch_as_gotos(&mut self, selector: &Value, arms: &'a [Arm], depth: usize) {
        let id = self.switches;
        self.switches += 1;
        let selector = self.value(selector);
        for (k, arm) in arms.iter().enumerate().filter(|(_, arm)| !arm.labels.is_empty()) {
            let tests: Vec<String> = arm.labels.iter().map(|l| format!("({selector}) == {l}")).collect();
            self.line(depth, &format!("if ({}) goto S{id}_{k};", tests.join(" || ")));
        }
        let end = format!("S{id}_end");
        match arms.iter().position(|arm| arm.default) {
            Some(k) => self.line(depth, &format!("goto S{id}_{k};")),
            None => self.line(depth, &format!("goto {end};")),
        }
        self.breaks.push(Some(end.clone()));
        for (k, arm) in arms.iter().enumerate() {
            self.line(depth, &format!("S{id}_{k}: ;"));
            self.block(&arm.body, depth + 1);
            if arm.breaks {
                self.line(depth + 1, &format!("goto {end};"));
            }
        }
        self.breaks.pop();
        self.line(depth, &format!("{end}: ;"));
    }

    fn call(&mut self, target: Option<Place>, callee: usize, args: &[Value], depth: usize) {
        let args: Vec<String> = args.iter().map(|a| self.value(a)).collect();
        let name = self.callee_name(callee);
        let call = format!("{name}({})", args.join(", "));
        let line = match target {
            Some(place) => format!("{} = {call};", self.place(place)),
            None => format!("{call};"),
        };
        self.line(depth, &line);
    }

    fn callee_name(&self, callee: usize) -> String {
        self.global(&callee_function_name(callee))
    }

    fn assert(&mut self, site: usize, probe: &Probe, style: AssertStyle, depth: usize) {
        let expr = self.probe(probe);
        let line = match self.flavour {
            Flavour::Native { .. } => format!("oracle_probe({site}, (long long)({expr}));"),
            Flavour::Task { constants, .. } => {
                let k = constants[site];
                match style {
                    AssertStyle::Assert => format!("assert({expr} != {k});"),
                    AssertStyle::ReachError => format!("if ({expr} == {k}) reach_error();"),
                    AssertStyle::VerifierAssert => format!("__VERIFIER_assert({expr} != {k});"),
                }
            }
        };
        self.line(depth, &line);
    }

    fn probe(&self, probe: &Probe) -> String {
        match probe {
            Probe::Var(p) => self.place(*p),
            Probe::Sum(p, q) => format!("{} + {}", self.place(*p), self.place(*q)),
            Probe::Pack(p, q) => format!("{} * 16 + {}", self.place(*p), self.place(*q)),
        }
    }

    fn value(&self, value: &Value) -> String {
        match value {
            Value::Const(c) => c.to_string(),
            Value::Read(p) => self.place(*p),
            Value::Offset(p, c) if *c < 0 => format!("{} - {}", self.place(*p), -c),
            Value::Offset(p, c) => format!("{} + {c}", self.place(*p)),
            Value::Mix(p, op, q) => format!("({} {op} {}) & 63", self.place(*p), self.place(*q)),
            Value::Mask(p, m) => format!("({} & {m})", self.place(*p)),
            Value::Scaled(p, c) => format!("({} & 7) * {c}", self.place(*p)),
        }
    }

    fn cond(&self, cond: &Cond) -> String {
        match cond {
            Cond::True => "1".into(),
            Cond::NondetBool if self.native() => "oracle_bool()".into(),
            Cond::NondetBool => "__VERIFIER_nondet_bool()".into(),
            Cond::Compare(p, op, c) => format!("{} {} {c}", self.place(*p), op.text()),
            Cond::CompareVars(p, op, q) => format!("{} {} {}", self.place(*p), op.text(), self.place(*q)),
            Cond::Odd(p) => format!("({} & 1)", self.place(*p)),
            Cond::Not(c) => format!("!({})", self.cond(c)),
            Cond::And(a, b) => format!("({}) && ({})", self.cond(a), self.cond(b)),
            Cond::Or(a, b) => format!("({}) || ({})", self.cond(a), self.cond(b)),
        }
    }
}

fn params(function: &Function) -> String {
    if function.params == 0 {
        return "void".into();
    }
    (0..function.params).map(|k| format!("int p{k}")).collect::<Vec<_>>().join(", ")
}

/// The name of function number `index` of a program (callees are named by
/// index, so a call needs no lookup).
pub fn callee_function_name(index: usize) -> String {
    format!("f{index}")
}
