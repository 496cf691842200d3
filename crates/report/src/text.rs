//! The text output (traces without the C library's own bookkeeping): approximations, the counterexample, the reason or how
//! a TRUE was proved (with the certified invariants at their loop heads), the cross-check summary, the SV-COMP result when a property is decided, and
//! the verdict as the last line (`VERIFICATION SUCCESSFUL|FAILED|UNKNOWN`).

use crate::{verdict_line, Report};
use engine::{CrossCheckReport, TraceLine, Verdict};
use std::collections::HashSet;

/// The whole text of `report`, ending with the verdict line.
pub fn render(report: &Report) -> String {
    let outcome = report.outcome;
    let mut out = String::new();
    for approximation in &outcome.approximations {
        out += &format!("approximation: {}: {}\n", report.place(approximation.loc), approximation.what);
    }
    match &outcome.verdict {
        Verdict::True => {
            if let Some(proof) = &outcome.proof {
                out += &format!("{}\n", crate::proof_line(proof));
                for invariant in &proof.invariants {
                    out += &format!("  invariant at {} in {}: {}\n", report.place(invariant.loc), invariant.function, invariant.c_text);
                }
                for ranking in &proof.rankings {
                    let (place, form, text) = (report.place(ranking.loc), ranking.form(), ranking.text());
                    out += &format!("  ranking function at {place} in {}: {text} ({form})\n", ranking.function);
                }
            }
        }
        Verdict::BoundedTrue { bound: Some(bound) } => {
            out += &format!("no violation within the unwinding bound {bound} (assumed, not checked)\n");
        }
        Verdict::BoundedTrue { bound: None } => {
            out += "no violation within the loop bounds the program gives (assumed, not checked)\n";
        }
        Verdict::False(cex) => {
            out += "Counterexample:\n";
            let read = report.program.map(names_the_program_reads);
            let shown = cex.trace.iter().filter(|line| !read.as_ref().is_some_and(|read| library_bookkeeping(report, read, line)));
            for TraceLine { loc, function, lhs, value, input, thread } in shown {
                let source = input.as_ref().map_or(String::new(), |from| format!("    [input: {from}]"));
                let thread = thread.map_or(String::new(), |t| format!("thread {t} "));
                out += &format!("  {} {thread}{function}: {lhs} = {value}{source}\n", report.place(*loc));
            }
            out += &format!(
                "Violated property:\n  {} {}\n  {}\n  {}\n",
                report.place(cex.loc),
                cex.function,
                cex.property.message,
                cex.property.class
            );
        }
        Verdict::Unknown(reason) => out += &format!("{reason}\n"),
    }
    if let Some(check) = &outcome.stats.crosscheck {
        out += &crosscheck(check);
    }
    if let Some(result) = report.svcomp_result() {
        out += &format!("{result}\n");
    }
    out + verdict_line(&outcome.verdict) + "\n"
}

/// The variables the program's own functions (not the library models', not
/// system headers') name.
fn names_the_program_reads(program: &ir::Program) -> HashSet<String> {
    let own = |f: &ir::Function| !f.loc.is_none() && !is_library_place(program, f.loc);
    let bodies = program.functions.values().filter(|f| own(f)).filter_map(|f| f.body.as_ref());
    let mut names = HashSet::new();
    for instr in bodies.flatten() {
        for expr in instr.kind.exprs() {
            for node in expr.walk() {
                if let ir::ExprKind::Sym(sym) = node.kind {
                    names.insert(program.symbols[sym].display_name.clone());
                }
            }
        }
    }
    names
}

fn is_library_place(program: &ir::Program, loc: ir::Loc) -> bool {
    program.files.is_library_model(loc) || program.files.name(loc.file).starts_with("/usr/")
}

/// Whether a trace line is the C library's own bookkeeping (`stdin`,
/// `__tzname`, `signgam` set up by the library): an assignment in a library
/// model or system header to a variable the program never names.
fn library_bookkeeping(report: &Report, read: &HashSet<String>, line: &TraceLine) -> bool {
    let Some(program) = report.program else { return false };
    let root = line.lhs.trim_start_matches(['*', '&', '(']);
    let root = root.split(['.', '[', '-', ' ', ')']).next().unwrap_or(root);
    (line.loc.is_none() || is_library_place(program, line.loc)) && line.input.is_none() && !read.contains(root)
}

/// The cross-check's summary line and one line per disagreement.
fn crosscheck(check: &CrossCheckReport) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svcomp::Category;
    use crate::unknown;

    fn render_unknown(reason: &str, property: Option<Category>) -> String {
        render(&Report { outcome: &unknown(reason), program: None, property })
    }

    #[test]
    fn text_ends_with_the_verdict_line() {
        assert_eq!(render_unknown("unsupported: x", None), "unsupported: x\nVERIFICATION UNKNOWN\n");
    }

    #[test]
    fn property_files_add_the_competition_result() {
        let text = render_unknown("timeout", Some(Category::UnreachCall));
        assert!(text.ends_with("timeout\nUNKNOWN\nVERIFICATION UNKNOWN\n"), "{text}");
    }
}
