//! The thread oracle's seeded generator: two or three globals, up to two
//! mutexes, one or two thread functions started two or three times
//! (the same function twice sometimes), short statement lists, and
//! assertion sites after the joins and inside threads. Programs are kept
//! small (a handful of shared steps per thread, at most two inputs of at
//! most three values) so that the native enumeration of every schedule
//! stays exhaustive.

use super::program::*;
use crate::oracle::Rng;

/// Where a statement list is generated.
#[derive(Clone, Copy)]
struct Context {
    depth: usize,
    /// Inside an atomic section: no locks, loops or nested sections.
    atomic: bool,
    /// No other thread can run (main before the starts, after every join,
    /// or an atomic section): probes may read several globals.
    exclusive: bool,
    /// The mutexes held (a bit each), never locked again.
    held: u32,
    /// In a thread function, which has an argument.
    thread: bool,
    locals: usize,
}

struct Generator<'r> {
    rng: &'r mut Rng,
    globals: usize,
    mutexes: usize,
    sites: usize,
    inputs: usize,
    waits: usize,
}

const MAX_SITES: usize = 3;
const MAX_INPUTS: usize = 2;

/// A program of seed `rng`.
pub fn program(rng: &mut Rng) -> Program {
    let globals = 2 + rng.below(2) as usize;
    let initial: Vec<i32> = (0..globals).map(|_| if rng.chance(2) { 0 } else { rng.below(3) as i32 }).collect();
    let mutexes = [0, 1, 2, 2][rng.below(4) as usize];
    let mut gen = Generator { rng, globals, mutexes, sites: 0, inputs: 0, waits: 0 };
    let function_count = 1 + gen.rng.below(2) as usize;
    let mut functions: Vec<Body> = (0..function_count).map(|_| { let length = 1 + gen.rng.below(3) as usize; gen.body(length) }).collect();
    if mutexes == 2 && function_count == 2 && gen.rng.chance(2) {
        gen.nest_locks(&mut functions);
    }
    let thread_count = 2 + usize::from(gen.rng.chance(3));
    let mut starts: Vec<usize> = (0..thread_count).map(|k| if k < function_count { k } else { gen.rng.below(function_count as u64) as usize }).collect();
    if gen.rng.chance(2) {
        starts.reverse();
    }
    let mut joins: Vec<usize> = (0..thread_count).collect();
    if gen.rng.chance(3) {
        joins.reverse();
    }
    if gen.rng.chance(6) {
        joins.pop();
    }
    let args = starts.iter().map(|_| gen.global()).collect();
    let mut main = gen.main(starts, joins);
    main.args = args;
    let sites = gen.sites;
    let layout = gen.rng.pick(&[Layout::Separate, Layout::Separate, Layout::Struct, Layout::Array]);
    Program { globals: initial, layout, mutexes, functions, main, sites }
}

impl Generator<'_> {
    fn body(&mut self, length: usize) -> Body {
        let locals = 1 + self.rng.below(2) as usize;
        let cx = Context { depth: 0, atomic: false, exclusive: false, held: 0, thread: true, locals };
        let mut stmts = self.list(cx, length);
        if self.sites < MAX_SITES && self.rng.chance(4) {
            let at = self.rng.below(stmts.len() as u64 + 1) as usize;
            let site = self.site(cx);
            stmts.insert(at, site);
        }
        let result = self.rng.below(locals as u64) as usize;
        Body { locals, stmts, result }
    }

    /// Puts one statement of each thread function under both mutexes,
    /// in either order per function: opposite orders in two threads can
    /// deadlock.
    fn nest_locks(&mut self, functions: &mut [Body]) {
        let mut first = self.rng.chance(2);
        for function in functions {
            let (outer, inner) = if first { (0, 1) } else { (1, 0) };
            first = !first || self.rng.chance(3);
            let cx = Context { depth: 2, atomic: false, exclusive: false, held: 3, thread: true, locals: function.locals };
            let body = vec![self.stmt(cx)];
            let nested = Stmt::Locked { mutex: outer, body: vec![Stmt::Locked { mutex: inner, body }] };
            let at = self.rng.below(function.stmts.len() as u64 + 1) as usize;
            function.stmts.insert(at, nested);
        }
    }

    fn main(&mut self, starts: Vec<usize>, joins: Vec<usize>) -> Main {
        let locals = 2;
        let joins: Vec<(usize, Option<usize>)> = joins.into_iter().map(|k| (k, self.rng.chance(3).then(|| self.rng.below(locals as u64) as usize))).collect();
        let all_joined = joins.len() == starts.len();
        let before_cx = Context { depth: 0, atomic: false, exclusive: true, held: 0, thread: false, locals };
        let before = if self.rng.chance(4) { self.list(before_cx, 1) } else { Vec::new() };
        let during_cx = Context { exclusive: false, ..before_cx };
        let during = if self.rng.chance(3) { self.some(during_cx, 2) } else { Vec::new() };
        let after_cx = Context { exclusive: all_joined, ..before_cx };
        let mut after = Vec::new();
        if self.rng.chance(4) {
            after.extend(self.list(after_cx, 1));
        }
        while self.sites < MAX_SITES && (self.sites == 0 || self.rng.chance(3)) {
            let site = self.site(after_cx);
            after.push(site);
        }
        Main { locals, before, starts, args: Vec::new(), during, joins, after }
    }

    /// One statement or up to `spread` more.
    fn some(&mut self, cx: Context, spread: u64) -> Vec<Stmt> {
        let length = 1 + self.rng.below(spread) as usize;
        self.list(cx, length)
    }

    fn list(&mut self, cx: Context, length: usize) -> Vec<Stmt> {
        (0..length).map(|_| self.stmt(cx)).collect()
    }

    fn global(&mut self) -> usize {
        self.rng.below(self.globals as u64) as usize
    }

    /// A global a statement of `cx` accesses: in a thread, sometimes the
    /// one its argument points to.
    fn place(&mut self, cx: Context) -> usize {
        if cx.thread && self.rng.chance(5) {
            VIA_ARG
        } else {
            self.global()
        }
    }

    fn local(&mut self, cx: Context) -> usize {
        self.rng.below(cx.locals as u64) as usize
    }

    fn small(&mut self) -> i32 {
        self.rng.below(4) as i32
    }

    fn rhs(&mut self, cx: Context) -> Rhs {
        if self.rng.chance(2) {
            Rhs::Const(self.small())
        } else {
            Rhs::Local(self.local(cx), self.rng.below(3) as i32 - 1)
        }
    }

    fn rel(&mut self) -> Rel {
        self.rng.pick(&[Rel::Eq, Rel::Ne, Rel::Lt, Rel::Ge])
    }

    fn cond(&mut self, cx: Context) -> Cond {
        if self.rng.chance(3) {
            Cond::Local(self.local(cx), self.rel(), self.small())
        } else {
            Cond::Global(self.place(cx), self.rel(), self.small())
        }
    }

    fn site(&mut self, cx: Context) -> Stmt {
        let site = self.sites;
        self.sites += 1;
        let probe = if cx.exclusive && self.rng.chance(2) {
            let mut terms = Vec::new();
            for g in 0..self.globals {
                if self.rng.chance(2) {
                    terms.push((1 + self.rng.below(3) as i32, g));
                }
            }
            if terms.is_empty() {
                Probe::Global(self.global())
            } else {
                Probe::Sum(terms)
            }
        } else if self.rng.chance(5) {
            Probe::Local(self.local(cx))
        } else {
            Probe::Global(self.place(cx))
        };
        Stmt::Assert { site, probe }
    }

    fn stmt(&mut self, cx: Context) -> Stmt {
        let nested = cx.depth < 2;
        let free_mutexes: Vec<usize> = (0..self.mutexes).filter(|m| cx.held & (1 << m) == 0).collect();
        loop {
            let stmt = match self.rng.below(20) {
                0..=2 => Stmt::Load { local: self.local(cx), global: self.place(cx) },
                3..=5 => Stmt::Store { global: self.place(cx), value: self.rhs(cx) },
                6..=8 => self.update(cx),
                9 => Stmt::Copy { dst: self.place(cx), src: self.place(cx), delta: self.rng.below(3) as i32 - 1 },
                10 => Stmt::Local { local: self.local(cx), value: self.rhs(cx) },
                11 if self.inputs < MAX_INPUTS => {
                    self.inputs += 1;
                    let low = self.rng.below(3) as i32 - 1;
                    let style = self.rng.pick(&[InputStyle::Assume, InputStyle::Clamp]);
                    Stmt::Input { local: self.local(cx), low, high: low + 1 + self.rng.below(2) as i32, style }
                }
                12 | 13 if nested => {
                    let inner = Context { depth: cx.depth + 1, ..cx };
                    let then = self.some(inner, 2);
                    let els = if self.rng.chance(2) { self.list(inner, 1) } else { Vec::new() };
                    Stmt::If { cond: self.cond(cx), then, els }
                }
                14 if nested && !cx.atomic => {
                    let inner = Context { depth: cx.depth + 1, ..cx };
                    let body = self.some(inner, 2);
                    Stmt::For { counter: cx.depth, count: 1 + self.rng.below(2) as i32, body }
                }
                15 if nested && !cx.atomic && self.waits == 0 => {
                    self.waits += 1;
                    let body = if self.rng.chance(2) { Vec::new() } else { vec![Stmt::Local { local: self.local(cx), value: Rhs::Const(1) }] };
                    let global = self.place(cx);
                    let cond = Cond::Global(global, self.rng.pick(&[Rel::Ne, Rel::Lt, Rel::Eq]), self.small());
                    Stmt::While { cond, body }
                }
                16 | 17 if nested && !cx.atomic && !free_mutexes.is_empty() => {
                    let mutex = self.rng.pick(&free_mutexes);
                    let inner = Context { depth: cx.depth + 1, held: cx.held | 1 << mutex, ..cx };
                    Stmt::Locked { mutex, body: self.some(inner, 3) }
                }
                18 if nested && !cx.atomic => {
                    let inner = Context { depth: cx.depth + 1, atomic: true, exclusive: true, ..cx };
                    Stmt::Atomic { body: self.some(inner, 3) }
                }
                19 if self.sites < MAX_SITES && self.rng.chance(2) => self.site(cx),
                _ => continue,
            };
            return stmt;
        }
    }

    fn update(&mut self, cx: Context) -> Stmt {
        let delta = self.rng.pick(&[1, 1, -1, 2]);
        Stmt::Update { global: self.place(cx), delta, style: self.rng.pick(&[UpdateStyle::Assign, UpdateStyle::Compound, UpdateStyle::Step]) }
    }
}
