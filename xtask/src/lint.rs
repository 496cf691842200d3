//! `cargo xtask lint`: the code-quality checks that the test suite does not
//! make. Clippy over the whole workspace with warnings denied, and the
//! file headers the project's style asks for: every Rust file under
//! `crates/` and `xtask/` opens with a `//!` module doc comment saying what
//! it owns, every C library model (`crates/models/c/*.c`) with a comment
//! saying the same.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The folders (relative to the workspace root) whose Rust files need a
/// module doc comment.
const RUST_ROOTS: &[&str] = &["crates", "xtask"];

/// The folder of the C library models.
const MODELS: &str = "crates/models/c";

/// Runs every check from the workspace `root`, printing what fails; `Err`
/// names the checks that failed.
pub fn run(root: &Path) -> Result<(), String> {
    let mut failed = Vec::new();
    if !clippy_is_clean(root)? {
        failed.push("clippy");
    }
    let missing = files_without_header(root)?;
    for (path, what) in &missing {
        println!("{}: {what}", path.strip_prefix(root).unwrap_or(path).display());
    }
    if !missing.is_empty() {
        failed.push("file headers");
    }
    if failed.is_empty() {
        println!("lint: clean");
        Ok(())
    } else {
        Err(format!("lint failed: {}", failed.join(", ")))
    }
}

/// `cargo clippy --workspace --all-targets -- -D warnings`, its output
/// shown as it comes.
fn clippy_is_clean(root: &Path) -> Result<bool, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(root)
        .args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])
        .status()
        .map_err(|e| format!("cannot run cargo clippy: {e}"))?;
    Ok(status.success())
}

/// Every checked file that lacks its header, with what it lacks.
fn files_without_header(root: &Path) -> Result<Vec<(PathBuf, &'static str)>, String> {
    let mut missing = Vec::new();
    for folder in RUST_ROOTS {
        for path in files_with_extension(&root.join(folder), "rs")? {
            if !opens_with_module_doc(&read(&path)?) {
                missing.push((path, "does not open with a `//!` module doc comment"));
            }
        }
    }
    for path in files_with_extension(&root.join(MODELS), "c")? {
        if !opens_with_comment(&read(&path)?) {
            missing.push((path, "does not open with a comment saying what the model owns"));
        }
    }
    Ok(missing)
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The files under `folder` whose name ends in `.extension`, sorted;
/// build output (`target`) and hidden folders are skipped. An explicit
/// stack, so a deep tree cannot overflow.
fn files_with_extension(folder: &Path, extension: &str) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if name != "target" && !name.starts_with('.') {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|e| e == extension) {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The first line is a `//!` comment with some text in it.
fn opens_with_module_doc(text: &str) -> bool {
    text.lines().next().and_then(|line| line.strip_prefix("//!")).is_some_and(|rest| !rest.trim().is_empty())
}

/// The file opens with a C comment (`/* ... */` or `//`) that has words
/// in it.
fn opens_with_comment(text: &str) -> bool {
    let comment = if let Some(rest) = text.strip_prefix("/*") {
        rest.split("*/").next().unwrap_or("")
    } else if let Some(rest) = text.strip_prefix("//") {
        rest.lines().next().unwrap_or("")
    } else {
        return false;
    };
    comment.chars().any(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rust_file_needs_a_module_doc_comment_on_its_first_line() {
        assert!(opens_with_module_doc("//! The lexer.\n\nuse std::fmt;\n"));
        assert!(!opens_with_module_doc("use std::fmt;\n//! The lexer.\n"));
        assert!(!opens_with_module_doc("// The lexer.\n"));
        assert!(!opens_with_module_doc("/// The lexer.\nfn lex() {}\n"));
        assert!(!opens_with_module_doc("//!\n"));
        assert!(!opens_with_module_doc(""));
    }

    #[test]
    fn a_model_needs_a_comment_on_its_first_line() {
        assert!(opens_with_comment("/* string.h, per the C standard */\nsize_t strlen(const char *s);\n"));
        assert!(opens_with_comment("// ctype.h in the C locale\n"));
        assert!(!opens_with_comment("size_t strlen(const char *s);\n/* string.h */\n"));
        assert!(opens_with_comment("/*\n * unistd.h: sleeping\n */\n"));
        assert!(!opens_with_comment("/**/\nint x;\n"));
        assert!(!opens_with_comment("/* */ int x; /* unistd.h */\n"));
    }

    #[test]
    fn the_tree_is_walked_without_build_output() {
        let dir = std::env::temp_dir().join(format!("xtask-lint-{}", std::process::id()));
        for sub in ["src/nested", "target/debug"] {
            fs::create_dir_all(dir.join(sub)).expect("a temporary folder");
        }
        for file in ["src/lib.rs", "src/nested/a.rs", "src/notes.md", "target/debug/b.rs"] {
            fs::write(dir.join(file), "").expect("a temporary file");
        }
        let found = files_with_extension(&dir, "rs").expect("the walk");
        fs::remove_dir_all(&dir).expect("cleaning up");
        assert_eq!(found, [dir.join("src/lib.rs"), dir.join("src/nested/a.rs")]);
    }
}
