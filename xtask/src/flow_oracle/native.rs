//! The native side of the control-flow oracle: gcc compiles a batch of
//! programs (`emit`'s native flavour) into one harness that enumerates,
//! for each program and unwinding bound, every sequence of
//! nondeterministic choices depth-first (each execution replays the
//! choices of the previous one up to the last that has an alternative
//! left, and `longjmp`s back when it ends). Per program and bound it
//! reports whether every execution was enumerated, whether one went past
//! the bound, the most back edges any loop took in one stay and the
//! deepest recursion, and every (assertion site, value) an execution
//! reached within the bound.
//!
//! The bound is tarsier's (`--unwind N`, crates/symex/src/exec.rs): a
//! loop takes at most N-1 back edges per entry — reaching its N-th ends
//! the execution there — and a function is entered at most N times at
//! once. Bound 0 is no bound: a step budget then ends an execution that
//! runs too long, and with it the enumeration, marked incomplete.

use super::emit::{self, Shape};
use super::program::Program;
use crate::oracle::{native_records, run_native};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

/// What the enumeration of one program under one bound found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exploration {
    pub runs: u64,
    /// Every execution was enumerated, to its end or to the bound.
    pub complete: bool,
    /// Some execution reached the bound (a back edge or call past it).
    pub exceeded: bool,
    /// The most back edges a loop took in one stay.
    pub max_iterations: u64,
    /// The most frames of one function active at once.
    pub max_depth: u64,
    /// Every (site, value) an assertion site saw.
    pub reached: BTreeSet<(usize, i64)>,
}

impl Exploration {
    /// The values site `site` saw.
    pub fn values(&self, site: usize) -> impl Iterator<Item = i64> + '_ {
        self.reached.range((site, i64::MIN)..=(site, i64::MAX)).map(|&(_, v)| v)
    }

    pub fn reaches(&self, site: usize, value: i64) -> bool {
        self.reached.contains(&(site, value))
    }
}

/// Explorations of one program, by bound (0: unbounded).
pub type Explorations = BTreeMap<u32, Exploration>;

const HARNESS: &str = r#"#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#define ORACLE_CHOICES 128
#define ORACLE_RUNS 60000L
#define ORACLE_STEPS 20000L
#define ORACLE_TABLE 4096

enum { ORACLE_FEASIBLE = 1, ORACLE_INFEASIBLE, ORACLE_BOUND, ORACLE_BUDGET };
static jmp_buf oracle_jump;
static long oracle_bound, oracle_steps, oracle_max_iterations, oracle_max_depth;
static int oracle_choice[ORACLE_CHOICES], oracle_options[ORACLE_CHOICES], oracle_known, oracle_depth, oracle_full;
static struct { int used, site; long long value; } oracle_table[ORACLE_TABLE];

static void oracle_stop(int why) { longjmp(oracle_jump, why); }
static void oracle_step(void) { if (++oracle_steps > ORACLE_STEPS) oracle_stop(ORACLE_BUDGET); }
static int oracle_choose(int options) {
  oracle_step();
  if (oracle_depth < oracle_known) return oracle_choice[oracle_depth++];
  if (oracle_depth == ORACLE_CHOICES) oracle_stop(ORACLE_BUDGET);
  oracle_options[oracle_depth] = options;
  oracle_choice[oracle_depth] = 0;
  oracle_known = ++oracle_depth;
  return 0;
}
static int oracle_bool(void) { return oracle_choose(2); }
static int oracle_int(int low, int high) { return low + oracle_choose(high - low + 1); }
static void oracle_assume(int holds) { if (!holds) oracle_stop(ORACLE_INFEASIBLE); }
/* A back edge of a loop: the count-th since the loop was entered. */
static void oracle_back(int *count) {
  oracle_step();
  if (++*count >= oracle_bound && oracle_bound) oracle_stop(ORACLE_BOUND);
  if (*count > oracle_max_iterations) oracle_max_iterations = *count;
}
static int oracle_back_taken(int *count) { oracle_back(count); return 1; }
/* A call of a function with *active frames already. */
static void oracle_enter(int *active) {
  oracle_step();
  if (oracle_bound && *active > 0 && *active >= oracle_bound) oracle_stop(ORACLE_BOUND);
  if (++*active > oracle_max_depth) oracle_max_depth = *active;
}
static void oracle_probe(int site, long long value) {
  unsigned long long h = ((unsigned long long)value * 0x9e3779b97f4a7c15ull + (unsigned long long)site) % ORACLE_TABLE;
  for (int n = 0; n < ORACLE_TABLE; n++, h = (h + 1) % ORACLE_TABLE) {
    if (!oracle_table[h].used) { oracle_table[h].used = 1; oracle_table[h].site = site; oracle_table[h].value = value; return; }
    if (oracle_table[h].site == site && oracle_table[h].value == value) return;
  }
  oracle_full = 1;
}
static volatile long oracle_runs;
static volatile int oracle_complete, oracle_exceeded;
static void oracle_explore(int program, long bound, void (*reset)(void), void (*run)(void)) {
  oracle_bound = bound;
  oracle_known = 0;
  oracle_max_iterations = oracle_max_depth = 0;
  oracle_full = 0;
  memset(oracle_table, 0, sizeof oracle_table);
  oracle_runs = 0;
  oracle_complete = 1;
  oracle_exceeded = 0;
  for (;;) {
    if (oracle_runs == ORACLE_RUNS) { oracle_complete = 0; break; }
    oracle_runs++;
    reset();
    oracle_depth = 0;
    oracle_steps = 0;
    int why = setjmp(oracle_jump);
    if (why == 0) run();
    else if (why == ORACLE_BOUND) oracle_exceeded = 1;
    else if (why == ORACLE_BUDGET) { oracle_complete = 0; break; }
    int d = oracle_depth - 1;
    while (d >= 0 && oracle_choice[d] + 1 >= oracle_options[d]) d--;
    if (d < 0) break;
    oracle_choice[d]++;
    oracle_known = d + 1;
  }
  printf("R %d %ld %ld %d %d %ld %ld\n", program, bound, (long)oracle_runs, oracle_complete && !oracle_full, oracle_exceeded, oracle_max_iterations, oracle_max_depth);
  for (int h = 0; h < ORACLE_TABLE; h++)
    if (oracle_table[h].used) printf("S %d %ld %d %lld\n", program, bound, oracle_table[h].site, oracle_table[h].value);
}
"#;

/// The prefix of program `index`'s names in a batch.
fn prefix(index: usize) -> String {
    format!("p{index}_")
}

/// A program to enumerate, written in `shape`, under each of `bounds`;
/// `entry_heads`: a loop with a conditional jump into it is counted with
/// that entry as its head (else with its first instruction).
pub struct Job<'a> {
    pub program: &'a Program,
    pub shape: Shape,
    pub entry_heads: bool,
    pub bounds: Vec<u32>,
}

/// The batch harness: every program, and a `main` exploring each under
/// each of its bounds.
pub fn batch_text(jobs: &[Job]) -> String {
    let mut text = String::from(HARNESS);
    for (index, job) in jobs.iter().enumerate() {
        let _ = writeln!(text, "/* program {index} */");
        text.push_str(&emit::native(job.program, &prefix(index), job.shape, job.entry_heads));
    }
    text.push_str("int main(void) {\n");
    for (index, Job { bounds, .. }) in jobs.iter().enumerate() {
        let p = prefix(index);
        for bound in bounds {
            let _ = writeln!(text, "  oracle_explore({index}, {bound}, {p}reset, {p}run);");
        }
    }
    text.push_str("  return 0;\n}\n");
    text
}

/// Compiles and runs the batch in `dir`; one map of explorations per
/// program.
pub fn explore(jobs: &[Job], dir: &Path) -> Result<Vec<Explorations>, String> {
    let output = run_native(&batch_text(jobs), dir, &["-O0", "-w"], Duration::from_secs(600))?;
    parse(&output, jobs.len())
}

/// Reads the harness's output.
pub fn parse(text: &str, count: usize) -> Result<Vec<Explorations>, String> {
    let mut explorations: Vec<Explorations> = vec![BTreeMap::new(); count];
    for record in native_records(text, count) {
        let record = record?;
        let field = |k: usize| record.field(k);
        let entry = explorations[record.program].entry(record.bound).or_default();
        match (record.kind, record.word_count()) {
            ("R", 8) => {
                entry.runs = field(3)? as u64;
                entry.complete = field(4)? == 1;
                entry.exceeded = field(5)? == 1;
                entry.max_iterations = field(6)? as u64;
                entry.max_depth = field(7)? as u64;
            }
            ("S", 5) => {
                entry.reached.insert((field(3)? as usize, field(4)?));
            }
            _ => return Err(record.malformed()),
        }
    }
    Ok(explorations)
}
