//! The bytes of a shared object that no step changes: every write of the
//! object writes them back as its step read them (a store into one field
//! of a struct, a lock's atomic step that sets two of a mutex's words).
//! Each read then sees them as they were when the entry function started,
//! by induction along the clocks (the step's read comes from an earlier
//! write or the initial value), so the read-from equalities of the threads'
//! encoding need only compare the other bytes: a mutex of 40 bytes whose
//! lock changes 20 of them costs half the equality.
//!
//! The writes are recognised by their terms (slices, concatenations and
//! choices down to the step's read), and a write whose guard does not
//! imply its step's read's guard (then that read might not happen and its
//! value be anything) keeps no byte.

use crate::threads::Event;
use smt::{Op, Sort, TermId, TermStore};
use std::collections::HashMap;

/// How deep the terms are followed before a byte counts as changed.
const MAX_DEPTH: u32 = 64;

/// For each byte of an object of `bytes` bytes, whether every write of
/// `events` (a step's writes made one, see `threads::merge_step_writes`)
/// keeps it as its step read it. `None` for a value that is not one
/// bit-vector or when no byte is kept.
pub(crate) fn kept_bytes(store: &TermStore, events: &[Event]) -> Option<Vec<bool>> {
    let first = events.first()?;
    let Sort::BitVec(bits) = store.sort(first.value) else { return None };
    let mut kept = vec![bits % 8 == 0; (bits / 8) as usize];
    let reads: HashMap<u32, &Event> = events.iter().filter(|e| !e.write).map(|e| (e.step, e)).collect();
    for write in events.iter().filter(|e| e.write) {
        let read = reads.get(&write.step)?;
        if !implies(store, write.guard, read.guard, 0) {
            return None;
        }
        let mut memo = HashMap::new();
        for (byte, keep) in kept.iter_mut().enumerate().filter(|(_, keep)| **keep) {
            let lo = byte as u32 * 8;
            *keep = same_bits(store, write.value, lo + 7, lo, read.value, lo, &mut memo, 0);
        }
    }
    kept.iter().any(|&k| k).then_some(kept)
}

/// Whether `a` implies `b`, as the terms show (`a` a conjunction with a
/// part that implies `b`, a disjunction whose every part does).
fn implies(store: &TermStore, a: TermId, b: TermId, depth: u32) -> bool {
    if a == b || store.is_true(b) || store.is_false(a) {
        return true;
    }
    if depth >= MAX_DEPTH {
        return false;
    }
    match store.op(a) {
        Some(Op::And) => store.args(a).iter().any(|&part| implies(store, part, b, depth + 1)),
        Some(Op::Or) => store.args(a).iter().all(|&part| implies(store, part, b, depth + 1)),
        _ => false,
    }
}

/// Whether bits `hi..=lo` of `value` are bits `base_lo..` of `base` (the
/// same number of them), as the terms show.
#[allow(clippy::too_many_arguments)]
fn same_bits(
    store: &TermStore,
    value: TermId,
    hi: u32,
    lo: u32,
    base: TermId,
    base_lo: u32,
    memo: &mut HashMap<(TermId, u32, u32, u32), bool>,
    depth: u32,
) -> bool {
    if value == base {
        return lo == base_lo;
    }
    if depth >= MAX_DEPTH {
        return false;
    }
    if let Some(&known) = memo.get(&(value, hi, lo, base_lo)) {
        return known;
    }
    let args = store.args(value);
    let same = match store.op(value) {
        Some(Op::Extract { lo: inner, .. }) => same_bits(store, args[0], hi + inner, lo + inner, base, base_lo, memo, depth + 1),
        Some(Op::Concat) => {
            let (high, low) = (args[0], args[1]);
            let low_width = store.sort(low).bv_width().expect("bit-vector");
            if hi < low_width {
                same_bits(store, low, hi, lo, base, base_lo, memo, depth + 1)
            } else if lo >= low_width {
                same_bits(store, high, hi - low_width, lo - low_width, base, base_lo, memo, depth + 1)
            } else {
                same_bits(store, low, low_width - 1, lo, base, base_lo, memo, depth + 1)
                    && same_bits(store, high, hi - low_width, 0, base, base_lo + (low_width - lo), memo, depth + 1)
            }
        }
        Some(Op::Ite) => {
            let (then, otherwise) = (args[1], args[2]);
            same_bits(store, then, hi, lo, base, base_lo, memo, depth + 1)
                && same_bits(store, otherwise, hi, lo, base, base_lo, memo, depth + 1)
        }
        _ => false,
    };
    memo.insert((value, hi, lo, base_lo), same);
    same
}

/// `value` without its kept bytes (its changing bytes, concatenated), or
/// `None` when every byte is kept.
pub(crate) fn changing_part(store: &mut TermStore, value: TermId, kept: &[bool]) -> Option<TermId> {
    slices(store, value, kept, false)
}

/// `value`'s kept bytes, concatenated (`None` when there are none).
pub(crate) fn kept_part(store: &mut TermStore, value: TermId, kept: &[bool]) -> Option<TermId> {
    slices(store, value, kept, true)
}

/// The runs of bytes whose `kept` is `which`, lowest first, concatenated.
fn slices(store: &mut TermStore, value: TermId, kept: &[bool], which: bool) -> Option<TermId> {
    let mut result: Option<TermId> = None;
    let mut byte = 0;
    while byte < kept.len() {
        if kept[byte] != which {
            byte += 1;
            continue;
        }
        let start = byte;
        while byte < kept.len() && kept[byte] == which {
            byte += 1;
        }
        let slice = store.extract(byte as u32 * 8 - 1, start as u32 * 8, value);
        result = Some(match result {
            Some(lower) => store.concat(slice, lower),
            None => slice,
        });
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_into_one_field_keeps_the_other_bytes() {
        let mut store = TermStore::new();
        let read = store.var("m#read", Sort::BitVec(32));
        let new = store.var("v", Sort::BitVec(8));
        let high = store.extract(31, 8, read);
        let written = store.concat(high, new);
        let guard = store.var("g", Sort::Bool);
        let other = store.var("h", Sort::Bool);
        let path = store.and2(guard, other);
        let choice = store.ite(path, written, read);
        let events = [event(read, guard, 0, false), event(choice, path, 0, true)];
        assert_eq!(kept_bytes(&store, &events), Some(vec![false, true, true, true]));
        let changing = changing_part(&mut store, choice, &[false, true, true, true]).expect("a byte changes");
        assert_eq!(store.sort(changing), Sort::BitVec(8));
        let kept = kept_part(&mut store, read, &[false, true, false, true]).expect("bytes are kept");
        assert_eq!(store.sort(kept), Sort::BitVec(16));
    }

    #[test]
    fn nothing_is_kept_when_the_read_may_not_happen_or_a_write_has_no_read() {
        let mut store = TermStore::new();
        let read = store.var("m#read", Sort::BitVec(16));
        let new = store.var("v", Sort::BitVec(8));
        let high = store.extract(15, 8, read);
        let written = store.concat(high, new);
        let (g, h) = (store.var("g", Sort::Bool), store.var("h", Sort::Bool));
        assert_eq!(kept_bytes(&store, &[event(read, g, 0, false), event(written, h, 0, true)]), None);
        assert_eq!(kept_bytes(&store, &[event(read, g, 0, false), event(written, g, 1, true)]), None);
        let whole = store.var("w", Sort::BitVec(16));
        assert_eq!(kept_bytes(&store, &[event(read, g, 0, false), event(whole, g, 0, true)]), None);
    }

    fn event(value: TermId, guard: TermId, step: u32, write: bool) -> Event {
        Event::for_test(value, guard, step, write)
    }
}
