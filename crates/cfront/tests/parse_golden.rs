//! Golden parser tests: every `parse_data/*.c` snippet (taken as
//! preprocessed text) is parsed and its AST dump compared with the `.ast`
//! file beside it; `parse_data/errors.c` holds error cases separated by
//! `// ----` lines, each expected to fail with the message in `errors.err`.
//! Run with `UPDATE_EXPECT=1` to rewrite the expectations after a reviewed
//! change.

mod parse_dump;

use cfront::diag::Diagnostics;
use cfront::{lex, parse};
use ir::SourceFiles;
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parse_data")
}

/// Lex + parse `text`: the dump, or `line:col: message` of the first error.
fn parse_text(text: &str, name: &str) -> Result<String, String> {
    let mut files = SourceFiles::default();
    let mut diags = Diagnostics::default();
    let parsed = lex::tokenize(text, Path::new(name), &mut files, &mut diags)
        .and_then(|tokens| parse::parse(&tokens, &mut diags));
    match parsed {
        Some(unit) => Ok(parse_dump::unit(&unit)),
        None => {
            let d = diags.list.first().expect("a failed parse reports an error");
            Err(format!("{}:{}: {}", d.loc.line, d.loc.col, d.message))
        }
    }
}

fn check_golden(expected_path: &Path, actual: &str) -> Result<(), String> {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(expected_path, actual).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(expected_path).unwrap_or_default();
    if expected == actual {
        return Ok(());
    }
    Err(format!(
        "{} differs (rerun with UPDATE_EXPECT=1 after reviewing):\n--- expected\n{expected}\n--- actual\n{actual}",
        expected_path.display()
    ))
}

#[test]
fn snippets_parse_to_the_expected_ast() {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("parse_data exists")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c") && p.file_stem().is_some_and(|s| s != "errors"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 5, "golden snippets are missing");
    let mut failures = Vec::new();
    for source in &sources {
        let text = std::fs::read_to_string(source).expect("readable snippet");
        let name = source.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let actual = match parse_text(&text, &name) {
            Ok(dump) => dump,
            Err(error) => format!("error: {error}\n"),
        };
        if let Err(diff) = check_golden(&source.with_extension("ast"), &actual) {
            failures.push(diff);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn error_cases_report_the_expected_message_and_location() {
    let text = std::fs::read_to_string(data_dir().join("errors.c")).expect("errors.c");
    let mut actual = String::new();
    for (index, case) in text.split("// ----\n").enumerate() {
        let outcome = match parse_text(case, "errors.c") {
            Ok(_) => "parsed without error".to_string(),
            Err(error) => error,
        };
        actual.push_str(&format!("case {}: {outcome}\n", index + 1));
    }
    if let Err(diff) = check_golden(&data_dir().join("errors.err"), &actual) {
        panic!("{diff}");
    }
}
