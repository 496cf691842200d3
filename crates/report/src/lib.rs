//! The outputs of a run: the engine's result and trace, read as data and
//! written in the formats people and tools read. Each format is one module
//! that takes a [`Report`] and returns text or a document; none of them
//! knows the command line (which formats a run writes, and where, is the
//! binary's choice).
//!
//! - [`text`]: the text whose last line is the verdict;
//! - [`json`]: one JSON document with the same content;
//! - [`svcomp`]: SV-COMP property files and the competition's result line;
//! - [`sarif`]: a SARIF 2.1.0 log, for CI systems and editors;
//! - [`html`]: one self-contained page with the trace laid over the source;
//! - [`harness`]: a C file that makes a native run follow the counterexample
//!   (with [`harness_locals`], the rewritten copies that set uninitialised locals,
//!   [`harness_library`], the library calls whose outcome it chooses,
//!   [`harness_input`], the stores of `scanf`, `gets` and `fgets`,
//!   [`harness_streams`], the reads of a stream's FILE that show a closed one,
//!   [`harness_descriptors`], the descriptor calls it answers with their model,
//!   [`harness_reads`], the discarded reads it performs, and
//!   [`harness_overflow`], ESBMC's overflow-result built-ins);
//! - [`testcomp`]: the Test-Comp test-suite format;
//! - [`task`]: SV-COMP task definitions (the input side of [`svcomp`]);
//! - [`witness`]: SV-COMP witnesses of TRUE and FALSE results (YAML 2.0,
//!   GraphML 1.0), and the reader of violation witnesses;
//! - [`sha256`] and [`clock`]: the program hash and creation time both
//!   competitions' formats record.

pub mod clock;
pub mod harness;
pub mod harness_descriptors;
pub mod harness_input;
pub mod harness_library;
pub mod harness_locals;
pub mod harness_objects;
pub mod harness_overflow;
pub mod harness_quantifiers;
pub mod harness_reads;
pub mod harness_streams;
pub mod html;
pub mod json;
pub mod sarif;
pub mod sha256;
pub mod svcomp;
pub mod task;
pub mod testcomp;
pub mod text;
pub mod witness;

use engine::{Outcome, Stats, Verdict};

/// What a format reads: the outcome of a run, the program it is about
/// (to resolve locations; absent when the front end produced none), and
/// the SV-COMP property the run decides, if any.
#[derive(Copy, Clone)]
pub struct Report<'a> {
    pub outcome: &'a Outcome,
    pub program: Option<&'a ir::Program>,
    pub property: Option<svcomp::Category>,
}

impl Report<'_> {
    /// The file and line of `loc`; `<built-in>` and line 0 when it has none.
    fn location(&self, loc: ir::Loc) -> (String, u32) {
        match self.program {
            Some(program) if !loc.is_none() => (program.files.name(loc.file).to_string(), loc.line),
            _ => ("<built-in>".to_string(), 0),
        }
    }

    /// `file:line`, or the file alone when there is no line.
    fn place(&self, loc: ir::Loc) -> String {
        match self.location(loc) {
            (file, 0) => file,
            (file, line) => format!("{file}:{line}"),
        }
    }

    /// The SV-COMP result (`TRUE`, `FALSE(...)`, `UNKNOWN`), when the run
    /// decides a competition property.
    pub fn svcomp_result(&self) -> Option<&'static str> {
        Some(self.property?.result(&self.outcome.verdict))
    }
}

/// The verdict line that ends the text output.
pub fn verdict_line(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::True | Verdict::BoundedTrue { .. } => "VERIFICATION SUCCESSFUL",
        Verdict::False(_) => "VERIFICATION FAILED",
        Verdict::Unknown(_) => "VERIFICATION UNKNOWN",
    }
}

/// How a TRUE was proved, in a sentence.
pub fn proof_line(proof: &engine::Proof) -> String {
    match proof.method {
        engine::ProofMethod::BoundedExhaustion { bound: Some(bound) } => {
            format!("proved by bounded exhaustion: every loop runs to its end within bound {bound}")
        }
        engine::ProofMethod::BoundedExhaustion { bound: None } => "proved by bounded exhaustion: every loop unwound to its end".into(),
        engine::ProofMethod::KInduction { k } => match proof.invariants.len() {
            0 => format!("proved by k-induction at k = {k}"),
            1 => format!("proved by k-induction at k = {k}, with 1 certified invariant"),
            n => format!("proved by k-induction at k = {k}, with {n} certified invariants"),
        },
        engine::ProofMethod::RankingFunctions => match proof.rankings.len() {
            0 | 1 => "proved by a ranking function for its loop".into(),
            n => format!("proved by ranking functions for its {n} loops"),
        },
    }
}

/// An UNKNOWN outcome that no engine run produced (unsupported input,
/// resource limits), to be reported like any other.
pub fn unknown(reason: &str) -> Outcome {
    Outcome { verdict: Verdict::Unknown(reason.to_string()), approximations: Vec::new(), stats: Stats::default(), proof: None }
}
