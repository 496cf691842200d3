//! Side by side with a peer verifier: a suite folder may hold the results
//! of another tool on the same tasks (`peer-<tool>.jsonl`, e.g.
//! sv-benchmarks' `peer-esbmc.jsonl`, one JSON object per task with `id`,
//! `cls` and `cpu`). For a saved run of tarsier this prints, per category,
//! the tasks each tool decided correctly and wrongly, and the CPU time of
//! each on the tasks both decided; then the tasks the peer decided
//! correctly and tarsier did not (the next work), and those the peer got
//! wrong (where tarsier must not be).

use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One task's result for the peer.
#[derive(Clone, Debug, PartialEq)]
pub struct PeerResult {
    /// `correct`, `wrong`, or how it failed to decide (`unknown`,
    /// `timeout`, `error`).
    pub score: String,
    pub cpu_seconds: f64,
}

/// The peer result files of a suite folder: the tool's name and the path.
pub fn peer_files(suite_dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(suite_dir) else { return Vec::new() };
    let mut files: Vec<(String, PathBuf)> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?.strip_prefix("peer-")?.strip_suffix(".jsonl")?.to_string();
            Some((name, path))
        })
        .collect();
    files.sort();
    files
}

/// Reads a peer's results, by task id.
pub fn load(path: &Path) -> Result<HashMap<String, PeerResult>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut results = HashMap::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let (id, result) = parse_line(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        results.insert(id, result);
    }
    Ok(results)
}

fn parse_line(line: &str) -> Result<(String, PeerResult), String> {
    let v: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let id = v["id"].as_str().ok_or("field 'id' is not a string")?;
    let cls = v["cls"].as_str().ok_or("field 'cls' is not a string")?;
    // correct_true, correct_false, wrong_true, wrong_false; the rest as is.
    let score = cls.split('_').next().unwrap_or(cls).to_string();
    Ok((id.to_string(), PeerResult { score, cpu_seconds: v["cpu"].as_f64().unwrap_or(0.0) }))
}

/// A saved run's task, as the comparison needs it.
struct Ours<'a> {
    id: &'a str,
    group: &'a str,
    score: &'a str,
    cpu_seconds: f64,
}

fn decided(score: &str) -> bool {
    matches!(score, "correct" | "wrong" | "disputed")
}

/// Counts of one category (or of all).
#[derive(Default)]
struct Tally {
    tasks: usize,
    ours_correct: usize,
    ours_wrong: usize,
    peer_correct: usize,
    peer_wrong: usize,
    peer_missing: usize,
    both_decided: usize,
    ours_cpu: f64,
    peer_cpu: f64,
}

impl Tally {
    fn add(&mut self, ours: &Ours, peer: Option<&PeerResult>) {
        self.tasks += 1;
        self.ours_correct += usize::from(ours.score == "correct");
        self.ours_wrong += usize::from(ours.score == "wrong");
        let Some(peer) = peer else {
            self.peer_missing += 1;
            return;
        };
        self.peer_correct += usize::from(peer.score == "correct");
        self.peer_wrong += usize::from(peer.score == "wrong");
        if decided(ours.score) && decided(&peer.score) {
            self.both_decided += 1;
            self.ours_cpu += ours.cpu_seconds;
            self.peer_cpu += peer.cpu_seconds;
        }
    }

    fn row(&self, out: &mut String, name: &str) {
        let _ = writeln!(
            out,
            "{name:<16}{:>6}{:>11}{:>9}{:>11}{:>9}{:>9}{:>7}{:>10.1}{:>10.1}",
            self.tasks,
            self.ours_correct,
            self.ours_wrong,
            self.peer_correct,
            self.peer_wrong,
            self.peer_missing,
            self.both_decided,
            self.ours_cpu,
            self.peer_cpu
        );
    }
}

/// How many tasks of each list are named one by one.
const LISTED: usize = 40;

/// The comparison of a saved run (`report::to_json`) with a peer's results.
pub fn render(peer_name: &str, run: &Value, peer: &HashMap<String, PeerResult>) -> String {
    let tasks = run["tasks"].as_array().map(Vec::as_slice).unwrap_or_default();
    let ours: Vec<Ours> = tasks
        .iter()
        .filter_map(|t| {
            Some(Ours {
                id: t["id"].as_str()?,
                group: t["suite"].as_str()?,
                score: t["category"].as_str()?,
                cpu_seconds: t["cpu_seconds"].as_f64().unwrap_or(0.0),
            })
        })
        .collect();
    let mut groups: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut total = Tally::default();
    for task in &ours {
        groups.entry(task.group).or_default().add(task, peer.get(task.id));
        total.add(task, peer.get(task.id));
    }
    let mut out = format!(
        "\nside by side with {peer_name} (t. = tarsier, p. = {peer_name}; p.none: no {peer_name} result; \
         both: tasks both decided, with the CPU seconds each spent on them):\n"
    );
    let _ = writeln!(
        out,
        "{:<16}{:>6}{:>11}{:>9}{:>11}{:>9}{:>9}{:>7}{:>10}{:>10}",
        "category", "tasks", "t.correct", "t.wrong", "p.correct", "p.wrong", "p.none", "both", "t.cpu", "p.cpu"
    );
    for (name, tally) in &groups {
        tally.row(&mut out, name);
    }
    total.row(&mut out, "TOTAL");
    let peer_only: Vec<String> = ours
        .iter()
        .filter(|t| t.score != "correct" && peer.get(t.id).is_some_and(|p| p.score == "correct"))
        .map(|t| format!("{}: tarsier {}", t.id, t.score))
        .collect();
    listing(&mut out, &format!("decided correctly by {peer_name}, not by tarsier"), &peer_only);
    let peer_wrong: Vec<String> = ours
        .iter()
        .filter(|t| peer.get(t.id).is_some_and(|p| p.score == "wrong"))
        .map(|t| format!("{}: tarsier {}", t.id, t.score))
        .collect();
    listing(&mut out, &format!("wrong by {peer_name}"), &peer_wrong);
    out
}

fn listing(out: &mut String, title: &str, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{title} ({}):", lines.len());
    for line in lines.iter().take(LISTED) {
        let _ = writeln!(out, "  {line}");
    }
    if lines.len() > LISTED {
        let _ = writeln!(out, "  ... and {} more (the saved run has them all)", lines.len() - LISTED);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn peer_of(lines: &[&str]) -> HashMap<String, PeerResult> {
        lines.iter().map(|l| parse_line(l).unwrap()).collect()
    }

    #[test]
    fn peer_results_are_scored_like_tarsiers() {
        let (id, result) = parse_line(r#"{"id": "c/a.yml#p.prp", "category": "loops", "expected": "false", "got": "false", "cls": "correct_false", "cpu": 1.5, "wall": 2.0}"#).unwrap();
        assert_eq!((id.as_str(), result.score.as_str(), result.cpu_seconds), ("c/a.yml#p.prp", "correct", 1.5));
        assert_eq!(parse_line(r#"{"id": "x", "cls": "wrong_true", "cpu": 0.5}"#).unwrap().1.score, "wrong");
        assert_eq!(parse_line(r#"{"id": "x", "cls": "timeout", "cpu": null}"#).unwrap().1.score, "timeout");
        assert!(parse_line(r#"{"id": 3, "cls": "timeout"}"#).is_err());
    }

    #[test]
    fn categories_side_by_side_with_the_time_of_tasks_both_decided() {
        let run = json!({"tasks": [
            {"id": "a", "suite": "loops", "category": "correct", "cpu_seconds": 1.0},
            {"id": "b", "suite": "loops", "category": "unknown", "cpu_seconds": 20.0},
            {"id": "c", "suite": "loops", "category": "correct", "cpu_seconds": 2.0},
            {"id": "d", "suite": "floats", "category": "correct", "cpu_seconds": 4.0},
        ]});
        let peer = peer_of(&[
            r#"{"id": "a", "cls": "correct_true", "cpu": 3.0}"#,
            r#"{"id": "b", "cls": "correct_false", "cpu": 5.0}"#,
            r#"{"id": "c", "cls": "wrong_true", "cpu": 7.0}"#,
        ]);
        let text = render("esbmc", &run, &peer);
        let row = |name: &str| text.lines().find(|l| l.starts_with(name)).unwrap().split_whitespace().skip(1).collect::<Vec<_>>().join(" ");
        // tasks, tarsier correct/wrong, peer correct/wrong, no peer result, both decided, CPU of each on them
        assert_eq!(row("loops"), "3 2 0 2 1 0 2 3.0 10.0", "{text}");
        assert_eq!(row("floats"), "1 1 0 0 0 1 0 0.0 0.0", "{text}");
        assert_eq!(row("TOTAL"), "4 3 0 2 1 1 2 3.0 10.0", "{text}");
        assert!(text.contains("decided correctly by esbmc, not by tarsier (1):\n  b: tarsier unknown"), "{text}");
        assert!(text.contains("wrong by esbmc (1):\n  c: tarsier correct"), "{text}");
    }

    #[test]
    fn peer_files_are_found_by_name() {
        let dir = std::env::temp_dir().join(format!("xtask-peer-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["peer-esbmc.jsonl", "peer-cbmc.jsonl", "manifest.jsonl", "peer-notes.txt"] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        let names: Vec<String> = peer_files(&dir).into_iter().map(|(name, _)| name).collect();
        assert_eq!(names, ["cbmc", "esbmc"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
