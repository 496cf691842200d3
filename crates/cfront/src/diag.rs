//! Diagnostics: errors and warnings with a source location, rendered as
//! `file:line:col: error: message` followed by the source line and a caret.

use ir::{Loc, SourceFiles};
use std::fmt::Write as _;

/// The prefix of errors about resources the front end could not get (the
/// stack of its worker threads): the input is not wrong, the run is
/// UNKNOWN.
pub const OUT_OF_MEMORY: &str = "out of memory:";

/// How far back a warning is looked for before it is recorded again.
const WARNINGS_LOOKED_BACK: usize = 64;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub loc: Loc,
    pub message: String,
}

/// Collects the diagnostics of one compilation.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    pub list: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn error(&mut self, loc: Loc, message: impl Into<String>) {
        self.push(Severity::Error, loc, message.into());
    }
    pub fn warning(&mut self, loc: Loc, message: impl Into<String>) {
        self.push(Severity::Warning, loc, message.into());
    }
    pub fn note(&mut self, loc: Loc, message: impl Into<String>) {
        self.push(Severity::Note, loc, message.into());
    }
    /// Records a diagnostic; a warning only once (an operand lowered in
    /// several evaluation orders would repeat it).
    fn push(&mut self, severity: Severity, loc: Loc, message: String) {
        let repeated = |d: &Diagnostic| d.severity == severity && d.loc == loc && d.message == message;
        if severity == Severity::Warning && self.list.iter().rev().take(WARNINGS_LOOKED_BACK).any(repeated) {
            return;
        }
        self.list.push(Diagnostic { severity, loc, message });
    }
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|d| d.severity == Severity::Error)
    }
    pub fn error_count(&self) -> usize {
        self.list.iter().filter(|d| d.severity == Severity::Error).count()
    }

    /// Renders every diagnostic, with the source line and a caret when the
    /// original file can be read.
    pub fn render(&self, files: &SourceFiles) -> String {
        let mut out = String::new();
        for d in &self.list {
            render_one(&mut out, d, files);
        }
        out
    }
}

fn render_one(out: &mut String, d: &Diagnostic, files: &SourceFiles) {
    let kind = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    if d.loc.is_none() {
        let _ = writeln!(out, "tarsier: {kind}: {}", d.message);
        return;
    }
    let name = files.name(d.loc.file);
    let _ = writeln!(out, "{name}:{}:{}: {kind}: {}", d.loc.line, d.loc.col, d.message);
    if let Some(line) = source_line(name, d.loc.line) {
        let caret_pad: String = line
            .chars()
            .take(d.loc.col.saturating_sub(1) as usize)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let _ = writeln!(out, "  {line}\n  {caret_pad}^");
    }
}

fn source_line(path: &str, line: u32) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    text.lines().nth(line.checked_sub(1)? as usize).map(|l| l.to_string())
}
