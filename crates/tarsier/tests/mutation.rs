//! Robustness on broken input. About 200 corpus sources, mutated
//! deterministically (deleted spans, inserted junk, truncation, swapped
//! lines, flipped bytes), go through `tarsier --parse-only`: none may crash
//! or hang, and every rejection must name its place (`file:line:col`, or
//! `file:line` for the system preprocessor's directive errors). Programs of
//! the BMC slice with small changes that mostly keep them valid C (a digit,
//! an operator, a deleted line) go through the whole pipeline with
//! `--timeout`: none may crash or run past its time limit.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use xtask::corpus;
use xtask::runner::Outcome;

const SOURCES: usize = 40;
const MUTATIONS_PER_SOURCE: usize = 5;
const SEED: u64 = 0x5eed_b0a7;
const JUNK: &[&str] = &["{", "}", ")", "(((", ";;", "\"", "'", "/*", "#if 1\n", "#endif\n", "int int", "\\", "[", "@", "0x", "1e", "struct {", "->", "\0", "\u{fffd}"];

/// One mutated input and how it was made.
struct Case {
    path: PathBuf,
    include_dir: PathBuf,
    how: String,
}

fn mutate(text: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let mut bytes = text.to_vec();
    let len = bytes.len().max(1);
    let at = rng.below(len).min(bytes.len());
    match rng.below(5) {
        0 => {
            let end = (at + 1 + rng.below(200)).min(bytes.len());
            bytes.drain(at..end);
            (bytes, format!("deleted bytes {at}..{end}"))
        }
        1 => {
            let junk = JUNK[rng.below(JUNK.len())];
            bytes.splice(at..at, junk.bytes());
            (bytes, format!("inserted {junk:?} at byte {at}"))
        }
        2 => {
            bytes.truncate(at);
            (bytes, format!("truncated at byte {at}"))
        }
        3 => {
            let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
            let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
            lines.swap(a, b);
            (lines.join(&b'\n'), format!("swapped lines {} and {}", a + 1, b + 1))
        }
        _ => {
            let flips: Vec<usize> = (0..1 + rng.below(4)).map(|_| rng.below(len).min(bytes.len().saturating_sub(1))).collect();
            for &i in &flips {
                if let Some(b) = bytes.get_mut(i) {
                    *b ^= 1 << rng.below(8);
                }
            }
            (bytes, format!("flipped bits at bytes {flips:?}"))
        }
    }
}

fn cases(corpus_dir: &Path, scratch: &Path) -> Vec<Case> {
    let tasks = corpus::Suite::Esbmc.load(corpus_dir).expect("the corpus manifest is readable");
    let mut rng = Rng(SEED);
    let mut cases = Vec::new();
    for (n, task) in corpus::sample(&tasks, SOURCES).iter().enumerate() {
        let Some(source) = task.input_paths(corpus_dir).into_iter().next() else { continue };
        let Ok(text) = std::fs::read(&source) else { continue };
        for m in 0..MUTATIONS_PER_SOURCE {
            let (bytes, how) = mutate(&text, &mut rng);
            let extension = source.extension().and_then(|e| e.to_str()).unwrap_or("c");
            let path = scratch.join(format!("s{n}_m{m}.{extension}"));
            std::fs::write(&path, bytes).expect("scratch file can be written");
            cases.push(Case { path, include_dir: task.dir(corpus_dir), how: format!("{} ({how})", task.id) });
        }
    }
    cases
}

/// Checks one run; returns a description of what went wrong, if anything.
fn problem(case: &Case) -> Option<String> {
    let out = run([case.path.as_os_str(), "-I".as_ref(), case.include_dir.as_os_str(), "--parse-only".as_ref()]);
    let what = match (&out.ending, exit_code(&out)) {
        (Ending::TimedOut, _) => "hang".to_string(),
        (Ending::Signaled(signal), _) => format!("killed by signal {signal}"),
        (_, Some(EXIT_SUCCESS)) => return None,
        (_, Some(EXIT_INPUT_ERROR)) => return unlocated_rejection(&out.stderr),
        (_, Some(EXIT_INTERNAL_ERROR)) => format!("internal error: {}", out.stderr.lines().next().unwrap_or("")),
        (_, code) => format!("unexpected exit code {code:?}"),
    };
    Some(what)
}

/// Errors about the program as a whole, which have no place to point at:
/// a missing entry function (truncation often removes `main`), and the
/// message of a front-end stage that is not built yet.
const WHOLE_PROGRAM_ERRORS: &[&str] = &["entry function", "not built yet"];

/// A rejection must point at a place, unless it is about the whole program.
fn unlocated_rejection(stderr: &str) -> Option<String> {
    let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error:")).collect();
    let located = stderr.lines().any(names_line);
    let whole_program = errors.iter().all(|l| WHOLE_PROGRAM_ERRORS.iter().any(|e| l.contains(e)));
    match (errors.first(), located || whole_program) {
        (None, _) => Some("rejected without an error message".into()),
        (Some(_), true) => None,
        (Some(first), false) => Some(format!("error without a location: {first}")),
    }
}

#[test]
fn mutated_corpus_inputs_never_crash_or_hang() {
    let Some(corpus_dir) = corpus::Suite::Esbmc.locate() else {
        println!("SKIP mutated_corpus_inputs_never_crash_or_hang: corpus not found (../shared/corpus or TARSIER_CORPUS)");
        return;
    };
    let scratch = scratch_dir("mutation");
    let cases = cases(&corpus_dir, &scratch);
    assert!(cases.len() >= SOURCES * MUTATIONS_PER_SOURCE * 9 / 10, "only {} mutated inputs", cases.len());
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let problems: Vec<String> = xtask::runner::parallel_map(&cases, jobs, |case| problem(case).map(|what| format!("{}: {what}\n    from {}", case.path.display(), case.how)), |_| {})
        .into_iter()
        .flatten()
        .collect();
    println!("{} mutated inputs, {} problems", cases.len(), problems.len());
    assert!(problems.is_empty(), "{} of {} mutated inputs went wrong:\n{}", problems.len(), cases.len(), problems.join("\n"));
}

const VERIFIED_SOURCES: usize = 30;
const VERIFIED_MUTATIONS_PER_SOURCE: usize = 2;
/// tarsier's own limit; the runner's is larger, so a run past it is a hang.
const VERIFY_TIMEOUT_SECONDS: u64 = 5;
const HANG_LIMIT: std::time::Duration = std::time::Duration::from_secs(40);
const OPERATORS: &[u8] = b"+-*/%<>&|^!=";

/// A change that usually keeps the program valid C but changes its meaning.
fn mutate_meaning(text: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let mut bytes = text.to_vec();
    let positions = |pick: &dyn Fn(u8) -> bool| -> Vec<usize> { (0..bytes.len()).filter(|&i| pick(bytes[i])).collect() };
    let (candidates, replacements): (Vec<usize>, &[u8]) = match rng.below(3) {
        0 => (positions(&|b: u8| b.is_ascii_digit()), b"0123456789"),
        1 => (positions(&|b: u8| OPERATORS.contains(&b)), OPERATORS),
        _ => (positions(&|b: u8| b == b'\n'), b"\n"),
    };
    let Some(&at) = candidates.get(rng.below(candidates.len().max(1))) else { return (bytes, "unchanged".into()) };
    if bytes[at] == b'\n' {
        let end = bytes[at + 1..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |n| at + 1 + n);
        bytes.drain(at..end);
        return (bytes, format!("deleted the line after byte {at}"));
    }
    let new = replacements[rng.below(replacements.len())];
    let old = std::mem::replace(&mut bytes[at], new);
    (bytes, format!("replaced {:?} by {:?} at byte {at}", old as char, new as char))
}

#[test]
fn mutated_programs_verify_without_crash_or_hang() {
    let Some(corpus_dir) = corpus::Suite::Esbmc.locate() else {
        println!("SKIP mutated_programs_verify_without_crash_or_hang: corpus not found (../shared/corpus or TARSIER_CORPUS)");
        return;
    };
    let scratch = scratch_dir("mutation-verify");
    let manifest = corpus::Suite::Esbmc.load(&corpus_dir).expect("the corpus manifest is readable");
    let slice: Vec<corpus::Task> = manifest.into_iter().filter(corpus::Task::in_bmc_slice).collect();
    let mut rng = Rng(SEED);
    let (mut tasks, mut hows) = (Vec::new(), Vec::new());
    for (n, task) in corpus::sample(&slice, VERIFIED_SOURCES).iter().enumerate() {
        let Some(source) = task.input_paths(&corpus_dir).into_iter().next() else { continue };
        let Ok(text) = std::fs::read(&source) else { continue };
        for m in 0..VERIFIED_MUTATIONS_PER_SOURCE {
            let (bytes, how) = mutate_meaning(&text, &mut rng);
            let path = scratch.join(format!("v{n}_m{m}.c"));
            std::fs::write(&path, bytes).expect("scratch file can be written");
            let mut mutant = task.clone();
            hows.push(format!("{} ({how})", path.display()));
            mutant.files[0] = path.display().to_string();
            mutant.extra_flags.push(format!("--timeout {VERIFY_TIMEOUT_SECONDS}"));
            tasks.push(mutant);
        }
    }
    let opts = xtask::runner::RunOptions {
        binary: PathBuf::from(env!("CARGO_BIN_EXE_tarsier")),
        parse_only: false,
        timeout: HANG_LIMIT,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        extra_args: Vec::new(),
    };
    let results = xtask::runner::run_tasks(&corpus_dir, &tasks, &opts, |_| {});
    let problems: Vec<String> = results
        .iter()
        .zip(&hows)
        .filter(|(r, _)| matches!(r.outcome, Outcome::Crash(_) | Outcome::Timeout))
        .map(|(r, how)| format!("{} from {how}: {}", r.task.id, r.outcome.reason().unwrap_or("ran past its --timeout")))
        .collect();
    let verdicts = results.iter().filter(|r| matches!(r.outcome, Outcome::Successful | Outcome::Failed)).count();
    println!("{} mutated programs verified: {verdicts} verdicts, {} problems", results.len(), problems.len());
    assert!(problems.is_empty(), "{} of {} mutated programs went wrong:\n{}", problems.len(), results.len(), problems.join("\n"));
}

#[test]
fn mutations_are_deterministic_and_change_the_text() {
    let text = b"int main(void) {\n  return 0;\n}\n";
    let (mut a, mut b) = (Rng(SEED), Rng(SEED));
    for _ in 0..50 {
        let (x, how_x) = mutate(text, &mut a);
        let (y, how_y) = mutate(text, &mut b);
        assert_eq!((x, how_x), (y, how_y));
    }
    let mut rng = Rng(SEED);
    let changed = (0..50).filter(|_| mutate(text, &mut rng).0 != text).count();
    assert!(changed > 40, "only {changed} of 50 mutations changed the text");
}
