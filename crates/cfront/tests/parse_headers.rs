//! Preprocesses and parses a file including 80 C library headers, in both
//! data models and with `_GNU_SOURCE`, through the system preprocessor.

use cfront::diag::Diagnostics;
use cfront::{lex, parse, preprocess, Options};
use ir::{DataModel, SourceFiles};
use std::path::{Path, PathBuf};

fn headers_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parse_data/headers/glibc_headers.c")
}

/// Preprocesses with `opts`; `None` (with a printed reason) when this
/// machine's preprocessor cannot, which is not the parser's failure.
fn preprocessed(opts: &Options) -> Option<String> {
    let mut diags = Diagnostics::default();
    let text = preprocess::run(&headers_file(), opts, &mut diags);
    if text.is_none() {
        println!("skipped ({:?}, {:?}): cannot preprocess here: {:?}", opts.data_model, opts.macro_args, diags.list);
    }
    text
}

fn parse_ok(text: &str) {
    let mut files = SourceFiles::default();
    let mut diags = Diagnostics::default();
    let parsed = lex::tokenize(text, &headers_file(), &mut files, &mut diags).and_then(|tokens| parse::parse(&tokens, &mut diags));
    assert!(parsed.is_some(), "{}", diags.render(&files));
    let unit = parsed.unwrap_or_default();
    assert!(unit.items.len() > 1000, "only {} declarations: headers missing?", unit.items.len());
}

#[test]
fn glibc_headers_parse_in_lp64() {
    for macros in [vec![], vec!["-D_GNU_SOURCE".to_string()]] {
        let opts = Options { data_model: DataModel::LP64, macro_args: macros, ..Options::default() };
        let text = preprocessed(&opts).expect("the LP64 preprocessor works wherever the tests run");
        assert!(text.contains("typedef long int __ssize_t;"), "LP64 ssize_t");
        parse_ok(&text);
    }
}

#[test]
fn glibc_headers_parse_in_ilp32() {
    for macros in [vec![], vec!["-D_GNU_SOURCE".to_string()]] {
        let opts = Options { data_model: DataModel::ILP32, macro_args: macros, ..Options::default() };
        let Some(text) = preprocessed(&opts) else { return };
        assert!(text.contains("typedef int __ssize_t;"), "ILP32 ssize_t");
        parse_ok(&text);
    }
}
