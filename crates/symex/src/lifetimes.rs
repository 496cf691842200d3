//! Objects' lifetimes across threads: which blocks are alive as each
//! thread sees them.
//!
//! A thread's state says what it made and freed itself (and what its
//! creator had when it started), not what the others did meanwhile: a
//! block another thread allocated, freed, or a local whose frame another
//! thread left. So, once threads run, every change of a shared object's
//! liveness (an allocation, a `free`, a declaration, the end of a scope or
//! frame) is noted with its thread and step, and every question of a
//! thread about it (a dereference's check, a `free`'s, `__ESBMC_is_live`)
//! gets a fresh value, decided when every thread has run: the liveness the
//! latest change before the question left, in the interleaving the clocks
//! choose. A thread's own changes come in its program order; another
//! thread's are ordered by the clocks. An object only the asking thread
//! changes keeps the thread's own view, which costs nothing.

use crate::exec::Symex;
use crate::memory::{ObjectId, ObjectKind};
use crate::threads::Clocks;
use smt::{Sort, TermId, TermStore};
use std::collections::HashMap;

/// When a change or a question happens: its thread, its order among the
/// changes and questions (program order within a thread), and its step's
/// clock (`None` for a change made as its thread starts, before any step:
/// then before anything another thread asks about the object).
#[derive(Clone, Copy)]
struct When {
    thread: usize,
    seq: u32,
    clock: Option<TermId>,
}

/// A path of a thread sets an object's liveness.
struct Change {
    object: ObjectId,
    when: When,
    guard: TermId,
    alive: TermId,
}

/// A thread asks whether an object is alive: `seen` is the answer, `own`
/// what its state says.
struct Question {
    object: ObjectId,
    when: When,
    own: TermId,
    seen: TermId,
}

/// The changes and questions of a run with threads.
#[derive(Default)]
pub(crate) struct Lifetimes {
    changes: Vec<Change>,
    questions: Vec<Question>,
    next_seq: u32,
    /// The answer already given in a step, per object and own view (until
    /// the object's liveness changes).
    answers: HashMap<(u32, ObjectId, TermId), TermId>,
}

impl Lifetimes {
    fn next(&mut self) -> u32 {
        self.next_seq += 1;
        self.next_seq
    }
}

impl<'a> Symex<'a> {
    /// Sets the liveness of `object` on the current path, noting the
    /// change for the other threads.
    pub(crate) fn set_alive(&mut self, object: ObjectId, alive: TermId) {
        self.state.set_alive(object, alive);
        if !self.lifetime_shared(object) || self.store.is_false(self.state.guard) {
            return;
        }
        let step = self.threads.as_ref().and_then(|t| t.step_id());
        let clock = step.and_then(|_| self.step_clock());
        let guard = self.state.guard;
        let thread = self.running_thread();
        let lifetimes = &mut self.threads.as_mut().expect("threads on").lifetimes;
        let seq = lifetimes.next();
        lifetimes.changes.push(Change { object, when: When { thread, seq, clock }, guard, alive });
        if let Some(step) = step {
            lifetimes.answers.retain(|&(s, o, _), _| s != step || o != object);
        }
    }

    /// Whether `object` is alive as the running thread sees it, its own
    /// view being `own` (see the module's comment).
    pub(crate) fn alive_as_seen(&mut self, object: ObjectId, own: TermId) -> TermId {
        if !self.lifetime_shared(object) {
            return own;
        }
        let Some(step) = self.threads.as_ref().and_then(|t| t.step_id()) else { return own };
        if let Some(&seen) = self.threads.as_ref().and_then(|t| t.lifetimes.answers.get(&(step, object, own))) {
            return seen;
        }
        let clock = self.step_clock();
        let seen = self.store.var("alive_as_seen", Sort::Bool);
        let thread = self.running_thread();
        let lifetimes = &mut self.threads.as_mut().expect("threads on").lifetimes;
        let seq = lifetimes.next();
        lifetimes.questions.push(Question { object, when: When { thread, seq, clock }, own, seen });
        lifetimes.answers.insert((step, object, own), seen);
        seen
    }

    /// Whether the liveness of `object` may be seen by other threads than
    /// the one that changes it.
    fn lifetime_shared(&self, object: ObjectId) -> bool {
        let kind = &self.objects.get(object).kind;
        matches!(kind, ObjectKind::Heap { .. } | ObjectKind::Stack { .. } | ObjectKind::Local { .. }) && self.may_be_shared(object)
    }
}

/// The answers of every question (see the module's comment); `initial` is
/// an object's liveness when the entry function started.
pub(crate) fn encode(store: &mut TermStore, clocks: Clocks, lifetimes: &Lifetimes, initial: &dyn Fn(&mut TermStore, ObjectId) -> TermId, constraints: &mut Vec<TermId>) {
    let mut changes: HashMap<ObjectId, Vec<&Change>> = HashMap::new();
    for change in &lifetimes.changes {
        changes.entry(change.object).or_default().push(change);
    }
    for question in &lifetimes.questions {
        let of_object = changes.get(&question.object).map_or(&[][..], |c| c.as_slice());
        let answer = match of_object.iter().all(|c| c.when.thread == question.when.thread) {
            true => question.own,
            false => {
                let before_any = initial(store, question.object);
                latest_liveness(store, clocks, of_object, question.when, before_any)
            }
        };
        constraints.push(store.eq(question.seen, answer));
    }
}

/// The liveness the latest of `changes` that happened before `asked` left
/// (`before_any` if none did).
fn latest_liveness(store: &mut TermStore, clocks: Clocks, changes: &[&Change], asked: When, before_any: TermId) -> TermId {
    let happened: Vec<TermId> = changes
        .iter()
        .map(|c| {
            let earlier = precedes(store, clocks, c.when, asked);
            store.and2(c.guard, earlier)
        })
        .collect();
    let mut answers = Vec::new();
    for (i, c) in changes.iter().enumerate() {
        let mut latest = vec![happened[i], c.alive];
        for (j, later) in changes.iter().enumerate() {
            if i == j {
                continue;
            }
            let after = precedes(store, clocks, c.when, later.when);
            let overtaken = store.and2(happened[j], after);
            latest.push(store.not(overtaken));
        }
        answers.push(store.and(&latest));
    }
    let some = store.or(&happened);
    let none = store.not(some);
    answers.push(store.and2(none, before_any));
    store.or(&answers)
}

/// Whether `a` comes before `b`: program order within a thread, the
/// clocks between threads (a change without a clock comes first).
fn precedes(store: &mut TermStore, clocks: Clocks, a: When, b: When) -> TermId {
    let first = match (a.clock, b.clock) {
        _ if a.thread == b.thread => a.seq < b.seq,
        (None, None) => a.seq < b.seq,
        (None, Some(_)) => true,
        (Some(_), None) => false,
        (Some(x), Some(y)) => return clocks.before(store, x, y),
    };
    if first { store.true_term() } else { store.false_term() }
}
