//! An external SMT-LIB2 solver process (z3, cvc5, bitwuzla, …) behind the
//! [`Solver`] trait: the cross-check of the bit-blaster and the
//! `--solver` back end (engine::backend).
//!
//! The solver runs interactively on pipes. New assertions are written
//! incrementally with [`SmtLibWriter`], their definitions at the outermost
//! level; a check's assumptions are asserted in a `push`/`pop` scope that
//! stays open until the next call, so the model can be read. Not
//! `check-sat-assuming`: z3 answers it with its incremental core, which on
//! a corpus task's bit-vector formula took over 100 s where a scoped
//! assertion took 2 s. A reader thread forwards the solver's output
//! lines, so a time limit can end a check that does not answer: the process
//! is then killed and every later call answers `Unknown`. Any protocol
//! failure (the process died, printed an error, or answered something
//! unreadable) is reported as `Unknown` with the reason, never as a verdict.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::answer::{parse_sexps, parse_value, SExp};
use crate::eval::{eval, EvalError, Model};
use crate::smtlib::SmtLibWriter;
use crate::solver::{SatResult, Solver};
use crate::term::{TermId, TermStore};
use crate::value::Value;

/// A running solver process.
pub struct ProcessSolver {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    writer: SmtLibWriter,
    /// Whether the last check's `push` scope is still open.
    scope_open: bool,
    time_limit: Option<Duration>,
    /// Why the process can no longer be used, once that happened.
    broken: Option<String>,
    last_result: Option<SatResult>,
    /// The model read after the last `Sat`, or why it could not be read.
    model: Option<Result<Model, String>>,
}

impl ProcessSolver {
    /// Starts `program args…` (which must read SMT-LIB2 on standard input,
    /// e.g. `z3 -in -smt2`) for problems in `logic`. `time_limit` bounds each
    /// check.
    pub fn spawn(
        program: &str,
        args: &[&str],
        logic: &str,
        time_limit: Option<Duration>,
    ) -> std::io::Result<Self> {
        let mut command = Command::new(program);
        // SAFETY: prctl is async-signal-safe and touches only the child.
        // The solver dies with the thread that started it: tarsier may end
        // by `exit` (its time limit) without dropping the solver, and a
        // solver busy on a hard query would otherwise run on alone.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let mut child = command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut solver = ProcessSolver {
            child,
            stdin,
            lines,
            writer: SmtLibWriter::default(),
            scope_open: false,
            time_limit,
            broken: None,
            last_result: None,
            model: None,
        };
        solver.send(&format!("(set-option :print-success false)\n(set-option :produce-models true)\n(set-logic {logic})\n"));
        Ok(solver)
    }

    /// Bounds each later check (and model query) by `limit`.
    pub fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }

    fn fail(&mut self, reason: String) {
        if self.broken.is_none() {
            self.broken = Some(reason);
        }
        let _ = self.child.kill();
    }

    fn send(&mut self, text: &str) {
        if self.broken.is_some() {
            return;
        }
        if let Err(e) = self
            .stdin
            .write_all(text.as_bytes())
            .and_then(|_| self.stdin.flush())
        {
            self.fail(format!("cannot write to the solver process: {e}"));
        }
    }

    /// The next complete s-expression or atom the solver prints, waiting at
    /// most until `deadline`.
    fn receive(&mut self, deadline: Option<Instant>) -> Result<SExp, String> {
        let mut text = String::new();
        loop {
            let line = match deadline {
                Some(d) => self
                    .lines
                    .recv_timeout(d.saturating_duration_since(Instant::now())),
                None => self
                    .lines
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            match line {
                Ok(line) => text.push_str(&line),
                Err(RecvTimeoutError::Timeout) => return Err("time limit reached".into()),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("the solver process ended".into())
                }
            }
            text.push('\n');
            // Complete once the parentheses balance (a partial answer fails to parse).
            if let Ok(mut answers) = parse_sexps(&text) {
                if let Some(answer) = answers.pop() {
                    return Ok(answer);
                }
            }
        }
    }

    fn write_term(&mut self, store: &TermStore, t: TermId) -> String {
        let mut out = String::new();
        self.writer.define_reachable(store, t, &mut out);
        self.send(&out);
        self.writer.reference(store, t)
    }

    /// Closes the last check's scope, so what is written next lasts.
    fn close_scope(&mut self) {
        if std::mem::take(&mut self.scope_open) {
            self.send("(pop 1)\n");
        }
    }

    /// Values of the given variables from the solver's current model.
    fn fetch_model(&mut self, store: &TermStore) -> Result<Model, String> {
        let vars: Vec<(TermId, String)> = self.writer.declared_vars().collect();
        let mut model = Model::new();
        model.fill_unassigned = true;
        if vars.is_empty() {
            return Ok(model);
        }
        let names: Vec<&str> = vars.iter().map(|(_, n)| n.as_str()).collect();
        self.send(&format!("(get-value ({}))\n", names.join(" ")));
        // A lost answer leaves the conversation out of step: give up on the
        // process. An unreadable value (e.g. an array as a lambda) does not.
        let answer = match self.receive(self.time_limit.map(|l| Instant::now() + l)) {
            Ok(answer) => answer,
            Err(reason) => {
                self.fail(reason.clone());
                return Err(reason);
            }
        };
        let pairs = answer
            .list()
            .ok_or_else(|| format!("unexpected get-value answer {}", answer.describe()))?;
        if pairs.len() != vars.len() {
            return Err(format!(
                "get-value answered {} values for {} variables",
                pairs.len(),
                vars.len()
            ));
        }
        for ((t, _), pair) in vars.iter().zip(pairs) {
            let value = match pair.list() {
                Some([_, value]) => parse_value(value, store.sort(*t), store.sorts())?,
                _ => return Err(format!("unexpected get-value entry {}", pair.describe())),
            };
            model.set(store.as_var(*t).expect("variable"), value);
        }
        Ok(model)
    }
}

impl Solver for ProcessSolver {
    fn assert(&mut self, store: &TermStore, t: TermId) {
        self.close_scope();
        let reference = self.write_term(store, t);
        self.send(&format!("(assert {reference})\n"));
    }

    fn check(&mut self, store: &TermStore, assumptions: &[TermId]) -> SatResult {
        self.model = None;
        self.close_scope();
        let references: Vec<String> = assumptions.iter().map(|&a| self.write_term(store, a)).collect();
        let mut scope = String::from("(push 1)\n");
        for reference in references {
            scope.push_str(&format!("(assert {reference})\n"));
        }
        scope.push_str("(check-sat)\n");
        self.send(&scope);
        self.scope_open = true;
        let result = match &self.broken {
            Some(reason) => SatResult::Unknown(reason.clone()),
            None => match self.receive(self.time_limit.map(|l| Instant::now() + l)) {
                Ok(answer) if answer.atom() == Some("sat") => SatResult::Sat,
                Ok(answer) if answer.atom() == Some("unsat") => SatResult::Unsat,
                Ok(answer) if answer.atom() == Some("unknown") => {
                    SatResult::Unknown("the external solver answered unknown".into())
                }
                Ok(other) => {
                    self.fail(format!(
                        "unexpected answer from the solver: {}",
                        other.describe()
                    ));
                    SatResult::Unknown(self.broken.clone().expect("just set"))
                }
                Err(reason) => {
                    self.fail(reason);
                    SatResult::Unknown(self.broken.clone().expect("just set"))
                }
            },
        };
        self.last_result = Some(result.clone());
        result
    }

    fn model_value(&mut self, store: &TermStore, t: TermId) -> Result<Value, EvalError> {
        self.read_model(store);
        match &self.model {
            Some(Ok(model)) => eval(store, t, model),
            Some(Err(reason)) => Err(EvalError::Unsupported(format!(
                "reading the solver's model: {reason}"
            ))),
            None => eval(store, t, &Model::new()),
        }
    }

    /// After `Sat`, the solver's values of every variable written so far;
    /// otherwise (or when the answer cannot be read) an empty model that
    /// fills nothing, so evaluating with it reports the missing values.
    fn model(&mut self, store: &TermStore) -> Model {
        self.read_model(store);
        match &self.model {
            Some(Ok(model)) => model.clone(),
            _ => Model::new(),
        }
    }
}

impl ProcessSolver {
    /// Fetches the model once after a `Sat` answer.
    fn read_model(&mut self, store: &TermStore) {
        if self.model.is_none() && self.last_result == Some(SatResult::Sat) && self.broken.is_none()
        {
            self.model = Some(self.fetch_model(store));
        }
    }
}

impl Drop for ProcessSolver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests;
