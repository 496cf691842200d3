//! SARIF 2.1.0 (OASIS), the format CI systems and editors read static
//! analysis results from: one run of tarsier; one result per violated
//! property, its rule id the property class (`signed-overflow`, ...), its
//! location the violated line, and the counterexample as a code flow whose
//! steps carry the values. A TRUE or UNKNOWN has no result: the verdict,
//! with how it was proved or why it is unknown, is a run-level
//! notification of the invocation, as are the approximations.

use crate::{verdict_line, Report};
use engine::{Counterexample, Verdict};
use serde_json::{json, Value};

/// The schema the document names.
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The SARIF log of `report`.
pub fn render(report: &Report) -> Value {
    let outcome = report.outcome;
    let (rules, results) = match &outcome.verdict {
        Verdict::False(cex) => (vec![rule(cex)], vec![result(report, cex)]),
        _ => (Vec::new(), Vec::new()),
    };
    let mut notifications = vec![verdict_notification(report)];
    notifications.extend(outcome.approximations.iter().map(|a| {
        json!({ "level": "note", "message": { "text": format!("approximation: {}", a.what) }, "locations": locations(report, a.loc) })
    }));
    let mut properties = json!({ "verdict": verdict_line(&outcome.verdict) });
    if let Some(result) = report.svcomp_result() {
        properties["svcomp"] = json!(result);
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "tarsier",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "invocations": [{ "executionSuccessful": true, "toolExecutionNotifications": notifications }],
            "results": results,
            "properties": properties,
        }],
    })
}

/// The rule a violation breaks: its property class.
fn rule(cex: &Counterexample) -> Value {
    let class = cex.property.class.to_string();
    json!({ "id": class, "shortDescription": { "text": format!("property {class}") } })
}

fn result(report: &Report, cex: &Counterexample) -> Value {
    let steps: Vec<Value> = cex
        .trace
        .iter()
        .map(|step| {
            let input = step.input.as_ref().map_or(String::new(), |from| format!(" (input: {from})"));
            let text = format!("{}: {} = {}{input}", step.function, step.lhs, step.value);
            let mut location = json!({ "message": { "text": text } });
            if let Some(physical) = physical_location(report, step.loc) {
                location["physicalLocation"] = physical;
            }
            json!({ "location": location })
        })
        .chain(std::iter::once(json!({ "location": violation_location(report, cex) })))
        .collect();
    json!({
        "ruleId": cex.property.class.to_string(),
        "ruleIndex": 0,
        "level": "error",
        "kind": "fail",
        "message": { "text": format!("{} in {}", cex.property.message, cex.function) },
        "locations": locations(report, cex.loc),
        "codeFlows": [{ "threadFlows": [{ "locations": steps }] }],
    })
}

/// The last step of the code flow: the violation itself.
fn violation_location(report: &Report, cex: &Counterexample) -> Value {
    let mut location = json!({ "message": { "text": format!("violated: {}", cex.property.message) } });
    if let Some(physical) = physical_location(report, cex.loc) {
        location["physicalLocation"] = physical;
    }
    location
}

/// The run-level notification that says the verdict and its reason.
fn verdict_notification(report: &Report) -> Value {
    let (level, detail) = match &report.outcome.verdict {
        Verdict::True => ("note", report.outcome.proof.as_ref().map(|p| crate::proof_line(p))),
        Verdict::BoundedTrue { bound } => {
            let within = bound.map_or("the loop bounds the program gives".to_string(), |b| format!("the unwinding bound {b}"));
            ("note", Some(format!("no violation within {within} (assumed, not checked)")))
        }
        Verdict::False(_) => ("note", None),
        Verdict::Unknown(reason) => ("warning", Some(reason.clone())),
    };
    let line = verdict_line(&report.outcome.verdict);
    let text = detail.map_or(line.to_string(), |d| format!("{line}: {d}"));
    json!({ "level": level, "message": { "text": text }, "descriptor": { "id": line_id(line) } })
}

/// A notification id for the verdict line (`verification-successful`).
fn line_id(line: &str) -> String {
    line.to_lowercase().replace(' ', "-")
}

/// `loc` as a list of SARIF locations: empty when it has no file or line.
fn locations(report: &Report, loc: ir::Loc) -> Vec<Value> {
    physical_location(report, loc).map(|p| json!({ "physicalLocation": p })).into_iter().collect()
}

fn physical_location(report: &Report, loc: ir::Loc) -> Option<Value> {
    match report.location(loc) {
        (_, 0) => None,
        (file, line) => Some(json!({ "artifactLocation": { "uri": uri(&file) }, "region": { "startLine": line } })),
    }
}

/// A file name as a URI reference: relative names stay relative (to the
/// directory tarsier ran in), absolute ones become `file://` URIs;
/// characters a URI cannot hold are percent-encoded.
fn uri(file: &str) -> String {
    let encoded: String = file
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    if file.starts_with('/') {
        format!("file://{encoded}")
    } else {
        encoded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unknown;

    #[test]
    fn unknown_is_a_run_level_warning_without_results() {
        let doc = render(&Report { outcome: &unknown("timeout"), program: None, property: None });
        assert_eq!(doc["version"], "2.1.0");
        let run = &doc["runs"][0];
        assert_eq!(run["results"], json!([]));
        let notification = &run["invocations"][0]["toolExecutionNotifications"][0];
        assert_eq!(notification["level"], "warning");
        assert_eq!(notification["message"]["text"], "VERIFICATION UNKNOWN: timeout");
    }

    #[test]
    fn file_names_become_uri_references() {
        assert_eq!(uri("examples/overflow.c"), "examples/overflow.c");
        assert_eq!(uri("/tmp/my file.c"), "file:///tmp/my%20file.c");
    }
}
