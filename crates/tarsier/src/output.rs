//! Writes the result of a run on stdout in the format the command line
//! asks for, and into the report files it names (`--sarif`, `--html`); the formats
//! themselves are the `report` crate's. Gives the exit code of the verdict.

use crate::exit::Exit;
use engine::{Outcome, Verdict};
use report::svcomp::Category;
use std::io::Write;
use std::path::PathBuf;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Style {
    Text,
    Json,
}

/// What a result is printed with.
pub struct Printer<'a> {
    pub style: Style,
    /// Resolves locations; absent when the front end did not produce one.
    pub program: Option<&'a ir::Program>,
    pub property: Option<Category>,
    /// `--sarif FILE`.
    pub sarif: Option<PathBuf>,
    /// `--html FILE`.
    pub html: Option<PathBuf>,
    /// The program's files as given, which the HTML page shows.
    pub inputs: Vec<PathBuf>,
    /// Where to write the counterexample's executable harness.
    pub harness: Option<std::path::PathBuf>,
    /// Where to write the Test-Comp test suite, and the program file it is of.
    pub test_suite: Option<(std::path::PathBuf, std::path::PathBuf)>,
}

impl Printer<'_> {
    /// Prints `outcome` on stdout and returns the exit code of its verdict.
    /// A run prints one verdict: when a resource limit has ended the run
    /// meanwhile, its verdict stands and this thread waits for the exit.
    pub fn print(&self, outcome: &Outcome) -> Exit {
        crate::progress::stop();
        crate::limits::claim_verdict();
        let exit = self.write(outcome);
        crate::limits::release_verdict();
        exit
    }

    /// Prints `outcome` without claiming the verdict (see [`Self::print`]).
    pub(crate) fn write(&self, outcome: &Outcome) -> Exit {
        let report = report::Report { outcome, program: self.program, property: self.property };
        self.write_documents(&report);
        let text = match self.style {
            Style::Text => report::text::render(&report),
            Style::Json => format!("{:#}\n", report::json::render(&report)),
        };
        // A closed stdout (e.g. `| head`) must not turn into a panic.
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
        drop(out);
        exit_of(&outcome.verdict)
    }
}

impl Printer<'_> {
    /// Writes the report files; one that cannot be written is said on
    /// stderr, and the verdict still stands.
    fn write_documents(&self, report: &report::Report) {
        if let Some(path) = &self.sarif {
            write_file(path, Ok(format!("{:#}\n", report::sarif::render(report))));
        }
        if let Some(path) = &self.html {
            let inputs: Vec<String> = self.inputs.iter().map(|p| p.display().to_string()).collect();
            write_file(path, Ok(report::html::render(report, &inputs, &|name| std::fs::read_to_string(name).ok())));
        }
        if let Some(path) = &self.harness {
            let model_headers = cfront::model_headers::include_dir();
            match report::harness::render(report, path, model_headers.as_deref(), &|name| std::fs::read_to_string(name).ok()) {
                Ok(files) => files.into_iter().for_each(|(path, text)| write_file(&path, Ok(text))),
                Err(why) => eprintln!("tarsier: {why}"),
            }
        }
        if let Some((dir, program)) = &self.test_suite {
            write_test_suite(dir, program, report);
        }
    }
}

/// Writes a document a flag asks for, or says on stderr why it is not
/// written (the verdict's exit code stays).
fn write_file(path: &std::path::Path, text: Result<String, String>) {
    let written = text.and_then(|text| std::fs::write(path, text).map_err(|e| format!("cannot write '{}': {e}", path.display())));
    if let Err(why) = written {
        eprintln!("tarsier: {why}");
    }
}

/// Writes the Test-Comp test suite into `dir` (made if missing).
fn write_test_suite(dir: &std::path::Path, program: &std::path::Path, report: &report::Report) {
    let text = match std::fs::read(program) {
        Ok(text) => text,
        Err(e) => return eprintln!("tarsier: cannot read '{}': {e}", program.display()),
    };
    let about = report::testcomp::Program { file: &program.display().to_string(), text: &text, creation_time: &report::clock::utc_now() };
    let files = report::testcomp::render(report, &about);
    let made = files.and_then(|files| std::fs::create_dir_all(dir).map(|()| files).map_err(|e| format!("cannot make '{}': {e}", dir.display())));
    match made {
        Ok(files) => files.into_iter().for_each(|(name, text)| write_file(&dir.join(name), Ok(text))),
        Err(why) => eprintln!("tarsier: {why}"),
    }
}

fn exit_of(verdict: &Verdict) -> Exit {
    match verdict {
        Verdict::True | Verdict::BoundedTrue { .. } => Exit::Success,
        Verdict::False(_) => Exit::Failed,
        Verdict::Unknown(_) => Exit::Unknown,
    }
}
