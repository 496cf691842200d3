//! Objects a thread makes that a thread symex ran before it may reach.
//!
//! Symex runs the main thread, then each started thread in turn. A
//! dereference of a pointer read from shared memory may hit any object
//! whose address was taken so far; a block a later-run thread allocates
//! (or its local, or a static whose address only it takes) is not among
//! them, so the dereference fails where the program's does not, and the
//! replay refuses the violation. A run notes such dereferences ("blind":
//! their pointer's targets are unknown) and the objects numbered after them
//! by another thread; the next run makes those objects before the main
//! thread starts (a global gets its number, a thread's block or local is
//! made with the size it had and numbered), and the thread that creates
//! the same object again (the same thread, site and count of objects made
//! there before, with the same size) takes the one made early. Whether it
//! is alive when another thread looks is the lifetimes' business (see
//! [`crate::lifetimes`]): before its thread makes it, it is not. An object
//! made early that no thread takes is one no pointer reaches.

use crate::exec::Symex;
use crate::memory::{ObjectId, ObjectKind};
use crate::threads::ObjectSite;
use crate::Result;
use ir::SymbolId;
use smt::TermId;
use std::collections::{HashMap, HashSet};

/// What names an object a started thread makes, in every run.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Creation {
    thread: usize,
    site: ObjectSite,
    /// How many objects the thread made at `site` before this one.
    nth: u32,
}

/// An object to make before the main thread starts.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Early {
    Global(SymbolId),
    Made { creation: Creation, kind: ObjectKind, name: String, size: u64 },
}

impl Early {
    /// The site whose objects this one is of.
    pub(crate) fn site(&self) -> ObjectSite {
        match self {
            Early::Global(symbol) => ObjectSite::Variable(*symbol),
            Early::Made { creation, .. } => creation.site,
        }
    }
}

/// One run's early objects and what it notes for the next.
#[derive(Default)]
pub(crate) struct EarlyObjects {
    /// The objects to make before the main thread starts.
    pub(crate) given: HashSet<Early>,
    /// Those made, not yet taken by their thread.
    waiting: HashMap<Creation, ObjectId>,
    /// The objects each started thread made so far, per site.
    counts: HashMap<(usize, ObjectSite), u32>,
    /// The objects started threads made, and how each is named.
    made: HashMap<ObjectId, Creation>,
    /// Per thread, how many objects had a number at its first blind
    /// dereference.
    blind: HashMap<usize, usize>,
}

impl<'a> Symex<'a> {
    /// Makes the objects of `early.given` (the main thread has not started).
    pub(crate) fn make_early_objects(&mut self) -> Result<()> {
        let mut given: Vec<Early> = self.early.given.iter().cloned().collect();
        given.sort_by_key(|e| format!("{e:?}"));
        for early in given {
            match early {
                Early::Global(symbol) => {
                    let o = self.global_object(symbol)?;
                    self.objects.number(o, &self.layout);
                }
                Early::Made { creation, kind, name, size } => {
                    let size = self.store.bv_u64(self.layout.wide_bits(), size);
                    let o = self.add_object(kind, name, size)?;
                    if self.objects.number(o, &self.layout).is_some() {
                        self.early.waiting.insert(creation, o);
                    }
                }
            }
        }
        Ok(())
    }

    /// The object made early for the object the running thread is about to
    /// make (`None`: none, make it).
    pub(crate) fn take_early_object(&mut self, kind: &ObjectKind, size: TermId) -> Option<ObjectId> {
        let creation = self.next_creation(kind)?;
        let &o = self.early.waiting.get(&creation)?;
        let same_size = self.store.as_bv_const(size).and_then(smt::BvValue::to_u64) == Some(self.objects.get(o).size);
        if !same_size || self.objects.get(o).size_term.is_some() {
            return None;
        }
        self.early.waiting.remove(&creation);
        self.objects.set_kind(o, kind.clone());
        Some(o)
    }

    /// Notes that the running thread made `object`.
    pub(crate) fn note_creation(&mut self, object: ObjectId) {
        let kind = self.objects.get(object).kind.clone();
        let Some(creation) = self.next_creation(&kind) else { return };
        *self.early.counts.entry((creation.thread, creation.site)).or_insert(0) += 1;
        self.early.made.insert(object, creation);
    }

    /// How the next object of `kind` the running thread makes is named
    /// (`None` for the main thread's and for other kinds).
    fn next_creation(&self, kind: &ObjectKind) -> Option<Creation> {
        let thread = self.running_thread();
        if thread == 0 || !self.threads_on() || !matches!(kind, ObjectKind::Heap { .. } | ObjectKind::Stack { .. } | ObjectKind::Local { .. }) {
            return None;
        }
        let site = ObjectSite::of(kind)?;
        let nth = self.early.counts.get(&(thread, site)).copied().unwrap_or(0);
        Some(Creation { thread, site, nth })
    }

    /// Notes a dereference whose targets are every object numbered so far.
    pub(crate) fn note_blind_dereference(&mut self) {
        if self.threads_on() {
            let numbered = self.objects.addressable().len();
            self.early.blind.entry(self.running_thread()).or_insert(numbered);
        }
    }

    /// The objects the next run should make early: those numbered after a
    /// blind dereference of another thread (see the module's comment).
    pub(crate) fn found_early(&self) -> HashSet<Early> {
        let mut found = HashSet::new();
        for (index, &o) in self.objects.addressable().iter().enumerate() {
            let maker = self.early.made.get(&o);
            let missed = self.early.blind.iter().any(|(&thread, &numbered)| numbered <= index && maker.is_none_or(|m| m.thread != thread));
            if !missed {
                continue;
            }
            let object = self.objects.get(o);
            match (maker, &object.kind) {
                (_, ObjectKind::Global(symbol)) if !self.program.symbols[*symbol].thread_local => {
                    found.insert(Early::Global(*symbol));
                }
                (Some(&creation), kind) if object.size_term.is_none() => {
                    found.insert(Early::Made { creation, kind: kind.clone(), name: object.name.clone(), size: object.size });
                }
                _ => {}
            }
        }
        found
    }
}
