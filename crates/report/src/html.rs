//! The HTML report: one self-contained page (inline style, no script, no
//! network) that shows the verdict, the inputs the counterexample chose,
//! the trace step by step, and the source files with the trace laid over
//! them: every line the trace passes carries the values assigned there,
//! and the violated line is marked in red with the violated property.
//! The page reads the sources through a callback, so this module does no
//! I/O and knows no flags.

use crate::{verdict_line, Report};
use engine::{Counterexample, TraceLine, Verdict};
use std::collections::BTreeMap;

/// The background of the violated line (also in the summary at the top),
/// a colour nothing else on the page uses.
pub const VIOLATION_COLOUR: &str = "#ff9c9c";
/// The background of the other lines the trace passes.
const TRACE_COLOUR: &str = "#fff3b0";

const STYLE: &str = "
body { font-family: sans-serif; margin: 1.5em; color: #1a1a1a; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
.verdict-failed { color: #b00020; } .verdict-successful { color: #1b7f3b; } .verdict-unknown { color: #8a6d00; }
table { border-collapse: collapse; }
td, th { padding: 0.1em 0.6em; vertical-align: top; text-align: left; }
.source td { font-family: monospace; white-space: pre; padding: 0 0.6em; }
.source td.number { color: #777; text-align: right; user-select: none; }
.values { font-family: monospace; color: #0b4f8a; }
.step { font-family: monospace; }
";

/// The page of `report`; `inputs` are the program's files, listed even
/// when no trace passes them; `read_source` gives a file's text by the name
/// locations use (`None` when it cannot be read: the page says so).
pub fn render(report: &Report, inputs: &[String], read_source: &dyn Fn(&str) -> Option<String>) -> String {
    let outcome = report.outcome;
    let line = verdict_line(&outcome.verdict);
    let class = line.rsplit(' ').next().unwrap_or("").to_lowercase();
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>tarsier: {line}</title>\n\
         <style>{STYLE}.violated {{ background: {VIOLATION_COLOUR}; }} .traced {{ background: {TRACE_COLOUR}; }}</style>\n\
         </head>\n<body>\n<h1 class=\"verdict-{class}\">{line}</h1>\n"
    );
    page += &summary(report);
    let cex = match &outcome.verdict {
        Verdict::False(cex) => Some(cex.as_ref()),
        _ => None,
    };
    if let Some(cex) = cex {
        page += &violation(report, cex, read_source);
        page += &inputs_section(report, cex);
        page += &trace_section(report, cex);
    }
    page += &sources(report, cex, inputs, read_source);
    page + "</body>\n</html>\n"
}

/// What the verdict rests on: how a TRUE was proved, the reason of an
/// UNKNOWN, the approximations.
fn summary(report: &Report) -> String {
    let outcome = report.outcome;
    let mut out = String::new();
    match &outcome.verdict {
        Verdict::True => {
            if let Some(proof) = &outcome.proof {
                out += &format!("<p>{}</p>\n", escape(&crate::proof_line(proof)));
            }
        }
        Verdict::BoundedTrue { bound } => {
            let within = bound.map_or("the loop bounds the program gives".to_string(), |b| format!("the unwinding bound {b}"));
            out += &format!("<p>No violation within {within} (assumed, not checked).</p>\n");
        }
        Verdict::Unknown(reason) => out += &format!("<p>Why: {}</p>\n", escape(reason)),
        Verdict::False(_) => {}
    }
    if let Some(result) = report.svcomp_result() {
        out += &format!("<p>SV-COMP result: <code>{}</code></p>\n", escape(result));
    }
    if !outcome.approximations.is_empty() {
        out += "<p>Approximations:</p>\n<ul>\n";
        for a in &outcome.approximations {
            out += &format!("<li>{}: {}</li>\n", escape(&report.place(a.loc)), escape(&a.what));
        }
        out += "</ul>\n";
    }
    out
}

/// The violated property and its line, marked as in the listing below.
fn violation(report: &Report, cex: &Counterexample, read_source: &dyn Fn(&str) -> Option<String>) -> String {
    let (file, line) = report.location(cex.loc);
    let text = read_source(&file).and_then(|s| s.lines().nth((line as usize).wrapping_sub(1)).map(str::to_string));
    let mut out = format!(
        "<h2>Violated property</h2>\n<p><b>{}</b> ({}) in <code>{}</code> at <a href=\"#{}\">{}</a></p>\n",
        escape(&cex.property.message),
        escape(&cex.property.class.to_string()),
        escape(&cex.function),
        anchor(&file, line),
        escape(&report.place(cex.loc))
    );
    if let Some(text) = text {
        out += &format!("<table class=\"source\"><tr class=\"violated\"><td class=\"number\">{line}</td><td>{}</td></tr></table>\n", escape(&text));
    }
    out
}

/// The nondeterministic inputs the counterexample chose, in order.
fn inputs_section(report: &Report, cex: &Counterexample) -> String {
    let inputs: Vec<&TraceLine> = cex.trace.iter().filter(|step| step.input.is_some()).collect();
    if inputs.is_empty() {
        return "<h2>Inputs</h2>\n<p>The violation needs no input.</p>\n".into();
    }
    let mut out = "<h2>Inputs</h2>\n<table>\n<tr><th>where</th><th>value</th><th>from</th></tr>\n".to_string();
    for step in inputs {
        out += &format!(
            "<tr><td>{}</td><td class=\"step\">{} = {}</td><td>{}</td></tr>\n",
            short_place(report, step.loc),
            escape(&step.lhs),
            escape(&step.value),
            escape(step.input.as_deref().unwrap_or(""))
        );
    }
    out + "</table>\n"
}

/// The trace, one row per step, the violation last.
fn trace_section(report: &Report, cex: &Counterexample) -> String {
    let mut out = "<h2>Trace</h2>\n<table>\n<tr><th>#</th><th>where</th><th>function</th><th>step</th></tr>\n".to_string();
    for (index, step) in cex.trace.iter().enumerate() {
        let (file, line) = report.location(step.loc);
        out += &format!(
            "<tr><td>{}</td><td><a href=\"#{}\">{}</a></td><td>{}</td><td class=\"step\">{} = {}</td></tr>\n",
            index + 1,
            anchor(&file, line),
            short_place(report, step.loc),
            escape(&step.function),
            escape(&step.lhs),
            escape(&step.value)
        );
    }
    let (file, line) = report.location(cex.loc);
    out += &format!(
        "<tr class=\"violated\"><td>{}</td><td><a href=\"#{}\">{}</a></td><td>{}</td><td>{}</td></tr>\n</table>\n",
        cex.trace.len() + 1,
        anchor(&file, line),
        short_place(report, cex.loc),
        escape(&cex.function),
        escape(&cex.property.message)
    );
    out
}

/// Every source file the page is about, with the trace's values beside
/// the lines that produced them and the violated line marked.
fn sources(report: &Report, cex: Option<&Counterexample>, inputs: &[String], read_source: &dyn Fn(&str) -> Option<String>) -> String {
    let mut values: BTreeMap<(String, u32), Vec<String>> = BTreeMap::new();
    let mut files: Vec<String> = inputs.to_vec();
    let violated = cex.map(|cex| report.location(cex.loc));
    for step in cex.map_or(&[][..], |cex| &cex.trace[..]) {
        let place = report.location(step.loc);
        values.entry(place).or_default().push(format!("{} = {}", step.lhs, step.value));
    }
    for (file, line) in values.keys().cloned().chain(violated.clone()) {
        if line > 0 && !files.contains(&file) {
            files.push(file);
        }
    }
    let mut out = String::new();
    for file in files {
        out += &format!("<h2>{}</h2>\n", escape(&file));
        let Some(text) = read_source(&file) else {
            out += "<p>(the source cannot be read)</p>\n";
            continue;
        };
        out += "<table class=\"source\">\n";
        for (index, text) in text.lines().enumerate() {
            let line = index as u32 + 1;
            let place = (file.clone(), line);
            let marks = values.get(&place).map_or(String::new(), |v| escape(&v.join("; ")));
            let class = match (violated.as_ref() == Some(&place), marks.is_empty()) {
                (true, _) => " class=\"violated\"",
                (false, false) => " class=\"traced\"",
                (false, true) => "",
            };
            let note = match violated.as_ref() == Some(&place) {
                true => format!("\u{2190} {}", escape(&cex.map_or(String::new(), |c| c.property.message.clone()))),
                false => String::new(),
            };
            out += &format!(
                "<tr id=\"{}\"{class}><td class=\"number\">{line}</td><td>{}</td><td class=\"values\">{marks} {note}</td></tr>\n",
                anchor(&file, line),
                escape(text)
            );
        }
        out += "</table>\n";
    }
    out
}

/// `name.c:12` for a place in the tables, the file's whole path in the
/// tooltip (the source listings below carry it in their headings).
fn short_place(report: &Report, loc: ir::Loc) -> String {
    let place = report.place(loc);
    let short = place.rsplit('/').next().unwrap_or(&place);
    format!("<span title=\"{}\">{}</span>", escape(&place), escape(short))
}

/// The id of a source line on the page.
fn anchor(file: &str, line: u32) -> String {
    let name: String = file.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    format!("{name}-{line}")
}

/// `text` safe inside HTML elements and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unknown;

    #[test]
    fn an_unknown_page_says_why_and_needs_nothing_outside() {
        let page = render(&Report { outcome: &unknown("a <b> reason"), program: None, property: None }, &[], &|_| None);
        assert!(page.contains("VERIFICATION UNKNOWN") && page.contains("Why: a &lt;b&gt; reason"), "{page}");
        assert!(!page.contains("<script") && !page.contains("http"), "self-contained: {page}");
    }

    #[test]
    fn input_files_are_listed_with_their_source() {
        let outcome = unknown("timeout");
        let report = Report { outcome: &outcome, program: None, property: None };
        let page = render(&report, &["a.c".to_string()], &|name| (name == "a.c").then(|| "int main(void) { return 0; }\n".to_string()));
        assert!(page.contains("<h2>a.c</h2>") && page.contains("int main(void) { return 0; }"), "{page}");
    }
}
