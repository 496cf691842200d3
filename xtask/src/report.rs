//! Scores corpus results and prints them: counts per suite and mode, time
//! totals and medians, wrong verdicts, crashes, the most common reasons for
//! UNKNOWN or rejection; saves them as JSON and prints the changes since the
//! previous saved run of the same kind.

use crate::corpus::Suite;
use crate::runner::{Outcome, TaskResult};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The score of one result against the task's expected verdict. An
/// SV-COMP task's FALSE must name the expected part of its property
/// (`FALSE(valid-free)` where valid-deref fails is wrong).
pub fn category(result: &TaskResult, parse_only: bool) -> &'static str {
    let expected = result.task.expected.as_str();
    let expected_violation = || result.task.property.as_ref().is_none_or(|p| p.expects_violation(result.svcomp.as_deref()));
    match (&result.outcome, parse_only) {
        (Outcome::Accepted, _) => "accepted",
        (Outcome::Rejected(_), true) => "rejected",
        (Outcome::Crash(_), true) => "crash",
        (Outcome::Timeout, true) => "hang",
        (Outcome::Successful, _) if expected == "true" => "correct",
        (Outcome::Failed, _) if expected == "false" && expected_violation() => "correct",
        (Outcome::Successful | Outcome::Failed, _) if expected == "unknown" => "unscored",
        (Outcome::Successful | Outcome::Failed, false) if is_disputed(result) => "disputed",
        (Outcome::Successful | Outcome::Failed, _) => "wrong",
        (Outcome::Unknown(_), _) => "unknown",
        (Outcome::Timeout, false) => "timeout",
        (Outcome::Rejected(_) | Outcome::Crash(_), false) => "error",
    }
}

/// The score of an SV-COMP result line (`TRUE`, `FALSE(valid-deref)`,
/// `UNKNOWN`) printed for `task`: the same scoring as a corpus run, so a
/// task of `xtask/disputed.txt` is "disputed" here too.
pub fn svcomp_category(task: &crate::corpus::Task, line: &str) -> &'static str {
    let outcome = match line {
        "TRUE" => Outcome::Successful,
        l if l.starts_with("FALSE") => Outcome::Failed,
        l => Outcome::Unknown(l.to_string()),
    };
    let result = TaskResult { task: task.clone(), outcome, seconds: 0.0, cpu_seconds: 0.0, figures: None, svcomp: Some(line.to_string()) };
    category(&result, false)
}

/// The run gave the verdict C semantics gives on a task whose expected
/// verdict contradicts it (see `xtask/disputed.txt`).
fn is_disputed(result: &TaskResult) -> bool {
    crate::disputed::dispute(result.task.corpus, &result.task.id).is_some_and(|d| d.verdict == result.outcome.kind())
}

pub fn categories(parse_only: bool) -> &'static [&'static str] {
    if parse_only {
        &["accepted", "rejected", "crash", "hang"]
    } else {
        &["correct", "wrong", "disputed", "unknown", "timeout", "error", "unscored"]
    }
}

/// Prints the summary table and the lists a reader acts on.
pub fn render(results: &[TaskResult], parse_only: bool) -> String {
    let mut out = String::new();
    let cats = categories(parse_only);
    let group_of = |r: &TaskResult| if parse_only { r.task.suite.clone() } else { format!("{} / {}", r.task.suite, r.task.mode) };
    let mut groups: BTreeMap<String, Vec<&TaskResult>> = BTreeMap::new();
    for r in results {
        groups.entry(group_of(r)).or_default().push(r);
    }
    let _ = write!(out, "{:<52}{:>6}", "suite", "tasks");
    for c in cats {
        let _ = write!(out, "{c:>10}");
    }
    let _ = writeln!(out, "{:>9}{:>9}{:>11}", "wall(s)", "cpu(s)", "cpu median");
    for (name, members) in &groups {
        row(&mut out, name, members, parse_only);
    }
    row(&mut out, "TOTAL", &results.iter().collect::<Vec<_>>(), parse_only);
    if parse_only {
        let accepted = results.iter().filter(|r| category(r, true) == "accepted").count();
        let _ = writeln!(out, "\naccepted: {accepted}/{} = {:.2}%", results.len(), percent(accepted, results.len()));
    }
    list(&mut out, "wrong verdicts", results.iter().filter(|r| category(r, parse_only) == "wrong"), |r| {
        format!("{}: expected {}, got {}", r.task.id, expected_text(r), got_text(r))
    });
    list(&mut out, "disputed expected verdicts (tarsier follows C semantics)", results.iter().filter(|r| category(r, parse_only) == "disputed"), |r| {
        let evidence = crate::disputed::dispute(r.task.corpus, &r.task.id).map_or("", |d| d.evidence);
        format!("{}: expected {}, got {}: {evidence}", r.task.id, r.task.expected, r.outcome.kind())
    });
    list(&mut out, "crashes and hangs", results.iter().filter(|r| matches!(r.outcome, Outcome::Crash(_) | Outcome::Timeout) && parse_only), |r| {
        format!("{}: {}", r.task.id, r.outcome.reason().unwrap_or("timeout"))
    });
    list(&mut out, "crashes", results.iter().filter(|r| matches!(r.outcome, Outcome::Crash(_)) && !parse_only), |r| {
        format!("{}: {}", r.task.id, r.outcome.reason().unwrap_or_default())
    });
    if !parse_only {
        replay_disagreements(&mut out, results);
    }
    let reasons_of = if parse_only { "rejection" } else { "UNKNOWN and errors" };
    top_reasons(&mut out, reasons_of, results.iter().filter(|r| !matches!(r.outcome, Outcome::Crash(_))));
    out
}

/// The expected verdict as the task states it (with the violated part of an
/// SV-COMP property).
fn expected_text(r: &TaskResult) -> String {
    match r.task.property.as_ref().and_then(|p| p.subproperty.as_ref()) {
        Some(part) if r.task.expected == "false" => format!("false({part})"),
        _ => r.task.expected.clone(),
    }
}

/// The outcome, with the SV-COMP result line when the run printed one.
fn got_text(r: &TaskResult) -> String {
    match &r.svcomp {
        Some(line) => format!("{} ({line})", r.outcome.kind()),
        None => r.outcome.kind().to_string(),
    }
}

fn row(out: &mut String, name: &str, members: &[&TaskResult], parse_only: bool) {
    let _ = write!(out, "{name:<52}{:>6}", members.len());
    for c in categories(parse_only) {
        let _ = write!(out, "{:>10}", members.iter().filter(|r| category(r, parse_only) == *c).count());
    }
    let wall: f64 = members.iter().map(|r| r.seconds).sum();
    let mut cpu: Vec<f64> = members.iter().map(|r| r.cpu_seconds).collect();
    cpu.sort_by(f64::total_cmp);
    let median = cpu.get(cpu.len() / 2).copied().unwrap_or(0.0);
    let _ = writeln!(out, "{wall:>9.1}{:>9.1}{median:>11.3}", cpu.iter().sum::<f64>());
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 { 0.0 } else { 100.0 * part as f64 / whole as f64 }
}

fn list<'a>(out: &mut String, title: &str, items: impl Iterator<Item = &'a TaskResult>, line: impl Fn(&TaskResult) -> String) {
    let lines: Vec<String> = items.map(line).collect();
    if !lines.is_empty() {
        let _ = writeln!(out, "\n{title} ({}):", lines.len());
        for l in lines {
            let _ = writeln!(out, "  {l}");
        }
    }
}

/// Phrases of the engine's UNKNOWN reasons (crates/engine/src/bmc.rs): a
/// violation the interpreter's replay did not confirm (symex and the
/// interpreter disagree, or the interpreter cannot run it), and one that
/// depends on results of inexact math functions that C libraries may give
/// but the host's does not (the model working as designed).
const REPLAY_DISAGREED: &str = "the replay did not confirm it";
const HOST_LIBM_DIFFERS: &str = "that the host C library does not give";

/// Prints the count of replays that disagreed (always, so that 0 is
/// visible) with the tasks, and apart from them the violations that depend
/// on inexact math results.
fn replay_disagreements(out: &mut String, results: &[TaskResult]) {
    let with = |phrase: &'static str| {
        results.iter().filter(move |r| matches!(&r.outcome, Outcome::Unknown(reason) if reason.contains(phrase)))
    };
    let _ = writeln!(out, "
replays that disagreed: {}", with(REPLAY_DISAGREED).count());
    list(out, "replays that disagreed", with(REPLAY_DISAGREED), |r| format!("{}: {}", r.task.id, r.outcome.reason().unwrap_or_default()));
    let inexact = with(HOST_LIBM_DIFFERS).count();
    let _ = writeln!(out, "violations that depend on math results the host C library does not give (not disagreements): {inexact}");
}

/// How many of the most common reasons are listed.
const TOP_REASONS: usize = 15;

fn top_reasons<'a>(out: &mut String, title: &str, results: impl Iterator<Item = &'a TaskResult>) {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for reason in results.filter_map(|r| r.outcome.reason()) {
        *counts.entry(generalise(reason)).or_default() += 1;
    }
    let mut ranked: Vec<(String, usize)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    if ranked.is_empty() {
        return;
    }
    let _ = writeln!(out, "\ntop reasons for {title}:");
    for (reason, count) in ranked.into_iter().take(TOP_REASONS) {
        let _ = writeln!(out, "  {count:>5}  {reason}");
    }
}

/// Replaces quoted names by `'_'` and file paths by `<file>`, so that
/// messages differing only in a name or a file are counted together.
pub fn generalise(reason: &str) -> String {
    let mut out = String::with_capacity(reason.len());
    let mut quoted = false;
    for c in reason.chars() {
        match (c, quoted) {
            ('\'', false) => {
                quoted = true;
                out.push_str("'_'");
            }
            ('\'', true) => quoted = false,
            (_, true) => {}
            (c, false) => out.push(c),
        }
    }
    let words: Vec<&str> = out.split(' ').map(|w| if w.starts_with('/') { "<file>" } else { w }).collect();
    words.join(" ").chars().take(120).collect()
}

/// The JSON form of a run of one suite.
pub fn to_json(suite: Suite, results: &[TaskResult], parse_only: bool, timestamp: &str) -> Value {
    let tasks: Vec<Value> = results
        .iter()
        .map(|r| {
            json!({
                "id": r.task.id, "suite": r.task.suite, "mode": r.task.mode, "expected": r.task.expected,
                "outcome": r.outcome.kind(), "category": category(r, parse_only),
                "reason": r.outcome.reason(), "svcomp": r.svcomp,
                "seconds": millis(r.seconds), "cpu_seconds": millis(r.cpu_seconds),
                "figures": r.figures.as_ref().map(|f| json!({
                    "aig_ands": f.aig_ands, "cnf_vars": f.cnf_vars, "cnf_clauses": f.cnf_clauses,
                    "symex_seconds": millis(f.symex_seconds), "sat_seconds": millis(f.sat_seconds),
                    "replay_seconds": millis(f.replay_seconds),
                })),
            })
        })
        .collect();
    json!({ "kind": kind(parse_only), "suite": suite.name(), "timestamp": timestamp, "tasks": tasks })
}

fn millis(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

fn kind(parse_only: bool) -> &'static str {
    if parse_only { "parse-only" } else { "verify" }
}

/// Finds the newest saved JSON file in `dir` that `keep` accepts (file
/// names are timestamps, so name order is time order).
pub fn newest_saved(dir: &Path, keep: impl Fn(&Value) -> bool) -> Option<(PathBuf, Value)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).ok()?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files.into_iter().rev().find_map(|path| {
        let value: Value = serde_json::from_str(&std::fs::read_to_string(&path).ok()?).ok()?;
        keep(&value).then_some((path, value))
    })
}

/// The newest saved corpus run of the same kind and suite (runs saved
/// before suites were named are esbmc-regression's).
pub fn previous_run(dir: &Path, suite: Suite, parse_only: bool) -> Option<(PathBuf, Value)> {
    newest_saved(dir, |run| run["kind"] == kind(parse_only) && run["suite"].as_str().unwrap_or(Suite::Esbmc.name()) == suite.name())
}

/// How many changed tasks are listed one by one.
const LISTED_CHANGES: usize = 30;

/// Compares this run with a previous one: category counts over the tasks
/// both ran, and the tasks whose category changed.
pub fn render_delta(now: &Value, before: &Value, parse_only: bool) -> String {
    let index = |run: &Value| -> BTreeMap<String, String> {
        let tasks = run["tasks"].as_array().cloned().unwrap_or_default();
        tasks.iter().filter_map(|t| Some((t["id"].as_str()?.to_string(), t["category"].as_str()?.to_string()))).collect()
    };
    let (now, before) = (index(now), index(before));
    let common: Vec<&String> = now.keys().filter(|id| before.contains_key(*id)).collect();
    let mut out = format!("changes over the {} tasks both runs have:\n", common.len());
    for c in categories(parse_only) {
        let count = |run: &BTreeMap<String, String>| common.iter().filter(|id| run[**id] == *c).count();
        let (was, is) = (count(&before), count(&now));
        let _ = writeln!(out, "  {c:<10} {was:>6} -> {is:>6} ({:+})", is as i64 - was as i64);
    }
    let mut changed: Vec<(bool, String)> = common
        .iter()
        .filter(|id| now[**id] != before[**id])
        .map(|id| (!is_regression(&before[*id], &now[*id]), format!("{id}: {} -> {}", before[*id], now[*id])))
        .collect();
    // Regressions first: they are what a reader must act on.
    changed.sort();
    let changed: Vec<String> = changed.into_iter().map(|(_, line)| line).collect();
    let _ = writeln!(out, "  {} tasks changed category", changed.len());
    for line in changed.iter().take(LISTED_CHANGES) {
        let _ = writeln!(out, "    {line}");
    }
    out
}

/// A change away from the best category, or into one that is a defect.
fn is_regression(before: &str, now: &str) -> bool {
    matches!(before, "accepted" | "correct") || matches!(now, "crash" | "hang" | "wrong")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Task;

    fn result(id: &str, expected: &str, outcome: Outcome) -> TaskResult {
        let task = Task::example(id, expected);
        TaskResult { task, outcome, seconds: 0.5, cpu_seconds: 0.25, figures: None, svcomp: None }
    }

    /// A run of an SV-COMP task whose property expects `expected` (with the
    /// violated part of memory safety) that printed `svcomp`.
    fn sv_result(expected: &str, part: Option<&str>, outcome: Outcome, svcomp: &str) -> TaskResult {
        let mut r = result("c/t.yml#valid-memsafety.prp", expected, outcome);
        r.task.corpus = Suite::Sv;
        let subproperty = part.map(str::to_string);
        r.task.property = Some(crate::corpus::SvProperty { file: "properties/valid-memsafety.prp".into(), subproperty });
        r.svcomp = Some(svcomp.into());
        r
    }

    #[test]
    fn an_sv_comp_violation_must_be_the_expected_one() {
        let deref = sv_result("false", Some("valid-deref"), Outcome::Failed, "FALSE(valid-deref)");
        assert_eq!(category(&deref, false), "correct");
        let free = sv_result("false", Some("valid-deref"), Outcome::Failed, "FALSE(valid-free)");
        assert_eq!(category(&free, false), "wrong");
        assert!(render(&[free], false).contains("expected false(valid-deref), got failed (FALSE(valid-free))"));
        assert_eq!(category(&sv_result("true", None, Outcome::Failed, "FALSE(valid-memtrack)"), false), "wrong");
        assert_eq!(category(&sv_result("true", None, Outcome::Successful, "TRUE"), false), "correct");
        assert_eq!(category(&sv_result("false", None, Outcome::Failed, "FALSE(unreach-call)"), false), "correct");
    }

    #[test]
    fn a_run_is_compared_with_the_previous_run_of_its_suite() {
        let dir = std::env::temp_dir().join(format!("xtask-previous-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let save = |name: &str, run: Value| std::fs::write(dir.join(name), run.to_string()).unwrap();
        let mut unnamed = to_json(Suite::Esbmc, &[result("a", "true", Outcome::Successful)], false, "t0");
        unnamed.as_object_mut().unwrap().remove("suite");
        save("1.json", unnamed);
        save("2.json", to_json(Suite::Cbmc, &[result("b", "true", Outcome::Successful)], false, "t1"));
        save("3.json", to_json(Suite::Esbmc, &[result("c", "true", Outcome::Accepted)], true, "t2"));
        let found = |suite| previous_run(&dir, suite, false).map(|(path, _)| path.file_name().unwrap().to_owned());
        assert_eq!(found(Suite::Esbmc), Some("1.json".into()), "runs saved before suites were named are esbmc's");
        assert_eq!(found(Suite::Cbmc), Some("2.json".into()));
        assert_eq!(found(Suite::Sv), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn verdicts_are_scored_against_the_expected_one() {
        assert_eq!(category(&result("a", "true", Outcome::Successful), false), "correct");
        assert_eq!(category(&result("a", "true", Outcome::Failed), false), "wrong");
        assert_eq!(category(&result("a", "unknown", Outcome::Failed), false), "unscored");
        assert_eq!(category(&result("a", "false", Outcome::Unknown("x".into())), false), "unknown");
        assert_eq!(category(&result("a", "false", Outcome::Timeout), true), "hang");
    }

    #[test]
    fn a_result_line_is_scored_as_a_corpus_run_with_its_disputes() {
        let mut task = sv_result("false", None, Outcome::Unknown(String::new()), "").task;
        assert_eq!(svcomp_category(&task, "TRUE"), "wrong");
        assert_eq!(svcomp_category(&task, "FALSE(unreach-call)"), "correct");
        assert_eq!(svcomp_category(&task, "UNKNOWN"), "unknown");
        task.id = "c/loop-acceleration/nested_false-unreach-call1.yml#unreach-call-old.prp".into();
        assert_eq!(svcomp_category(&task, "TRUE"), "disputed", "listed in disputed.txt with TRUE as the C verdict");
        assert_eq!(svcomp_category(&task, "FALSE(unreach-call)"), "correct");
        let memsafety = sv_result("false", Some("valid-free"), Outcome::Unknown(String::new()), "").task;
        assert_eq!(svcomp_category(&memsafety, "FALSE(valid-deref)"), "wrong", "the violated part must be the expected one");
        assert_eq!(svcomp_category(&memsafety, "FALSE(valid-free)"), "correct");
        let expected_true = sv_result("true", None, Outcome::Unknown(String::new()), "").task;
        assert_eq!(svcomp_category(&expected_true, "FALSE(valid-deref)"), "wrong");
        assert_eq!(svcomp_category(&expected_true, "TRUE"), "correct");
    }

    #[test]
    fn only_the_c_semantics_verdict_of_a_disputed_task_is_disputed() {
        let disputed = "esbmc/github_2618";
        assert_eq!(category(&result(disputed, "true", Outcome::Failed), false), "disputed");
        assert_eq!(category(&result(disputed, "true", Outcome::Successful), false), "correct");
        assert_eq!(category(&result(disputed, "true", Outcome::Unknown("x".into())), false), "unknown");
        let text = render(&[result(disputed, "true", Outcome::Failed)], false);
        assert!(text.contains("disputed expected verdicts (tarsier follows C semantics) (1):"), "{text}");
    }

    #[test]
    fn replay_disagreements_are_counted_apart_from_inexact_math_results() {
        let refuted = "a violation of `p` was found but the replay did not confirm it (the interpreter's run: completed with exit code 0)";
        let inexact = "a violation of `p` depends on results of `hypot` that the host C library does not give; other C libraries may (within 4 ulps)";
        let results = [
            result("a", "true", Outcome::Unknown(refuted.into())),
            result("b", "true", Outcome::Unknown(inexact.into())),
            result("c", "true", Outcome::Unknown("timeout".into())),
        ];
        let text = render(&results, false);
        assert!(text.contains("replays that disagreed: 1\n"), "{text}");
        assert!(text.contains(&format!("  a: {refuted}")), "{text}");
        assert!(text.contains("(not disagreements): 1\n"), "{text}");
        let text = render(&results[1..], false);
        assert!(text.contains("replays that disagreed: 0\n"), "{text}");
    }

    #[test]
    fn summary_lists_wrong_verdicts_and_reasons() {
        let results = [
            result("w", "true", Outcome::Failed),
            result("u1", "true", Outcome::Unknown("unsupported: 'x'".into())),
            result("u2", "true", Outcome::Unknown("unsupported: 'y'".into())),
        ];
        let text = render(&results, false);
        assert!(text.contains("wrong verdicts (1):\n  w: expected true, got failed"), "{text}");
        assert!(text.contains("    2  unsupported: '_'"), "{text}");
    }

    #[test]
    fn delta_counts_changes_of_common_tasks() {
        let before = to_json(Suite::Esbmc, &[result("a", "true", Outcome::Rejected("r".into())), result("b", "true", Outcome::Accepted)], true, "t0");
        let now = to_json(Suite::Esbmc, &[result("a", "true", Outcome::Accepted), result("b", "true", Outcome::Accepted)], true, "t1");
        let text = render_delta(&now, &before, true);
        assert!(text.contains("accepted        1 ->      2 (+1)"), "{text}");
        assert!(text.contains("a: rejected -> accepted"), "{text}");
        let later = to_json(Suite::Esbmc, &[result("a", "true", Outcome::Accepted), result("b", "true", Outcome::Crash("x".into()))], true, "t2");
        let text = render_delta(&later, &before, true);
        let (regression, improvement) = (text.find("b: accepted -> crash").unwrap(), text.find("a: rejected -> accepted").unwrap());
        assert!(regression < improvement, "regressions come first:\n{text}");
    }

    #[test]
    fn generalise_hides_names() {
        assert_eq!(generalise("unknown type 'foo' in 'bar'"), "unknown type '_' in '_'");
        assert_eq!(generalise("/a/b/test.c: the preprocessor failed:"), "<file> the preprocessor failed:");
    }
}
