//! The corpora: where they are, their manifests, and how a task's fields
//! map to tarsier's command line.
//!
//! Four suites live outside the repository, under `../shared/corpus` beside
//! the workspace root (`TARSIER_CORPUS` overrides that: the suites' parent,
//! or for esbmc-regression its own folder). Three share one manifest format
//! (ESBMC's, CBMC's and 2LS's regression tests: one task a line, the peer's
//! options as fields); sv-benchmarks lists SV-COMP tasks with several
//! properties each, one task per property here (`tarsier INPUT --property
//! P.prp`).

use serde_json::Value;
use std::path::{Path, PathBuf};

/// The workspace root (this crate sits right below it).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask is inside the workspace").to_path_buf()
}

/// One corpus folder with its own manifest.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suite {
    Esbmc,
    Cbmc,
    TwoLs,
    Sv,
}

impl Suite {
    pub const ALL: [Suite; 4] = [Suite::Esbmc, Suite::Cbmc, Suite::TwoLs, Suite::Sv];

    /// The short name `--suite` takes, and `disputed.txt` and saved runs use.
    pub fn name(self) -> &'static str {
        match self {
            Suite::Esbmc => "esbmc",
            Suite::Cbmc => "cbmc",
            Suite::TwoLs => "2ls",
            Suite::Sv => "sv",
        }
    }

    /// The folder under the corpus root.
    pub fn folder(self) -> &'static str {
        match self {
            Suite::Esbmc => "esbmc-regression",
            Suite::Cbmc => "cbmc-regression",
            Suite::TwoLs => "2ls-regression",
            Suite::Sv => "sv-benchmarks",
        }
    }

    /// A `--suite` value: one short name or folder name, a comma-separated
    /// list of them, or `all`.
    pub fn parse_list(text: &str) -> Result<Vec<Suite>, String> {
        if text == "all" {
            return Ok(Suite::ALL.to_vec());
        }
        let mut suites = Vec::new();
        for word in text.split(',').map(str::trim) {
            let suite = Suite::ALL
                .into_iter()
                .find(|s| s.name() == word || s.folder() == word)
                .ok_or(format!("unknown suite '{word}' (esbmc, cbmc, 2ls, sv or all)"))?;
            if !suites.contains(&suite) {
                suites.push(suite);
            }
        }
        Ok(suites)
    }

    /// The folder holding the suite's `manifest.jsonl`, or `None` when the
    /// suite is absent.
    pub fn locate(self) -> Option<PathBuf> {
        let base = match std::env::var_os("TARSIER_CORPUS") {
            Some(dir) => PathBuf::from(dir),
            None => workspace_root().join("../shared/corpus"),
        };
        // A TARSIER_CORPUS naming a manifest's own folder has always meant
        // esbmc-regression.
        let direct = (self == Suite::Esbmc || base.ends_with(self.folder())).then(|| base.clone());
        direct.into_iter().chain([base.join(self.folder())]).find(|dir| dir.join("manifest.jsonl").is_file())
    }

    /// Reads the suite's `manifest.jsonl` in `dir`; a malformed line is an
    /// error naming the line.
    pub fn load(self, dir: &Path) -> Result<Vec<Task>, String> {
        let path = dir.join("manifest.jsonl");
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut tasks = Vec::new();
        for (n, line) in text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()) {
            let parsed = match self {
                Suite::Sv => parse_sv_tasks(line),
                _ => parse_task(line, self).map(|task| vec![task]),
            };
            tasks.extend(parsed.map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?);
        }
        Ok(tasks)
    }
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
    /// The manifest the task comes from.
    pub corpus: Suite,
    /// An SV-COMP task's property; its checks replace the fields above.
    pub property: Option<SvProperty>,
    /// ESBMC's own option line, for its tasks (they carry `esbmc_flags`):
    /// some of its checks mean more or less than tarsier's of the same
    /// name.
    pub esbmc_flags: Option<String>,
}

/// The property of an SV-COMP task and, for an expected violation of
/// memory safety, which of its parts fails (`valid-deref`, `valid-free`,
/// `valid-memtrack`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvProperty {
    /// The `.prp` file, relative to the suite's folder.
    pub file: String,
    pub subproperty: Option<String>,
}

impl SvProperty {
    /// Whether an SV-COMP result line (`FALSE(valid-free)`, ...) is the
    /// violation this property expects: the named part of memory safety,
    /// or any `FALSE` of a property with no parts.
    pub fn expects_violation(&self, svcomp: Option<&str>) -> bool {
        match (&self.subproperty, svcomp) {
            (Some(part), Some(result)) => result == format!("FALSE({part})"),
            (None, Some(result)) => result.starts_with("FALSE"),
            (_, None) => false,
        }
    }
}

/// One line of an ESBMC-, CBMC- or 2LS-regression manifest.
fn parse_task(line: &str, corpus: Suite) -> Result<Task, String> {
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
        corpus,
        property: None,
        esbmc_flags: v["esbmc_flags"].as_str().map(str::to_string),
    })
}

/// One line of the sv-benchmarks manifest: a task for each property, with
/// the id SV-COMP's tables use (`<yml>#<property file name>`), the
/// category as suite and the property's name as mode.
fn parse_sv_tasks(line: &str) -> Result<Vec<Task>, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let text = |value: &Value, key: &str| value[key].as_str().map(str::to_string).ok_or(format!("field '{key}' is not a string"));
    let (yml, input) = (text(&v, "yml")?, text(&v, "input")?);
    let properties = v["properties"].as_array().filter(|list| !list.is_empty()).ok_or("field 'properties' is not a list of properties")?;
    properties
        .iter()
        .map(|property| {
            let file = text(property, "property_file")?;
            let file_name = file.rsplit('/').next().unwrap_or(&file).to_string();
            let expected = property["expected_verdict"].as_bool().ok_or("field 'expected_verdict' is not a boolean")?;
            Ok(Task {
                id: format!("{yml}#{file_name}"),
                suite: text(&v, "category")?,
                files: vec![input.clone()],
                entry: "main".into(),
                checks: vec![],
                unwind: None,
                unwinding_assertions: true,
                mode: file_name.trim_end_matches(".prp").to_string(),
                data_model: text(&v, "data_model")?,
                force_malloc_success: false,
                expected: expected.to_string(),
                error_label: None,
                cflags: vec![],
                extra_flags: vec![],
                max_k_step: None,
                corpus: Suite::Sv,
                esbmc_flags: None,
                property: Some(SvProperty { file, subproperty: property["subproperty"].as_str().map(str::to_string) }),
            })
        })
        .collect()
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
            corpus: Suite::Esbmc,
            property: None,
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
        if let Some(property) = &self.property {
            args.extend(["--property".into(), corpus.join(&property.file).display().to_string()]);
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
        ("undefined_shift", true) => Some("--undefined-shift-check"),
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
        let task = parse_task(LINE, Suite::Esbmc).unwrap();
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
        let task = parse_task(&incremental, Suite::Esbmc).unwrap();
        assert_eq!(task.max_k_step, Some(5));
        assert!(task.verify_args(Path::new("/c")).windows(3).any(|w| w == ["--incremental-bmc", "--max-k-step", "5"]));
        let k_induction = LINE.replace(r#""esbmc_flags": """#, r#""esbmc_flags": "--k-induction --max-k-step 5""#);
        assert!(!parse_task(&k_induction, Suite::Esbmc).unwrap().verify_args(Path::new("/c")).contains(&"--max-k-step".to_string()));
        assert!(parse_task(&LINE.replace(r#""esbmc_flags": """#, r#""esbmc_flags": "--max-k-step""#), Suite::Esbmc).is_err());
    }

    #[test]
    fn checks_mean_what_the_reference_tool_meant() {
        let has = |args: &[String], flag: &str| args.iter().any(|a| a == flag);
        let esbmc = parse_task(LINE, Suite::Esbmc).unwrap().verify_args(Path::new("/c"));
        assert!(has(&esbmc, "--overflow-check") && has(&esbmc, "--float-overflow-check") && has(&esbmc, "--no-clz-zero-check"));
        let clz = LINE.replace(r#""esbmc_flags": """#, r#""esbmc_flags": "--clz-zero-check""#);
        assert!(!has(&parse_task(&clz, Suite::Esbmc).unwrap().verify_args(Path::new("/c")), "--no-clz-zero-check"));
        // CBMC's overflow check is for integers; its bit-count check goes with its bounds checks.
        let cbmc = LINE.replace(r#""esbmc_flags": "", "#, "");
        let args = parse_task(&cbmc, Suite::Cbmc).unwrap().verify_args(Path::new("/c"));
        assert!(has(&args, "--overflow-check") && !has(&args, "--float-overflow-check") && has(&args, "--no-clz-zero-check"));
        let bounds = cbmc.replace(r#""bounds": false"#, r#""bounds": true"#);
        assert!(!has(&parse_task(&bounds, Suite::Cbmc).unwrap().verify_args(Path::new("/c")), "--no-clz-zero-check"));
    }

    #[test]
    fn reference_tool_options_are_passed_through() {
        let line = LINE.replace(r#""extra_flags": []"#, r#""extra_flags": ["--context-bound 2", "--ub-shift-check"]"#);
        let args = parse_task(&line, Suite::Esbmc).unwrap().verify_args(Path::new("/c"));
        assert!(args.ends_with(&["--context-bound".to_string(), "2".into(), "--ub-shift-check".into()]));
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert!(parse_task("{", Suite::Esbmc).is_err());
        assert!(parse_task(&LINE.replace("\"files\": [", "\"files\": [1, "), Suite::Esbmc).unwrap_err().contains("non-string"));
        assert!(parse_sv_tasks(r#"{"yml": "a.yml", "input": "a.c", "properties": [], "data_model": "LP64", "category": "x"}"#).is_err());
        let no_verdict = SV_LINE.replace(r#""expected_verdict": true"#, r#""expected_verdict": "true""#);
        assert!(parse_sv_tasks(&no_verdict).unwrap_err().contains("expected_verdict"));
    }

    /// A CBMC test as cbmc-regression lists it: CBMC's default checks
    /// (undefined shifts among them), no ESBMC flag line.
    const CBMC_LINE: &str = r#"{"id": "cbmc/Shift1", "suite": "cbmc", "files": ["cbmc/Shift1/main.c"], "entry": "main", "checks": {"assertions": true, "bounds": true, "pointer": true, "div_by_zero": true, "overflow_signed": true, "overflow_unsigned": false, "memory_leak": false, "nan": false, "data_races": false, "deadlock": false, "termination": false, "undefined_shift": true}, "unwind": null, "unwinding_assertions": true, "mode": "bmc", "data_model": "LP64", "force_malloc_success": false, "expected": "true", "cflags": [], "extra_flags": [], "error_label": null, "source_flags": "--max-k-step 3", "tag": "CORE", "tags": [], "desc": "test.desc"}"#;

    #[test]
    fn cbmc_default_checks_map_to_flags() {
        let task = parse_task(CBMC_LINE, Suite::Cbmc).unwrap();
        assert_eq!(task.corpus, Suite::Cbmc);
        assert_eq!(task.max_k_step, None, "only ESBMC's flag line is read for a bound");
        let args = task.verify_args(Path::new("/c"));
        assert_eq!(args, ["/c/cbmc/Shift1/main.c", "--64", "--overflow-check", "--undefined-shift-check"]);
        assert!(task.is_core() && task.in_bmc_slice());
    }

    #[test]
    fn two_ls_asks_for_an_unbounded_proof_of_assertions_only() {
        let line = CBMC_LINE
            .replace(r#""bounds": true, "pointer": true, "div_by_zero": true, "overflow_signed": true"#, r#""bounds": false, "pointer": false, "div_by_zero": false, "overflow_signed": false"#)
            .replace(r#""undefined_shift": true"#, r#""undefined_shift": false"#)
            .replace(r#""mode": "bmc""#, r#""mode": "k-induction""#)
            .replace(r#""force_malloc_success": false"#, r#""force_malloc_success": true"#);
        let args = parse_task(&line, Suite::TwoLs).unwrap().verify_args(Path::new("/c"));
        // CBMC's bit-count check goes with its bounds checks, off here.
        let flags = ["--no-bounds-check", "--no-div-by-zero-check", "--no-pointer-check", "--no-clz-zero-check", "--k-induction", "--force-malloc-success"];
        assert_eq!(args[2..], flags);
        let termination = line.replace(r#""assertions": true"#, r#""assertions": false"#).replace(r#""termination": false"#, r#""termination": true"#);
        let args = parse_task(&termination, Suite::TwoLs).unwrap().verify_args(Path::new("/c"));
        assert!(args.contains(&"--no-assertions".to_string()) && args.contains(&"--termination".to_string()), "{args:?}");
    }

    const SV_LINE: &str = r#"{"yml": "c/m/t.yml", "input": "c/m/t.i", "properties": [{"property_file": "properties/valid-memsafety.prp", "expected_verdict": false, "subproperty": "valid-free"}, {"property_file": "properties/termination.prp", "expected_verdict": true, "subproperty": null}], "data_model": "ILP32", "category": "memsafety"}"#;

    #[test]
    fn an_sv_task_is_one_task_per_property() {
        let tasks = parse_sv_tasks(SV_LINE).unwrap();
        let ids: Vec<&str> = tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["c/m/t.yml#valid-memsafety.prp", "c/m/t.yml#termination.prp"]);
        let (memsafety, termination) = (&tasks[0], &tasks[1]);
        assert_eq!((memsafety.suite.as_str(), memsafety.mode.as_str(), memsafety.expected.as_str()), ("memsafety", "valid-memsafety", "false"));
        assert_eq!(termination.expected, "true");
        assert_eq!(memsafety.verify_args(Path::new("/sv")), ["/sv/c/m/t.i", "--32", "--property", "/sv/properties/valid-memsafety.prp"]);
        assert_eq!(memsafety.dir(Path::new("/sv")), Path::new("/sv/c/m"));
        assert!(!memsafety.in_bmc_slice());
    }

    #[test]
    fn a_violation_must_be_of_the_expected_part() {
        let tasks = parse_sv_tasks(SV_LINE).unwrap();
        let free = tasks[0].property.as_ref().unwrap();
        assert!(free.expects_violation(Some("FALSE(valid-free)")));
        assert!(!free.expects_violation(Some("FALSE(valid-deref)")));
        assert!(!free.expects_violation(None));
        let whole = tasks[1].property.as_ref().unwrap();
        assert!(whole.expects_violation(Some("FALSE(termination)")) && !whole.expects_violation(Some("TRUE")));
    }

    #[test]
    fn suites_are_named_as_the_command_line_and_folders_name_them() {
        assert_eq!(Suite::parse_list("cbmc,sv").unwrap(), [Suite::Cbmc, Suite::Sv]);
        assert_eq!(Suite::parse_list("2ls-regression,2ls").unwrap(), [Suite::TwoLs]);
        assert_eq!(Suite::parse_list("all").unwrap(), Suite::ALL);
        assert!(Suite::parse_list("cpachecker").unwrap_err().contains("unknown suite 'cpachecker'"));
    }

    /// Every manifest present reads whole, and its ids name one task each
    /// (results are saved and compared by id).
    #[test]
    fn the_corpus_manifests_read() {
        for suite in Suite::ALL {
            let Some(dir) = suite.locate() else {
                println!("skipped: {} not found (../shared/corpus or TARSIER_CORPUS)", suite.folder());
                continue;
            };
            let tasks = suite.load(&dir).unwrap();
            assert!(!tasks.is_empty() && tasks.iter().all(|t| t.corpus == suite), "{}", suite.folder());
            let ids: std::collections::HashSet<&str> = tasks.iter().map(|t| t.id.as_str()).collect();
            assert_eq!(ids.len(), tasks.len(), "{}: an id names two tasks", suite.folder());
        }
    }

    #[test]
    fn sample_is_spread_and_deterministic() {
        let task = parse_task(LINE, Suite::Esbmc).unwrap();
        let tasks: Vec<Task> = (0..10).map(|i| Task { id: i.to_string(), ..task.clone() }).collect();
        let ids: Vec<String> = sample(&tasks, 3).into_iter().map(|t| t.id).collect();
        assert_eq!(ids, ["0", "3", "6"]);
        assert_eq!(sample(&tasks, 50).len(), 10);
    }
}
