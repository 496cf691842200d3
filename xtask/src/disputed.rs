//! Corpus tasks whose expected verdict contradicts C semantics, with the
//! evidence (`xtask/disputed.txt`). A run that gives the C-semantics verdict
//! on such a task is scored "disputed": reported with its evidence, counted
//! neither as correct nor as wrong.

use std::collections::HashMap;
use std::sync::OnceLock;

const TABLE: &str = include_str!("../disputed.txt");

/// The verdict C semantics gives (`successful` or `failed`) and the evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dispute {
    pub verdict: &'static str,
    pub evidence: &'static str,
}

fn parse(text: &'static str) -> Result<HashMap<&'static str, Dispute>, String> {
    let mut table = HashMap::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.splitn(3, '|').map(str::trim).collect();
        let [id, verdict, evidence] = fields[..] else {
            return Err(format!("disputed.txt:{}: expected `id | verdict | evidence`", n + 1));
        };
        if !matches!(verdict, "successful" | "failed") || evidence.is_empty() {
            return Err(format!("disputed.txt:{}: the verdict must be successful or failed, with evidence", n + 1));
        }
        table.insert(id, Dispute { verdict, evidence });
    }
    Ok(table)
}

/// The dispute about task `id`, if there is one.
pub fn dispute(id: &str) -> Option<&'static Dispute> {
    static TABLE_BY_ID: OnceLock<HashMap<&'static str, Dispute>> = OnceLock::new();
    TABLE_BY_ID.get_or_init(|| parse(TABLE).expect("xtask/disputed.txt is well formed")).get(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_well_formed_and_every_entry_has_evidence() {
        let table = parse(TABLE).unwrap();
        assert!(!table.is_empty());
        assert!(table.values().all(|d| d.evidence.len() > 40), "evidence must say something checkable");
        assert_eq!(dispute("esbmc/github_2618").map(|d| d.verdict), Some("failed"));
        assert_eq!(dispute("no/such-task"), None);
    }

    #[test]
    fn malformed_lines_are_rejected() {
        assert!(parse("a | maybe | because").is_err());
        assert!(parse("a | failed").is_err());
        assert!(parse("# only a comment\n").unwrap().is_empty());
    }
}
