//! Command-line parsing: turns `argv` into a [`Config`], or a usage error
//! that names the offending argument (and, for an unknown flag, the closest
//! valid one and the full list).
//!
//! `-D`, `-U` and `-I` take their argument attached or separate, as `cc`
//! does; long flags take theirs as `--flag VALUE` or `--flag=VALUE`.

use crate::config::{Action, Config, Engine, WitnessFormat};
use engine::{ExternalSolver, SolverChoice};
use ir::RoundingMode;
use ir::DataModel;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// A flag tarsier accepts; `value` names its argument, if it takes one.
pub struct FlagSpec {
    pub name: &'static str,
    pub value: Option<&'static str>,
}

const fn switch(name: &'static str) -> FlagSpec {
    FlagSpec { name, value: None }
}
const fn with_value(name: &'static str, value: &'static str) -> FlagSpec {
    FlagSpec { name, value: Some(value) }
}

/// Every flag, in the order the manual lists them.
pub const FLAGS: &[FlagSpec] = &[
    with_value("-D", "NAME[=VALUE]"),
    with_value("-U", "NAME"),
    with_value("-I", "DIR"),
    with_value("--include", "FILE"),
    with_value("--cpp", "CMD"),
    switch("--32"),
    switch("--64"),
    with_value("--function", "NAME"),
    switch("--parse-only"),
    switch("--show-ir"),
    switch("--show-invariants"),
    switch("--inject-wrong-invariants"),
    with_value("--unwind", "N"),
    with_value("--context-bound", "N"),
    switch("--no-unwinding-assertions"),
    switch("--incremental-bmc"),
    with_value("--max-k-step", "N"),
    switch("--k-induction"),
    switch("--k-induction-parallel"),
    switch("--bidirectional"),
    switch("--no-invariants"),
    with_value("--k-step", "N"),
    switch("--termination"),
    switch("--no-assertions"),
    switch("--no-bounds-check"),
    switch("--no-pointer-check"),
    switch("--no-pointer-relation-check"),
    switch("--no-align-check"),
    switch("--no-vla-size-check"),
    switch("--no-div-by-zero-check"),
    switch("--overflow-check"),
    switch("--unsigned-overflow-check"),
    switch("--float-overflow-check"),
    switch("--ub-shift-check"),
    switch("--undefined-shift-check"),
    switch("--no-library-assertions"),
    switch("--clz-zero-check"),
    switch("--no-clz-zero-check"),
    switch("--memory-leak-check"),
    switch("--nan-check"),
    switch("--data-races-check"),
    switch("--deadlock-check"),
    with_value("--error-label", "LABEL"),
    switch("--force-malloc-success"),
    switch("--force-realloc-success"),
    switch("--round-to-nearest"),
    switch("--round-to-plus-inf"),
    switch("--round-to-minus-inf"),
    switch("--round-to-zero"),
    switch("--multi-property"),
    with_value("--property", "FILE.prp"),
    with_value("--witness", "FILE"),
    with_value("--witness-output", "FILE"),
    with_value("--graphml-witness", "FILE"),
    with_value("--witness-format", "yaml|graphml"),
    with_value("--validate-witness", "FILE"),
    switch("--json"),
    with_value("--sarif", "FILE"),
    with_value("--html", "FILE"),
    with_value("--harness", "FILE.c"),
    with_value("--test-suite", "DIR"),
    with_value("--smt-formula", "FILE"),
    with_value("--solver", "NAME"),
    switch("--z3"),
    switch("--cvc5"),
    switch("--bitwuzla"),
    with_value("--crosscheck", "NAME"),
    with_value("--crosscheck-dir", "DIR"),
    with_value("--timeout", "SECONDS"),
    with_value("--memlimit", "MB"),
    // The spellings of ESBMC and CBMC for the same options (README's table).
    switch("--bounds-check"),
    switch("--pointer-check"),
    switch("--div-by-zero-check"),
    switch("--signed-overflow-check"),
    with_value("--unwindset", "LOOP:N,..."),
    switch("--show-loops"),
    switch("--no-slice"),
    switch("--boolector"),
    switch("--yices"),
    switch("--mathsat"),
    switch("--show-vcc"),
    with_value("--verbosity", "N"),
    switch("--help"),
    switch("-h"),
    switch("--version"),
    switch("-V"),
];

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    Run(Box<Config>),
    Help,
    Version,
}

/// A malformed command line.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Command, UsageError> {
    let mut config = Config::default();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--" {
            config.inputs.extend(rest.by_ref().map(PathBuf::from));
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            config.inputs.push(PathBuf::from(arg));
            continue;
        }
        let (spec, attached) = find_flag(arg)?;
        let value = match (spec.value, attached) {
            (None, None) => None,
            (None, Some(_)) => return Err(UsageError(format!("flag {} takes no value (in '{arg}')", spec.name))),
            (Some(_), Some(v)) => Some(v.to_string()),
            (Some(what), None) => match rest.next() {
                Some(v) => Some(v.clone()),
                None => return Err(UsageError(format!("flag {} needs a value: {} {what}", spec.name, spec.name))),
            },
        };
        match spec.name {
            "--help" | "-h" => return Ok(Command::Help),
            "--version" | "-V" => return Ok(Command::Version),
            _ => apply(&mut config, spec.name, value)?,
        }
    }
    check_consistency(&config)?;
    if let Some(property) = config.verify.property {
        crate::svcomp::configure(property, &mut config.verify);
    }
    Ok(Command::Run(Box::new(config)))
}

/// Splits `arg` into a known flag and its attached value (`-DX`, `--unwind=3`).
fn find_flag(arg: &str) -> Result<(&'static FlagSpec, Option<&str>), UsageError> {
    if let Some(spec) = FLAGS.iter().find(|f| f.name == arg) {
        return Ok((spec, None));
    }
    let attached = if arg.starts_with("--") {
        arg.split_once('=').and_then(|(name, value)| FLAGS.iter().find(|f| f.name == name).map(|f| (f, value)))
    } else {
        FLAGS
            .iter()
            .find(|f| f.name.len() == 2 && f.value.is_some() && arg.starts_with(f.name))
            .map(|f| (f, &arg[2..]))
    };
    attached.map(|(f, v)| (f, Some(v))).ok_or_else(|| unknown_flag(arg))
}

fn unknown_flag(arg: &str) -> UsageError {
    let name = arg.split_once('=').map_or(arg, |(n, _)| n);
    let closest = FLAGS.iter().map(|f| (edit_distance(name, f.name), f.name)).min().filter(|&(d, _)| d <= 3);
    let mut msg = format!("unknown flag '{name}'");
    if let Some((_, suggestion)) = closest {
        msg.push_str(&format!(" (did you mean '{suggestion}'?)"));
    }
    msg.push_str("\nvalid flags:");
    for f in FLAGS {
        msg.push_str("\n  ");
        msg.push_str(f.name);
        if let Some(v) = f.value {
            msg.push(' ');
            msg.push_str(v);
        }
    }
    UsageError(msg)
}

/// Levenshtein distance, for suggesting the flag the user meant.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let substitute = prev[j] + usize::from(ca != cb);
            cur.push(substitute.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

fn apply(config: &mut Config, name: &str, value: Option<String>) -> Result<(), UsageError> {
    let value_of = |v: Option<String>| v.expect("FLAGS says this flag takes a value");
    let front = &mut config.front;
    let verify = &mut config.verify;
    let checks = &mut verify.checks;
    match name {
        "-D" => front.macro_args.push(format!("-D{}", non_empty(name, value_of(value))?)),
        "-U" => front.macro_args.push(format!("-U{}", non_empty(name, value_of(value))?)),
        "-I" => front.include_dirs.push(PathBuf::from(non_empty(name, value_of(value))?)),
        "--include" => front.include_files.push(PathBuf::from(non_empty(name, value_of(value))?)),
        "--cpp" => front.cpp = Some(non_empty(name, value_of(value))?),
        "--32" => front.data_model = DataModel::ILP32,
        "--64" => front.data_model = DataModel::LP64,
        "--function" => front.entry = Some(non_empty(name, value_of(value))?),
        "--parse-only" => set_action(config, Action::ParseOnly)?,
        "--show-ir" => set_action(config, Action::ShowIr)?,
        "--show-invariants" => set_action(config, Action::ShowInvariants)?,
        "--inject-wrong-invariants" => verify.inject_wrong_invariants = true,
        "--unwind" => verify.unwind = Some(number(name, &value_of(value))?),
        "--context-bound" => verify.context_bound = Some(number(name, &value_of(value))?),
        "--no-unwinding-assertions" => verify.unwinding_assertions = false,
        "--incremental-bmc" => set_engine(&mut verify.engine, Engine::IncrementalBmc)?,
        "--max-k-step" => match number(name, &value_of(value))? {
            0 => return Err(UsageError("flag --max-k-step needs a bound of at least 1".into())),
            bound => verify.max_k_step = Some(bound),
        },
        "--k-induction" => set_engine(&mut verify.engine, Engine::KInduction)?,
        "--bidirectional" => {
            set_engine(&mut verify.engine, Engine::KInduction)?;
            verify.bidirectional = true;
        }
        "--k-induction-parallel" => {
            set_engine(&mut verify.engine, Engine::KInduction)?;
            verify.parallel = true;
        }
        "--no-invariants" => verify.invariants = false,
        "--k-step" => match number(name, &value_of(value))? {
            0 => return Err(UsageError("flag --k-step needs a step of at least 1".into())),
            n => verify.k_step = n,
        },
        "--termination" => checks.termination = true,
        "--no-assertions" => checks.assertions = false,
        "--no-bounds-check" => checks.bounds = false,
        "--no-pointer-check" => checks.pointer = false,
        "--no-pointer-relation-check" => checks.pointer_relation = false,
        "--no-align-check" => checks.alignment = false,
        "--no-vla-size-check" => checks.vla_length = false,
        "--no-div-by-zero-check" => checks.div_by_zero = false,
        "--overflow-check" => checks.signed_overflow = true,
        "--unsigned-overflow-check" => checks.unsigned_overflow = true,
        "--float-overflow-check" => checks.float_overflow = true,
        "--ub-shift-check" => {
            checks.shift = true;
            checks.shift_result = true;
        }
        "--undefined-shift-check" => checks.shift = true,
        "--no-library-assertions" => checks.library_assertions = false,
        "--clz-zero-check" => checks.bit_count = true,
        "--no-clz-zero-check" => checks.bit_count = false,
        "--memory-leak-check" => checks.memory_leak = true,
        "--nan-check" => checks.nan = true,
        "--data-races-check" => checks.data_races = true,
        "--deadlock-check" => checks.deadlock = true,
        "--error-label" => verify.error_label = Some(non_empty(name, value_of(value))?),
        "--force-malloc-success" => verify.force_malloc_success = true,
        "--force-realloc-success" => verify.force_realloc_success = true,
        "--round-to-nearest" => front.rounding_mode = RoundingMode::NearestEven,
        "--round-to-plus-inf" => front.rounding_mode = RoundingMode::Upward,
        "--round-to-minus-inf" => front.rounding_mode = RoundingMode::Downward,
        "--round-to-zero" => front.rounding_mode = RoundingMode::TowardZero,
        "--multi-property" => verify.multi_property = true,
        "--property" => {
            let path = PathBuf::from(non_empty(name, value_of(value))?);
            crate::svcomp::set_property(report::svcomp::read(&path).map_err(UsageError)?, verify);
        }
        "--witness" | "--witness-output" => verify.witness = Some(PathBuf::from(non_empty(name, value_of(value))?)),
        "--graphml-witness" => {
            verify.witness = Some(PathBuf::from(non_empty(name, value_of(value))?));
            verify.witness_format = WitnessFormat::GraphMl;
        }
        "--witness-format" => verify.witness_format = witness_format(&value_of(value))?,
        "--validate-witness" => {
            verify.witness_to_validate = Some(PathBuf::from(non_empty(name, value_of(value))?));
            set_action(config, Action::ValidateWitness)?;
        }
        "--json" => verify.json = true,
        "--sarif" => verify.sarif = Some(PathBuf::from(non_empty(name, value_of(value))?)),
        "--html" => verify.html = Some(PathBuf::from(non_empty(name, value_of(value))?)),
        "--harness" => verify.harness = Some(PathBuf::from(non_empty(name, value_of(value))?)),
        "--test-suite" => verify.test_suite = Some(PathBuf::from(non_empty(name, value_of(value))?)),
        "--smt-formula" => verify.smt_formula = Some(PathBuf::from(non_empty(name, value_of(value))?)),
        "--solver" => verify.solver = solver_choice(&non_empty(name, value_of(value))?)?,
        "--z3" | "--cvc5" | "--bitwuzla" => verify.solver = solver_choice(&name[2..])?,
        "--crosscheck" => verify.crosscheck = Some(external_solver(&non_empty(name, value_of(value))?)?),
        "--crosscheck-dir" => verify.crosscheck_dir = Some(PathBuf::from(non_empty(name, value_of(value))?)),
        "--timeout" => verify.timeout = Some(Duration::from_secs(number(name, &value_of(value))?)),
        "--memlimit" => verify.memlimit_mb = Some(number(name, &value_of(value))?),
        "--bounds-check" => checks.bounds = true,
        "--pointer-check" => checks.pointer = true,
        "--div-by-zero-check" => checks.div_by_zero = true,
        "--signed-overflow-check" => checks.signed_overflow = true,
        "--unwindset" => verify.unwindset.extend(unwindset(&value_of(value))?),
        "--show-loops" => set_action(config, Action::ShowLoops)?,
        // tarsier builds no slice of the formula to switch off.
        "--no-slice" => {}
        "--boolector" | "--yices" | "--mathsat" => verify.solver = solver_choice(&name[2..])?,
        "--show-vcc" => verify.smt_formula = Some(PathBuf::from("-")),
        "--verbosity" => verify.verbosity = number(name, &value_of(value))?,
        other => unreachable!("flag {other} is in FLAGS but has no meaning"),
    }
    Ok(())
}

fn witness_format(name: &str) -> Result<WitnessFormat, UsageError> {
    match name {
        "yaml" => Ok(WitnessFormat::Yaml),
        "graphml" => Ok(WitnessFormat::GraphMl),
        other => Err(UsageError(format!("flag --witness-format takes yaml or graphml, not '{other}'"))),
    }
}

fn non_empty(flag: &str, value: String) -> Result<String, UsageError> {
    if value.is_empty() {
        return Err(UsageError(format!("flag {flag} needs a non-empty value")));
    }
    Ok(value)
}

fn number(flag: &str, value: &str) -> Result<u64, UsageError> {
    value
        .parse()
        .map_err(|_| UsageError(format!("flag {flag} needs a non-negative whole number, not '{value}'")))
}

/// `--unwindset main.0:5,f.1:2` (CBMC's spelling; ESBMC's is the same with
/// its own loop numbers): per-loop bounds, the loops named as
/// `--show-loops` prints them.
fn unwindset(value: &str) -> Result<Vec<(String, u64)>, UsageError> {
    let entry = |item: &str| match item.rsplit_once(':') {
        Some((name, bound)) if !name.is_empty() => Ok((name.to_string(), number("--unwindset", bound)?)),
        _ => Err(UsageError(format!("flag --unwindset needs LOOP:N (loop ids as --show-loops prints them), not '{item}'"))),
    };
    value.split(',').map(str::trim).filter(|item| !item.is_empty()).map(entry).collect()
}

fn solver_choice(name: &str) -> Result<SolverChoice, UsageError> {
    match name {
        "cadical" => Ok(SolverChoice::Cadical),
        _ => external_solver(name).map(SolverChoice::External),
    }
}

fn external_solver(name: &str) -> Result<ExternalSolver, UsageError> {
    ExternalSolver::named(name).map_err(UsageError)
}

fn set_action(config: &mut Config, action: Action) -> Result<(), UsageError> {
    if config.action != Action::Verify && config.action != action {
        return Err(UsageError("--parse-only, --show-ir, --show-invariants, --show-loops and --validate-witness exclude each other".into()));
    }
    config.action = action;
    Ok(())
}

fn set_engine(engine: &mut Engine, chosen: Engine) -> Result<(), UsageError> {
    if *engine != Engine::Bmc && *engine != chosen {
        return Err(UsageError("--incremental-bmc and --k-induction exclude each other".into()));
    }
    *engine = chosen;
    Ok(())
}

fn check_consistency(config: &Config) -> Result<(), UsageError> {
    if config.inputs.is_empty() {
        return Err(UsageError("no input file given (usage: tarsier FILE... [options])".into()));
    }
    let verify = &config.verify;
    if verify.crosscheck.is_some() && verify.solver != SolverChoice::Cadical {
        return Err(UsageError("--crosscheck compares CaDiCaL with another solver: it excludes --solver".into()));
    }
    if verify.crosscheck_dir.is_some() && verify.crosscheck.is_none() {
        return Err(UsageError("--crosscheck-dir needs --crosscheck NAME".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Config, UsageError> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        match parse(&args)? {
            Command::Run(config) => Ok(*config),
            other => panic!("expected a run, got {other:?}"),
        }
    }

    #[test]
    fn define_and_include_dir_attached_or_separate() {
        let c = run(&["a.c", "-DX=1", "-D", "Y", "-UZ", "-U", "W", "-Iinc", "-I", "dir"]).unwrap();
        assert_eq!(c.front.macro_args, ["-DX=1", "-DY", "-UZ", "-UW"]);
        assert_eq!(c.front.include_dirs, [PathBuf::from("inc"), PathBuf::from("dir")]);
    }

    #[test]
    fn several_files_are_one_program() {
        let c = run(&["a.c", "--32", "b.c", "--", "-odd.c"]).unwrap();
        assert_eq!(c.inputs, [PathBuf::from("a.c"), PathBuf::from("b.c"), PathBuf::from("-odd.c")]);
        assert_eq!(c.front.data_model, DataModel::ILP32);
    }

    #[test]
    fn long_flag_values_separate_or_with_equals() {
        let c = run(&["a.c", "--unwind=7", "--function", "f", "--timeout", "3", "--error-label=ERR"]).unwrap();
        assert_eq!(c.verify.unwind, Some(7));
        assert_eq!(c.front.entry.as_deref(), Some("f"));
        assert_eq!(c.verify.timeout, Some(Duration::from_secs(3)));
        assert_eq!(c.verify.error_label.as_deref(), Some("ERR"));
        assert_eq!(run(&["a.c", "--incremental-bmc", "--max-k-step", "5"]).unwrap().verify.max_k_step, Some(5));
    }

    #[test]
    fn check_flags_change_the_defaults() {
        let c = run(&["a.c", "--no-bounds-check", "--overflow-check", "--memory-leak-check", "--k-induction"]).unwrap();
        assert!(!c.verify.checks.bounds && c.verify.checks.signed_overflow && c.verify.checks.memory_leak);
        assert!(c.verify.checks.pointer);
        // Integer overflow only, as CBMC's and SV-COMP's; floats have their own flag.
        assert!(!c.verify.checks.float_overflow && !c.verify.checks.unsigned_overflow);
        let floats = run(&["a.c", "--float-overflow-check"]).unwrap();
        assert!(floats.verify.checks.float_overflow && !floats.verify.checks.signed_overflow);
        assert_eq!(c.verify.engine, Engine::KInduction);
    }

    #[test]
    fn unknown_flag_suggests_the_closest_and_lists_all() {
        let err = run(&["a.c", "--unwnd", "3"]).unwrap_err();
        assert!(err.0.contains("unknown flag '--unwnd'"), "{err}");
        assert!(err.0.contains("did you mean '--unwind'?"), "{err}");
        assert!(err.0.contains("--parse-only") && err.0.contains("--memlimit MB"), "{err}");
    }

    #[test]
    fn bad_values_are_usage_errors() {
        assert!(run(&["a.c", "--unwind", "many"]).unwrap_err().0.contains("whole number"));
        assert!(run(&["a.c", "--unwind"]).unwrap_err().0.contains("needs a value"));
        assert!(run(&["a.c", "--json=yes"]).unwrap_err().0.contains("takes no value"));
        assert!(run(&["a.c", "-D"]).unwrap_err().0.contains("needs a value"));
        assert!(run(&["--32"]).unwrap_err().0.contains("no input file"));
        assert!(run(&["a.c", "--parse-only", "--show-ir"]).is_err());
        assert!(run(&["a.c", "--k-induction", "--incremental-bmc"]).is_err());
        assert!(run(&["a.c", "--max-k-step", "0"]).unwrap_err().0.contains("at least 1"));
    }

    #[test]
    fn esbmc_and_cbmc_spellings_mean_the_same() {
        let c = run(&["a.c", "--no-bounds-check", "--bounds-check", "--signed-overflow-check", "--no-slice"]).unwrap();
        assert!(c.verify.checks.bounds && c.verify.checks.signed_overflow && !c.verify.checks.unsigned_overflow);
        let c = run(&["a.c", "--unwindset", "main.0:5,f.1:2", "--unwindset=3:7", "--verbosity", "0"]).unwrap();
        assert_eq!(c.verify.unwindset, [("main.0".to_string(), 5), ("f.1".to_string(), 2), ("3".to_string(), 7)]);
        assert_eq!(c.verify.verbosity, 0);
        assert!(run(&["a.c", "--unwindset", "main.0"]).unwrap_err().0.contains("LOOP:N"));
        assert!(run(&["a.c", "--unwindset", "main.0:x"]).unwrap_err().0.contains("whole number"));
        assert_eq!(run(&["a.c", "--show-loops"]).unwrap().action, Action::ShowLoops);
        assert_eq!(run(&["a.c", "--show-vcc"]).unwrap().verify.smt_formula, Some(PathBuf::from("-")));
        let yices = run(&["a.c", "--yices"]).unwrap().verify.solver;
        assert!(matches!(yices, SolverChoice::External(s) if s.program == "yices-smt2"));
    }

    #[test]
    fn solvers_by_name_or_alias() {
        assert_eq!(run(&["a.c"]).unwrap().verify.solver, SolverChoice::Cadical);
        let z3 = SolverChoice::External(ExternalSolver::named("z3").unwrap());
        assert_eq!(run(&["a.c", "--solver", "z3"]).unwrap().verify.solver, z3);
        assert_eq!(run(&["a.c", "--z3"]).unwrap().verify.solver, z3);
        let cvc5 = run(&["a.c", "--cvc5"]).unwrap().verify.solver;
        assert_eq!(cvc5, SolverChoice::External(ExternalSolver::named("cvc5").unwrap()));
        let custom = run(&["a.c", "--solver=smtlib:yices-smt2 --incremental"]).unwrap().verify.solver;
        assert!(matches!(custom, SolverChoice::External(s) if s.program == "yices-smt2"));
        assert!(run(&["a.c", "--solver", "minisat"]).unwrap_err().0.contains("unknown solver 'minisat'"));
        let c = run(&["a.c", "--crosscheck", "z3", "--crosscheck-dir", "out"]).unwrap();
        assert_eq!(c.verify.crosscheck.map(|s| s.name), Some("z3".to_string()));
        assert!(run(&["a.c", "--crosscheck", "z3", "--z3"]).unwrap_err().0.contains("excludes --solver"));
        assert!(run(&["a.c", "--crosscheck-dir", "out"]).unwrap_err().0.contains("needs --crosscheck"));
    }

    #[test]
    fn help_and_version() {
        assert!(matches!(parse(&["--help".to_string()]), Ok(Command::Help)));
        assert!(matches!(parse(&["a.c".to_string(), "-V".to_string()]), Ok(Command::Version)));
    }

    #[test]
    fn every_flag_has_a_meaning() {
        let prp = std::env::temp_dir().join(format!("tarsier-args-{}.prp", std::process::id()));
        std::fs::write(&prp, "CHECK( init(main()), LTL(G ! overflow) )\n").unwrap();
        for flag in FLAGS.iter().filter(|f| !["--help", "-h", "--version", "-V"].contains(&f.name)) {
            let mut config = Config::default();
            let value = match flag.name {
                "--property" => Some(prp.display().to_string()),
                "--solver" | "--crosscheck" => Some("z3".to_string()),
                "--unwindset" => Some("main.0:1".to_string()),
                "--witness-format" => Some("graphml".to_string()),
                _ => flag.value.map(|_| "1".to_string()),
            };
            apply(&mut config, flag.name, value).unwrap();
        }
        let _ = std::fs::remove_file(prp);
    }

    #[test]
    fn a_property_file_sets_the_checks() {
        let prp = std::env::temp_dir().join(format!("tarsier-args-memsafety-{}.prp", std::process::id()));
        std::fs::write(&prp, "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n\
                              CHECK( init(main()), LTL(G valid-memtrack) )\n").unwrap();
        let c = run(&["a.c", "--overflow-check", "--property", prp.to_str().unwrap()]).unwrap();
        let _ = std::fs::remove_file(&prp);
        assert!(c.verify.checks.memory_leak && !c.verify.checks.signed_overflow && !c.verify.checks.assertions);
        assert!(run(&["a.c", "--property", "/nonexistent.prp"]).unwrap_err().0.contains("cannot read"));
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("--unwnd", "--unwind"), 1);
        assert_eq!(edit_distance("abc", "abc"), 0);
        assert_eq!(edit_distance("", "ab"), 2);
    }
}
