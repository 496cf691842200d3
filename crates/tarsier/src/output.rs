//! Writes the result of a run on stdout in the format the command line
//! asks for (the formats themselves are the `report` crate's) and gives
//! the exit code of its verdict.

use crate::exit::Exit;
use engine::{Outcome, Verdict};
use report::svcomp::Category;
use std::io::Write;

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
}

impl Printer<'_> {
    /// Prints `outcome` on stdout and returns the exit code of its verdict.
    /// A run prints one verdict: when a resource limit has ended the run
    /// meanwhile, its verdict stands and this thread waits for the exit.
    pub fn print(&self, outcome: &Outcome) -> Exit {
        crate::limits::claim_verdict();
        self.write(outcome)
    }

    /// Prints `outcome` without claiming the verdict (see [`Self::print`]).
    pub(crate) fn write(&self, outcome: &Outcome) -> Exit {
        let report = report::Report { outcome, program: self.program, property: self.property };
        let text = match self.style {
            Style::Text => report::text::render(&report),
            Style::Json => format!("{:#}\n", report::json::render(&report)),
        };
        // A closed stdout (e.g. `| head`) must not turn into a panic.
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
        exit_of(&outcome.verdict)
    }
}

fn exit_of(verdict: &Verdict) -> Exit {
    match verdict {
        Verdict::True | Verdict::BoundedTrue { .. } => Exit::Success,
        Verdict::False(_) => Exit::Failed,
        Verdict::Unknown(_) => Exit::Unknown,
    }
}
