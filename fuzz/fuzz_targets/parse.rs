//! Fuzz target: arbitrary bytes, taken as preprocessed C text, through the
//! lexer and parser. Any panic is a bug; so is an error without a location.
//!
//! Run with `cargo +nightly fuzz run parse` from `fuzz/`.

#![no_main]

use cfront::diag::Diagnostics;
use cfront::{lex, parse};
use ir::SourceFiles;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut files = SourceFiles::default();
    let mut diags = Diagnostics::default();
    let parsed = lex::tokenize(&text, Path::new("fuzz.i"), &mut files, &mut diags)
        .and_then(|tokens| parse::parse(&tokens, &mut diags));
    assert!(parsed.is_some() || diags.has_errors());
    for d in &diags.list {
        assert!(!d.loc.is_none(), "error without a location: {}", d.message);
        assert!(!d.message.starts_with("internal error"), "{}", d.message);
    }
});
