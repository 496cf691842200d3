//! The regression corpus: where it is, its manifest, and how a task's
//! fields map to tarsier's command line.
//!
//! The corpus lives outside the repository, at `../shared/corpus` beside the
//! workspace root; `TARSIER_CORPUS` overrides that (either the folder with
//! `manifest.jsonl` or its parent).

use serde_json::Value;
use std::path::{Path, PathBuf};

const CORPUS_NAME: &str = "esbmc-regression";

/// The workspace root (this crate sits right below it).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask is inside the workspace").to_path_buf()
}

/// The folder holding `manifest.jsonl`, or `None` when the corpus is absent.
pub fn locate() -> Option<PathBuf> {
    let base = match std::env::var_os("TARSIER_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("../shared/corpus"),
    };
    [base.clone(), base.join(CORPUS_NAME)].into_iter().find(|dir| dir.join("manifest.jsonl").is_file())
}

/// One verification task of the manifest (see the corpus README).
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    pub id: String,
    pub suite: String,
    pub files: Vec<String>,
    pub entry: String,
    /// Property name → checked (`assertions`, `bounds`, `overflow_signed`, ...).
    pub checks: Vec<(String, bool)>,
    pub unwind: Option<u64>,
    pub unwinding_assertions: bool,
    pub mode: String,
    pub data_model: String,
    pub force_malloc_success: bool,
    /// "true", "false" or "unknown".
    pub expected: String,
    pub error_label: Option<String>,
    pub cflags: Vec<String>,
    pub extra_flags: Vec<String>,
    /// The reference tool's `--max-k-step N` (in `esbmc_flags`): the last
    /// bound of its incremental BMC, past which it answered unknown.
    pub max_k_step: Option<u64>,
    /// ESBMC's own option line, for its tasks (they carry `esbmc_flags`):
    /// some of its checks mean more or less than tarsier's of the same
    /// name.
    pub esbmc_flags: Option<String>,
}

/// Reads `manifest.jsonl`; a malformed line is an error naming the line.
pub fn load_manifest(corpus: &Path) -> Result<Vec<Task>, String> {
    let path = corpus.join("manifest.jsonl");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| parse_task(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1)))
        .collect()
}

fn parse_task(line: &str) -> Result<Task, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let text = |key: &str| v[key].as_str().map(str::to_string).ok_or(format!("field '{key}' is not a string"));
    let flag = |key: &str| v[key].as_bool().ok_or(format!("field '{key}' is not a boolean"));
    let strings = |key: &str| -> Result<Vec<String>, String> {
        let list = v[key].as_array().ok_or(format!("field '{key}' is not a list"))?;
        list.iter().map(|s| s.as_str().map(str::to_string).ok_or(format!("'{key}' holds a non-string"))).collect()
    };
    let checks = v["checks"].as_object().ok_or("field 'checks' is not an object")?;
    Ok(Task {
        id: text("id")?,
        suite: text("suite")?,
        files: strings("files")?,
        entry: text("entry")?,
        checks: checks.iter().map(|(k, on)| (k.clone(), on.as_bool().unwrap_or(false))).collect(),
        unwind: v["unwind"].as_u64(),
        unwinding_assertions: flag("unwinding_assertions")?,
        mode: text("mode")?,
        data_model: text("data_model")?,
        force_malloc_success: flag("force_malloc_success")?,
        expected: text("expected")?,
        error_label: v["error_label"].as_str().map(str::to_string),
        cflags: strings("cflags")?,
        extra_flags: strings("extra_flags")?,
        max_k_step: max_k_step(v["esbmc_flags"].as_str().unwrap_or_default())?,
        esbmc_flags: v["esbmc_flags"].as_str().map(str::to_string),
    })
}

/// The value of `--max-k-step` in a reference-tool flag line.
fn max_k_step(esbmc_flags: &str) -> Result<Option<u64>, String> {
    let mut words = esbmc_flags.split_whitespace();
    match words.by_ref().find(|w| *w == "--max-k-step") {
        None => Ok(None),
        Some(_) => match words.next().and_then(|n| n.parse().ok()) {
            Some(bound) => Ok(Some(bound)),
            None => Err("'--max-k-step' in 'esbmc_flags' is not followed by a number".into()),
        },
    }
}

impl Task {
    /// A plain core bmc task for unit tests of the scoring and reports.
    #[cfg(test)]
    pub(crate) fn example(id: &str, expected: &str) -> Task {
        Task {
            id: id.into(),
            suite: "s".into(),
            files: vec![],
            entry: "main".into(),
            checks: vec![],
            unwind: None,
            unwinding_assertions: true,
            mode: "bmc".into(),
            data_model: "LP64".into(),
            force_malloc_success: false,
            expected: expected.into(),
            error_label: None,
            cflags: vec![],
            extra_flags: vec![],
            max_k_step: None,
            esbmc_flags: None,
        }
    }

    /// A task whose structured fields describe it completely.
    pub fn is_core(&self) -> bool {
        self.extra_flags.is_empty() && self.error_label.is_none()
    }

    /// A task of the BMC issue's score: core, modes bmc and incremental-bmc,
    /// outside the floating-point suites.
    pub fn in_bmc_slice(&self) -> bool {
        self.is_core()
            && matches!(self.mode.as_str(), "bmc" | "incremental-bmc")
            && !matches!(self.suite.as_str(), "floats" | "floats-regression")
    }

    /// The task's own folder, which `cflags` paths are relative to.
    pub fn dir(&self, corpus: &Path) -> PathBuf {
        let by_id = corpus.join(&self.id);
        match self.files.first() {
            _ if by_id.is_dir() => by_id,
            Some(first) => corpus.join(first).parent().map_or(by_id, Path::to_path_buf),
            None => by_id,
        }
    }

    pub fn input_paths(&self, corpus: &Path) -> Vec<PathBuf> {
        self.files.iter().map(|f| corpus.join(f)).collect()
    }

    /// The input files and front-end flags (what `--parse-only` needs).
    pub fn front_args(&self, corpus: &Path) -> Vec<String> {
        let dir = self.dir(corpus);
        let mut args: Vec<String> = self.input_paths(corpus).iter().map(|p| p.display().to_string()).collect();
        for flag in &self.cflags {
            args.extend(map_cflag(flag, &dir));
        }
        args.push(if self.data_model == "ILP32" { "--32" } else { "--64" }.into());
        if self.entry != "main" {
            args.extend(["--function".into(), self.entry.clone()]);
        }
        args
    }

    /// Flags that make tarsier's checks mean what the reference tool's
    /// meant. ESBMC's `--overflow-check` covers floating-point overflow
    /// (tarsier's `--float-overflow-check`), and ESBMC checks
    /// `__builtin_clz(0)` only under `--clz-zero-check`; CBMC checks it with
    /// its bounds checks.
    fn reference_semantics(&self) -> Vec<&'static str> {
        let on = |name: &str| self.checks.iter().any(|(check, on)| check == name && *on);
        let off = |name: &str| self.checks.iter().any(|(check, on)| check == name && !*on);
        let mut flags = Vec::new();
        let clz_checked = match &self.esbmc_flags {
            Some(esbmc) => {
                if on("overflow_signed") {
                    flags.push("--float-overflow-check");
                }
                esbmc.split_whitespace().any(|f| f == "--clz-zero-check")
            }
            None => !off("bounds"),
        };
        if !clz_checked {
            flags.push("--no-clz-zero-check");
        }
        flags
    }

    /// The front-end flags plus the properties, bounds and engine.
    pub fn verify_args(&self, corpus: &Path) -> Vec<String> {
        let mut args = self.front_args(corpus);
        for (check, on) in &self.checks {
            if let Some(flag) = check_flag(check, *on) {
                args.push(flag.into());
            }
        }
        args.extend(self.reference_semantics().into_iter().map(str::to_string));
        if let Some(bound) = self.unwind {
            args.extend(["--unwind".into(), bound.to_string()]);
        }
        if !self.unwinding_assertions {
            args.push("--no-unwinding-assertions".into());
        }
        match self.mode.as_str() {
            "incremental-bmc" => {
                args.push("--incremental-bmc".into());
                // The reference tool stopped at this bound: past it, its
                // expected verdict is "unknown" and no tarsier answer
                // could be scored, so tarsier stops there too. (Its
                // k-induction's bound is not tarsier's BMC bound.)
                if let Some(bound) = self.max_k_step {
                    args.extend(["--max-k-step".into(), bound.to_string()]);
                }
            }
            "k-induction" => args.push("--k-induction".into()),
            _ => {}
        }
        if self.force_malloc_success {
            args.push("--force-malloc-success".into());
        }
        if let Some(label) = &self.error_label {
            args.extend(["--error-label".into(), label.clone()]);
        }
        // The reference tool's own options change what the verdict means;
        // passed through, an option tarsier lacks is a usage error (scored
        // as an error), never silently dropped into a wrong verdict.
        args.extend(self.extra_flags.iter().flat_map(|f| f.split_whitespace().map(str::to_string)));
        args
    }
}

/// Maps one manifest `cflags` entry; language-standard, warning and code
/// generation flags do not change what tarsier checks and are dropped.
fn map_cflag(flag: &str, task_dir: &Path) -> Vec<String> {
    if let Some(dir) = flag.strip_prefix("-I") {
        return vec!["-I".into(), task_dir.join(dir).display().to_string()];
    }
    if let Some(file) = flag.strip_prefix("--include-file=") {
        return vec!["--include".into(), task_dir.join(file).display().to_string()];
    }
    if flag.starts_with("-D") || flag.starts_with("-U") {
        return vec![flag.to_string()];
    }
    Vec::new()
}

/// The flag that turns a property away from tarsier's default, if any.
fn check_flag(check: &str, on: bool) -> Option<&'static str> {
    match (check, on) {
        ("assertions", false) => Some("--no-assertions"),
        ("bounds", false) => Some("--no-bounds-check"),
        ("pointer", false) => Some("--no-pointer-check"),
        ("div_by_zero", false) => Some("--no-div-by-zero-check"),
        ("overflow_signed", true) => Some("--overflow-check"),
        ("overflow_unsigned", true) => Some("--unsigned-overflow-check"),
        ("memory_leak", true) => Some("--memory-leak-check"),
        ("nan", true) => Some("--nan-check"),
        ("data_races", true) => Some("--data-races-check"),
        ("deadlock", true) => Some("--deadlock-check"),
        ("termination", true) => Some("--termination"),
        _ => None,
    }
}

/// Picks `n` tasks spread evenly over the manifest (the same ones every
/// time, so runs are comparable).
pub fn sample(tasks: &[Task], n: usize) -> Vec<Task> {
    if n == 0 || n >= tasks.len() {
        return tasks.to_vec();
    }
    (0..n).map(|i| tasks[i * tasks.len() / n].clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"id": "s/t", "suite": "s", "files": ["s/t/main.c", "s/t/b.c"], "entry": "f", "checks": {"assertions": true, "bounds": false, "pointer": true, "div_by_zero": true, "overflow_signed": true, "overflow_unsigned": false, "memory_leak": false, "nan": false, "data_races": false, "deadlock": false, "termination": false}, "unwind": 5, "unwinding_assertions": false, "mode": "k-induction", "data_model": "ILP32", "force_malloc_success": true, "expected": "false", "esbmc_flags": "", "tag": "CORE", "error_label": "ERROR", "cflags": ["-Wno-error=x", "-DN=3", "-I.", "--std=c99", "--include-file=pch.h"], "extra_flags": []}"#;

    #[test]
    fn task_fields_map_to_flags() {
        let task = parse_task(LINE).unwrap();
        let corpus = Path::new("/c");
        let args = task.verify_args(corpus);
        let expected = [
            "/c/s/t/main.c", "/c/s/t/b.c", "-DN=3", "-I", "/c/s/t/.", "--include", "/c/s/t/pch.h", "--32", "--function", "f",
            "--no-bounds-check", "--overflow-check", "--float-overflow-check", "--no-clz-zero-check", "--unwind", "5", "--no-unwinding-assertions", "--k-induction",
            "--force-malloc-success", "--error-label", "ERROR",
        ];
        assert_eq!(args, expected);
        assert!(!task.is_core());
    }

    #[test]
    fn the_reference_tools_last_incremental_bound_is_tarsiers() {
        let incremental = LINE
            .replace(r#""mode": "k-induction""#, r#""mode": "incremental-bmc""#)
            .replace(r#""esbmc_flags": """#, r#""esbmc_flags": "--incremental-bmc --max-k-step 5 --64""#);
        let task = parse_task(&incremental).unwrap();
        assert_eq!(task.max_k_step, Some(5));
        assert!(task.verify_args(Path::new("/c")).windows(3).any(|w| w == ["--incremental-bmc", "--max-k-step", "5"]));
        let k_induction = LINE.replace(r#""esbmc_flags": """#, r#""esbmc_flags": "--k-induction --max-k-step 5""#);
        assert!(!parse_task(&k_induction).unwrap().verify_args(Path::new("/c")).contains(&"--max-k-step".to_string()));
        assert!(parse_task(&LINE.replace(r#""esbmc_flags": """#, r#""esbmc_flags": "--max-k-step""#)).is_err());
    }

    #[test]
    fn checks_mean_what_the_reference_tool_meant() {
        let has = |args: &[String], flag: &str| args.iter().any(|a| a == flag);
        let esbmc = parse_task(LINE).unwrap().verify_args(Path::new("/c"));
        assert!(has(&esbmc, "--overflow-check") && has(&esbmc, "--float-overflow-check") && has(&esbmc, "--no-clz-zero-check"));
        let clz = LINE.replace(r#""esbmc_flags": """#, r#""esbmc_flags": "--clz-zero-check""#);
        assert!(!has(&parse_task(&clz).unwrap().verify_args(Path::new("/c")), "--no-clz-zero-check"));
        // CBMC's overflow check is for integers; its bit-count check goes with its bounds checks.
        let cbmc = LINE.replace(r#""esbmc_flags": "", "#, "");
        let args = parse_task(&cbmc).unwrap().verify_args(Path::new("/c"));
        assert!(has(&args, "--overflow-check") && !has(&args, "--float-overflow-check") && has(&args, "--no-clz-zero-check"));
        let bounds = cbmc.replace(r#""bounds": false"#, r#""bounds": true"#);
        assert!(!has(&parse_task(&bounds).unwrap().verify_args(Path::new("/c")), "--no-clz-zero-check"));
    }

    #[test]
    fn reference_tool_options_are_passed_through() {
        let line = LINE.replace(r#""extra_flags": []"#, r#""extra_flags": ["--context-bound 2", "--ub-shift-check"]"#);
        let args = parse_task(&line).unwrap().verify_args(Path::new("/c"));
        assert!(args.ends_with(&["--context-bound".to_string(), "2".into(), "--ub-shift-check".into()]));
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert!(parse_task("{").is_err());
        assert!(parse_task(&LINE.replace("\"files\": [", "\"files\": [1, ")).unwrap_err().contains("non-string"));
    }

    #[test]
    fn sample_is_spread_and_deterministic() {
        let task = parse_task(LINE).unwrap();
        let tasks: Vec<Task> = (0..10).map(|i| Task { id: i.to_string(), ..task.clone() }).collect();
        let ids: Vec<String> = sample(&tasks, 3).into_iter().map(|t| t.id).collect();
        assert_eq!(ids, ["0", "3", "6"]);
        assert_eq!(sample(&tasks, 50).len(), 10);
    }
}
