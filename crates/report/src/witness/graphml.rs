//! SV-COMP's witness format 1.0 (GraphML): an automaton whose edges carry
//! the program's steps. A violation witness is one path from the entry
//! node, an edge per waypoint (a call's result as `\result == V;` with the
//! function that returns it, an assumption `x == V;`), ending in the
//! violation node. A correctness witness has a node per loop head holding
//! its invariant, reached from the entry by an edge at the loop's line.

use super::{Content, Invariant, TaskInfo, Waypoint};
use ir::DataModel;
use std::fmt::Write;

/// The keys a witness uses: (id, owner, type, default).
const KEYS: &[(&str, &str, &str, Option<&str>)] = &[
    ("witness-type", "graph", "string", None),
    ("sourcecodelang", "graph", "string", None),
    ("producer", "graph", "string", None),
    ("specification", "graph", "string", None),
    ("programfile", "graph", "string", None),
    ("programhash", "graph", "string", None),
    ("architecture", "graph", "string", None),
    ("creationtime", "graph", "string", None),
    ("entry", "node", "boolean", Some("false")),
    ("violation", "node", "boolean", Some("false")),
    ("invariant", "node", "string", None),
    ("invariant.scope", "node", "string", None),
    ("startline", "edge", "int", None),
    ("assumption", "edge", "string", None),
    ("assumption.scope", "edge", "string", None),
    ("assumption.resultfunction", "edge", "string", None),
];

/// The witness document of `content`.
pub fn render(content: &Content, task: &TaskInfo) -> Result<String, String> {
    let hashes = task.hashes()?;
    let (program, hash) = hashes.first().ok_or("a witness needs the program's file")?;
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n");
    for (id, owner, ty, default) in KEYS {
        let _ = write!(out, " <key id=\"{id}\" attr.name=\"{id}\" attr.type=\"{ty}\" for=\"{owner}\"");
        match default {
            Some(value) => {
                let _ = writeln!(out, "><default>{value}</default></key>");
            }
            None => out += "/>\n",
        }
    }
    let witness_type = match content {
        Content::Violation(_) => "violation_witness",
        Content::Correctness(_) => "correctness_witness",
    };
    let architecture = match task.data_model {
        DataModel::ILP32 => "32bit",
        DataModel::LP64 => "64bit",
    };
    out += " <graph edgedefault=\"directed\">\n";
    for (key, value) in [
        ("witness-type", witness_type.to_string()),
        ("sourcecodelang", "C".to_string()),
        ("producer", format!("tarsier {}", task.version)),
        ("specification", task.specification.clone()),
        ("programfile", program.clone()),
        ("programhash", hash.clone()),
        ("architecture", architecture.to_string()),
        ("creationtime", crate::clock::utc_now()),
    ] {
        let _ = writeln!(out, "  <data key=\"{key}\">{}</data>", escaped(&value));
    }
    out += "  <node id=\"N0\"><data key=\"entry\">true</data></node>\n";
    match content {
        Content::Violation(waypoints) => violation_path(&mut out, waypoints),
        Content::Correctness(invariants) => invariant_nodes(&mut out, invariants),
    }
    Ok(out + " </graph>\n</graphml>\n")
}

fn violation_path(out: &mut String, waypoints: &[Waypoint]) {
    for (index, waypoint) in waypoints.iter().enumerate() {
        let (from, to) = (index, index + 1);
        let (location, data) = match waypoint {
            Waypoint::Return { location, function, value } => {
                let mut data = vec![("assumption", format!("\\result == {value};"))];
                data.extend((!function.is_empty()).then(|| ("assumption.resultfunction", function.clone())));
                (location, data)
            }
            Waypoint::Assumption { location, variable, value } => (location, vec![("assumption", format!("{variable} == {value};"))]),
            Waypoint::Target { location } => (location, Vec::new()),
        };
        let node = match waypoint {
            Waypoint::Target { .. } => format!("  <node id=\"N{to}\"><data key=\"violation\">true</data></node>\n"),
            _ => format!("  <node id=\"N{to}\"/>\n"),
        };
        *out += &node;
        let _ = write!(out, "  <edge source=\"N{from}\" target=\"N{to}\"><data key=\"startline\">{}</data>", location.line);
        if !data.is_empty() {
            let _ = write!(out, "<data key=\"assumption.scope\">{}</data>", escaped(&location.function));
        }
        for (key, value) in data {
            let _ = write!(out, "<data key=\"{key}\">{}</data>", escaped(&value));
        }
        *out += "</edge>\n";
    }
}

fn invariant_nodes(out: &mut String, invariants: &[Invariant]) {
    for (index, invariant) in invariants.iter().enumerate() {
        let node = index + 1;
        let _ = writeln!(
            out,
            "  <node id=\"N{node}\"><data key=\"invariant\">{}</data><data key=\"invariant.scope\">{}</data></node>",
            escaped(&invariant.value),
            escaped(&invariant.location.function)
        );
        let _ = writeln!(out, "  <edge source=\"N0\" target=\"N{node}\"><data key=\"startline\">{}</data></edge>", invariant.location.line);
    }
}

/// Text as XML character data.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::witness::Location;

    fn task() -> TaskInfo {
        let file = std::env::temp_dir().join(format!("tarsier-witness-graphml-{}.c", std::process::id()));
        std::fs::write(&file, "int main() { return 0; }\n").unwrap();
        TaskInfo { input_files: vec![file], specification: "CHECK( init(main()), LTL(G ! overflow) )".into(), data_model: DataModel::LP64, version: "1.0".into() }
    }

    #[test]
    fn a_violation_is_a_path_from_the_entry_to_the_violation() {
        let at = |line| Location { file: "t.c".into(), line, column: 1, function: "main".into() };
        let waypoints = vec![
            Waypoint::Return { location: at(3), function: "__VERIFIER_nondet_int".into(), value: "-1".into() },
            Waypoint::Target { location: at(4) },
        ];
        let text = render(&Content::Violation(waypoints), &task()).unwrap();
        assert!(text.contains("<data key=\"witness-type\">violation_witness</data>"), "{text}");
        assert!(text.contains("<data key=\"architecture\">64bit</data>"), "{text}");
        assert!(text.contains("<edge source=\"N0\" target=\"N1\"><data key=\"startline\">3</data>"), "{text}");
        assert!(text.contains("<data key=\"assumption.resultfunction\">__VERIFIER_nondet_int</data>"), "{text}");
        assert!(text.contains("<node id=\"N2\"><data key=\"violation\">true</data></node>"), "{text}");
    }

    #[test]
    fn invariants_are_escaped() {
        let invariants = vec![Invariant { location: Location { file: "t.c".into(), line: 7, column: 1, function: "f".into() }, value: "i < n && j > 0".into() }];
        let text = render(&Content::Correctness(invariants), &task()).unwrap();
        assert!(text.contains("<data key=\"invariant\">i &lt; n &amp;&amp; j &gt; 0</data>"), "{text}");
        assert!(text.contains("correctness_witness"), "{text}");
    }
}
