//! SV-COMP's witness format 1.0 (GraphML): an automaton whose edges carry
//! the program's steps. A violation witness is one path from the entry
//! node, an edge per waypoint (a call's result as `\result == V;` with the
//! function that returns it, an assumption `x == V;`), ending in the
//! violation node. In a program with threads each edge names its thread
//! (`threadId`), an edge per step of the schedule, and the step that
//! starts a thread says so (`createThread`, an edge per thread started).
//! A correctness witness has a node per loop head holding its invariant,
//! reached from the entry by an edge at the loop's line. [`read_violation`]
//! reads a violation witness's path back.

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
    ("threadId", "edge", "string", None),
    ("createThread", "edge", "string", None),
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
    let threads = waypoints.iter().any(|w| matches!(w, Waypoint::Step { .. }));
    let mut thread = 0;
    let mut node = 0;
    for waypoint in waypoints {
        let (location, mut data) = match waypoint {
            Waypoint::Return { location, function, value } => {
                let mut data = vec![("assumption", format!("\\result == {value};"))];
                data.extend((!function.is_empty()).then(|| ("assumption.resultfunction", function.clone())));
                (location, data)
            }
            Waypoint::Assumption { location, variable, value } => (location, vec![("assumption", format!("{variable} == {value};"))]),
            Waypoint::Target { location, thread: violator } => {
                thread = violator.unwrap_or(thread);
                (location, Vec::new())
            }
            Waypoint::Step { location, thread: taker, started } => {
                thread = *taker;
                let mut created = started.iter();
                let data = created.next().map(|t| ("createThread", t.to_string())).into_iter().collect();
                edge(out, &mut node, location, data, threads.then_some(thread), false);
                // An edge starts one thread: the others, each on an edge of its own.
                for t in created {
                    edge(out, &mut node, location, vec![("createThread", t.to_string())], Some(thread), false);
                }
                continue;
            }
        };
        if !data.is_empty() {
            data.insert(0, ("assumption.scope", location.function.clone()));
        }
        edge(out, &mut node, location, data, threads.then_some(thread), matches!(waypoint, Waypoint::Target { .. }));
    }
}

/// One edge of a violation path from node `*node` to a new node, the
/// violation node when `violation` is set.
fn edge(out: &mut String, node: &mut usize, location: &super::Location, data: Vec<(&str, String)>, thread: Option<u32>, violation: bool) {
    let (from, to) = (*node, *node + 1);
    *node = to;
    match violation {
        true => {
            let _ = writeln!(out, "  <node id=\"N{to}\"><data key=\"violation\">true</data></node>");
        }
        false => {
            let _ = writeln!(out, "  <node id=\"N{to}\"/>");
        }
    }
    let _ = write!(out, "  <edge source=\"N{from}\" target=\"N{to}\"><data key=\"startline\">{}</data>", location.line);
    if let Some(thread) = thread {
        let _ = write!(out, "<data key=\"threadId\">{thread}</data>");
    }
    for (key, value) in data {
        let _ = write!(out, "<data key=\"{key}\">{}</data>", escaped(&value));
    }
    *out += "</edge>\n";
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

/// The waypoints of a violation witness's path, from the entry node to
/// the first violation node (at each node the first edge in the document
/// that does not lead to a sink), in order: an edge with a thread and no
/// assumption is a step of it (the threads it creates are the step's, and
/// an edge that only creates one more at the same line joins the step
/// before), assumptions are the values taken, the edge into the violation
/// node is the target.
pub fn read_violation(text: &str) -> Result<Vec<Waypoint>, String> {
    if !text.contains("<graphml") {
        return Err("not a GraphML document".into());
    }
    let file = graph_data(text, "programfile").unwrap_or_default();
    let nodes = elements(text, "node");
    let flagged = |key: &str| -> Vec<String> {
        nodes.iter().filter(|n| n.data(key).as_deref() == Some("true")).filter_map(|n| n.attribute("id")).collect()
    };
    let (entry, violations, sinks) = (flagged("entry"), flagged("violation"), flagged("sink"));
    let mut at = entry.first().cloned().or_else(|| nodes.first().and_then(|n| n.attribute("id"))).ok_or("the witness has no nodes")?;
    let edges = elements(text, "edge");
    let mut waypoints = Vec::new();
    for _ in 0..=edges.len() {
        let next = edges.iter().find(|e| e.attribute("source").as_deref() == Some(at.as_str()) && !sinks.contains(&e.attribute("target").unwrap_or_default()));
        let Some(edge) = next else { break };
        let target = edge.attribute("target").unwrap_or_default();
        let line = edge.data("startline").and_then(|l| l.trim().parse().ok()).unwrap_or(0);
        let location = super::Location { file: file.clone(), line, column: 0, function: edge.data("assumption.scope").unwrap_or_default() };
        let thread = edge.data("threadId").and_then(|t| t.trim().parse().ok());
        if violations.contains(&target) {
            waypoints.push(Waypoint::Target { location, thread });
            return Ok(waypoints);
        }
        let assumptions = edge.data("assumption");
        // A value's edge comes after its step's (as written here), and a
        // value may be taken in a library's code, at no line of the program.
        if let Some(thread) = thread.filter(|_| assumptions.is_none()) {
            step(&mut waypoints, location.clone(), thread, edge.data("createThread").and_then(|t| t.trim().parse().ok()));
        }
        if let Some(assumptions) = assumptions {
            for assumption in assumptions.split(';').filter_map(|a| a.split_once("==")) {
                let (left, value) = (assumption.0.trim().to_string(), assumption.1.trim().to_string());
                let location = location.clone();
                waypoints.push(match left.as_str() {
                    "\\result" => Waypoint::Return { location, function: edge.data("assumption.resultfunction").unwrap_or_default(), value },
                    _ => Waypoint::Assumption { location, variable: left, value },
                });
            }
        }
        at = target;
    }
    Err("the witness has no path from its entry to a violation node".into())
}

/// Adds a thread's step at `location`, or the thread it creates to the
/// step before when that is the same thread's at the same line.
fn step(waypoints: &mut Vec<Waypoint>, location: super::Location, thread: u32, created: Option<u32>) {
    if let (Some(created), Some(Waypoint::Step { location: before, thread: taker, started })) = (created, waypoints.last_mut()) {
        if *taker == thread && before.line == location.line && !started.is_empty() {
            started.push(created);
            return;
        }
    }
    waypoints.push(Waypoint::Step { location, thread, started: created.into_iter().collect() });
}

/// An element of a GraphML document: its start tag and its content.
struct Element<'a> {
    tag: &'a str,
    content: &'a str,
}

impl Element<'_> {
    fn attribute(&self, name: &str) -> Option<String> {
        let start = self.tag.find(&format!(" {name}=\""))? + name.len() + 3;
        let length = self.tag[start..].find('"')?;
        Some(unescaped(&self.tag[start..start + length]))
    }

    /// The value of the element's `<data key="KEY">`.
    fn data(&self, key: &str) -> Option<String> {
        elements(self.content, "data").into_iter().find(|d| d.attribute("key").as_deref() == Some(key)).map(|d| unescaped(d.content.trim()))
    }
}

/// The elements named `name` in `text`, in order (not nested in one another).
fn elements<'a>(text: &'a str, name: &str) -> Vec<Element<'a>> {
    let (open, close) = (format!("<{name}"), format!("</{name}>"));
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(&open) {
        let after = &rest[start + open.len()..];
        if !after.starts_with([' ', '>', '/', '\n', '\t', '\r']) {
            rest = after;
            continue;
        }
        let Some(end) = after.find('>') else { break };
        let tag = &after[..end];
        if tag.ends_with('/') {
            found.push(Element { tag, content: "" });
            rest = &after[end + 1..];
            continue;
        }
        let body = &after[end + 1..];
        let length = body.find(&close).unwrap_or(body.len());
        found.push(Element { tag, content: &body[..length] });
        rest = &body[length..];
    }
    found
}

/// The value of the graph's `<data key="KEY">`.
fn graph_data(text: &str, key: &str) -> Option<String> {
    let graph = elements(text, "graph").into_iter().next()?;
    let before_nodes = graph.content.find("<node").map_or(graph.content, |at| &graph.content[..at]);
    Element { tag: "", content: before_nodes }.data(key)
}

/// XML character data as text.
fn unescaped(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&")
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
            Waypoint::Target { location: at(4), thread: None },
        ];
        let text = render(&Content::Violation(waypoints), &task()).unwrap();
        assert!(text.contains("<data key=\"witness-type\">violation_witness</data>"), "{text}");
        assert!(text.contains("<data key=\"architecture\">64bit</data>"), "{text}");
        assert!(text.contains("<edge source=\"N0\" target=\"N1\"><data key=\"startline\">3</data>"), "{text}");
        assert!(text.contains("<data key=\"assumption.resultfunction\">__VERIFIER_nondet_int</data>"), "{text}");
        assert!(text.contains("<node id=\"N2\"><data key=\"violation\">true</data></node>"), "{text}");
    }

    /// A thread program's path: each step names its thread, a step that
    /// starts two threads is two edges, and all of it reads back.
    #[test]
    fn a_schedule_reads_back_as_written() {
        let task = task();
        let at = |line| Location { file: task.input_files[0].display().to_string(), line, column: 0, function: String::new() };
        let scoped = |line| Location { function: "main".into(), ..at(line) };
        let waypoints = vec![
            Waypoint::Step { location: at(5), thread: 0, started: vec![1, 2] },
            Waypoint::Step { location: at(9), thread: 2, started: vec![] },
            Waypoint::Return { location: scoped(9), function: "__VERIFIER_nondet_int".into(), value: "3".into() },
            Waypoint::Step { location: at(7), thread: 1, started: vec![] },
            Waypoint::Target { location: at(7), thread: Some(1) },
        ];
        let text = render(&Content::Violation(waypoints.clone()), &task).unwrap();
        assert!(text.contains("<data key=\"threadId\">0</data><data key=\"createThread\">1</data>"), "{text}");
        assert!(text.contains("<data key=\"threadId\">0</data><data key=\"createThread\">2</data>"), "{text}");
        assert!(text.contains("<data key=\"startline\">9</data><data key=\"threadId\">2</data><data key=\"assumption.scope\">main</data>"), "{text}");
        assert_eq!(read_violation(&text).unwrap(), waypoints);
    }

    #[test]
    fn a_path_without_a_violation_node_is_refused() {
        let text = "<graphml><graph><node id=\"A\"><data key=\"entry\">true</data></node><node id=\"B\"/><edge source=\"A\" target=\"B\"/></graph></graphml>";
        assert!(read_violation(text).unwrap_err().contains("no path"), "{text}");
        assert!(read_violation("- entry_type: violation_sequence").unwrap_err().contains("GraphML"));
    }

    #[test]
    fn invariants_are_escaped() {
        let invariants = vec![Invariant { location: Location { file: "t.c".into(), line: 7, column: 1, function: "f".into() }, value: "i < n && j > 0".into() }];
        let text = render(&Content::Correctness(invariants), &task()).unwrap();
        assert!(text.contains("<data key=\"invariant\">i &lt; n &amp;&amp; j &gt; 0</data>"), "{text}");
        assert!(text.contains("correctness_witness"), "{text}");
    }
}
