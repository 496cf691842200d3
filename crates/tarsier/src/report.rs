//! The result of a run as the user sees it: either text whose last line is
//! the verdict (`VERIFICATION SUCCESSFUL|FAILED|UNKNOWN`), or with `--json`
//! one JSON document holding the same verdict, reason, counterexample,
//! approximations and run figures. With a property file, the SV-COMP result
//! (`TRUE`, `FALSE(...)`, `UNKNOWN`) is added: a line before the verdict, or
//! the `svcomp` field.

use crate::exit::Exit;
use crate::svcomp::Category;
use engine::{CrossCheckReport, Outcome, Stats, TraceLine, Verdict};
use serde_json::{json, Value};
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
    pub fn print(&self, outcome: &Outcome) -> Exit {
        let text = match self.style {
            Style::Text => self.text(outcome),
            Style::Json => format!("{:#}\n", self.json(outcome)),
        };
        // A closed stdout (e.g. `| head`) must not turn into a panic.
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
        exit_of(&outcome.verdict)
    }

    fn location(&self, loc: ir::Loc) -> (String, u32) {
        match self.program {
            Some(program) if !loc.is_none() => (program.files.name(loc.file).to_string(), loc.line),
            _ => ("<built-in>".to_string(), 0),
        }
    }

    fn place(&self, loc: ir::Loc) -> String {
        match self.location(loc) {
            (file, 0) => file,
            (file, line) => format!("{file}:{line}"),
        }
    }

    /// The SV-COMP result line, when a property file was given.
    fn svcomp_result(&self, verdict: &Verdict) -> Option<&'static str> {
        let category = self.property?;
        Some(match verdict {
            Verdict::True => "TRUE",
            Verdict::False(cex) => category.violation(cex.property.class).unwrap_or("UNKNOWN"),
            Verdict::BoundedTrue { .. } | Verdict::Unknown(_) => "UNKNOWN",
        })
    }

    fn text(&self, outcome: &Outcome) -> String {
        let mut out = String::new();
        for approximation in &outcome.approximations {
            out += &format!("approximation: {}: {}\n", self.place(approximation.loc), approximation.what);
        }
        match &outcome.verdict {
            Verdict::True => {}
            Verdict::BoundedTrue { bound: Some(bound) } => {
                out += &format!("no violation within the unwinding bound {bound} (assumed, not checked)\n");
            }
            Verdict::BoundedTrue { bound: None } => {
                out += "no violation within the loop bounds the program gives (assumed, not checked)\n";
            }
            Verdict::False(cex) => {
                out += "Counterexample:\n";
                for TraceLine { loc, function, lhs, value, input } in &cex.trace {
                    let source = input.as_ref().map_or(String::new(), |from| format!("    [input: {from}]"));
                    out += &format!("  {} {function}: {lhs} = {value}{source}\n", self.place(*loc));
                }
                out += &format!(
                    "Violated property:\n  {} {}\n  {}\n  {}\n",
                    self.place(cex.loc),
                    cex.function,
                    cex.property.message,
                    cex.property.class
                );
            }
            Verdict::Unknown(reason) => out += &format!("{reason}\n"),
        }
        if let Some(check) = &outcome.stats.crosscheck {
            out += &crosscheck_text(check);
        }
        if let Some(result) = self.svcomp_result(&outcome.verdict) {
            out += &format!("{result}\n");
        }
        out + verdict_line(&outcome.verdict) + "\n"
    }

    fn json(&self, outcome: &Outcome) -> Value {
        let mut doc = json!({
            "verdict": verdict_line(&outcome.verdict),
            "approximations": outcome.approximations.iter().map(|a| {
                let (file, line) = self.location(a.loc);
                json!({ "file": file, "line": line, "what": a.what })
            }).collect::<Vec<_>>(),
            "stats": stats_json(&outcome.stats),
        });
        match &outcome.verdict {
            Verdict::True => {}
            Verdict::BoundedTrue { bound } => doc["assumed_bound"] = json!(bound),
            Verdict::Unknown(reason) => doc["reason"] = json!(reason),
            Verdict::False(cex) => {
                let (file, line) = self.location(cex.loc);
                doc["property"] = json!({
                    "class": cex.property.class.to_string(),
                    "message": cex.property.message,
                    "file": file, "line": line, "function": cex.function,
                });
                doc["trace"] = cex.trace.iter().map(|step| {
                    let (file, line) = self.location(step.loc);
                    json!({ "file": file, "line": line, "function": step.function, "lhs": step.lhs, "value": step.value,
                            "input": step.input })
                }).collect();
            }
        }
        if let Some(result) = self.svcomp_result(&outcome.verdict) {
            doc["svcomp"] = json!(result);
        }
        doc
    }
}

fn verdict_line(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::True | Verdict::BoundedTrue { .. } => "VERIFICATION SUCCESSFUL",
        Verdict::False(_) => "VERIFICATION FAILED",
        Verdict::Unknown(_) => "VERIFICATION UNKNOWN",
    }
}

fn exit_of(verdict: &Verdict) -> Exit {
    match verdict {
        Verdict::True | Verdict::BoundedTrue { .. } => Exit::Success,
        Verdict::False(_) => Exit::Failed,
        Verdict::Unknown(_) => Exit::Unknown,
    }
}

/// The cross-check's summary line and one line per disagreement.
fn crosscheck_text(check: &CrossCheckReport) -> String {
    let mut out = format!(
        "cross-check with {}: {} queries, {} decided by both, {} disagreements\n",
        check.solver,
        check.queries,
        check.compared,
        check.disagreements.len()
    );
    for disagreement in &check.disagreements {
        out += &format!("solver disagreement: {}\n", disagreement.describe());
    }
    out
}

fn crosscheck_json(check: &CrossCheckReport) -> Value {
    let file = |f: &Result<std::path::PathBuf, String>| f.as_ref().ok().map(|p| p.display().to_string());
    json!({
        "solver": check.solver,
        "queries": check.queries,
        "compared": check.compared,
        "external_seconds": check.external_time.as_secs_f64(),
        "disagreements": check.disagreements.iter().map(|d| json!({
            "query": d.query, "cadical": d.answers().0, "external": d.answers().1,
            "file": file(&d.file), "minimised": file(&d.minimised), "summary": d.describe(),
        })).collect::<Vec<_>>(),
    })
}

/// Run figures: formula sizes are those of the last bound's solver.
fn stats_json(stats: &Stats) -> Value {
    json!({
        "bound": stats.bound,
        "assertions": stats.assertions,
        "executed_instructions": stats.instructions,
        "terms": stats.terms,
        "solver_calls": stats.solver_calls,
        "symex_seconds": stats.symex_time.as_secs_f64(),
        "sat_seconds": stats.solver.solve_time.as_secs_f64(),
        "replay_seconds": stats.replay_time.as_secs_f64(),
        "aig_inputs": stats.solver.aig_inputs,
        "aig_ands": stats.solver.aig_ands,
        "cnf_vars": stats.solver.cnf_vars,
        "cnf_clauses": stats.solver.cnf_clauses,
        "crosscheck": stats.crosscheck.as_deref().map(crosscheck_json),
    })
}

/// An UNKNOWN outcome that no engine run produced (unsupported input,
/// resource limits).
pub fn unknown(reason: &str) -> Outcome {
    Outcome { verdict: Verdict::Unknown(reason.to_string()), approximations: Vec::new(), stats: Stats::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printer(style: Style, property: Option<Category>) -> Printer<'static> {
        Printer { style, program: None, property }
    }

    #[test]
    fn text_ends_with_the_verdict_line() {
        let text = printer(Style::Text, None).text(&unknown("unsupported: x"));
        assert_eq!(text, "unsupported: x\nVERIFICATION UNKNOWN\n");
    }

    #[test]
    fn property_files_add_the_competition_result() {
        let text = printer(Style::Text, Some(Category::UnreachCall)).text(&unknown("timeout"));
        assert!(text.ends_with("timeout\nUNKNOWN\nVERIFICATION UNKNOWN\n"), "{text}");
        let doc = printer(Style::Json, Some(Category::NoOverflow)).json(&unknown("timeout"));
        assert_eq!(doc["svcomp"], "UNKNOWN");
    }

    #[test]
    fn json_holds_verdict_reason_and_figures() {
        let doc = printer(Style::Json, None).json(&unknown("no body"));
        assert_eq!(doc["verdict"], "VERIFICATION UNKNOWN");
        assert_eq!(doc["reason"], "no body");
        assert_eq!(doc["stats"]["cnf_clauses"], 0);
        assert!(doc.get("svcomp").is_none());
    }
}
