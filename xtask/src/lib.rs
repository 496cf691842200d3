//! tarsier's project scripts (`cargo xtask ...`), as a library shared with
//! the black-box tests of the `tarsier` binary: the corpus manifest and its
//! mapping to flags ([`corpus`]), running the binary with a time limit
//! ([`process`], [`runner`]), scoring and reporting ([`report`], and side
//! by side with a peer verifier's results: [`peer`]), and the
//! benchmarks of the front end ([`bench`]), of verification
//! ([`bench_verify`]), of k-induction ([`bench_kind`]), of termination
//! ([`bench_term`]) and of threads ([`bench_threads`]), the check that
//! counterexample harnesses reproduce their violation ([`harness_check`]), and the
//! differential oracles' shared machinery ([`oracle`]) with the
//! integer/memory one ([`c_oracle`]), the control-flow one
//! ([`flow_oracle`]), the library-model one ([`model_oracle`]), whose
//! fixed samples the binary's tests run, and the mutants of corpus tasks
//! judged natively ([`mutant_oracle`]), the threads one whose schedules
//! gcc enumerates ([`thread_oracle`]); the code-quality checks ([`lint`]).

pub mod bench;
pub mod bench_kind;
pub mod bench_term;
pub mod bench_threads;
pub mod bench_verify;
pub mod c_oracle;
pub mod clock;
pub mod corpus;
pub mod disputed;
pub mod flow_oracle;
pub mod harness_check;
pub mod lint;
pub mod model_oracle;
pub mod mutant_oracle;
pub mod oracle;
pub mod peer;
pub mod process;
pub mod report;
pub mod runner;
pub mod smt_crosscheck;
pub mod thread_oracle;
