//! The thread oracle's programs as data: a few shared `int` globals and
//! mutexes, thread functions made of short statement lists (loads, stores
//! and updates of shared globals, local arithmetic, nondeterministic
//! inputs over small ranges, branches and loops on shared or local values,
//! locked regions and atomic sections) and a `main` that starts threads,
//! acts, joins some of them and probes shared state. Every statement reads
//! at most one shared global, except probes where no other thread can
//! run (inside an atomic section, or after every thread is joined), so
//! each shared access is one atomic step both for tarsier and for the
//! native enumeration.

/// The "global" a thread reaches through its argument: `*p`, with `p` the
/// pointer `main` gave `pthread_create` (to the global `Main::args` names).
pub const VIA_ARG: usize = usize::MAX;

/// A relation of a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    Eq,
    Ne,
    Lt,
    Ge,
}

impl Rel {
    pub fn text(self) -> &'static str {
        match self {
            Rel::Eq => "==",
            Rel::Ne => "!=",
            Rel::Lt => "<",
            Rel::Ge => ">=",
        }
    }
}

/// A value with no shared read: a constant, a local, or a local plus a
/// constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rhs {
    Const(i32),
    Local(usize, i32),
}

/// A condition: one shared global, or one local, compared with a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    Global(usize, Rel, i32),
    Local(usize, Rel, i32),
}

impl Cond {
    pub fn reads_shared(self) -> bool {
        matches!(self, Cond::Global(..))
    }
}

/// What an assertion site observes: a global, a local, or a weighted sum
/// of globals (only where no other thread can run meanwhile).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Probe {
    Global(usize),
    Local(usize),
    Sum(Vec<(i32, usize)>),
}

impl Probe {
    pub fn reads_shared(&self) -> bool {
        !matches!(self, Probe::Local(_))
    }
}

/// How an update `g = g + d` is written for tarsier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpdateStyle {
    /// `g = g + d;`
    Assign,
    /// `g += d;`
    Compound,
    /// `g++;` / `g--;` (for d = ±1), else as `Compound`.
    Step,
}

/// How a nondeterministic input's range is imposed for tarsier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputStyle {
    /// `__VERIFIER_assume(low <= l && l <= high)`: the thread blocks on
    /// the other values.
    Assume,
    /// Values outside the range are replaced by `low`.
    Clamp,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    /// `l = g;`
    Load { local: usize, global: usize },
    /// `g = rhs;`
    Store { global: usize, value: Rhs },
    /// `g = g + delta;` (a read step, then a write step).
    Update { global: usize, delta: i32, style: UpdateStyle },
    /// `dst = src + delta;` between two globals (a read step of `src`,
    /// then a write step of `dst`).
    Copy { dst: usize, src: usize, delta: i32 },
    /// `l = l + rhs;` (local only).
    Local { local: usize, value: Rhs },
    /// `l = nondet in [low, high]`.
    Input { local: usize, low: i32, high: i32, style: InputStyle },
    If { cond: Cond, then: Vec<Stmt>, els: Vec<Stmt> },
    /// `for (iK = 0; iK < count; iK++) body` with a counter of its own
    /// (K: the loop's depth, so nested loops count with different ones).
    For { counter: usize, count: i32, body: Vec<Stmt> },
    /// `while (cond) body` on a shared global: may wait for other threads
    /// for ever.
    While { cond: Cond, body: Vec<Stmt> },
    /// `pthread_mutex_lock(&m); body pthread_mutex_unlock(&m);`
    Locked { mutex: usize, body: Vec<Stmt> },
    /// `__VERIFIER_atomic_begin(); body __VERIFIER_atomic_end();`
    Atomic { body: Vec<Stmt> },
    /// An assertion site: the probe must not equal the site's constant.
    Assert { site: usize, probe: Probe },
}

impl Stmt {
    /// Whether the statement (without its nested ones) touches shared
    /// state, so the native flavour gives the scheduler a turn before it.
    pub fn yields(&self) -> bool {
        match self {
            Stmt::Load { .. } | Stmt::Store { .. } | Stmt::Update { .. } | Stmt::Copy { .. } | Stmt::Locked { .. } | Stmt::Atomic { .. } => true,
            Stmt::If { cond, .. } | Stmt::While { cond, .. } => cond.reads_shared(),
            Stmt::Assert { probe, .. } => probe.reads_shared(),
            Stmt::Local { .. } | Stmt::Input { .. } | Stmt::For { .. } => false,
        }
    }

    /// Whether the statement (without its nested ones) accesses the
    /// global its thread's argument points to.
    pub fn reaches_via_arg(&self) -> bool {
        match self {
            Stmt::Load { global, .. } | Stmt::Store { global, .. } | Stmt::Update { global, .. } => *global == VIA_ARG,
            Stmt::Copy { dst, src, .. } => *dst == VIA_ARG || *src == VIA_ARG,
            Stmt::If { cond: Cond::Global(g, ..), .. } | Stmt::While { cond: Cond::Global(g, ..), .. } => *g == VIA_ARG,
            Stmt::Assert { probe: Probe::Global(g), .. } => *g == VIA_ARG,
            _ => false,
        }
    }

    /// The nested statement lists.
    pub fn children(&self) -> Vec<&[Stmt]> {
        match self {
            Stmt::If { then, els, .. } => vec![then, els],
            Stmt::For { body, .. } | Stmt::While { body, .. } | Stmt::Locked { body, .. } | Stmt::Atomic { body } => vec![body],
            _ => Vec::new(),
        }
    }
}

/// A function a thread runs (`void *fK(void *arg)`), or `main`'s code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Body {
    pub locals: usize,
    pub stmts: Vec<Stmt>,
    /// The local whose value the thread ends with (`pthread_join` gives it).
    pub result: usize,
}

/// `main`: statements before the threads start, the threads started (by
/// function), statements while they run, the threads joined (by start
/// index, in order, with the local that gets the value the thread ended
/// with, if any), and statements after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Main {
    pub locals: usize,
    pub before: Vec<Stmt>,
    pub starts: Vec<usize>,
    /// The global each started thread's argument points to.
    pub args: Vec<usize>,
    pub during: Vec<Stmt>,
    pub joins: Vec<(usize, Option<usize>)>,
    pub after: Vec<Stmt>,
}

/// How the task declares the shared `int`s (the native flavour always
/// as separate globals: they are separate memory locations either way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `int g0, g1;`
    Separate,
    /// Fields of one struct `s`: a store to one field must not write
    /// the others back with stale values.
    Struct,
    /// Elements of one array `g`.
    Array,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The globals' initial values.
    pub globals: Vec<i32>,
    pub layout: Layout,
    pub mutexes: usize,
    pub functions: Vec<Body>,
    pub main: Main,
    pub sites: usize,
}

impl Program {
    /// Every statement list of the program.
    fn lists(&self) -> Vec<&[Stmt]> {
        let mut lists = self.thread_lists();
        lists.extend([self.main.before.as_slice(), &self.main.during, &self.main.after]);
        lists
    }

    /// The statement lists of the thread functions.
    fn thread_lists(&self) -> Vec<&[Stmt]> {
        self.functions.iter().map(|f| f.stmts.as_slice()).collect()
    }

    /// Every statement, nested ones included.
    pub fn statements(&self) -> Vec<&Stmt> {
        nested(self.lists())
    }

    pub fn has_loops(&self) -> bool {
        self.statements().iter().any(|s| matches!(s, Stmt::For { .. } | Stmt::While { .. }))
    }

    /// The features the program has, for the counts of a run.
    pub fn features(&self) -> Vec<&'static str> {
        let mut features = vec![match self.main.starts.len() {
            1 => "1 thread",
            2 => "2 threads",
            _ => "3+ threads",
        }];
        let statements = self.statements();
        let checks: [(&'static str, StmtTest); 7] = [
            ("mutex", |s| matches!(s, Stmt::Locked { .. })),
            ("atomic", |s| matches!(s, Stmt::Atomic { .. })),
            ("input", |s| matches!(s, Stmt::Input { .. })),
            ("for", |s| matches!(s, Stmt::For { .. })),
            ("while-shared", |s| matches!(s, Stmt::While { .. })),
            ("update", |s| matches!(s, Stmt::Update { .. } | Stmt::Copy { .. })),
            ("if-shared", |s| matches!(s, Stmt::If { cond: Cond::Global(..), .. })),
        ];
        features.extend(checks.iter().filter(|(_, check)| statements.iter().any(|s| check(s))).map(|(name, _)| *name));
        if nested(self.thread_lists()).iter().any(|s| matches!(s, Stmt::Assert { .. })) {
            features.push("site in a thread");
        }
        if self.main.joins.len() < self.main.starts.len() {
            features.push("unjoined");
        }
        let mut started = self.main.starts.clone();
        started.sort_unstable();
        if started.windows(2).any(|w| w[0] == w[1]) {
            features.push("same function twice");
        }
        if nested(self.thread_lists()).iter().any(|s| s.reaches_via_arg()) {
            features.push("pointer argument");
        }
        if !self.main.during.is_empty() {
            features.push("main acts");
        }
        match self.layout {
            Layout::Separate => {}
            Layout::Struct => features.push("struct fields"),
            Layout::Array => features.push("array elements"),
        }
        features
    }
}

/// A test of one statement.
type StmtTest = fn(&Stmt) -> bool;

/// Every statement of `lists`, nested ones included.
fn nested(mut pending: Vec<&[Stmt]>) -> Vec<&Stmt> {
    let mut found = Vec::new();
    while let Some(list) = pending.pop() {
        for stmt in list {
            found.push(stmt);
            pending.extend(stmt.children());
        }
    }
    found
}
