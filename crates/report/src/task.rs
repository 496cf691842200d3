//! SV-COMP task definitions (`TASK.yml`, format 2.0): the input files, the
//! properties with their property files, the language and the data model.
//! Paths are resolved against the task file's folder. Every error names the
//! task file and, where there is one, the line it is about.

use ir::DataModel;
use std::path::{Path, PathBuf};
use yaml_rust2::{Yaml, YamlLoader};

/// A verification task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    pub input_files: Vec<PathBuf>,
    pub properties: Vec<TaskProperty>,
    /// `None` when the task does not say (format 1.0 tasks).
    pub data_model: Option<DataModel>,
}

/// One property of a task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskProperty {
    pub property_file: PathBuf,
    /// What the task's author expects (the tool never reads it).
    pub expected_verdict: Option<bool>,
}

/// Whether `path` names a task definition rather than a C file.
pub fn is_task_file(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("yml" | "yaml"))
}

/// Reads the task definition at `path`.
pub fn read(path: &Path) -> Result<Task, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    let dir = path.parent().unwrap_or(Path::new(""));
    parse(&text, dir).map_err(|(line, message)| format!("{}:{line}: {message}", path.display()))
}

/// A problem with the task text and the line (1-based) it is on.
type TaskError = (usize, String);

/// Parses a task's text; relative paths are taken from `dir`.
pub fn parse(text: &str, dir: &Path) -> Result<Task, TaskError> {
    let documents = YamlLoader::load_from_str(text).map_err(|e| (e.marker().line(), format!("malformed YAML: {}", e.info())))?;
    let task = match documents.as_slice() {
        [task @ Yaml::Hash(_)] => task,
        _ => return Err((1, "a task definition is one YAML mapping (format_version, input_files, properties, options)".into())),
    };
    let key_line = |key: &str| line_of_key(text, key);
    match &task["format_version"] {
        Yaml::String(v) if v == "2.0" || v == "1.0" => {}
        Yaml::BadValue => return Err((1, "missing `format_version` (tarsier reads format 2.0)".into())),
        other => return Err((key_line("format_version"), format!("unsupported format_version {}: tarsier reads format 2.0", shown(other)))),
    }
    let input_files = strings(&task["input_files"]).ok_or_else(|| (key_line("input_files"), "`input_files` must be a file name or a list of them".to_string()))?;
    if input_files.is_empty() {
        return Err((key_line("input_files"), "`input_files` names no file".into()));
    }
    let properties = match &task["properties"] {
        Yaml::Array(list) => list.iter().map(|p| property(p, dir)).collect::<Result<Vec<_>, _>>().map_err(|m| (key_line("property_file"), m))?,
        Yaml::BadValue => Vec::new(),
        _ => return Err((key_line("properties"), "`properties` must be a list".into())),
    };
    let options = &task["options"];
    match &options["language"] {
        Yaml::String(language) if language == "C" => {}
        Yaml::BadValue => {}
        other => return Err((key_line("language"), format!("unsupported: language {}; tarsier reads C", shown(other)))),
    }
    let data_model = match &options["data_model"] {
        Yaml::String(model) if model == "ILP32" => Some(DataModel::ILP32),
        Yaml::String(model) if model == "LP64" => Some(DataModel::LP64),
        Yaml::BadValue => None,
        other => return Err((key_line("data_model"), format!("unknown data_model {}: ILP32 or LP64", shown(other)))),
    };
    Ok(Task { input_files: input_files.into_iter().map(|f| dir.join(f)).collect(), properties, data_model })
}

fn property(entry: &Yaml, dir: &Path) -> Result<TaskProperty, String> {
    let Yaml::String(file) = &entry["property_file"] else {
        return Err("every property needs a `property_file`".into());
    };
    let expected_verdict = match &entry["expected_verdict"] {
        Yaml::Boolean(verdict) => Some(*verdict),
        Yaml::BadValue => None,
        other => return Err(format!("`expected_verdict` must be true or false, not {}", shown(other))),
    };
    Ok(TaskProperty { property_file: dir.join(file), expected_verdict })
}

/// A string or a list of strings.
fn strings(value: &Yaml) -> Option<Vec<String>> {
    match value {
        Yaml::String(one) => Some(vec![one.clone()]),
        Yaml::Array(list) => list.iter().map(|v| v.as_str().map(str::to_string)).collect(),
        _ => None,
    }
}

fn shown(value: &Yaml) -> String {
    match value {
        Yaml::String(s) => format!("'{s}'"),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Real(r) => r.clone(),
        Yaml::Boolean(b) => b.to_string(),
        _ => "of the wrong kind".into(),
    }
}

/// The line of the first `key:` in `text` (the YAML tree keeps no
/// positions), or 1.
fn line_of_key(text: &str, key: &str) -> usize {
    let prefix = format!("{key}:");
    text.lines()
        .position(|line| line.trim_start().trim_start_matches("- ").trim_start().starts_with(&prefix))
        .map_or(1, |index| index + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TASK: &str = "format_version: '2.0'\n\n# a comment\ninput_files: 'loop.c'\n\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n  - property_file: ../properties/no-overflow.prp\n\noptions:\n  language: C\n  data_model: ILP32\n";

    #[test]
    fn reads_inputs_properties_and_data_model() {
        let task = parse(TASK, Path::new("tasks")).unwrap();
        assert_eq!(task.input_files, [PathBuf::from("tasks/loop.c")]);
        assert_eq!(task.properties.len(), 2);
        assert_eq!(task.properties[0].property_file, PathBuf::from("tasks/../properties/unreach-call.prp"));
        assert_eq!(task.properties[0].expected_verdict, Some(false));
        assert_eq!(task.properties[1].expected_verdict, None);
        assert_eq!(task.data_model, Some(DataModel::ILP32));
    }

    #[test]
    fn a_list_of_input_files_is_one_program() {
        let task = parse("format_version: '2.0'\ninput_files: [a.c, b.c]\n", Path::new("")).unwrap();
        assert_eq!(task.input_files, [PathBuf::from("a.c"), PathBuf::from("b.c")]);
    }

    #[test]
    fn errors_name_the_line() {
        let bad_model = TASK.replace("ILP32", "LP128");
        assert_eq!(parse(&bad_model, Path::new("")).unwrap_err().0, 13);
        let (line, message) = parse(&TASK.replace("language: C", "language: Java"), Path::new("")).unwrap_err();
        assert_eq!((line, message.starts_with("unsupported: language")), (12, true));
        let (line, message) = parse("format_version: '2.0'\ninput_files: [a.c\n", Path::new("")).unwrap_err();
        assert!(message.starts_with("malformed YAML") && line >= 2, "{line}: {message}");
        assert!(parse("input_files: a.c\n", Path::new("")).unwrap_err().1.contains("format_version"));
        assert!(parse("- a\n- b\n", Path::new("")).is_err());
    }
}
