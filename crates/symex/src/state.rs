//! The symbolic state: a path guard and the current value of every object
//! that has been written on this path, plus which objects are alive.
//! Objects not in the maps still have their initial value and liveness
//! (kept by the executor, so that every state agrees on them).

use crate::memory::ObjectId;
use smt::{TermId, TermStore};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

#[derive(Clone, Debug)]
pub struct State {
    pub guard: TermId,
    /// Shared between states until one of them writes (copy on write):
    /// branching is frequent, and most branches touch few objects.
    values: Rc<HashMap<ObjectId, TermId>>,
    alive: Rc<HashMap<ObjectId, TermId>>,
    /// The shared objects this path has read or written in the current
    /// step of its thread, with that step's number (see `crate::threads`).
    touched: Rc<(u32, HashSet<ObjectId>)>,
}

impl State {
    pub fn new(guard: TermId) -> State {
        State { guard, values: Rc::default(), alive: Rc::default(), touched: Rc::new((u32::MAX, HashSet::new())) }
    }
    pub fn value(&self, object: ObjectId) -> Option<TermId> {
        self.values.get(&object).copied()
    }
    pub fn set_value(&mut self, object: ObjectId, value: TermId) {
        Rc::make_mut(&mut self.values).insert(object, value);
    }
    pub fn alive(&self, object: ObjectId) -> Option<TermId> {
        self.alive.get(&object).copied()
    }
    /// The objects whose liveness this state has set, with it.
    pub fn liveness(&self) -> impl Iterator<Item = (ObjectId, TermId)> + '_ {
        self.alive.iter().map(|(&o, &t)| (o, t))
    }
    pub fn set_alive(&mut self, object: ObjectId, alive: TermId) {
        Rc::make_mut(&mut self.alive).insert(object, alive);
    }
    /// Whether this path read or wrote `object` in step `step`.
    pub fn touched_in_step(&self, step: u32, object: ObjectId) -> bool {
        self.touched.0 == step && self.touched.1.contains(&object)
    }
    /// The objects this path read or wrote in step `step`.
    pub fn touched(&self, step: u32) -> HashSet<ObjectId> {
        if self.touched.0 == step { self.touched.1.clone() } else { HashSet::new() }
    }
    pub fn touch(&mut self, step: u32, object: ObjectId) {
        let touched = Rc::make_mut(&mut self.touched);
        if touched.0 != step {
            *touched = (step, HashSet::new());
        }
        touched.1.insert(object);
    }
    pub fn with_guard(&self, guard: TermId) -> State {
        State { guard, ..self.clone() }
    }
    /// The same guard, values and liveness (terms are hash-consed, so
    /// equal ids are equal terms).
    pub fn same_as(&self, other: &State) -> bool {
        let same_map = |a: &Rc<HashMap<ObjectId, TermId>>, b: &Rc<HashMap<ObjectId, TermId>>| Rc::ptr_eq(a, b) || a == b;
        self.guard == other.guard && same_map(&self.values, &other.values) && same_map(&self.alive, &other.alive)
    }

    /// Joins `other` into `self` at a control-flow merge: each value that
    /// differs becomes `ite(other.guard, other's, self's)`. `initial_value`
    /// and `initial_alive` give what a state that never wrote an object has.
    pub fn merge(
        &mut self,
        other: State,
        store: &mut TermStore,
        initial_value: &mut dyn FnMut(&mut TermStore, ObjectId) -> TermId,
        initial_alive: &mut dyn FnMut(&mut TermStore, ObjectId) -> TermId,
    ) {
        if store.is_false(other.guard) {
            return;
        }
        if store.is_false(self.guard) {
            *self = other;
            return;
        }
        let cond = other.guard;
        let values = merge_maps(&self.values, &other.values, cond, store, initial_value);
        let alive = merge_maps(&self.alive, &other.alive, cond, store, initial_alive);
        self.values = values;
        self.alive = alive;
        self.guard = store.or2(self.guard, other.guard);
    }
}

fn merge_maps(
    mine: &Rc<HashMap<ObjectId, TermId>>,
    theirs: &Rc<HashMap<ObjectId, TermId>>,
    their_guard: TermId,
    store: &mut TermStore,
    initial: &mut dyn FnMut(&mut TermStore, ObjectId) -> TermId,
) -> Rc<HashMap<ObjectId, TermId>> {
    if Rc::ptr_eq(mine, theirs) {
        return mine.clone();
    }
    let mut merged = (**mine).clone();
    let mut keys: Vec<ObjectId> = mine.keys().chain(theirs.keys()).copied().collect();
    keys.sort_unstable();
    keys.dedup();
    for object in keys {
        let my_value = match mine.get(&object) {
            Some(&v) => v,
            None => initial(store, object),
        };
        let their_value = match theirs.get(&object) {
            Some(&v) => v,
            None => initial(store, object),
        };
        if my_value != their_value {
            merged.insert(object, store.ite(their_guard, their_value, my_value));
        } else {
            merged.insert(object, my_value);
        }
    }
    Rc::new(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use smt::Sort;

    #[test]
    fn merge_builds_ite_only_for_differing_values() {
        let mut store = TermStore::new();
        let c = store.var("c", Sort::Bool);
        let not_c = store.not(c);
        let (a, b) = (ObjectId(0), ObjectId(1));
        let one = store.bv_u64(8, 1);
        let two = store.bv_u64(8, 2);
        let mut base = State::new(store.true_term());
        base.set_value(a, one);
        let mut then = base.with_guard(c);
        then.set_value(b, two);
        let mut els = base.with_guard(not_c);
        let zero = store.bv_u64(8, 0);
        els.merge(then, &mut store, &mut |_, _| zero, &mut |s, _| s.true_term());
        assert!(store.is_true(els.guard));
        assert_eq!(els.value(a), Some(one));
        let expected = store.ite(c, two, zero);
        assert_eq!(els.value(b), Some(expected));
    }
}
