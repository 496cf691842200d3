//! The machinery shared by the differential oracles (`fp-oracle`,
//! `c-oracle`, `flow-oracle`): a seeded generator, building and running a
//! native batch program with gcc, running tarsier on a generated task,
//! scoring its answer against the verdict the host machine implies, and
//! reporting wrong answers and the reasons for UNKNOWN.

use crate::process::{run_with_timeout, Ending};
use crate::runner::{classify, Outcome};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A comma-separated selection of `all`'s modes by `name`, or `all`.
pub fn parse_modes<M: Copy>(list: &str, all: &[M], name: fn(M) -> &'static str) -> Result<Vec<M>, String> {
    if list == "all" {
        return Ok(all.to_vec());
    }
    list.split(',')
        .map(|word| {
            all.iter().copied().find(|&m| name(m) == word).ok_or_else(|| {
                let known: Vec<&str> = all.iter().map(|&m| name(m)).collect();
                format!("unknown mode '{word}' (known: {}, all)", known.join(","))
            })
        })
        .collect()
}

/// Options of an oracle that generates programs and checks each at a
/// bound in several modes (`flow-oracle`, `thread-oracle`; `M` is its
/// mode type).
pub struct ProgramOracleOptions<M> {
    pub programs: usize,
    pub seed: u64,
    /// The largest unwinding bound a program is checked at (each gets one
    /// from 1 to this).
    pub max_bound: u32,
    /// The ways tarsier is run on each program.
    pub modes: Vec<M>,
    pub jobs: usize,
    pub timeout: Duration,
    pub tarsier: Option<PathBuf>,
}

/// A seeded SplitMix64 generator: the same seed gives the same cases.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `bound` (which must be positive).
    pub fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound
    }

    pub fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// Writes `text` to `dir/native.c`, compiles it with gcc (`$CC`) and
/// `flags` (placed after the source, so libraries link), runs it once
/// within `limit` and returns what it printed.
pub fn run_native(text: &str, dir: &Path, flags: &[&str], limit: Duration) -> Result<String, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let source = dir.join("native.c");
    let exe = dir.join("native");
    std::fs::write(&source, text).map_err(|e| format!("{}: {e}", source.display()))?;
    let compiler = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let mut compile = Command::new(&compiler);
    compile.arg("-o").arg(&exe).arg(&source).args(flags);
    let out = run_with_timeout(&mut compile, Duration::from_secs(600)).map_err(|e| format!("cannot run {compiler}: {e}"))?;
    if out.ending != Ending::Exited(0) {
        return Err(format!("{compiler} failed on {}: {:?}\n{}", source.display(), out.ending, out.stderr));
    }
    let out = run_with_timeout(&mut Command::new(&exe), limit).map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if out.ending != Ending::Exited(0) {
        return Err(format!("{} ended with {:?}", exe.display(), out.ending));
    }
    Ok(out.stdout)
}

/// How tarsier answered one task, scored against the expected verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Score {
    Correct,
    Wrong,
    Unknown,
    Timeout,
    /// A crash or a front-end rejection.
    Error,
}

pub fn score(outcome: &Outcome, expect_true: bool) -> Score {
    match outcome {
        Outcome::Successful if expect_true => Score::Correct,
        Outcome::Failed if !expect_true => Score::Correct,
        Outcome::Successful | Outcome::Failed => Score::Wrong,
        Outcome::Unknown(_) => Score::Unknown,
        Outcome::Timeout => Score::Timeout,
        Outcome::Accepted | Outcome::Rejected(_) | Outcome::Crash(_) => Score::Error,
    }
}

/// How many of `scores` are of each [`Score`] (indexed by `Score as usize`).
pub fn score_counts(scores: &[Score]) -> [usize; 5] {
    let mut counts = [0; 5];
    for &score in scores {
        counts[score as usize] += 1;
    }
    counts
}

/// One line of a native harness's output: `KIND program bound fields...`.
pub struct NativeRecord<'a> {
    pub kind: &'a str,
    pub program: usize,
    pub bound: u32,
    words: Vec<&'a str>,
    line: (usize, &'a str),
}

impl<'a> NativeRecord<'a> {
    /// Its number of words, the kind, program and bound included.
    pub fn word_count(&self) -> usize {
        self.words.len()
    }

    /// Word `k` (the kind is word 0).
    pub fn word(&self, k: usize) -> &'a str {
        self.words.get(k).copied().unwrap_or("")
    }

    /// Word `k` as an integer.
    pub fn field(&self, k: usize) -> Result<i64, String> {
        self.words.get(k).and_then(|w| w.parse::<i64>().ok()).ok_or_else(|| self.malformed())
    }

    /// The error for a line the reader does not expect.
    pub fn malformed(&self) -> String {
        format!("native output line {}: malformed '{}'", self.line.0 + 1, self.line.1)
    }
}

/// The records of a harness's output about `count` programs, each checked
/// for a known program and a bound.
pub fn native_records(text: &str, count: usize) -> impl Iterator<Item = Result<NativeRecord<'_>, String>> {
    text.lines().enumerate().map(move |line| {
        let words: Vec<&str> = line.1.split_whitespace().collect();
        let mut record = NativeRecord { kind: words.first().copied().unwrap_or(""), program: 0, bound: 0, words, line };
        record.program = usize::try_from(record.field(1)?).ok().filter(|&p| p < count).ok_or_else(|| record.malformed())?;
        record.bound = u32::try_from(record.field(2)?).map_err(|_| record.malformed())?;
        Ok(record)
    })
}

/// One generated verification task: the program file of case `case` and
/// the verdict the host machine implies for it.
pub struct Task {
    pub case: usize,
    pub path: PathBuf,
    pub expect_true: bool,
}

/// Runs tarsier on one task, with `flags` added to its defaults.
pub fn run_tarsier(binary: &Path, task: &Path, flags: &[String], timeout: Duration) -> Outcome {
    match run_with_timeout(Command::new(binary).arg(task).args(flags), timeout) {
        Ok(out) => classify(&out, false),
        Err(err) => Outcome::Crash(format!("cannot run {}: {err}", binary.display())),
    }
}

/// Lists the wrong answers and copies their tasks to `wrong_dir` (emptied
/// first, so it holds exactly this run's).
pub fn report_wrong(wrong: &[&Task], wrong_dir: &Path) -> Result<(), String> {
    fresh_dir(wrong_dir)?;
    if wrong.is_empty() {
        println!("no wrong answers");
        return Ok(());
    }
    println!("WRONG answers (soundness bugs), copied to {}:", wrong_dir.display());
    for task in wrong {
        let name = task.path.file_name().unwrap_or_default();
        let copy = wrong_dir.join(name);
        std::fs::copy(&task.path, &copy).map_err(|e| format!("{}: {e}", copy.display()))?;
        let expected = if task.expect_true { "TRUE" } else { "FALSE" };
        println!("  {} (expected {expected})", copy.display());
    }
    Ok(())
}

/// Creates `dir` empty, so no file of an earlier run is mistaken for one
/// of this run.
pub fn fresh_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))
}

/// The most frequent reasons for UNKNOWN and errors, so the table says why.
pub fn unknown_reasons(outcomes: &[Outcome]) -> String {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for outcome in outcomes {
        if let Some(reason) = outcome.reason() {
            *counts.entry(format!("{}: {}", outcome.kind(), without_location(reason))).or_default() += 1;
        }
    }
    let mut ranked: Vec<(String, usize)> = counts.into_iter().collect();
    ranked.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
    let mut text = String::new();
    for (reason, count) in ranked.iter().take(8) {
        let _ = writeln!(text, "{count:>6}  {reason}");
    }
    text
}

/// A reason without its leading `file.c:line:col: `, so that the same
/// reason from different tasks is counted once.
fn without_location(reason: &str) -> &str {
    match reason.split_once(": ") {
        Some((head, tail)) if head.contains(".c:") && head.ends_with(|c: char| c.is_ascii_digit()) => tail,
        _ => reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_scored_against_the_expected_verdict() {
        assert_eq!(score(&Outcome::Successful, true), Score::Correct);
        assert_eq!(score(&Outcome::Failed, false), Score::Correct);
        assert_eq!(score(&Outcome::Failed, true), Score::Wrong);
        assert_eq!(score(&Outcome::Successful, false), Score::Wrong);
        assert_eq!(score(&Outcome::Unknown("x".into()), true), Score::Unknown);
        assert_eq!(score(&Outcome::Timeout, false), Score::Timeout);
        assert_eq!(score(&Outcome::Crash("x".into()), false), Score::Error);
    }

    #[test]
    fn reasons_are_counted_without_their_location() {
        assert_eq!(without_location("/t/add-float-rup-1-same.c:18:3: unsupported: `fesetround`"), "unsupported: `fesetround`");
        assert_eq!(without_location("unsupported: x: y"), "unsupported: x: y");
    }
}
