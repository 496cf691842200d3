//! The verdicts the native enumeration implies. A program is checked at
//! one unwinding bound N; its assertion sites' constants are chosen after
//! the enumeration, where a wrong bound shows: a value first reached at
//! bound N (a violation one iteration deep), a value reached only at N+1
//! or without a bound (just out of reach), or a value no execution
//! reaches. The expected verdict is then computed from the reached sets,
//! whatever the choice meant to do:
//! - `--unwind N --no-unwinding-assertions`: FAILED exactly when some
//!   site reaches its constant within the bound, else SUCCESSFUL;
//! - `--unwind N`: FAILED on a property in the same case; otherwise
//!   FAILED on an unwinding assertion exactly when some execution reaches
//!   the bound (tarsier asks for property violations first, on the paths
//!   cut at the bound), else SUCCESSFUL;
//! - `--incremental-bmc` and `--k-induction` (unbounded): FAILED when an
//!   execution within one of the small bounds enumerated reaches a site's
//!   constant, or when every execution was enumerated without a bound,
//!   ends within bound 64, and one reaches it; SUCCESSFUL when none of
//!   those does; else not asked (a violation deeper than bound 64 is out
//!   of incremental BMC's reach).

use super::native::{Exploration, Explorations};
use crate::oracle::Rng;

/// The largest bound incremental BMC is given (`--max-k-step`).
pub const INCREMENTAL_MAX_BOUND: u64 = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    /// `--unwind N --no-unwinding-assertions`
    Bounded,
    /// `--unwind N`
    Unwinding,
    /// `--incremental-bmc`
    Incremental,
    /// `--k-induction`
    KInduction,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Expected {
    Successful,
    /// FAILED on an assertion site.
    Property,
    /// FAILED on an unwinding assertion.
    Unwinding,
    /// FAILED on a deadlock (`--deadlock-check`).
    Deadlock,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Bounded, Mode::Unwinding, Mode::Incremental, Mode::KInduction];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Bounded => "bounded",
            Mode::Unwinding => "unwinding",
            Mode::Incremental => "incremental",
            Mode::KInduction => "k-induction",
        }
    }

    pub fn flags(self, bound: u32) -> Vec<String> {
        match self {
            Mode::Bounded => vec!["--unwind".into(), bound.to_string(), "--no-unwinding-assertions".into()],
            Mode::Unwinding => vec!["--unwind".into(), bound.to_string()],
            Mode::Incremental => vec!["--incremental-bmc".into(), "--max-k-step".into(), INCREMENTAL_MAX_BOUND.to_string()],
            Mode::KInduction => vec!["--k-induction".into(), "--max-k-step".into(), INCREMENTAL_MAX_BOUND.to_string()],
        }
    }
}

/// A comma-separated selection of modes by name, or `all`.
pub fn parse_modes(list: &str) -> Result<Vec<Mode>, String> {
    crate::oracle::parse_modes(list, &Mode::ALL, Mode::name)
}

impl Expected {
    pub fn name(self) -> &'static str {
        match self {
            Expected::Successful => "SUCCESSFUL",
            Expected::Property => "FAILED (assertion)",
            Expected::Unwinding => "FAILED (unwinding assertion)",
            Expected::Deadlock => "FAILED (deadlock)",
        }
    }
}

/// The bounds a program checked at bound `bound` is enumerated under.
pub fn bounds_to_explore(bound: u32) -> Vec<u32> {
    let mut bounds: Vec<u32> = (bound.saturating_sub(1).max(1)..=bound + 1).collect();
    bounds.push(0);
    bounds
}

/// The constants of a program's sites and the tasks with the verdicts
/// they accept (one, or two when the head of an irreducible loop changes
/// the count).
#[derive(Debug, PartialEq, Eq)]
pub struct Plan {
    pub constants: Vec<i64>,
    pub tasks: Vec<(Mode, Vec<Expected>)>,
}

/// Plans the tasks of a program with `sites` assertion sites checked at
/// `bound`, or says why it cannot be checked. `other_head` is the
/// enumeration with the other head of its irreducible loop, if it has one.
pub fn plan(rng: &mut Rng, sites: usize, bound: u32, explorations: &Explorations, other_head: Option<&Explorations>) -> Result<Plan, String> {
    let at = complete_at(explorations, bound)?;
    let empty = Exploration::default();
    let before = if bound > 1 { explorations.get(&(bound - 1)).unwrap_or(&empty) } else { &empty };
    let beyond: Vec<&Exploration> = [bound + 1, 0].iter().filter_map(|b| explorations.get(b)).collect();
    let mut constants: Vec<i64> = (0..sites).map(|site| near_miss(rng, site, at, &beyond)).collect();
    if rng.chance(2) {
        if let Some((site, value)) = violation(rng, at, before) {
            constants[site] = value;
        }
    }
    let mut tasks: Vec<(Mode, Vec<Expected>)> = bounded_tasks(&constants, at).into_iter().map(|(mode, e)| (mode, vec![e])).collect();
    if let Some(other) = other_head {
        let other_tasks = bounded_tasks(&constants, complete_at(other, bound)?);
        for ((_, accepted), (_, expected)) in tasks.iter_mut().zip(other_tasks) {
            if !accepted.contains(&expected) {
                accepted.push(expected);
            }
        }
    }
    if let Some(expected) = unbounded_verdict(&constants, explorations) {
        tasks.extend([Mode::Incremental, Mode::KInduction].map(|mode| (mode, vec![expected])));
    }
    Ok(Plan { constants, tasks })
}

fn complete_at(explorations: &Explorations, bound: u32) -> Result<&Exploration, String> {
    let at = explorations.get(&bound).ok_or("no enumeration at the bound")?;
    if !at.complete {
        return Err(format!("too many executions within bound {bound} (enumerated {})", at.runs));
    }
    Ok(at)
}

/// A (site, value) reached within the bound, preferring one first reached
/// at this bound (one iteration more than the bound before allows), then
/// one of a site that sees several values (so some path leads to it and
/// another does not).
fn violation(rng: &mut Rng, at: &Exploration, before: &Exploration) -> Option<(usize, i64)> {
    let new: Vec<(usize, i64)> = at.reached.iter().copied().filter(|&(site, v)| !before.reaches(site, v)).collect();
    if !new.is_empty() && !rng.chance(3) {
        return Some(rng.pick(&new));
    }
    let varied: Vec<(usize, i64)> = at.reached.iter().copied().filter(|&(site, _)| at.values(site).nth(1).is_some()).collect();
    if !varied.is_empty() && !rng.chance(4) {
        return Some(rng.pick(&varied));
    }
    let all: Vec<(usize, i64)> = at.reached.iter().copied().collect();
    (!all.is_empty()).then(|| rng.pick(&all))
}

/// A constant site `site` does not reach within the bound: one reached
/// just beyond it when there is one, else one next to the reached values.
fn near_miss(rng: &mut Rng, site: usize, at: &Exploration, beyond: &[&Exploration]) -> i64 {
    let later: Vec<i64> = beyond.iter().flat_map(|e| e.values(site)).filter(|&v| !at.reaches(site, v)).collect();
    if !later.is_empty() && !rng.chance(3) {
        return rng.pick(&later);
    }
    let values: Vec<i64> = at.values(site).collect();
    let (low, high) = (values.first().copied().unwrap_or(0), values.last().copied().unwrap_or(0));
    let candidates: Vec<i64> = (low - 2..=high + 2).filter(|&v| !at.reaches(site, v)).collect();
    rng.pick(&candidates)
}

fn fails(constants: &[i64], e: &Exploration) -> bool {
    constants.iter().enumerate().any(|(site, &k)| e.reaches(site, k))
}

/// The bounded tasks and their verdicts, from the sets reached within the
/// bound.
fn bounded_tasks(constants: &[i64], at: &Exploration) -> [(Mode, Expected); 2] {
    let within = fails(constants, at);
    [
        (Mode::Bounded, if within { Expected::Property } else { Expected::Successful }),
        (Mode::Unwinding, if within { Expected::Property } else if at.exceeded { Expected::Unwinding } else { Expected::Successful }),
    ]
}

/// The verdict without a bound, when the enumerations imply one: a
/// violation within one of the small bounds enumerated, or within a
/// complete enumeration whose executions end within bound 64, where
/// incremental BMC looks; no violation at all in the latter.
fn unbounded_verdict(constants: &[i64], explorations: &Explorations) -> Option<Expected> {
    let decided = explorations.get(&0).filter(|e| decidable_incrementally(e));
    let bounded = explorations.iter().filter(|(&bound, _)| bound > 0).map(|(_, e)| e);
    if bounded.chain(decided).any(|e| fails(constants, e)) {
        return Some(Expected::Property);
    }
    decided.map(|_| Expected::Successful)
}

/// Whether incremental BMC reaches a bound past every execution: all were
/// enumerated, and their loops and recursion fit under its last bound.
fn decidable_incrementally(unbounded: &Exploration) -> bool {
    unbounded.complete && unbounded.max_iterations < INCREMENTAL_MAX_BOUND && unbounded.max_depth <= INCREMENTAL_MAX_BOUND
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn exploration(reached: &[(usize, i64)], exceeded: bool) -> Exploration {
        Exploration { runs: 4, complete: true, exceeded, max_iterations: 2, max_depth: 1, reached: reached.iter().copied().collect() }
    }

    #[test]
    fn verdicts_follow_the_reached_sets() {
        let at = exploration(&[(0, 3), (1, 5)], true);
        assert_eq!(bounded_tasks(&[3, 0], &at), [(Mode::Bounded, Expected::Property), (Mode::Unwinding, Expected::Property)]);
        assert_eq!(bounded_tasks(&[4, 0], &at), [(Mode::Bounded, Expected::Successful), (Mode::Unwinding, Expected::Unwinding)]);
        let all = exploration(&[(0, 3), (0, 4), (1, 5)], false);
        let explorations: Explorations = [(2, at), (0, all.clone())].into();
        assert_eq!(unbounded_verdict(&[4, 0], &explorations), Some(Expected::Property));
        assert_eq!(unbounded_verdict(&[9, 9], &explorations), Some(Expected::Successful));
        let unfinished: Explorations = [(2, exploration(&[(0, 3)], true)), (0, Exploration { complete: false, ..all })].into();
        assert_eq!(unbounded_verdict(&[9, 9], &unfinished), None, "no verdict without every execution");
        assert_eq!(unbounded_verdict(&[3, 9], &unfinished), Some(Expected::Property), "a violation within a bound is one");
        assert_eq!(unbounded_verdict(&[4, 9], &unfinished), None, "a violation found past the step budget may be deeper than bound 64");
    }

    #[test]
    fn plans_need_a_complete_enumeration_at_the_bound() {
        let mut explorations: Explorations = BTreeMap::new();
        explorations.insert(2, Exploration { complete: false, ..exploration(&[], false) });
        assert!(plan(&mut Rng::new(1), 1, 2, &explorations, None).unwrap_err().contains("too many executions"));
        explorations.insert(2, exploration(&[(0, 1), (0, 2)], true));
        explorations.insert(1, exploration(&[(0, 1)], false));
        for seed in 0..50 {
            let plan = plan(&mut Rng::new(seed), 1, 2, &explorations, None).unwrap();
            let fails = [1, 2].contains(&plan.constants[0]);
            assert_eq!(plan.tasks[0].1 == [Expected::Property], fails, "{plan:?}");
        }
    }

    #[test]
    fn bounds_around_the_checked_one_and_none() {
        assert_eq!(bounds_to_explore(1), vec![1, 2, 0]);
        assert_eq!(bounds_to_explore(3), vec![2, 3, 4, 0]);
    }
}
