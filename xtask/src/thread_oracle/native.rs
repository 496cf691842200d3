//! The native side of the thread oracle: gcc compiles a batch of programs
//! (`emit`'s native flavour) into one harness that runs each program's
//! threads as coroutines (`ucontext`) under a scheduler and enumerates,
//! depth-first, every sequence of scheduling decisions and inputs (each
//! execution replays the decisions of the previous one up to the last
//! that has an alternative left). A thread gets a turn before each shared
//! access; a lock is granted only while the mutex is free, a join once
//! the thread ended; the execution ends when `main` returns (the process
//! ends), when no thread can go on (a deadlock, or every thread cut by
//! the bound), or past a step budget (the enumeration is then
//! incomplete). Per program and bound it reports whether the enumeration
//! was complete, whether an execution reached the bound, how many ended
//! in a deadlock, and every (site, value) an execution reached, with how
//! often and the first schedule that reached it.
//!
//! The bound is tarsier's (`--unwind N`): a loop takes at most N-1 back
//! edges per entry, and the N-th stops its thread for ever (tarsier's
//! path ends there; the others run on). Bound 0 is no bound.

use super::emit;
use super::program::Program;
use crate::oracle::{native_records, run_native};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

/// What one (site, value) was seen with: how many times, and the first
/// schedule that reached it (thread numbers, `=v` for an input).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    pub count: u64,
    pub schedule: String,
}

/// What the enumeration of one program under one bound found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exploration {
    pub runs: u64,
    /// Every execution was enumerated, to its end or to the bound.
    pub complete: bool,
    /// Some execution had a loop reach the bound.
    pub exceeded: bool,
    /// Executions that ended with no thread able to go on and none cut.
    pub deadlocks: u64,
    /// Every (site, value) a site saw.
    pub reached: BTreeMap<(usize, i64), Reach>,
}

impl Exploration {
    /// The values site `site` saw, with how often.
    pub fn values(&self, site: usize) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.reached.range((site, i64::MIN)..=(site, i64::MAX)).map(|(&(_, v), r)| (v, r.count))
    }

    pub fn reaches(&self, site: usize, value: i64) -> bool {
        self.reached.contains_key(&(site, value))
    }
}

/// Explorations of one program, by bound (0: unbounded).
pub type Explorations = BTreeMap<u32, Exploration>;

const HARNESS: &str = r#"#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

#define ORACLE_THREADS 4
#define ORACLE_STACK (64 * 1024)
#define ORACLE_CHOICES 256
#define ORACLE_RUNS 400000L
#define ORACLE_STEPS 400L
#define ORACLE_TABLE 512
#define ORACLE_TRACE 512

enum { ORACLE_READY, ORACLE_ENDED, ORACLE_CUT };
enum { ORACLE_STEP, ORACLE_LOCK, ORACLE_JOIN };
enum { ORACLE_ON, ORACLE_END, ORACLE_BUDGET };

/* A thread starts by swapcontext onto its stack; later switches are
   _setjmp/_longjmp, which save no signal mask (no system call). */
static ucontext_t oracle_starter, oracle_context[ORACLE_THREADS];
static jmp_buf oracle_scheduler, oracle_resume[ORACLE_THREADS];
static int oracle_started[ORACLE_THREADS];
static char oracle_stack[ORACLE_THREADS][ORACLE_STACK];
static int (*oracle_body[ORACLE_THREADS])(int *);
static int *oracle_arg[ORACLE_THREADS];
static int oracle_result[ORACLE_THREADS];
static int oracle_state[ORACLE_THREADS], oracle_want[ORACLE_THREADS], oracle_wanted[ORACLE_THREADS];
static int oracle_threads, oracle_current, oracle_atomic, oracle_halt, oracle_owner[8];
static long oracle_bound, oracle_steps;
static int oracle_choice[ORACLE_CHOICES], oracle_options[ORACLE_CHOICES], oracle_known, oracle_depth;
static int oracle_exceeded, oracle_full;
static long oracle_deadlocks;
static char oracle_trace[ORACLE_TRACE];
static int oracle_trace_length;
static struct { int used, site; long long value; long count; char schedule[ORACLE_TRACE]; } oracle_table[ORACLE_TABLE];

static void oracle_note(const char *format, int value) {
  int room = ORACLE_TRACE - oracle_trace_length;
  int n = snprintf(oracle_trace + oracle_trace_length, room, format, value);
  if (n >= room) oracle_trace_length = ORACLE_TRACE - 1; else oracle_trace_length += n;
}
/* The next choice among `options`, replayed or new; -1 past the budget. */
static int oracle_choose(int options) {
  if (options == 1) return 0;
  if (oracle_depth < oracle_known) return oracle_choice[oracle_depth++];
  if (oracle_depth == ORACLE_CHOICES) return -1;
  oracle_options[oracle_depth] = options;
  oracle_choice[oracle_depth] = 0;
  oracle_known = ++oracle_depth;
  return 0;
}
/* Back to the scheduler; the current thread is resumed when picked. */
static void oracle_switch(void) {
  if (!_setjmp(oracle_resume[oracle_current])) _longjmp(oracle_scheduler, 1);
}
static void oracle_stop(int why) {
  oracle_halt = why;
  for (;;) oracle_switch();
}
static void oracle_turn(int want, int wanted) {
  if (oracle_atomic) return;
  oracle_want[oracle_current] = want;
  oracle_wanted[oracle_current] = wanted;
  oracle_switch();
}
static void oracle_yield(void) { oracle_turn(ORACLE_STEP, 0); }
static void oracle_lock(int mutex) { oracle_turn(ORACLE_LOCK, mutex); }
static void oracle_unlock(int mutex) { oracle_owner[mutex] = -1; }
static int oracle_join(int thread) { oracle_turn(ORACLE_JOIN, thread); return oracle_result[thread]; }
static int oracle_input(int low, int high) {
  int c = oracle_choose(high - low + 1);
  if (c < 0) oracle_stop(ORACLE_BUDGET);
  oracle_note("=%d,", low + c);
  return low + c;
}
/* A back edge of a loop: the count-th since the loop was entered. */
static void oracle_back(int *count) {
  if (++oracle_steps > ORACLE_STEPS) oracle_stop(ORACLE_BUDGET);
  if (oracle_bound && ++*count >= oracle_bound) {
    oracle_exceeded = 1;
    oracle_state[oracle_current] = ORACLE_CUT;
    oracle_switch();
  }
}
static void oracle_probe(int site, long long value) {
  unsigned long long h = ((unsigned long long)value * 0x9e3779b97f4a7c15ull + (unsigned long long)site) % ORACLE_TABLE;
  for (int n = 0; n < ORACLE_TABLE; n++, h = (h + 1) % ORACLE_TABLE) {
    if (!oracle_table[h].used) {
      oracle_table[h].used = 1; oracle_table[h].site = site; oracle_table[h].value = value; oracle_table[h].count = 1;
      memcpy(oracle_table[h].schedule, oracle_trace, ORACLE_TRACE);
      return;
    }
    if (oracle_table[h].site == site && oracle_table[h].value == value) { oracle_table[h].count++; return; }
  }
  oracle_full = 1;
}
static void oracle_entry(void) {
  int self = oracle_current;
  oracle_result[self] = oracle_body[self](oracle_arg[self]);
  oracle_state[self] = ORACLE_ENDED;
  _longjmp(oracle_scheduler, 1);
}
static int oracle_spawn(int (*body)(int *), int *arg) {
  int k = oracle_threads++;
  getcontext(&oracle_context[k]);
  oracle_context[k].uc_stack.ss_sp = oracle_stack[k];
  oracle_context[k].uc_stack.ss_size = ORACLE_STACK;
  oracle_context[k].uc_link = 0;
  makecontext(&oracle_context[k], oracle_entry, 0);
  oracle_body[k] = body;
  oracle_arg[k] = arg;
  oracle_started[k] = 0;
  oracle_state[k] = ORACLE_READY;
  oracle_want[k] = ORACLE_STEP;
  return k;
}
static int oracle_enabled(int k) {
  if (oracle_state[k] != ORACLE_READY) return 0;
  if (oracle_want[k] == ORACLE_LOCK) return oracle_owner[oracle_wanted[k]] < 0;
  if (oracle_want[k] == ORACLE_JOIN) return oracle_state[oracle_wanted[k]] == ORACLE_ENDED;
  return 1;
}
/* One execution: the main thread, then every scheduling decision. */
static int oracle_run(void (*reset)(void), int (*main_body)(int *)) {
  reset();
  oracle_threads = 0; oracle_atomic = 0; oracle_halt = ORACLE_ON; oracle_steps = 0;
  oracle_trace_length = 0; oracle_trace[0] = 0;
  memset(oracle_owner, -1, sizeof oracle_owner);
  oracle_spawn(main_body, 0);
  for (;;) {
    if (oracle_halt != ORACLE_ON) return oracle_halt;
    if (oracle_state[0] == ORACLE_ENDED) return ORACLE_END;
    int enabled[ORACLE_THREADS], n = 0, cut = 0;
    for (int k = 0; k < oracle_threads; k++) {
      if (oracle_enabled(k)) enabled[n++] = k;
      cut |= oracle_state[k] == ORACLE_CUT;
    }
    if (n == 0) { if (!cut) oracle_deadlocks++; return ORACLE_END; }
    int c = oracle_choose(n);
    if (c < 0 || ++oracle_steps > ORACLE_STEPS) return ORACLE_BUDGET;
    int k = enabled[c];
    if (n > 1) oracle_note("%d,", k);
    if (oracle_want[k] == ORACLE_LOCK) oracle_owner[oracle_wanted[k]] = k;
    oracle_current = k;
    if (!_setjmp(oracle_scheduler)) {
      if (oracle_started[k]) _longjmp(oracle_resume[k], 1);
      oracle_started[k] = 1;
      swapcontext(&oracle_starter, &oracle_context[k]);
    }
  }
}
static void oracle_explore(int program, long bound, void (*reset)(void), int (*main_body)(int *)) {
  long runs = 0;
  int complete = 1;
  oracle_bound = bound;
  oracle_known = 0;
  oracle_exceeded = oracle_full = 0;
  oracle_deadlocks = 0;
  memset(oracle_table, 0, sizeof oracle_table);
  for (;;) {
    if (runs == ORACLE_RUNS) { complete = 0; break; }
    runs++;
    oracle_depth = 0;
    if (oracle_run(reset, main_body) == ORACLE_BUDGET) { complete = 0; break; }
    int d = oracle_depth - 1;
    while (d >= 0 && oracle_choice[d] + 1 >= oracle_options[d]) d--;
    if (d < 0) break;
    oracle_choice[d]++;
    oracle_known = d + 1;
  }
  printf("R %d %ld %ld %d %d %ld\n", program, bound, runs, complete && !oracle_full, oracle_exceeded, oracle_deadlocks);
  for (int h = 0; h < ORACLE_TABLE; h++)
    if (oracle_table[h].used)
      printf("S %d %ld %d %lld %ld %s\n", program, bound, oracle_table[h].site, oracle_table[h].value, oracle_table[h].count,
             oracle_table[h].schedule[0] ? oracle_table[h].schedule : "-");
}
"#;

/// A program to enumerate under each of `bounds`.
pub struct Job<'a> {
    pub program: &'a Program,
    pub bounds: Vec<u32>,
}

/// The batch harness: every program, and a `main` exploring each under
/// each of its bounds.
pub fn batch_text(jobs: &[Job]) -> String {
    let mut text = String::from(HARNESS);
    for (index, job) in jobs.iter().enumerate() {
        let _ = writeln!(text, "/* program {index} */");
        text.push_str(&emit::native(job.program, &format!("p{index}_")));
    }
    text.push_str("int main(void) {\n  setvbuf(stdout, 0, _IOFBF, 1 << 16);\n");
    for (index, job) in jobs.iter().enumerate() {
        for bound in &job.bounds {
            let _ = writeln!(text, "  oracle_explore({index}, {bound}, p{index}_reset, p{index}_main);");
        }
    }
    text.push_str("  return 0;\n}\n");
    text
}

/// Compiles and runs the batch in `dir`; one map of explorations per
/// program.
pub fn explore(jobs: &[Job], dir: &Path) -> Result<Vec<Explorations>, String> {
    let output = run_native(&batch_text(jobs), dir, &["-O1", "-w", "-U_FORTIFY_SOURCE"], Duration::from_secs(1200))?;
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
            ("R", 7) => {
                entry.runs = field(3)? as u64;
                entry.complete = field(4)? == 1;
                entry.exceeded = field(5)? == 1;
                entry.deadlocks = field(6)? as u64;
            }
            ("S", 7) => {
                let schedule = if record.word(6) == "-" { String::new() } else { record.word(6).trim_end_matches(',').to_string() };
                entry.reached.insert((field(3)? as usize, field(4)?), Reach { count: field(5)? as u64, schedule });
            }
            _ => return Err(record.malformed()),
        }
    }
    Ok(explorations)
}
