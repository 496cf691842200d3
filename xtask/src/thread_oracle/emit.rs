//! The two flavours of a thread-oracle program. The task flavour is the
//! real pthread program tarsier verifies: thread functions started with
//! `pthread_create` and joined with `pthread_join`, the shared `int`s as
//! separate globals, fields of one struct or elements of one array,
//! mutexes, atomic sections, `__VERIFIER_nondet_int` inputs and assertion
//! sites comparing a probe with the site's constant. The native flavour is the same
//! program for the enumeration harness (`native`): each thread a
//! coroutine that gives the scheduler a turn before every statement that
//! touches shared state (an update `g = g + d` is a read step and a write
//! step, as tarsier splits it), a lock a turn the scheduler grants only
//! while the mutex is free, a join one it grants once the thread ended,
//! no turns inside an atomic section, a turn before `main` returns (the
//! process ends there, and other threads may run between its last
//! access and its end), and loops that count their back edges against
//! the bound; a site records the probe's value.

use super::program::*;
use std::fmt::Write as _;

pub const TASK_PRELUDE: &str = "\
#include <pthread.h>
#include <assert.h>
extern void abort(void);
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
";

/// The task text (without a header comment): `constants[k]` is the value
/// site k must never see.
pub fn task(program: &Program, constants: &[i64]) -> String {
    let mut emitter = Emitter { text: String::from(TASK_PRELUDE), native: None, constants, layout: Layout::Separate };
    emitter.program(program);
    emitter.text
}

/// The native flavour, every global name prefixed with `prefix`; it
/// defines `{prefix}reset` (the globals' initial values) and
/// `{prefix}main` (the main thread's code).
pub fn native(program: &Program, prefix: &str) -> String {
    let mut emitter = Emitter { text: String::new(), native: Some(prefix), constants: &[], layout: Layout::Separate };
    emitter.program(program);
    emitter.text
}

struct Emitter<'a> {
    text: String,
    /// The names' prefix in the native flavour; `None` for the task.
    native: Option<&'a str>,
    constants: &'a [i64],
    /// How the globals are declared (the task's layout; separate natively).
    layout: Layout,
}

impl Emitter<'_> {
    fn prefix(&self) -> &str {
        self.native.unwrap_or("")
    }

    fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.text, "{:indent$}{text}", "", indent = 2 * depth);
    }

    fn global(&self, g: usize) -> String {
        match (g, self.layout) {
            (VIA_ARG, _) => "(*p)".into(),
            (_, Layout::Struct) if self.native.is_none() => format!("s.g{g}"),
            (_, Layout::Array) if self.native.is_none() => format!("g[{g}]"),
            _ => format!("{}g{g}", self.prefix()),
        }
    }

    fn program(&mut self, program: &Program) {
        let p = self.prefix().to_string();
        self.layout = if self.native.is_some() { Layout::Separate } else { program.layout };
        self.declare_globals(&program.globals);
        if self.native.is_some() {
            let resets: Vec<String> = program.globals.iter().enumerate().map(|(g, v)| format!("{p}g{g} = {v};")).collect();
            self.line(0, &format!("static void {p}reset(void) {{ {} }}", resets.join(" ")));
        } else {
            for m in 0..program.mutexes {
                self.line(0, &format!("pthread_mutex_t m{m} = PTHREAD_MUTEX_INITIALIZER;"));
            }
        }
        for (f, function) in program.functions.iter().enumerate() {
            match self.native {
                Some(p) => self.line(0, &format!("static int {p}f{f}(int *p) {{")),
                None => {
                    self.line(0, &format!("void *f{f}(void *arg) {{"));
                    self.line(1, "int *p = arg;");
                }
            }
            self.locals(function.locals);
            self.list(&function.stmts, 1);
            let result = function.result;
            match self.native {
                Some(_) => self.line(1, &format!("return l{result};")),
                None => self.line(1, &format!("return (void *)(long)l{result};")),
            }
            self.line(0, "}");
        }
        self.main(program);
    }

    fn declare_globals(&mut self, values: &[i32]) {
        let p = self.prefix().to_string();
        let fields: Vec<String> = (0..values.len()).map(|g| format!("g{g}")).collect();
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        let text = match self.layout {
            Layout::Struct => format!("struct {{ int {}; }} s = {{ {} }};", fields.join(", "), values.join(", ")),
            Layout::Array => format!("int g[{}] = {{ {} }};", values.len(), values.join(", ")),
            Layout::Separate => {
                let globals: Vec<String> = fields.iter().zip(&values).map(|(g, v)| format!("{p}{g} = {v}")).collect();
                format!("{}int {};", if self.native.is_some() { "static " } else { "" }, globals.join(", "))
            }
        };
        self.line(0, &text);
    }

    fn locals(&mut self, count: usize) {
        let mut names: Vec<String> = (0..count).map(|l| format!("l{l} = 0")).collect();
        names.extend(["i0 = 0".to_string(), "i1 = 0".to_string()]);
        if self.native.is_some() {
            names.push("t = 0".into());
        }
        self.line(1, &format!("int {};", names.join(", ")));
    }

    fn main(&mut self, program: &Program) {
        let main = &program.main;
        let p = self.prefix().to_string();
        match self.native {
            Some(_) => self.line(0, &format!("static int {p}main(int *p) {{")),
            None => self.line(0, "int main(void) {"),
        }
        self.locals(main.locals);
        let handles = main.starts.len();
        match self.native {
            Some(_) => self.line(1, &format!("int h[{handles}];")),
            None => self.line(1, &format!("pthread_t h[{handles}];")),
        }
        self.list(&main.before, 1);
        for (k, (f, arg)) in main.starts.iter().zip(&main.args).enumerate() {
            match self.native {
                Some(_) => self.line(1, &format!("h[{k}] = oracle_spawn({p}f{f}, &{p}g{arg});")),
                None => self.line(1, &format!("pthread_create(&h[{k}], 0, f{f}, &{});", self.global(*arg))),
            }
        }
        self.list(&main.during, 1);
        for &(k, into) in &main.joins {
            let line = match (self.native, into) {
                (Some(_), Some(l)) => format!("l{l} = oracle_join(h[{k}]);"),
                (Some(_), None) => format!("oracle_join(h[{k}]);"),
                (None, Some(l)) => format!("{{ void *r; pthread_join(h[{k}], &r); l{l} = (int)(long)r; }}"),
                (None, None) => format!("pthread_join(h[{k}], 0);"),
            };
            self.line(1, &line);
        }
        self.list(&main.after, 1);
        if self.native.is_some() {
            self.line(1, "oracle_yield(); /* the process ends: a step of its own */");
        }
        self.line(1, "return 0;");
        self.line(0, "}");
    }

    fn list(&mut self, stmts: &[Stmt], depth: usize) {
        for stmt in stmts {
            if self.native.is_some() && stmt.yields() && !matches!(stmt, Stmt::Locked { .. }) {
                self.line(depth, "oracle_yield();");
            }
            self.stmt(stmt, depth);
        }
    }

    fn rhs(&self, value: Rhs) -> String {
        match value {
            Rhs::Const(c) => c.to_string(),
            Rhs::Local(l, 0) => format!("l{l}"),
            Rhs::Local(l, d) => format!("l{l} + {d}"),
        }
    }

    fn cond(&self, cond: Cond) -> String {
        match cond {
            Cond::Global(g, rel, c) => format!("{} {} {c}", self.global(g), rel.text()),
            Cond::Local(l, rel, c) => format!("l{l} {} {c}", rel.text()),
        }
    }

    fn probe(&self, probe: &Probe) -> String {
        match probe {
            Probe::Global(g) => self.global(*g),
            Probe::Local(l) => format!("l{l}"),
            Probe::Sum(terms) => {
                let terms: Vec<String> = terms.iter().map(|(k, g)| if *k == 1 { self.global(*g) } else { format!("{k} * {}", self.global(*g)) }).collect();
                terms.join(" + ")
            }
        }
    }

    fn stmt(&mut self, stmt: &Stmt, depth: usize) {
        match stmt {
            Stmt::Load { local, global } => self.line(depth, &format!("l{local} = {};", self.global(*global))),
            Stmt::Store { global, value } => self.line(depth, &format!("{} = {};", self.global(*global), self.rhs(*value))),
            Stmt::Update { global, delta, style } => self.update(self.global(*global), self.global(*global), *delta, *style, depth),
            Stmt::Copy { dst, src, delta } => self.update(self.global(*dst), self.global(*src), *delta, UpdateStyle::Assign, depth),
            Stmt::Local { local, value } => self.line(depth, &format!("l{local} = l{local} + {};", self.rhs(*value))),
            Stmt::Input { local, low, high, style } => self.input(*local, *low, *high, *style, depth),
            Stmt::If { cond, then, els } => {
                self.line(depth, &format!("if ({}) {{", self.cond(*cond)));
                self.list(then, depth + 1);
                if !els.is_empty() {
                    self.line(depth, "} else {");
                    self.list(els, depth + 1);
                }
                self.line(depth, "}");
            }
            Stmt::For { counter, count, body } => self.for_loop(*counter, *count, body, depth),
            Stmt::While { cond, body } => self.while_loop(*cond, body, depth),
            Stmt::Locked { mutex, body } => {
                match self.native {
                    Some(_) => self.line(depth, &format!("oracle_lock({mutex});")),
                    None => self.line(depth, &format!("pthread_mutex_lock(&m{mutex});")),
                }
                self.list(body, depth + 1);
                match self.native {
                    Some(_) => self.line(depth, &format!("oracle_unlock({mutex});")),
                    None => self.line(depth, &format!("pthread_mutex_unlock(&m{mutex});")),
                }
            }
            Stmt::Atomic { body } => {
                self.line(depth, if self.native.is_some() { "oracle_atomic = 1;" } else { "__VERIFIER_atomic_begin();" });
                self.list(body, depth + 1);
                self.line(depth, if self.native.is_some() { "oracle_atomic = 0;" } else { "__VERIFIER_atomic_end();" });
            }
            Stmt::Assert { site, probe } => self.site(*site, probe, depth),
        }
    }

    /// `dst = src + delta`: one step for tarsier, which splits it; a read
    /// step and a write step natively.
    fn update(&mut self, dst: String, src: String, delta: i32, style: UpdateStyle, depth: usize) {
        if self.native.is_some() {
            self.line(depth, &format!("t = {src};"));
            self.line(depth, "oracle_yield();");
            self.line(depth, &format!("{dst} = t + {delta};"));
            return;
        }
        let text = match style {
            _ if dst != src => format!("{dst} = {src} + {delta};"),
            UpdateStyle::Step if delta == 1 => format!("{dst}++;"),
            UpdateStyle::Step if delta == -1 => format!("{dst}--;"),
            UpdateStyle::Step | UpdateStyle::Compound => format!("{dst} += {delta};"),
            UpdateStyle::Assign => format!("{dst} = {dst} + {delta};"),
        };
        self.line(depth, &text);
    }

    fn input(&mut self, local: usize, low: i32, high: i32, style: InputStyle, depth: usize) {
        if self.native.is_some() {
            self.line(depth, &format!("l{local} = oracle_input({low}, {high});"));
            return;
        }
        self.line(depth, &format!("l{local} = __VERIFIER_nondet_int();"));
        match style {
            InputStyle::Assume => self.line(depth, &format!("__VERIFIER_assume(l{local} >= {low} && l{local} <= {high});")),
            InputStyle::Clamp => self.line(depth, &format!("if (l{local} < {low} || l{local} > {high}) l{local} = {low};")),
        }
    }

    /// A counted loop; natively its back edge is counted after the
    /// increment, where tarsier's is.
    fn for_loop(&mut self, counter: usize, count: i32, body: &[Stmt], depth: usize) {
        if self.native.is_none() {
            self.line(depth, &format!("for (i{counter} = 0; i{counter} < {count}; i{counter}++) {{"));
            self.list(body, depth + 1);
            self.line(depth, "}");
            return;
        }
        self.line(depth, &format!("{{ int back = 0; for (i{counter} = 0;;) {{"));
        self.line(depth + 1, &format!("if (!(i{counter} < {count})) break;"));
        self.list(body, depth + 1);
        self.line(depth + 1, &format!("i{counter}++;"));
        self.line(depth + 1, "oracle_back(&back);");
        self.line(depth, "} }");
    }

    /// A loop on a shared value: natively the condition's read is a step
    /// of each iteration (the turn before it comes from `list` for the
    /// first, from the loop for the others).
    fn while_loop(&mut self, cond: Cond, body: &[Stmt], depth: usize) {
        let test = self.cond(cond);
        if self.native.is_none() {
            self.line(depth, &format!("while ({test}) {{"));
            self.list(body, depth + 1);
            self.line(depth, "}");
            return;
        }
        self.line(depth, "{ int back = 0; for (;;) {");
        self.line(depth + 1, &format!("if (!({test})) break;"));
        self.list(body, depth + 1);
        self.line(depth + 1, "oracle_back(&back);");
        self.line(depth + 1, "oracle_yield();");
        self.line(depth, "} }");
    }

    fn site(&mut self, site: usize, probe: &Probe, depth: usize) {
        let value = self.probe(probe);
        if self.native.is_some() {
            self.line(depth, &format!("oracle_probe({site}, {value});"));
            return;
        }
        let constant = self.constants[site];
        let text = match site % 3 {
            0 => format!("if ({value} == {constant}) reach_error();"),
            1 => format!("assert({value} != {constant});"),
            _ => format!("__VERIFIER_assert({value} != {constant});"),
        };
        self.line(depth, &text);
    }
}
