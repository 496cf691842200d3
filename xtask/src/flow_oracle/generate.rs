//! Random control-flow programs: up to two plain functions with loops
//! inside, maybe one small recursive function, and `main`, each a random
//! nest of loops of every kind, conditionals, `switch` with fall-through,
//! jumps (`break`, `continue`, forward `goto` out of loops and blocks,
//! `goto` back to a loop's head), early returns, calls, nondeterministic
//! values over small ranges and assertion sites. Every loop starts its
//! body with its counter's increment, so no two loops share a head. In a
//! terminating program every loop is limited by its counter, so every
//! execution ends and incremental BMC can decide it.

use super::emit::callee_function_name;
use super::program::{Arm, AssertStyle, Compare, Cond, Entry, Function, FunctionKind, Limit, Loop, LoopKind, Place, Probe, Program, RangeShape, Stmt, Value};
use crate::oracle::Rng;

/// Loop nesting depth at most.
const MAX_LOOP_DEPTH: u32 = 3;

/// A random program. One in three is small: `main` alone, a few
/// statements around a loop nest, its trace asserted at the end.
pub fn program(rng: &mut Rng) -> Program {
    let terminating = rng.chance(2);
    let small_program = rng.chance(3);
    let globals: Vec<i32> = (0..rng.below(3)).map(|_| small(rng)).collect();
    let mut shared = Shared { globals: globals.len() as u8, terminating, sites: 0, conditional_entries: 1 };
    if small_program {
        let main = FunctionGen::new(rng, &mut shared, 0, Vec::new()).small_main();
        return Program { globals, functions: vec![main], sites: shared.sites, terminating };
    }
    let mut functions: Vec<Function> = Vec::new();
    for _ in 0..rng.below(3) {
        let index = functions.len();
        let params = rng.below(3) as u8;
        let function = FunctionGen::new(rng, &mut shared, params, callees_of(&functions)).plain(index, params);
        functions.push(function);
    }
    if rng.chance(3) {
        let index = functions.len();
        let function = FunctionGen::new(rng, &mut shared, 2, callees_of(&functions)).recursive(index);
        functions.push(function);
    }
    let main = FunctionGen::new(rng, &mut shared, 0, callees_of(&functions)).main();
    functions.push(main);
    Program { globals, functions, sites: shared.sites, terminating }
}

/// What the functions of one program share.
struct Shared {
    globals: u8,
    /// Every loop gets a limit.
    terminating: bool,
    /// Assertion sites so far.
    sites: usize,
    /// Conditional jumps into loops still allowed.
    conditional_entries: u32,
}

/// Whether `stmt` holds a `continue` of loop `id` or a `goto` to its head.
fn jumps_to_top(stmt: &Stmt, id: u32) -> bool {
    let any = |block: &[Stmt]| block.iter().any(|s| jumps_to_top(s, id));
    match stmt {
        Stmt::Continue(loop_id, _) | Stmt::GotoHead(loop_id) => *loop_id == id,
        Stmt::If(_, then, other) => any(then) || any(other),
        Stmt::Loop(l) => any(&l.body),
        Stmt::Switch(_, arms) => arms.iter().any(|arm| any(&arm.body)),
        _ => false,
    }
}

fn callees_of(functions: &[Function]) -> Vec<(usize, u8, bool)> {
    functions.iter().enumerate().map(|(k, f)| (k, f.params, f.kind == FunctionKind::Recursive)).collect()
}

fn small(rng: &mut Rng) -> i32 {
    rng.below(7) as i32 - 1
}

/// Where a statement is: what it may jump to.
#[derive(Clone, Default)]
struct Ctx {
    loop_depth: u32,
    /// The innermost `while`/`do`/`for` (for `continue`).
    innermost: Option<(u32, LoopKind)>,
    /// Inside a loop or `switch` (for `break`).
    breakable: bool,
    /// Enclosing `goto` loops.
    goto_heads: Vec<u32>,
    /// Labels placed later in an enclosing block.
    forward: Vec<u32>,
}

struct FunctionGen<'r> {
    rng: &'r mut Rng,
    shared: &'r mut Shared,
    locals: u8,
    /// A local never assigned (a recursive function's depth).
    read_only: Option<u8>,
    loops: u32,
    labels: u32,
    /// Functions this one may call: index, parameter count, recursive.
    callees: Vec<(usize, u8, bool)>,
    /// Statements left to generate.
    budget: i32,
}

impl<'r> FunctionGen<'r> {
    fn new(rng: &'r mut Rng, shared: &'r mut Shared, params: u8, callees: Vec<(usize, u8, bool)>) -> Self {
        let locals = params.max(2) + 1 + rng.below(2) as u8;
        FunctionGen { rng, shared, locals, read_only: None, loops: 0, labels: 0, callees, budget: 0 }
    }

    fn finish(&mut self, name: String, kind: FunctionKind, params: u8, body: Vec<Stmt>, result: Value) -> Function {
        let locals = (params..self.locals).map(|_| small(self.rng)).collect();
        Function { name, kind, params, locals, loops: self.loops, body, result }
    }

    fn main(&mut self) -> Function {
        self.budget = 10 + self.rng.below(12) as i32;
        let mut body = self.block(&Ctx::default(), 6);
        while self.budget > 0 {
            body.extend(self.block(&Ctx::default(), 3));
        }
        body.push(self.assertion());
        self.finish("main".into(), FunctionKind::Main, 0, body, Value::Const(0))
    }

    fn small_main(&mut self) -> Function {
        self.budget = 3 + self.rng.below(6) as i32;
        let mut body = Vec::new();
        if self.rng.chance(2) {
            body.push(self.stmt(&Ctx::default()));
        }
        body.push(self.loop_stmt(&Ctx::default()));
        while self.budget > 0 {
            body.push(self.stmt(&Ctx::default()));
        }
        body.push(self.site(Probe::Var(Place::Trace)));
        self.finish("main".into(), FunctionKind::Main, 0, body, Value::Const(0))
    }

    fn plain(&mut self, index: usize, params: u8) -> Function {
        self.budget = 4 + self.rng.below(8) as i32;
        let body = self.block(&Ctx::default(), 4);
        let result = self.value();
        self.finish(callee_function_name(index), FunctionKind::Plain, params, body, result)
    }

    /// `f(depth, acc)`: returns at depth 0 or below, else calls itself with
    /// depth - 1 once or twice around a few statements.
    fn recursive(&mut self, index: usize) -> Function {
        self.read_only = Some(0);
        self.budget = 2 + self.rng.below(4) as i32;
        let base = self.value();
        let mut body = vec![Stmt::If(Cond::Compare(Place::Local(0), Compare::Le, 0), vec![Stmt::Return(base)], Vec::new())];
        body.extend(self.block(&Ctx::default(), 2));
        let calls = 1 + self.rng.below(2);
        for _ in 0..calls {
            let args = vec![Value::Offset(Place::Local(0), -1), self.value()];
            let call = Stmt::Call(Some(Place::Local(1)), index, args);
            if self.rng.chance(2) {
                let cond = self.cond();
                body.push(Stmt::If(cond, vec![call], Vec::new()));
            } else {
                body.push(call);
            }
        }
        self.budget = self.rng.below(3) as i32;
        if self.budget > 0 {
            body.extend(self.block(&Ctx::default(), 2));
        }
        let result = self.value();
        self.finish(callee_function_name(index), FunctionKind::Recursive, 2, body, result)
    }

    /// A block of 1..=max statements, maybe with a label that earlier
    /// statements (and the statements nested in them) jump forward to.
    fn block(&mut self, ctx: &Ctx, max: u64) -> Vec<Stmt> {
        let count = 1 + self.rng.below(max) as usize;
        let label = self.rng.chance(3).then(|| {
            self.labels += 1;
            (self.labels - 1, 1 + self.rng.below(count as u64) as usize)
        });
        let mut stmts = Vec::new();
        for k in 0..count {
            let mut inner = ctx.clone();
            match label {
                Some((id, at)) if at == k => stmts.push(Stmt::Label(id)),
                Some((id, at)) if at > k => inner.forward.push(id),
                _ => {}
            }
            stmts.push(self.stmt(&inner));
        }
        if let Some((id, at)) = label {
            if at == count {
                stmts.push(Stmt::Label(id));
            }
        }
        stmts
    }

    fn stmt(&mut self, ctx: &Ctx) -> Stmt {
        self.budget -= 1;
        let nested = self.budget > 0;
        loop {
            let stmt = match self.rng.below(27) {
                0..=3 => Stmt::Assign(self.assignable(), self.value()),
                24..=26 => Stmt::Trace(1 + self.rng.below(9) as i32),
                4 => Stmt::NondetBool(self.assignable()),
                5 | 6 => self.nondet_int(),
                7 | 8 if nested => self.if_stmt(ctx),
                9..=11 if nested && ctx.loop_depth < MAX_LOOP_DEPTH => self.loop_stmt(ctx),
                12 if nested => self.switch(ctx),
                13..=16 => match self.jump(ctx) {
                    Some(jump) if self.rng.chance(5) => jump,
                    Some(jump) => Stmt::If(self.cond(), vec![jump], Vec::new()),
                    None => continue,
                },
                18 | 19 if !self.callees.is_empty() => self.call(),
                20 if self.rng.chance(2) => Stmt::Assume(self.plain_cond()),
                21..=23 => self.assertion(),
                _ => continue,
            };
            return stmt;
        }
    }

    /// A jump that `ctx` allows: `break`, `continue`, `goto` a loop's head
    /// or a label ahead, or (rarely) `return`.
    fn jump(&mut self, ctx: &Ctx) -> Option<Stmt> {
        let mut jumps = Vec::new();
        if ctx.breakable {
            jumps.push(Stmt::Break);
        }
        if let Some((id, kind)) = ctx.innermost {
            jumps.extend([Stmt::Continue(id, kind), Stmt::Continue(id, kind)]);
        }
        if !ctx.goto_heads.is_empty() {
            jumps.push(Stmt::GotoHead(self.rng.pick(&ctx.goto_heads)));
        }
        if !ctx.forward.is_empty() {
            jumps.push(Stmt::GotoForward(self.rng.pick(&ctx.forward)));
        }
        if jumps.is_empty() || self.rng.chance(8) {
            return self.rng.chance(3).then(|| Stmt::Return(self.value()));
        }
        Some(jumps.swap_remove(self.rng.below(jumps.len() as u64) as usize))
    }

    fn if_stmt(&mut self, ctx: &Ctx) -> Stmt {
        let cond = self.cond();
        let then = self.block(ctx, 2);
        let other = if self.rng.chance(2) { self.block(ctx, 2) } else { Vec::new() };
        Stmt::If(cond, then, other)
    }

    fn loop_stmt(&mut self, ctx: &Ctx) -> Stmt {
        let kinds: &[LoopKind] = if self.shared.terminating {
            &[LoopKind::While, LoopKind::While, LoopKind::DoWhile, LoopKind::For, LoopKind::For, LoopKind::Goto]
        } else {
            &[LoopKind::While, LoopKind::While, LoopKind::DoWhile, LoopKind::For, LoopKind::For, LoopKind::Goto, LoopKind::Forever]
        };
        let kind = self.rng.pick(kinds);
        Stmt::Loop(self.new_loop(ctx, kind, true))
    }

    /// A loop of `kind`; with `outer`, maybe one whose body starts with a
    /// loop sharing its head, or with a jump into it.
    fn new_loop(&mut self, ctx: &Ctx, kind: LoopKind, outer: bool) -> Loop {
        let id = self.loops;
        self.loops += 1;
        let limited = kind != LoopKind::Forever && (self.shared.terminating || kind == LoopKind::For || self.rng.chance(3));
        let limit = limited.then(|| self.limit(id));
        let cond = match self.rng.below(5) {
            _ if kind == LoopKind::Forever => Cond::True,
            0 | 1 => Cond::NondetBool,
            2 if limit.is_some() || self.rng.chance(3) => Cond::True,
            _ => self.cond(),
        };
        let mut inner = Ctx { loop_depth: ctx.loop_depth + 1, ..ctx.clone() };
        if kind == LoopKind::Goto {
            inner.goto_heads.push(id);
        } else {
            inner.innermost = Some((id, kind));
            inner.breakable = true;
        }
        let shares_head = outer
            && limit.is_none()
            && matches!(kind, LoopKind::DoWhile | LoopKind::Goto | LoopKind::Forever)
            && inner.loop_depth < MAX_LOOP_DEPTH
            && self.rng.chance(3);
        let body = if shares_head {
            let first = self.rng.pick(&[LoopKind::While, LoopKind::DoWhile, LoopKind::Goto]);
            let first = Stmt::Loop(self.new_loop(&inner, first, false));
            std::iter::once(first).chain(self.block(&inner, 2)).collect()
        } else {
            self.block(&inner, 3)
        };
        let entry = (outer && !shares_head && matches!(kind, LoopKind::While | LoopKind::Goto) && self.rng.chance(6)).then(|| self.entry(id, &body));
        Loop { id, kind, cond, limit, body, entry, shares_head }
    }

    /// A jump into loop `id`'s `body`, conditional at most once per program
    /// (the native enumeration tries both heads of that one). It lands
    /// before a statement that no jump back to the loop's top precedes, so
    /// every cycle of the loop passes both its entries and the loop has no
    /// inner loop made of its own top.
    fn entry(&mut self, id: u32, body: &[Stmt]) -> Entry {
        let free = body.iter().take_while(|stmt| !jumps_to_top(stmt, id)).count();
        let at = self.rng.below(free as u64 + 1) as usize;
        let cond = (self.shared.conditional_entries > 0 && self.rng.chance(2)).then(|| {
            self.shared.conditional_entries -= 1;
            self.cond()
        });
        Entry { at, cond }
    }

    /// A limit of loop `id`'s counter: a constant, or another variable's
    /// low bits.
    fn limit(&mut self, id: u32) -> Limit {
        let place = self.readable();
        if self.rng.chance(3) && place != Place::Counter(id) {
            Limit::Masked(place)
        } else {
            Limit::Const(self.rng.below(5) as i32)
        }
    }

    fn switch(&mut self, ctx: &Ctx) -> Stmt {
        let selector = if self.rng.chance(2) { Value::Mask(self.readable(), 3) } else { Value::Read(self.readable()) };
        let inner = Ctx { breakable: true, ..ctx.clone() };
        let mut free: Vec<i32> = (-1..5).collect();
        let arms = 2 + self.rng.below(3) as usize;
        let default_at = self.rng.chance(2).then(|| self.rng.below(arms as u64) as usize);
        let mut result = Vec::new();
        for k in 0..arms {
            let mut labels = Vec::new();
            for _ in 0..1 + self.rng.below(2) {
                if !free.is_empty() {
                    labels.push(free.remove(self.rng.below(free.len() as u64) as usize));
                }
            }
            let default = default_at == Some(k);
            let body = if self.rng.chance(4) { Vec::new() } else { self.block(&inner, 2) };
            result.push(Arm { labels, default, body, breaks: self.rng.chance(2) });
        }
        Stmt::Switch(selector, result)
    }

    fn call(&mut self) -> Stmt {
        let (callee, params, recursive) = self.rng.pick(&self.callees);
        let mut args: Vec<Value> = (0..params).map(|_| self.value()).collect();
        if recursive {
            // A small depth, so the recursion ends soon after the bound.
            args[0] = if self.rng.chance(2) { Value::Mask(self.readable(), 3) } else { Value::Const(self.rng.below(4) as i32) };
        }
        let target = (!self.rng.chance(4)).then(|| self.assignable());
        Stmt::Call(target, callee, args)
    }

    fn nondet_int(&mut self) -> Stmt {
        let low = self.rng.below(4) as i32 - 1;
        let high = low + self.rng.below(4) as i32;
        let shape = self.rng.pick(&[RangeShape::Both, RangeShape::Two, RangeShape::Unsigned]);
        Stmt::NondetInt { place: self.assignable(), low, high, shape }
    }

    fn assertion(&mut self) -> Stmt {
        let probe = match self.rng.below(6) {
            0 => Probe::Sum(self.readable(), self.readable()),
            1 => Probe::Pack(self.readable(), self.readable()),
            2 | 3 => Probe::Var(Place::Trace),
            _ => Probe::Var(self.readable()),
        };
        self.site(probe)
    }

    fn site(&mut self, probe: Probe) -> Stmt {
        let site = self.shared.sites;
        self.shared.sites += 1;
        let style = self.rng.pick(&[AssertStyle::Assert, AssertStyle::ReachError, AssertStyle::VerifierAssert]);
        Stmt::Assert { site, probe, style }
    }

    fn assignable(&mut self) -> Place {
        loop {
            let place = if self.shared.globals > 0 && self.rng.chance(4) {
                Place::Global(self.rng.below(u64::from(self.shared.globals)) as u8)
            } else {
                Place::Local(self.rng.below(u64::from(self.locals)) as u8)
            };
            if self.read_only != Some(match place {
                Place::Local(k) => k,
                _ => u8::MAX,
            }) {
                return place;
            }
        }
    }

    fn readable(&mut self) -> Place {
        if self.rng.chance(10) {
            return Place::Trace;
        }
        if self.loops > 0 && self.rng.chance(4) {
            return Place::Counter(self.rng.below(u64::from(self.loops)) as u32);
        }
        if self.shared.globals > 0 && self.rng.chance(4) {
            return Place::Global(self.rng.below(u64::from(self.shared.globals)) as u8);
        }
        Place::Local(self.rng.below(u64::from(self.locals)) as u8)
    }

    fn value(&mut self) -> Value {
        match self.rng.below(8) {
            0 => Value::Const(small(self.rng)),
            1 | 2 => Value::Read(self.readable()),
            3 | 4 => Value::Offset(self.readable(), self.rng.below(9) as i32 - 3),
            5 => Value::Mix(self.readable(), self.rng.pick(&['+', '-', '^', '|']), self.readable()),
            6 => Value::Mask(self.readable(), self.rng.pick(&[1, 3, 7])),
            _ => Value::Scaled(self.readable(), self.rng.below(4) as i32 + 1),
        }
    }

    fn compare(&mut self) -> Compare {
        self.rng.pick(&[Compare::Lt, Compare::Le, Compare::Eq, Compare::Ne, Compare::Gt])
    }

    /// A condition without nondeterminism.
    fn plain_cond(&mut self) -> Cond {
        match self.rng.below(4) {
            0 => Cond::CompareVars(self.readable(), self.compare(), self.readable()),
            1 => Cond::Odd(self.readable()),
            _ => Cond::Compare(self.readable(), self.compare(), self.rng.below(7) as i32 - 1),
        }
    }

    fn cond(&mut self) -> Cond {
        match self.rng.below(8) {
            0 | 1 => Cond::NondetBool,
            2 => Cond::Not(Box::new(self.plain_cond())),
            3 => Cond::And(Box::new(self.plain_cond()), Box::new(self.cond_leaf())),
            4 => Cond::Or(Box::new(self.cond_leaf()), Box::new(self.plain_cond())),
            _ => self.plain_cond(),
        }
    }

    fn cond_leaf(&mut self) -> Cond {
        if self.rng.chance(2) {
            Cond::NondetBool
        } else {
            self.plain_cond()
        }
    }
}
