//! The control-flow oracle's programs as data: functions of statements
//! (assignments, nondeterministic choices, `if`, `while`/`do`/`for` and
//! `goto` loops, `switch` with fall-through, `break`, `continue`, forward
//! `goto`s, early `return`, calls, assumptions and assertion sites) over
//! small `int` variables. `emit` writes them as C for tarsier and, with
//! loop counters and probes, for the native enumeration; `generate` makes
//! random ones.

/// A variable: a local of the function (`v0`, ... — parameters are copied
/// into the first locals), a loop's counter `i<k>`, a global `g<k>`, or
/// the global trace `t`, which [`Stmt::Trace`] steps fold marks into, so
/// its value tells the paths apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Local(u8),
    Counter(u32),
    Global(u8),
    Trace,
}

/// An `int` value. Sums of two variables are masked, so no loop makes a
/// value grow faster than by a constant per step (no signed overflow).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Const(i32),
    Read(Place),
    /// `p + c`
    Offset(Place, i32),
    /// `(p op q) & 63` with `op` one of `+ - ^ |`
    Mix(Place, char, Place),
    /// `(p & m)`
    Mask(Place, i32),
    /// `(p & 7) * c`
    Scaled(Place, i32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    Lt,
    Le,
    Eq,
    Ne,
    Gt,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cond {
    True,
    NondetBool,
    Compare(Place, Compare, i32),
    CompareVars(Place, Compare, Place),
    /// `(p & 1)`
    Odd(Place),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

/// How an assumption restricts a nondeterministic `int` to `low..=high`
/// (equivalent for every `int`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeShape {
    /// `assume(x >= low && x <= high)`
    Both,
    /// `assume(low <= x); assume(x < high + 1)`
    Two,
    /// `assume((unsigned)x - (unsigned)low <= high - low)`
    Unsigned,
}

/// How an assertion site is written; each fails when its expression
/// equals the site's constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssertStyle {
    /// `assert(e != K)` (`<assert.h>`)
    Assert,
    /// `if (e == K) reach_error();`
    ReachError,
    /// `__VERIFIER_assert(e != K)` (defined in the program, SV-COMP style)
    VerifierAssert,
}

/// The expression an assertion site checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Probe {
    Var(Place),
    /// `p + q`
    Sum(Place, Place),
    /// `p * 16 + q`
    Pack(Place, Place),
}

/// An iteration guard that makes a loop terminate: its counter must stay
/// below `limit` for another iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    Const(i32),
    /// `(p & 3)`: at most 3 whatever `p` does.
    Masked(Place),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    While,
    DoWhile,
    For,
    /// `L: ... if (cond) goto L;`
    Goto,
    /// `for (;;)`: left only by jumps.
    Forever,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// Unique in its function: names the counter `i<id>` and the labels.
    pub id: u32,
    pub kind: LoopKind,
    pub cond: Cond,
    pub limit: Option<Limit>,
    pub body: Vec<Stmt>,
    /// A jump into the body from just before the loop (`while` and `goto`
    /// loops only).
    pub entry: Option<Entry>,
    /// The body starts with a loop whose first instruction is this loop's
    /// first too (this loop has no increment before it, that one no reset
    /// of its counter): the two are one loop, their back edges counted
    /// together, as natural loops with one head are.
    pub shares_head: bool,
}

/// A jump from just before a loop to the label `M<id>` before the body's
/// statement `at` (after the counter's increment). Taken under a
/// condition, the loop has two entries (irreducible control flow) and
/// either may be taken for its head; always taken, the loop is entered in
/// its middle and the label is its only entry, so its head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub at: usize,
    pub cond: Option<Cond>,
}

/// A `case` group of a `switch`: its labels (or `default`), its
/// statements, and whether it ends in `break` (else it falls through).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arm {
    pub labels: Vec<i32>,
    pub default: bool,
    pub body: Vec<Stmt>,
    pub breaks: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    Assign(Place, Value),
    /// `t = (t * 3 + mark) & 1023;`
    Trace(i32),
    NondetBool(Place),
    NondetInt { place: Place, low: i32, high: i32, shape: RangeShape },
    If(Cond, Vec<Stmt>, Vec<Stmt>),
    Loop(Loop),
    Switch(Value, Vec<Arm>),
    Break,
    /// `continue` of the innermost `while`/`do`/`for`: the id and kind of
    /// that loop (a `while`'s is a second back edge).
    Continue(u32, LoopKind),
    /// `goto` the head of the enclosing `goto` loop `id` (another back
    /// edge), guarded by the loop's limit when it has one.
    GotoHead(u32),
    /// `goto E<id>;` to a label later in an enclosing block.
    GotoForward(u32),
    Label(u32),
    Return(Value),
    Call(Option<Place>, usize, Vec<Value>),
    Assume(Cond),
    Assert { site: usize, probe: Probe, style: AssertStyle },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    Main,
    /// Called from `main` and later functions; never recursive.
    Plain,
    /// Calls itself with its first local (the depth) decreased; returns
    /// at depth 0 or below.
    Recursive,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    pub kind: FunctionKind,
    pub params: u8,
    /// Initial values of the locals past the parameters.
    pub locals: Vec<i32>,
    /// Loop ids used in the body (`0..loops`): counters `i0`, `i1`, ...
    pub loops: u32,
    pub body: Vec<Stmt>,
    pub result: Value,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub globals: Vec<i32>,
    /// Callees first; `main` last.
    pub functions: Vec<Function>,
    /// Assertion sites `0..sites`.
    pub sites: usize,
    /// Whether every loop has a limit, so every execution ends.
    pub terminating: bool,
}

impl Place {
    pub fn name(self) -> String {
        match self {
            Place::Local(k) => format!("v{k}"),
            Place::Counter(k) => format!("i{k}"),
            Place::Global(k) => format!("g{k}"),
            Place::Trace => "t".into(),
        }
    }
}

impl Compare {
    pub fn text(self) -> &'static str {
        match self {
            Compare::Lt => "<",
            Compare::Le => "<=",
            Compare::Eq => "==",
            Compare::Ne => "!=",
            Compare::Gt => ">",
        }
    }
}

impl Program {
    /// Calls `visit` on every statement, nested ones included.
    pub fn each_stmt(&self, visit: &mut impl FnMut(&Stmt)) {
        for function in &self.functions {
            each_in(&function.body, visit);
        }
    }

    /// Whether some loop has a conditional jump into it (two entries, so
    /// two choices of its head).
    pub fn has_conditional_entry(&self) -> bool {
        let mut found = false;
        self.each_stmt(&mut |stmt| found |= matches!(stmt, Stmt::Loop(Loop { entry: Some(Entry { cond: Some(_), .. }), .. })));
        found
    }

    /// The shapes the program has, for the report: which kinds of control
    /// flow a disagreement involves.
    pub fn features(&self) -> Vec<&'static str> {
        let mut features = Vec::new();
        let mut add = |name: &'static str| {
            if !features.contains(&name) {
                features.push(name);
            }
        };
        self.each_stmt(&mut |stmt| match stmt {
            Stmt::Loop(l) => {
                add(match l.kind {
                    LoopKind::While => "while",
                    LoopKind::DoWhile => "do",
                    LoopKind::For => "for",
                    LoopKind::Goto => "goto-loop",
                    LoopKind::Forever => "for-ever",
                });
                if l.shares_head {
                    add("shared-head");
                }
                match &l.entry {
                    Some(Entry { cond: Some(_), .. }) => add("irreducible"),
                    Some(Entry { cond: None, .. }) => add("entered-mid-loop"),
                    None => {}
                }
            }
            Stmt::Switch(..) => add("switch"),
            Stmt::Break => add("break"),
            Stmt::Continue(_, LoopKind::While) => add("continue-while"),
            Stmt::Continue(..) => add("continue"),
            Stmt::GotoHead(_) => add("goto-back"),
            Stmt::GotoForward(_) => add("goto-forward"),
            Stmt::Return(_) => add("return"),
            Stmt::Call(..) => add("call"),
            _ => {}
        });
        if self.functions.iter().any(|f| f.kind == FunctionKind::Recursive) {
            add("recursion");
        }
        features.sort();
        features
    }
}

fn each_in(block: &[Stmt], visit: &mut impl FnMut(&Stmt)) {
    for stmt in block {
        visit(stmt);
        match stmt {
            Stmt::If(_, then, other) => {
                each_in(then, visit);
                each_in(other, visit);
            }
            Stmt::Loop(l) => each_in(&l.body, visit),
            Stmt::Switch(_, arms) => arms.iter().for_each(|arm| each_in(&arm.body, visit)),
            _ => {}
        }
    }
}
