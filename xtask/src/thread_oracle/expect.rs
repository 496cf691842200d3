//! The verdicts the native enumeration implies. A program's assertion
//! sites get their constants after the enumeration: for a FALSE, the
//! value of one site that the fewest executions reach (a violation under
//! a rare schedule); for a TRUE, values no execution reaches next to
//! those some do (one past the largest, a gap, or one reached only
//! beyond the bound). Then, from the reached sets:
//! - the default engine (no flags): FAILED when some execution reaches a
//!   site's constant, SUCCESSFUL when none does; asked only when the
//!   enumeration without a bound was complete;
//! - `--unwind N --no-unwinding-assertions`: FAILED exactly when some
//!   execution within the bound reaches a site's constant;
//! - `--unwind N`: FAILED on a property in the same case (or on an
//!   unwinding assertion, when some execution also reaches the bound);
//!   otherwise FAILED on an unwinding assertion exactly when some
//!   execution reaches the bound, else SUCCESSFUL;
//! - `--deadlock-check` (with constants no execution reaches, so only a
//!   deadlock can fail): FAILED on a deadlock exactly when some execution
//!   ends with every live thread blocked on a lock or a join; asked only
//!   when the enumeration without a bound was complete.

use super::native::{Exploration, Explorations};
use super::program::Program;
use crate::flow_oracle::Expected;
use crate::oracle::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    /// No flags: k-induction, tarsier's default.
    Default,
    /// `--unwind N --no-unwinding-assertions`
    Bounded,
    /// `--unwind N`
    Unwinding,
    /// `--deadlock-check` (k-induction)
    Deadlock,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Default, Mode::Bounded, Mode::Unwinding, Mode::Deadlock];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Default => "default",
            Mode::Bounded => "bounded",
            Mode::Unwinding => "unwinding",
            Mode::Deadlock => "deadlock",
        }
    }

    pub fn flags(self, bound: u32) -> Vec<String> {
        match self {
            Mode::Default => Vec::new(),
            Mode::Bounded => vec!["--unwind".into(), bound.to_string(), "--no-unwinding-assertions".into()],
            Mode::Unwinding => vec!["--unwind".into(), bound.to_string()],
            Mode::Deadlock => vec!["--deadlock-check".into()],
        }
    }
}

/// A comma-separated selection of modes by name, or `all`.
pub fn parse_modes(list: &str) -> Result<Vec<Mode>, String> {
    crate::oracle::parse_modes(list, &Mode::ALL, Mode::name)
}

/// The bounds a program is enumerated under: its bound when it has loops,
/// and no bound.
pub fn bounds_to_explore(program: &Program, bound: u32) -> Vec<u32> {
    if program.has_loops() {
        vec![bound, 0]
    } else {
        vec![0]
    }
}

/// The sites' constants and the tasks with their accepted verdicts.
pub struct Plan {
    pub constants: Vec<i64>,
    /// The constants of the deadlock task: values no execution reaches.
    pub quiet: Vec<i64>,
    pub tasks: Vec<(Mode, Vec<Expected>)>,
    /// For a FALSE: the site and a schedule that violates it.
    pub witness: Option<(usize, String)>,
}

/// Plans a program checked at `bound`; `Err` says why it cannot be
/// checked (an enumeration left incomplete).
pub fn plan(rng: &mut Rng, program: &Program, bound: u32, found: &Explorations) -> Result<Plan, String> {
    let unbounded = found.get(&0).filter(|e| e.complete);
    let at = if program.has_loops() { found.get(&bound) } else { unbounded };
    let at = at.filter(|e| e.complete).ok_or("enumeration incomplete (too many schedules or steps)")?;
    let constants = constants(rng, program.sites, at, unbounded);
    let reached = |e: &Exploration| constants.iter().enumerate().find(|&(site, &c)| e.reaches(site, c)).map(|(site, _)| site);
    let mut tasks = Vec::new();
    let mut quiet = constants.clone();
    if let Some(unbounded) = unbounded {
        tasks.push((Mode::Default, vec![if reached(unbounded).is_some() { Expected::Property } else { Expected::Successful }]));
        quiet = (0..program.sites).map(|site| unreached(rng, site, unbounded, None)).collect();
        tasks.push((Mode::Deadlock, vec![if unbounded.deadlocks > 0 { Expected::Deadlock } else { Expected::Successful }]));
    }
    if program.has_loops() {
        let violated = reached(at).is_some();
        tasks.push((Mode::Bounded, vec![if violated { Expected::Property } else { Expected::Successful }]));
        let unwinding = match (violated, at.exceeded) {
            (true, true) => vec![Expected::Property, Expected::Unwinding],
            (true, false) => vec![Expected::Property],
            (false, true) => vec![Expected::Unwinding],
            (false, false) => vec![Expected::Successful],
        };
        tasks.push((Mode::Unwinding, unwinding));
    }
    let witness = [Some(at), unbounded].into_iter().flatten().find_map(|e| {
        let site = reached(e)?;
        Some((site, e.reached[&(site, constants[site])].schedule.clone()))
    });
    Ok(Plan { constants, quiet, tasks, witness })
}

/// Each site's constant: for a FALSE (one time in two), one site gets the
/// value the fewest executions within the bound reach; every other site
/// one no execution within the bound reaches.
fn constants(rng: &mut Rng, sites: usize, at: &Exploration, unbounded: Option<&Exploration>) -> Vec<i64> {
    let reached_sites: Vec<usize> = (0..sites).filter(|&s| at.values(s).next().is_some()).collect();
    let violated = (!reached_sites.is_empty() && rng.chance(2)).then(|| rng.pick(&reached_sites));
    (0..sites)
        .map(|site| {
            if Some(site) == violated {
                let fewest = at.values(site).map(|(_, count)| count).min().unwrap_or(0);
                let rare: Vec<i64> = at.values(site).filter(|&(_, count)| count == fewest).map(|(v, _)| v).collect();
                rng.pick(&rare)
            } else {
                unreached(rng, site, at, unbounded)
            }
        })
        .collect()
}

/// A value site `site` never sees within the bound, next to those it
/// sees: reached only without the bound, in a gap, or one past the ends.
fn unreached(rng: &mut Rng, site: usize, at: &Exploration, unbounded: Option<&Exploration>) -> i64 {
    let values: Vec<i64> = at.values(site).map(|(v, _)| v).collect();
    let (Some(&low), Some(&high)) = (values.first(), values.last()) else {
        return rng.below(4) as i64;
    };
    let beyond: Vec<i64> = unbounded.map(|e| e.values(site).map(|(v, _)| v).filter(|v| !values.contains(v)).collect()).unwrap_or_default();
    if !beyond.is_empty() && rng.chance(2) {
        return rng.pick(&beyond);
    }
    let gaps: Vec<i64> = (low..high).filter(|v| !values.contains(v)).collect();
    if !gaps.is_empty() && rng.chance(2) {
        return rng.pick(&gaps);
    }
    if rng.chance(2) {
        high + 1
    } else {
        low - 1
    }
}
