//! The `--json` output: one document with the verdict, the approximations,
//! the run figures, and as applicable the assumed bound, how a TRUE was
//! proved, the reason of an UNKNOWN, the violated property with its trace, and the SV-COMP result.

use crate::{verdict_line, Report};
use engine::{CrossCheckReport, Proof, ProofMethod, Stats, Verdict};
use serde_json::{json, Value};

/// The JSON document of `report`.
pub fn render(report: &Report) -> Value {
    let outcome = report.outcome;
    let mut doc = json!({
        "verdict": verdict_line(&outcome.verdict),
        "approximations": outcome.approximations.iter().map(|a| {
            let (file, line) = report.location(a.loc);
            json!({ "file": file, "line": line, "what": a.what })
        }).collect::<Vec<_>>(),
        "stats": stats(&outcome.stats),
    });
    match &outcome.verdict {
        Verdict::True => {
            if let Some(proof) = &outcome.proof {
                doc["proof"] = proof_json(report, proof);
            }
        }
        Verdict::BoundedTrue { bound } => doc["assumed_bound"] = json!(bound),
        Verdict::Unknown(reason) => doc["reason"] = json!(reason),
        Verdict::False(cex) => {
            let (file, line) = report.location(cex.loc);
            doc["property"] = json!({
                "class": cex.property.class.to_string(),
                "message": cex.property.message,
                "file": file, "line": line, "function": cex.function,
            });
            doc["trace"] = cex.trace.iter().map(|step| {
                let (file, line) = report.location(step.loc);
                json!({ "file": file, "line": line, "function": step.function, "lhs": step.lhs, "value": step.value,
                        "input": step.input, "thread": step.thread })
            }).collect();
        }
    }
    if let Some(result) = report.svcomp_result() {
        doc["svcomp"] = json!(result);
    }
    doc
}

/// How a TRUE was proved: the method, its bound or k, the certified
/// invariants the inductive step assumed, the loops' ranking functions
/// (components most significant first).
fn proof_json(report: &Report, proof: &Proof) -> Value {
    let (method, bound, k) = match proof.method {
        ProofMethod::BoundedExhaustion { bound } => ("bounded-exhaustion", bound, None),
        ProofMethod::KInduction { k } => ("k-induction", None, Some(k)),
        ProofMethod::RankingFunctions => ("ranking-functions", None, None),
    };
    let invariants: Vec<Value> = proof
        .invariants
        .iter()
        .map(|i| json!({ "function": i.function, "location": report.place(i.loc), "invariant": i.c_text }))
        .collect();
    let rankings: Vec<Value> = proof
        .rankings
        .iter()
        .map(|r| json!({ "function": r.function, "location": report.place(r.loc), "form": r.form(), "ranking_function": r.components }))
        .collect();
    json!({
        "method": method, "bound": bound, "k": k, "summary": crate::proof_line(proof),
        "invariants": invariants, "ranking_functions": rankings,
    })
}

fn crosscheck(check: &CrossCheckReport) -> Value {
    let file = |f: &Result<std::path::PathBuf, String>| f.as_ref().ok().map(|p| p.display().to_string());
    json!({
        "solver": check.solver,
        "queries": check.queries,
        "compared": check.compared,
        "external_seconds": check.external_time.as_secs_f64(),
        "disagreements": check.disagreements.iter().map(|d| json!({
            "query": d.query, "cadical": d.answers().0, "external": d.answers().1,
            "file": file(&d.file), "minimised": file(&d.minimised), "summary": d.describe(),
        })).collect::<Vec<_>>(),
    })
}

/// Run figures: formula sizes are those of the last bound's solver.
/// The run's figures; k-induction's per kind of check (base cases with
/// their forward conditions, steps, invariants) as the benchmark reads them.
fn stats(stats: &Stats) -> Value {
    let mut doc = json!({
        "bound": stats.bound,
        "k": stats.k,
        "assertions": stats.assertions,
        "executed_instructions": stats.instructions,
        "terms": stats.terms,
        "solver_calls": stats.solver_calls,
        "symex_seconds": stats.symex_time.as_secs_f64(),
        "sat_seconds": stats.solver.solve_time.as_secs_f64(),
        "replay_seconds": stats.replay_time.as_secs_f64(),
        "aig_inputs": stats.solver.aig_inputs,
        "aig_ands": stats.solver.aig_ands,
        "cnf_vars": stats.solver.cnf_vars,
        "cnf_clauses": stats.solver.cnf_clauses,
        "crosscheck": stats.crosscheck.as_deref().map(crosscheck),
    });
    if let Some(kind) = &stats.kinduction {
        doc["base_seconds"] = json!(kind.base.as_secs_f64());
        doc["forward_seconds"] = json!(kind.forward.as_secs_f64());
        doc["step_seconds"] = json!(kind.step.as_secs_f64());
        doc["invariant_seconds"] = json!(kind.invariants.as_secs_f64());
        doc["invariants_found"] = json!(kind.invariants_found);
        doc["invariants_certified"] = json!(kind.invariants_certified);
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svcomp::Category;
    use crate::unknown;

    #[test]
    fn json_holds_verdict_reason_and_figures() {
        let doc = render(&Report { outcome: &unknown("no body"), program: None, property: None });
        assert_eq!(doc["verdict"], "VERIFICATION UNKNOWN");
        assert_eq!(doc["reason"], "no body");
        assert_eq!(doc["stats"]["cnf_clauses"], 0);
        assert!(doc.get("svcomp").is_none());
    }

    #[test]
    fn property_files_add_the_competition_result() {
        let doc = render(&Report { outcome: &unknown("timeout"), program: None, property: Some(Category::NoOverflow) });
        assert_eq!(doc["svcomp"], "UNKNOWN");
    }
}
