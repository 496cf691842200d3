//! Runs one [`Config`]: compiles the program with the front end, prints its
//! diagnostics, and performs the requested action (parse only, show the IR,
//! or verify). Diagnostics go to stderr; results (the IR, the verdict) go to
//! stdout, whose last line is the verdict.

use crate::config::{Action, Config};
use crate::exit::Exit;
use cfront::diag::{Diagnostics, Severity};
use ir::SourceFiles;
use std::io::Write;

/// The prefixes of front-end messages about constructs tarsier does not
/// handle yet and about resources it could not get; such inputs are
/// UNKNOWN, not wrong.
const NOT_WRONG: [&str; 2] = ["unsupported:", cfront::diag::OUT_OF_MEMORY];

pub fn run(config: &Config) -> Exit {
    if let Some(problem) = unreadable_input(config) {
        eprintln!("{problem}");
        return Exit::InputError;
    }
    if let Some(missing) = crate::verify::missing_solver(config).filter(|_| config.action == Action::Verify) {
        eprintln!("tarsier: error: {missing}");
        return Exit::UsageError;
    }
    let mut diags = Diagnostics::default();
    let (program, files) = compile(config, &mut diags);
    eprint!("{}", diags.render(&files));
    let program = program.filter(|_| !diags.has_errors());
    match (config.action, program) {
        (Action::ParseOnly, Some(_)) => Exit::Success,
        (Action::ParseOnly, None) => Exit::InputError,
        (_, None) => match only_unsupported_errors(&diags) {
            Some(first) => crate::verify::printer(config, None).print(&report::unknown(&first)),
            None => Exit::InputError,
        },
        (Action::ShowIr, Some(program)) => {
            // A closed stdout (e.g. `| head`) must not turn into a panic.
            let _ = write!(std::io::stdout().lock(), "{program}");
            Exit::Success
        }
        (Action::ShowInvariants, Some(program)) => crate::verify::show_invariants(config, program),
        (Action::ShowLoops, Some(program)) => crate::verify::show_loops(config, program),
        (Action::Verify, Some(program)) => crate::verify::run(config, program),
        (Action::ValidateWitness, Some(program)) => crate::witness::validate(config, program),
    }
}

/// The error line for the first input that cannot be verified as C: one
/// that cannot be read (a typo in a file name is reported plainly, not as
/// a preprocessor failure), a directory, a binary file, or an empty one.
fn unreadable_input(config: &Config) -> Option<String> {
    let problem = |path: &std::path::PathBuf| match std::fs::read(path) {
        Err(_) if path.is_dir() => Some(format!("tarsier: error: '{}' is a directory, not a C source file", path.display())),
        Err(err) => Some(format!("tarsier: error: cannot read '{}': {err}", path.display())),
        Ok(bytes) => binary_content(&bytes).map(|(line, column)| {
            format!("{}:{line}:{column}: error: not a C source file: a NUL byte, as in binary files", path.display())
        }),
    };
    let empty_program = config.inputs.iter().all(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() == 0));
    if empty_program {
        let name = config.inputs.first().map_or(String::new(), |p| p.display().to_string());
        let entry = config.front.entry.as_deref().unwrap_or("main");
        return Some(format!("tarsier: error: '{name}' is empty: no entry function `{entry}` to verify"));
    }
    config.inputs.iter().chain(&config.front.include_files).find_map(problem)
}

/// Where (line, column) bytes read from an input file show they are not C
/// source text: at a NUL byte, which C text never holds and object files,
/// executables and archives do.
fn binary_content(bytes: &[u8]) -> Option<(usize, usize)> {
    let at = bytes.iter().position(|&b| b == 0)?;
    let line_start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |newline| newline + 1);
    let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
    Some((line, at - line_start + 1))
}

/// Compiles the program; returns the source-file table too, so that
/// diagnostics can be rendered even when compilation fails.
fn compile(config: &Config, diags: &mut Diagnostics) -> (Option<ir::Program>, SourceFiles) {
    let mut files = SourceFiles::default();
    let Some(units) = cfront::parse_files(&config.inputs, &config.front, &mut files, diags) else {
        return (None, files);
    };
    let mut program = cfront::lower(units, files.clone(), &config.front, diags);
    if let Some(program) = &mut program {
        analysis::evaluation_order::settle(program);
    }
    let files = program.as_ref().map_or(files, |p| p.files.clone());
    (program, files)
}

/// When every error is about an unsupported construct or a resource,
/// returns the first one: the input is then not wrong, only beyond tarsier
/// for now.
fn only_unsupported_errors(diags: &Diagnostics) -> Option<String> {
    let mut errors = diags.list.iter().filter(|d| d.severity == Severity::Error).map(|d| &d.message);
    let first = errors.next()?;
    let not_wrong = |message: &String| NOT_WRONG.iter().any(|prefix| message.starts_with(prefix));
    let all_not_wrong = not_wrong(first) && errors.all(not_wrong);
    all_not_wrong.then(|| first.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::Loc;

    #[test]
    fn a_nul_byte_is_located() {
        assert_eq!(binary_content(b"int x;\nint\0"), Some((2, 4)));
        assert_eq!(binary_content(b"\0"), Some((1, 1)));
        assert_eq!(binary_content(b"int main(void) { return 0; }\n"), None);
    }

    #[test]
    fn unsupported_only_when_every_error_is() {
        let mut diags = Diagnostics::default();
        assert_eq!(only_unsupported_errors(&diags), None, "no errors: nothing to report");
        diags.warning(Loc::NONE, "implicit declaration");
        diags.error(Loc::NONE, "unsupported: va_arg");
        diags.error(Loc::NONE, "unsupported: complex arithmetic");
        assert_eq!(only_unsupported_errors(&diags).as_deref(), Some("unsupported: va_arg"));
        diags.error(Loc::NONE, "expected `;`");
        assert_eq!(only_unsupported_errors(&diags), None, "a real error makes it an input error");
    }

    #[test]
    fn resources_the_front_end_could_not_get_are_unknown() {
        let mut diags = Diagnostics::default();
        diags.error(Loc::NONE, "out of memory: cannot start the lowering thread: Cannot allocate memory");
        assert!(only_unsupported_errors(&diags).is_some_and(|first| first.contains("lowering thread")));
    }
}
