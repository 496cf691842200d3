//! SV-COMP's witness format 2.0 (YAML): a list with one entry, a
//! `violation_sequence` (segments of waypoints, each segment ending with
//! the waypoint to follow, the last one the target) or an `invariant_set`
//! (loop invariants), each with its metadata (producer, task, input file
//! hashes, specification, data model). Also the reader of violation
//! witnesses that `--validate-witness` follows.

use super::{Content, Invariant, Location, TaskInfo, Waypoint};
use ir::DataModel;
use std::fmt::Write;
use yaml_rust2::{Yaml, YamlLoader};

/// The witness document of `content`.
pub fn render(content: &Content, task: &TaskInfo) -> Result<String, String> {
    let entry_type = match content {
        Content::Violation(_) => "violation_sequence",
        Content::Correctness(_) => "invariant_set",
    };
    let mut out = format!("- entry_type: {}\n", quoted(entry_type));
    metadata(&mut out, task)?;
    out += "  content:\n";
    match content {
        Content::Violation(waypoints) => waypoints.iter().for_each(|w| segment(&mut out, w)),
        Content::Correctness(invariants) => invariants.iter().for_each(|i| invariant(&mut out, i)),
    }
    if matches!(content, Content::Correctness(list) if list.is_empty()) {
        out = out.replace("  content:\n", "  content: []\n");
    }
    Ok(out)
}

fn metadata(out: &mut String, task: &TaskInfo) -> Result<(), String> {
    let hashes = task.hashes()?;
    let _ = write!(
        out,
        "  metadata:\n    format_version: \"2.0\"\n    uuid: {}\n    creation_time: {}\n    producer:\n      name: \"tarsier\"\n      version: {}\n    task:\n      input_files:\n",
        quoted(&super::uuid()),
        quoted(&crate::clock::utc_now()),
        quoted(&task.version)
    );
    for (file, _) in &hashes {
        let _ = writeln!(out, "        - {}", quoted(file));
    }
    out.push_str("      input_file_hashes:\n");
    for (file, hash) in &hashes {
        let _ = writeln!(out, "        {}: {}", quoted(file), quoted(hash));
    }
    let data_model = match task.data_model {
        DataModel::ILP32 => "ILP32",
        DataModel::LP64 => "LP64",
    };
    let _ = write!(out, "      specification: {}\n      data_model: {}\n      language: \"C\"\n", quoted(&task.specification), quoted(data_model));
    Ok(())
}

fn segment(out: &mut String, waypoint: &Waypoint) {
    let (kind, location, constraint) = match waypoint {
        Waypoint::Return { location, value, .. } => ("function_return", location, Some((format!("\\result == {value}"), "acsl_expression"))),
        Waypoint::Assumption { location, variable, value } => ("assumption", location, Some((format!("{variable} == {value}"), "c_expression"))),
        Waypoint::Target { location, .. } => ("target", location, None),
        // Format 2.0 has no threads: the values alone make the path.
        Waypoint::Step { .. } => return,
    };
    let _ = write!(out, "    - segment:\n        - waypoint:\n            type: {}\n            action: \"follow\"\n", quoted(kind));
    write_location(out, location, "            ");
    if let Some((value, format)) = constraint {
        let _ = write!(out, "            constraint:\n              value: {}\n              format: {}\n", quoted(&value), quoted(format));
    }
}

fn invariant(out: &mut String, invariant: &Invariant) {
    out.push_str("    - invariant:\n        type: \"loop_invariant\"\n");
    write_location(out, &invariant.location, "        ");
    let _ = write!(out, "        value: {}\n        format: \"c_expression\"\n", quoted(&invariant.value));
}

fn write_location(out: &mut String, location: &Location, indent: &str) {
    let _ = write!(out, "{indent}location:\n{indent}  file_name: {}\n{indent}  line: {}\n", quoted(&location.file), location.line);
    if location.column > 0 {
        let _ = writeln!(out, "{indent}  column: {}", location.column);
    }
    let _ = writeln!(out, "{indent}  function: {}", quoted(&location.function));
}

/// A YAML double-quoted string.
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out += "\\\"",
            '\\' => out += "\\\\",
            '\n' => out += "\\n",
            '\t' => out += "\\t",
            c if c.is_control() => out += &format!("\\u{:04x}", u32::from(c)),
            c => out.push(c),
        }
    }
    out + "\""
}

/// The waypoints to follow of a violation witness, in order (a waypoint
/// this reader does not use, such as a branching, is left out: the values
/// alone decide the path the validation replays).
pub fn read_violation(text: &str) -> Result<Vec<Waypoint>, String> {
    let documents = YamlLoader::load_from_str(text).map_err(|e| format!("line {}: malformed YAML: {}", e.marker().line(), e.info()))?;
    let entries = documents.first().and_then(Yaml::as_vec).ok_or("a witness is a list of entries")?;
    let entry = entries
        .iter()
        .find(|e| e["entry_type"].as_str() == Some("violation_sequence"))
        .ok_or("the witness has no violation_sequence entry")?;
    let segments = entry["content"].as_vec().ok_or("the violation_sequence has no content list")?;
    let mut waypoints = Vec::new();
    for segment in segments {
        let list = segment["segment"].as_vec().ok_or("every content item must be a segment (a list of waypoints)")?;
        for waypoint in list.iter().map(|w| &w["waypoint"]).filter(|w| w["action"].as_str() == Some("follow")) {
            waypoints.extend(read_waypoint(waypoint)?);
        }
    }
    match waypoints.last() {
        Some(Waypoint::Target { .. }) => Ok(waypoints),
        _ => Err("the last waypoint to follow must be the target".into()),
    }
}

fn read_waypoint(waypoint: &Yaml) -> Result<Option<Waypoint>, String> {
    let place = &waypoint["location"];
    let line = place["line"].as_i64().and_then(|l| u32::try_from(l).ok()).ok_or("a waypoint's location needs a line")?;
    let location = Location {
        file: place["file_name"].as_str().unwrap_or_default().to_string(),
        line,
        column: place["column"].as_i64().and_then(|c| u32::try_from(c).ok()).unwrap_or(0),
        function: place["function"].as_str().unwrap_or_default().to_string(),
    };
    let constraint = waypoint["constraint"]["value"].as_str().unwrap_or_default();
    let equation = || constraint.split_once("==").map(|(l, r)| (l.trim().to_string(), r.trim().to_string()));
    match waypoint["type"].as_str() {
        Some("target") => Ok(Some(Waypoint::Target { location, thread: None })),
        Some("function_return") => match equation() {
            Some((result, value)) if result == "\\result" => Ok(Some(Waypoint::Return { location, function: String::new(), value })),
            _ => Err(format!("line {line}: a function_return constraint must be `\\result == VALUE`, not `{constraint}`")),
        },
        Some("assumption") => match equation() {
            Some((variable, value)) => Ok(Some(Waypoint::Assumption { location, variable, value })),
            None => Err(format!("line {line}: an assumption must be `VARIABLE == VALUE`, not `{constraint}`")),
        },
        Some(_) => Ok(None),
        None => Err(format!("line {line}: a waypoint needs a type")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task() -> TaskInfo {
        let file = std::env::temp_dir().join(format!("tarsier-witness-yaml-{}.c", std::process::id()));
        std::fs::write(&file, "int main() { return 0; }\n").unwrap();
        TaskInfo { input_files: vec![file], specification: "CHECK( init(main()), LTL(G ! call(reach_error())) )".into(), data_model: DataModel::ILP32, version: "1.0".into() }
    }

    fn at(line: u32) -> Location {
        Location { file: "t.c".into(), line, column: 3, function: "main".into() }
    }

    #[test]
    fn violation_witnesses_read_back_as_written() {
        let waypoints = vec![
            Waypoint::Return { location: at(4), function: String::new(), value: "-7".into() },
            Waypoint::Assumption { location: at(5), variable: "x".into(), value: "3U".into() },
            Waypoint::Target { location: at(9), thread: None },
        ];
        let text = render(&Content::Violation(waypoints.clone()), &task()).unwrap();
        assert!(text.contains("entry_type: \"violation_sequence\"") && text.contains("data_model: \"ILP32\""), "{text}");
        assert!(text.contains("value: \"\\\\result == -7\""), "{text}");
        assert_eq!(read_violation(&text).unwrap(), waypoints);
    }

    #[test]
    fn correctness_witnesses_list_the_invariants() {
        let invariants = vec![Invariant { location: at(6), value: "i <= n && \"a\" != 0".into() }];
        let text = render(&Content::Correctness(invariants), &task()).unwrap();
        assert!(text.contains("entry_type: \"invariant_set\"") && text.contains("type: \"loop_invariant\""), "{text}");
        assert!(text.contains("value: \"i <= n && \\\"a\\\" != 0\""), "{text}");
        let empty = render(&Content::Correctness(Vec::new()), &task()).unwrap();
        assert!(empty.contains("content: []"), "{empty}");
        assert!(read_violation(&text).unwrap_err().contains("no violation_sequence"));
    }

    #[test]
    fn bad_witnesses_are_refused() {
        assert!(read_violation("- [").unwrap_err().contains("malformed YAML"));
        let no_target = "- entry_type: violation_sequence\n  content:\n    - segment:\n        - waypoint: {type: assumption, action: follow, location: {line: 3}, constraint: {value: x == 1}}\n";
        assert!(read_violation(no_target).unwrap_err().contains("target"));
    }
}
