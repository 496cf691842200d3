//! Expands the generic blocks of the C model sources (`c/*.c`, see
//! `src/generic.rs`) into the files that the crate includes. The blocks
//! one file shares with others are collected from every file first.

#[path = "src/generic.rs"]
mod generic;

use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed=c");
    println!("cargo:rerun-if-changed=src/generic.rs");
    let mut models = Vec::new();
    for entry in fs::read_dir("c").expect("the c/ folder of the models") {
        let path = entry.expect("a model file").path();
        if path.extension().is_some_and(|e| e == "c") {
            let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            models.push((path, text));
        }
    }
    let mut shared = generic::Shared::new();
    for (path, text) in &models {
        for (name, body) in generic::shared_blocks(text, &path.display().to_string()).unwrap_or_else(|e| panic!("{e}")) {
            if shared.insert(name.clone(), body).is_some() {
                panic!("{}: a second shared block `{name}`", path.display());
            }
        }
    }
    for (path, text) in &models {
        expand(path, text, &shared, &out);
    }
}

fn expand(path: &Path, text: &str, shared: &generic::Shared, out: &Path) {
    let expanded = generic::expand(text, &path.display().to_string(), shared).unwrap_or_else(|e| panic!("{e}"));
    let name = path.file_name().expect("a file name");
    fs::write(out.join(name), expanded).unwrap_or_else(|e| panic!("{}: {e}", out.join(name).display()));
}
