//! Corpus tasks whose expected verdict contradicts C semantics, with the
//! evidence (`xtask/disputed.txt`). A run that gives the C-semantics verdict
//! on such a task is scored "disputed": reported with its evidence, counted
//! neither as correct nor as wrong.

use crate::corpus::Suite;
use std::collections::HashMap;
use std::sync::OnceLock;

const TABLE: &str = include_str!("../disputed.txt");

/// The verdict C semantics gives (`successful` or `failed`) and the evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dispute {
    pub verdict: &'static str,
    pub evidence: &'static str,
}

type Table = HashMap<Suite, HashMap<&'static str, Dispute>>;

fn parse(text: &'static str) -> Result<Table, String> {
    let mut table = HashMap::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.splitn(4, '|').map(str::trim).collect();
        let [suite, id, verdict, evidence] = fields[..] else {
            return Err(format!("disputed.txt:{}: expected `suite | id | verdict | evidence`", n + 1));
        };
        let suite = match Suite::parse_list(suite).as_deref() {
            Ok([one]) => *one,
            _ => return Err(format!("disputed.txt:{}: '{suite}' is not one suite", n + 1)),
        };
        if !matches!(verdict, "successful" | "failed") || evidence.is_empty() {
            return Err(format!("disputed.txt:{}: the verdict must be successful or failed, with evidence", n + 1));
        }
        table.entry(suite).or_insert_with(HashMap::new).insert(id, Dispute { verdict, evidence });
    }
    Ok(table)
}

/// The dispute about task `id` of `suite`, if there is one.
pub fn dispute(suite: Suite, id: &str) -> Option<&'static Dispute> {
    static TABLE_BY_SUITE: OnceLock<Table> = OnceLock::new();
    TABLE_BY_SUITE.get_or_init(|| parse(TABLE).expect("xtask/disputed.txt is well formed")).get(&suite)?.get(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_well_formed_and_every_entry_has_evidence() {
        let table = parse(TABLE).unwrap();
        assert!(!table.is_empty());
        assert!(table.values().flat_map(HashMap::values).all(|d| d.evidence.len() > 40), "evidence must say something checkable");
        assert_eq!(dispute(Suite::Esbmc, "esbmc/github_2618").map(|d| d.verdict), Some("failed"));
        assert_eq!(dispute(Suite::Cbmc, "esbmc/github_2618"), None, "a dispute belongs to its suite");
        assert_eq!(dispute(Suite::Esbmc, "no/such-task"), None);
    }

    #[test]
    fn malformed_lines_are_rejected() {
        assert!(parse("esbmc | a | maybe | because").is_err());
        assert!(parse("esbmc | a | failed").is_err());
        assert!(parse("a | failed | because").is_err());
        assert!(parse("cpachecker | a | failed | because").unwrap_err().contains("not one suite"));
        assert!(parse("# only a comment\n").unwrap().is_empty());
        assert!(parse("sv | c/a.yml#p.prp | failed | because").unwrap()[&Suite::Sv].contains_key("c/a.yml#p.prp"));
    }
}
