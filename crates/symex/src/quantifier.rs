//! Quantifiers (`QuantifierBegin` … `QuantifierEnd`): the body is executed
//! once, with the bound variable holding a fresh variable `x`, and its
//! value `b(x)` becomes the term `∀x. b` or `∃x. b` (the engine eliminates
//! those before solving). The state at `QuantifierEnd` is dropped for the
//! one at `QuantifierBegin`, so the body's writes do not leak.
//!
//! Checks inside the body stay in the equation with `x` free: a body must
//! be well defined for every value of its variable, so a check that fails
//! for some `x` is a violation. Loop bounds cut paths inside the body
//! (their unwinding assertions are checked for every `x` too), and the
//! quantifier's value then stands only where no value of `x` was cut: the
//! other paths go no further, as after any bound. An assumption or a
//! program exit inside a body is not supported. Inputs
//! read inside the body are dropped from the input list: the interpreter
//! evaluates a body with zero inputs, once per value it tries.

use crate::equation::QuantifiedVar;
use crate::exec::Symex;
use crate::state::State;
use crate::{repr, Result, Stop};
use ir::{Expr, ExprKind, InstrKind, Quantifier};
use smt::TermId;

/// A quantifier whose body is being executed.
pub(crate) struct Scope {
    quantifier: Quantifier,
    /// Index of the frame executing it, of its `QuantifierBegin` and of
    /// its `QuantifierEnd`.
    pub frame: usize,
    begin: usize,
    pub end: usize,
    var: TermId,
    saved: State,
    inputs: usize,
    steps: usize,
    assertions: usize,
    /// The guards of the paths a loop or recursion bound cut in the body
    /// (the bound variable free in them).
    pub cuts: Vec<TermId>,
}

/// The index of the `QuantifierEnd` that closes the `QuantifierBegin` at `begin`.
fn matching_end(body: &[ir::Instr], begin: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (index, instr) in body.iter().enumerate().skip(begin + 1) {
        match instr.kind {
            InstrKind::QuantifierBegin { .. } => depth += 1,
            InstrKind::QuantifierEnd { .. } if depth == 0 => return Some(index),
            InstrKind::QuantifierEnd { .. } => depth -= 1,
            _ => {}
        }
    }
    None
}

impl<'a> Symex<'a> {
    pub(crate) fn begin_quantifier(&mut self, quantifier: Quantifier, bound: &Expr, body: &[ir::Instr], pc: usize) -> Result<()> {
        let (ExprKind::Sym(symbol), Some(end)) = (&bound.kind, matching_end(body, pc)) else {
            return Err(Stop::unsupported(format!("malformed `{}`", quantifier.intrinsic()), self.loc));
        };
        if !matches!(self.program.types.get(bound.ty), ir::Type::Bool | ir::Type::Int { .. } | ir::Type::Float(_)) {
            let what = format!("`{}` over a variable that is not an integer or a float", quantifier.intrinsic());
            return Err(Stop::unsupported(what, self.loc));
        }
        let object = self.variable_object(*symbol)?;
        let sort = repr::value_sort(self.program, bound.ty, self.loc)?;
        let name = format!("{}!{}", self.program.symbols[*symbol].display_name, quantifier.intrinsic());
        let var = self.store.var(&name, sort);
        let memory = repr::to_memory(self.program, self.store, bound.ty, var, self.loc)?;
        let nested = !self.quantifiers.is_empty();
        self.equation.quantified_vars.push(QuantifiedVar { var, memory, loc: self.loc, nested, decided_alone: None });
        let scope = Scope {
            quantifier,
            frame: self.frames.len() - 1,
            begin: pc,
            end,
            var,
            saved: self.state.clone(),
            inputs: self.equation.inputs.len(),
            steps: self.equation.steps.len(),
            assertions: self.equation.assertions.len(),
            cuts: Vec::new(),
        };
        self.quantifiers.push(scope);
        self.visit_even_if_unreached(end);
        self.write_object(object, memory);
        Ok(())
    }

    /// Refuses control that leaves a quantifier body other than through its
    /// end (a `goto` or `return` in a statement expression): the body's
    /// value and the restored state would be wrong. `target` is `None` for
    /// a `return`.
    pub(crate) fn check_stays_in_quantifier(&self, target: Option<usize>) -> Result<()> {
        let frame = self.frames.len() - 1;
        let Some(scope) = self.quantifiers.last().filter(|s| s.frame == frame) else { return Ok(()) };
        if target.is_some_and(|t| scope.begin < t && t <= scope.end) {
            return Ok(());
        }
        let what = format!("a jump out of the body of `{}`", scope.quantifier.intrinsic());
        Err(Stop::unsupported(what, self.loc))
    }

    /// After a body in which bounds cut paths (`cuts`, with the bound
    /// variable `var` free): the quantifier's value is only exact where no
    /// value of `var` was cut, so the paths where some was go no further
    /// (the cut itself is the body's unwinding assertion, or the bound's
    /// assumption); an enclosing body records them as its own cut.
    fn drop_cut_evaluations(&mut self, cuts: &[TermId], var: TermId) {
        if cuts.is_empty() {
            return;
        }
        let any = self.store.or(cuts);
        let some_cut = self.store.quantified(smt::Quantifier::Exists, var, any);
        let here = self.store.and2(self.state.guard, some_cut);
        if let Some(outer) = self.quantifiers.last_mut() {
            outer.cuts.push(here);
        }
        let exact = self.store.not(some_cut);
        self.state.guard = self.store.and2(self.state.guard, exact);
    }

    pub(crate) fn end_quantifier(&mut self, lhs: &Expr, body: &Expr) -> Result<()> {
        let frame = self.frames.len() - 1;
        let Some(scope) = self.quantifiers.pop_if(|s| s.frame == frame) else {
            return Err(Stop::unsupported("quantifier end without its beginning", self.loc));
        };
        if let Some(loc) = self.assumed_in_quantifier.take() {
            let at = self.program.files.name(loc.file).to_string();
            let what = format!("an assumption or exit inside the body of `{}` ({at}:{})", scope.quantifier.intrinsic(), loc.line);
            return Err(Stop::unsupported(what, self.loc));
        }
        let holds = self.eval(body)?;
        let kind = match scope.quantifier {
            Quantifier::Forall => smt::Quantifier::Forall,
            Quantifier::Exists => smt::Quantifier::Exists,
        };
        let quantified = self.store.quantified(kind, scope.var, holds);
        if self.store.binder(quantified).is_none() {
            if let Some(record) = self.equation.quantified_vars.iter_mut().rev().find(|v| v.var == scope.var) {
                record.decided_alone = Some(smt::Binder { quantifier: kind, var: scope.var, body: holds });
            }
        }
        self.state = scope.saved;
        self.drop_cut_evaluations(&scope.cuts, scope.var);
        self.equation.inputs.truncate(scope.inputs);
        self.equation.steps.truncate(scope.steps);
        for assertion in &mut self.equation.assertions[scope.assertions..] {
            assertion.steps_before = assertion.steps_before.min(scope.steps);
        }
        let smt::Sort::BitVec(width) = repr::value_sort(self.program, lhs.ty, self.loc)? else {
            return Err(Stop::unsupported("quantifier result of a non-integer type", self.loc));
        };
        let (one, zero) = (self.store.bv_u64(width, 1), self.store.bv_u64(width, 0));
        let value = self.store.ite(quantified, one, zero);
        self.assign(lhs, value)
    }
}
