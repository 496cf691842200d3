//! Replay of a counterexample with the IR interpreter: the inputs are fed
//! back in order, matched by kind (symex and the interpreter may interleave
//! different kinds of request differently), and the run must end in a
//! violation of the same property class at the same location (a run that
//! uses a value C leaves undefined confirms nothing). Quantifiers
//! the interpreter cannot decide by itself are put to the engine's oracle
//! (`quantifiers::replay_oracle`).

use crate::counterexample::InputValue;
use crate::quantifiers::replay_oracle::QuantifierOracle;
use crate::{Config, Counterexample};
use ir::interp::{self, InputKind, InputRequest, Outcome, QuantifierDecision, UbKind};
use ir::{Program, PropertyClass};

/// How many instructions a replay may execute (a counterexample is a
/// bounded path).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Budget {
    /// The replay whose refutation stands.
    Full,
    /// The replay of a model that a later solver call will refine anyway
    /// (its math results differ from the host library's): only a
    /// confirmation counts, and a refuted replay may run long on the
    /// host's path, once per refinement.
    Probe,
}

impl Budget {
    fn steps(self) -> u64 {
        match self {
            Budget::Full => 20_000_000,
            Budget::Probe => 1_000_000,
        }
    }
}

/// Entry arguments and environment strings are matched by name too: symex
/// builds the command line for the arguments that may exist, the
/// interpreter for those that do. Other inputs match by kind alone: the
/// two name objects and callees each in their own words.
fn same_kind(mine: &InputKind, request: &InputKind) -> bool {
    match (mine, request) {
        (InputKind::EntryArgument(mine), InputKind::EntryArgument(asked))
        | (InputKind::Environment(mine), InputKind::Environment(asked)) => mine == asked,
        _ => std::mem::discriminant(mine) == std::mem::discriminant(request),
    }
}

/// Serves the counterexample's inputs in order per kind; a request with no
/// matching value gets zero bytes (any value is a legal choice, and the
/// replay's outcome is checked anyway), one larger than its value gets the
/// value's fill byte after it (a byte array's default). Object contents
/// are not padded: the interpreter zeroes what a short answer leaves out,
/// without storing it, so a huge object costs only its explicit bytes.
struct Inputs<'a> {
    values: &'a [InputValue],
    used: Vec<bool>,
    /// Every value before this one is used (a run of 100,000 inputs would
    /// otherwise be searched from its start each time).
    first_unused: usize,
    witnesses: &'a [(ir::Loc, Vec<u8>)],
    oracle: Option<QuantifierOracle<'a>>,
}

impl<'a> Inputs<'a> {
    /// The values to feed in order, none used yet.
    fn new(values: &'a [InputValue], witnesses: &'a [(ir::Loc, Vec<u8>)], oracle: Option<QuantifierOracle<'a>>) -> Inputs<'a> {
        Inputs { values, used: vec![false; values.len()], first_unused: 0, witnesses, oracle }
    }
}

impl interp::InputProvider for Inputs<'_> {
    fn next_input(&mut self, request: &InputRequest) -> Option<Vec<u8>> {
        let size = usize::try_from(request.size).ok()?;
        let next = (self.first_unused..self.values.len()).find(|&i| !self.used[i] && same_kind(&self.values[i].kind, &request.kind));
        let (mut bytes, fill) = match next {
            Some(i) => {
                self.used[i] = true;
                while self.used.get(self.first_unused) == Some(&true) {
                    self.first_unused += 1;
                }
                (self.values[i].bytes.clone(), self.values[i].fill)
            }
            None => (Vec::new(), 0),
        };
        match request.kind {
            InputKind::Uninitialized(_) => bytes.truncate(size),
            _ => bytes.resize(size, fill),
        }
        Some(bytes)
    }

    /// Passes over the next values of the same kind and name, at most
    /// `count`: those the skipped requests would have taken (a
    /// counterexample of the interpreter's own run, which jumped too, has
    /// none of them, and the values then passed over are also of
    /// declarations whose values no iteration reads).
    fn skip_inputs(&mut self, kind: &InputKind, count: u128) {
        let mut skipped = 0;
        while skipped < count {
            let next = (self.first_unused..self.values.len()).find(|&i| !self.used[i] && same_kind(&self.values[i].kind, kind));
            match next {
                Some(i) if self.values[i].kind == *kind => self.used[i] = true,
                _ => break,
            }
            skipped += 1;
        }
        while self.used.get(self.first_unused) == Some(&true) {
            self.first_unused += 1;
        }
    }

    fn quantifier_witnesses(&mut self, loc: ir::Loc) -> Vec<Vec<u8>> {
        self.witnesses.iter().filter(|(at, _)| *at == loc).map(|(_, bytes)| bytes.clone()).collect()
    }

    fn decide_quantifier(&mut self, loc: ir::Loc, tried: &[Vec<u8>]) -> QuantifierDecision {
        match &mut self.oracle {
            Some(oracle) => oracle.decide(loc, tried),
            None => QuantifierDecision::Unknown,
        }
    }
}

/// Checks that the interpreter reaches the counterexample's violation;
/// on success returns the property class the replay established (a leak
/// found by the cleanup check is a memtrack leak when unreachable; only
/// ESBMC's leak check looks at the heap when the program aborts).
/// `model_loop_bound` is the library models' loop bound symex used.
pub(crate) fn confirm(
    program: &Program,
    cex: &Counterexample,
    config: &Config,
    model_loop_bound: Option<u64>,
    oracle: Option<QuantifierOracle<'_>>,
    budget: Budget,
) -> Result<PropertyClass, String> {
    let unwinding = cex.property.class == PropertyClass::UnwindingAssertion;
    let interp_config = interp::Config {
        step_limit: budget.steps(),
        unwinding_assertions: unwinding,
        loop_nests: match unwinding {
            true => std::sync::Arc::new(analysis::ProgramLoops::of_program(program).nests()),
            false => Default::default(),
        },
        model_loop_bound,
        addresses: cex.addresses.clone(),
        schedule: cex.schedule.clone().map(std::sync::Arc::new),
        ..interp_config(config)
    };
    let mut inputs = Inputs::new(&cex.inputs, &cex.witnesses, oracle);
    let mut run = interp::run(program, &interp_config, &mut inputs);
    let past_bound = |run: &interp::Run| config.context_bound.is_some_and(|bound| run.context_switches > bound);
    let schedule = cex.schedule.as_ref().filter(|_| past_bound(&run));
    for shorter in schedule.map(violator_alone_from).unwrap_or_default() {
        let interp_config = interp::Config { schedule: Some(std::sync::Arc::new(shorter)), ..interp_config.clone() };
        let mut inputs = Inputs::new(&cex.inputs, &cex.witnesses, None);
        let attempt = interp::run(program, &interp_config, &mut inputs);
        if !past_bound(&attempt) && reaches(&attempt.outcome, cex.loc) {
            run = attempt;
            break;
        }
    }
    if let Some(bound) = config.context_bound.filter(|_| past_bound(&run)) {
        return Err(format!("its interleaving has {} context switches, more than --context-bound {bound} allows", run.context_switches));
    }
    let expected = cex.property.class;
    let agrees = match &run.outcome {
        Outcome::Violation(v) => v.property.class == expected && v.loc == cex.loc,
        Outcome::UndefinedBehaviour { kind, loc, .. } => *loc == cex.loc && ub_matches(*kind, expected),
        Outcome::Completed(_) | Outcome::Aborted
            if expected == PropertyClass::MemoryCleanup
                && !run.unfreed_heap.is_empty()
                && (config.esbmc_memory_leak_check || config.memory_leak_checks || matches!(run.outcome, Outcome::Completed(_))) =>
        {
            let lost = run.unfreed_heap.iter().any(|block| !block.reachable);
            // SV-COMP's memtrack looks at abort only for memory lost by then.
            let aborted = matches!(run.outcome, Outcome::Aborted) && !config.esbmc_memory_leak_check;
            return match (lost, config.memory_cleanup_checks || config.esbmc_memory_leak_check) {
                (true, _) => Ok(PropertyClass::MemoryLeak),
                (false, true) if !aborted => Ok(PropertyClass::MemoryCleanup),
                (false, _) => Err("the memory left allocated where the program ends is still reachable, which is not a leak".into()),
            };
        }
        _ => false,
    };
    match (agrees, &run.outcome) {
        (true, _) => Ok(expected),
        (false, Outcome::UndefinedValue(what)) => Err(format!("it depends on {what}, whose value GCC leaves undefined")),
        (false, outcome) => Err(format!("the replay did not confirm it (the interpreter's run: {outcome})")),
    }
}

/// Shorter schedules for `schedule`, latest cut first: in each, the
/// steps of other threads after one of the violating thread's steps are
/// left out, so that it runs on to the violation alone (at most
/// [`SHORTER_SCHEDULES`] of them). The solver orders the steps the
/// violation does not depend on as it likes, and one of another thread
/// put just before the violating thread's assertion costs two context
/// switches; whether the violation is still reached without it is the
/// replay's to say.
fn violator_alone_from(schedule: &interp::Schedule) -> Vec<interp::Schedule> {
    let Some(violator) = schedule.violator else { return Vec::new() };
    let own: Vec<usize> = schedule.steps.iter().enumerate().filter(|(_, step)| step.thread == violator).map(|(at, _)| at).collect();
    let cuts = own.iter().rev().skip(1).map(|&at| at + 1).filter(|&from| schedule.steps[from..].iter().any(|step| step.thread != violator));
    cuts.take(SHORTER_SCHEDULES)
        .map(|from| {
            let mut steps = schedule.steps[..from].to_vec();
            steps.extend(schedule.steps[from..].iter().filter(|step| step.thread == violator).cloned());
            interp::Schedule { steps, violator: Some(violator) }
        })
        .collect()
}

/// Whether a run ended with a violation (or undefined behaviour) at `loc`.
fn reaches(outcome: &Outcome, loc: ir::Loc) -> bool {
    match outcome {
        Outcome::Violation(violation) => violation.loc == loc,
        Outcome::UndefinedBehaviour { loc: at, .. } => *at == loc,
        _ => false,
    }
}

/// How many shorter schedules a violation past the context bound tries.
const SHORTER_SCHEDULES: usize = 16;

/// The interpreter's settings that follow the engine's.
pub(crate) fn interp_config(config: &Config) -> interp::Config {
    interp::Config {
        malloc_may_fail: !config.force_malloc_success,
        realloc_never_fails: config.force_realloc_success,
        record_trace: false,
        unwind: config.unwind,
        alignment_checks: config.alignment_checks,
        vla_length_checks: config.vla_length_checks,
        data_race_checks: config.data_race_checks,
        deadlock_checks: config.deadlock_checks,
        ..interp::Config::default()
    }
}

/// A violation a replay reached: the class of the property and where
/// (no location for memory lost when the program ends).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    pub class: PropertyClass,
    pub loc: Option<ir::Loc>,
}

/// Runs the interpreter with the inputs `inputs` serves (a violation
/// witness's values), following `schedule` when the program starts
/// threads, and returns the violation the run reaches; the error says how
/// the run ended otherwise. Memory left allocated counts when `config`
/// checks for it, as in [`confirm`].
pub fn replay_inputs(
    program: &Program,
    config: &Config,
    schedule: Option<interp::Schedule>,
    inputs: &mut (dyn interp::InputProvider + Send),
) -> Result<Reached, String> {
    let interp_config = interp::Config { step_limit: Budget::Full.steps(), schedule: schedule.map(std::sync::Arc::new), ..interp_config(config) };
    let run = interp::run(program, &interp_config, inputs);
    if !run.unknown_functions.is_empty() {
        return Err(format!("the run calls functions whose effects are not computed ({})", run.unknown_functions.join(", ")));
    }
    match &run.outcome {
        Outcome::Violation(v) => Ok(Reached { class: v.property.class, loc: Some(v.loc) }),
        Outcome::UndefinedBehaviour { kind, loc, .. } => match kind.property_class() {
            Some(class) => Ok(Reached { class, loc: Some(*loc) }),
            None if *kind == UbKind::OutOfBounds => Ok(Reached { class: PropertyClass::ArrayBounds, loc: Some(*loc) }),
            None => Err(format!("the run ends in undefined behaviour no property checks ({})", run.outcome)),
        },
        Outcome::Completed(_) | Outcome::Aborted if config.memory_leak_checks || config.memory_cleanup_checks => {
            let lost = run.unfreed_heap.iter().any(|block| !block.reachable);
            let exited = matches!(run.outcome, Outcome::Completed(_));
            match (lost, config.memory_cleanup_checks && exited && !run.unfreed_heap.is_empty()) {
                (true, _) => Ok(Reached { class: PropertyClass::MemoryLeak, loc: None }),
                (false, true) => Ok(Reached { class: PropertyClass::MemoryCleanup, loc: None }),
                (false, false) => Err(format!("the run ends without a violation ({})", run.outcome)),
            }
        }
        outcome => Err(format!("the run ends without a violation ({outcome})")),
    }
}

fn ub_matches(kind: UbKind, expected: PropertyClass) -> bool {
    kind.property_class() == Some(expected) || (expected == PropertyClass::ArrayBounds && kind == UbKind::OutOfBounds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use interp::InputProvider;

    fn value(kind: InputKind, byte: u8) -> InputValue {
        InputValue { kind, loc: ir::Loc::NONE, ty: None, bytes: vec![byte], fill: 0, step: None }
    }

    fn request(kind: InputKind) -> InputRequest {
        InputRequest { kind, ty: None, size: 1, function: ir::FuncId(0), loc: ir::Loc::NONE }
    }

    /// Declarations a fast-forwarded loop skipped pass over their values,
    /// and no further than the values of that declaration.
    #[test]
    fn skipped_declarations_pass_over_their_own_values_only() {
        let temp = || InputKind::Uninitialized("t".into());
        let other = InputKind::Uninitialized("u".into());
        let values = [value(temp(), 1), value(InputKind::Nondet, 9), value(temp(), 2), value(temp(), 3), value(other.clone(), 4)];
        let mut inputs = Inputs::new(&values, &[], None);
        inputs.skip_inputs(&temp(), 2);
        assert_eq!(inputs.next_input(&request(temp())), Some(vec![3]));
        assert_eq!(inputs.next_input(&request(InputKind::Nondet)), Some(vec![9]));
        // Nothing of `t` is left: a skip stops at another declaration's value.
        inputs.skip_inputs(&temp(), 5);
        assert_eq!(inputs.next_input(&request(other)), Some(vec![4]));
    }
}
