//! Robustness: mutated inputs (deleted spans, inserted junk, truncation,
//! swapped lines, flipped bytes; a fixed-seed generator) must lex and parse
//! to a tree or to located errors: never a panic, never an error without
//! a location. Seeds are the golden snippets and two preprocessed corpus
//! programs (`parse_data/mutation_seeds`, from the ESBMC regression corpus).

use cfront::diag::Diagnostics;
use cfront::{lex, parse};
use ir::SourceFiles;
use std::path::{Path, PathBuf};

/// Mutants per run; `PARSE_MUTANTS=N` runs more for a local stress test.
const MUTANTS: usize = 240;

const JUNK: &[&str] = &[
    "(", ")", "{", "}", "[", "]", ";", ",", "*", "int", "typedef", "struct", "\"", "'", "/*", "...", "__attribute__((",
    "asm(", "0x", "1e", "'\\x", "L\"", "_Generic(", "case", "?", ":", "=", "&&", "\u{e9}", "\\", "`", "@", "\n",
];

/// xorshift64*: deterministic and good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn seeds() -> Vec<Vec<u8>> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parse_data");
    let mut paths: Vec<PathBuf> = Vec::new();
    for dir in [data.clone(), data.join("mutation_seeds")] {
        let entries = std::fs::read_dir(&dir).expect("test data exists");
        paths.extend(entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| {
            p.extension().is_some_and(|e| e == "c" || e == "i") && p.file_stem().is_some_and(|s| s != "errors")
        }));
    }
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).expect("readable seed")).collect()
}

fn mutate(input: &mut Vec<u8>, rng: &mut Rng) {
    let len = input.len();
    match rng.below(5) {
        0 => {
            let start = rng.below(len);
            let end = (start + 1 + rng.below(40)).min(len);
            input.drain(start..end);
        }
        1 => {
            let at = rng.below(len + 1);
            let junk = JUNK[rng.below(JUNK.len())].as_bytes();
            input.splice(at..at, junk.iter().copied());
        }
        2 => input.truncate(rng.below(len + 1)),
        3 => {
            let mut lines: Vec<Vec<u8>> = input.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
            let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
            lines.swap(a, b);
            *input = lines.join(&b'\n');
        }
        _ => {
            if len > 0 {
                let at = rng.below(len);
                input[at] ^= 1 << rng.below(8);
            }
        }
    }
}

#[test]
fn mutated_inputs_give_a_tree_or_located_errors() {
    let seeds = seeds();
    assert!(seeds.len() >= 5);
    let mut rng = Rng(0x7a75_1e55_c0de_5eed);
    let mutants = std::env::var("PARSE_MUTANTS").ok().and_then(|n| n.parse().ok()).unwrap_or(MUTANTS);
    let mut rejected = 0;
    for round in 0..mutants {
        let mut input = seeds[round % seeds.len()].clone();
        for _ in 0..1 + rng.below(3) {
            mutate(&mut input, &mut rng);
        }
        let text = String::from_utf8_lossy(&input);
        let mut files = SourceFiles::default();
        let mut diags = Diagnostics::default();
        let parsed = lex::tokenize(&text, Path::new("mutant.c"), &mut files, &mut diags)
            .and_then(|tokens| parse::parse(&tokens, &mut diags));
        if parsed.is_none() {
            rejected += 1;
            assert!(diags.has_errors(), "mutant {round}: rejected without an error");
        }
        for d in &diags.list {
            assert!(!d.loc.is_none(), "mutant {round}: error without a location: {}\n{text}", d.message);
            assert!(!d.message.starts_with("internal error"), "mutant {round}: {}\n{text}", d.message);
        }
    }
    // Most mutations break the program: the test exercises error paths.
    assert!(rejected > mutants / 3, "only {rejected} of {mutants} mutants were rejected");
}
