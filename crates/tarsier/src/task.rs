//! SV-COMP task definitions on the command line: a `TASK.yml` input
//! becomes one run per property of the task (or the one run of
//! `--property`), each with the task's input files and data model.

use crate::config::{Action, Config};
use std::path::Path;

/// One run of a command line, with the line that introduces its result
/// when a task has several properties.
pub struct Run {
    pub heading: Option<String>,
    pub config: Config,
}

/// The runs of `config`: itself, unless its input is a task definition.
pub fn runs(config: Config) -> Result<Vec<Run>, String> {
    let tasks = config.inputs.iter().filter(|path| report::task::is_task_file(path)).count();
    match (tasks, config.inputs.len()) {
        (0, _) => return Ok(vec![Run { heading: None, config }]),
        (1, 1) => {}
        _ => return Err("a task definition (.yml) is the only input of its run".into()),
    }
    let task_path = config.inputs[0].clone();
    let task = report::task::read(&task_path)?;
    let mut base = config;
    base.inputs = task.input_files;
    if let Some(model) = task.data_model {
        base.front.data_model = model;
    }
    let verify = &base.verify;
    if verify.property.is_some() || verify.unsupported_property.is_some() || base.action != Action::Verify {
        return Ok(vec![Run { heading: None, config: base }]);
    }
    if task.properties.is_empty() {
        return Err(format!("{}: the task states no property; give one with --property", task_path.display()));
    }
    if base.verify.witness.is_some() && task.properties.len() > 1 {
        return Err(format!("{}: the task has several properties and a witness is about one: give it with --property", task_path.display()));
    }
    task.properties.iter().map(|property| property_run(&base, &property.property_file)).collect()
}

fn property_run(base: &Config, property_file: &Path) -> Result<Run, String> {
    let mut config = base.clone();
    crate::svcomp::set_property(report::svcomp::read(property_file)?, &mut config.verify);
    if let Some(category) = config.verify.property {
        crate::svcomp::configure(category, &mut config.verify);
    }
    let name = property_file.file_name().map_or_else(|| property_file.display().to_string(), |n| n.to_string_lossy().into_owned());
    Ok(Run { heading: Some(format!("property: {name}")), config })
}
