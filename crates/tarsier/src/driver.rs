//! Runs one [`Config`]: compiles the program with the front end, prints its
//! diagnostics, and performs the requested action (parse only, show the IR,
//! or verify). Diagnostics go to stderr; results (the IR, the verdict) go to
//! stdout, whose last line is the verdict.

use crate::config::{Action, Config};
use crate::exit::Exit;
use cfront::diag::{Diagnostics, Severity};
use ir::SourceFiles;
use std::io::Write;

/// The prefix of front-end messages about constructs tarsier does not
/// handle yet; such inputs are UNKNOWN, not wrong.
const UNSUPPORTED: &str = "unsupported:";

pub fn run(config: &Config) -> Exit {
    if let Some(missing) = unreadable_input(config) {
        eprintln!("tarsier: error: {missing}");
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
        (Action::Verify, Some(program)) => crate::verify::run(config, program),
        (Action::ValidateWitness, Some(program)) => crate::witness::validate(config, program),
    }
}

/// Names the first input that cannot be read, so a typo in a file name is
/// reported plainly instead of as a preprocessor failure.
fn unreadable_input(config: &Config) -> Option<String> {
    let paths = config.inputs.iter().chain(&config.front.include_files);
    paths.filter_map(|path| std::fs::File::open(path).err().map(|err| format!("cannot read '{}': {err}", path.display()))).next()
}

/// Compiles the program; returns the source-file table too, so that
/// diagnostics can be rendered even when compilation fails.
fn compile(config: &Config, diags: &mut Diagnostics) -> (Option<ir::Program>, SourceFiles) {
    let mut files = SourceFiles::default();
    let Some(units) = cfront::parse_files(&config.inputs, &config.front, &mut files, diags) else {
        return (None, files);
    };
    let program = cfront::lower(units, files.clone(), &config.front, diags);
    let files = program.as_ref().map_or(files, |p| p.files.clone());
    (program, files)
}

/// When every error is about an unsupported construct, returns the first
/// one: the input is then not wrong, only beyond tarsier for now.
fn only_unsupported_errors(diags: &Diagnostics) -> Option<String> {
    let mut errors = diags.list.iter().filter(|d| d.severity == Severity::Error).map(|d| &d.message);
    let first = errors.next()?;
    let all_unsupported = first.starts_with(UNSUPPORTED) && errors.all(|m| m.starts_with(UNSUPPORTED));
    all_unsupported.then(|| first.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::Loc;

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
}
