//! SV-COMP property files (`FILE.prp`) and results: which competition
//! property a file states, and the one-line result SV-COMP expects (`TRUE`,
//! `FALSE(valid-deref)`, `UNKNOWN`). The results follow the competition's
//! definitions: unreach-call is only about the error function, and
//! memory-safety is valid-free + valid-deref + valid-memtrack. Termination
//! (`FALSE(termination)` for a lasso) and no-data-race (`FALSE(no-data-race)`)
//! are recognised too. Which checks a property switches on is the command
//! line's business.

use engine::Verdict;
use ir::PropertyClass;
use std::path::Path;

/// The property categories tarsier decides.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Category {
    /// `G ! call(reach_error())` (or `__VERIFIER_error`).
    UnreachCall,
    /// `G ! overflow`: signed integer overflow.
    NoOverflow,
    /// `G valid-free`, `G valid-deref`, `G valid-memtrack`.
    MemSafety,
    /// `G valid-memcleanup`.
    MemCleanup,
    /// `F end`: every run terminates.
    Termination,
    /// `G ! data-race`.
    NoDataRace,
}

/// The error functions an unreach-call property may name: both are
/// properties of every run (see `analysis::instrument`).
const ERROR_FUNCTIONS: [&str; 2] = ["reach_error", "__VERIFIER_error"];

/// A property file as read: its text (a witness's specification) and the
/// category it states, or why tarsier has no engine for its formulas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyFile {
    pub text: String,
    pub category: Result<Category, String>,
}

/// The prefix of the reason a well-formed property is not decided.
const UNSUPPORTED: &str = "unsupported:";

/// Reads and recognises a property file. The error says why it is not a
/// property file at all (unreadable, no `CHECK` line); formulas tarsier
/// does not decide are read, with the reason in `category`.
pub fn read(path: &Path) -> Result<PropertyFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    match parse(&text) {
        Err(why) if !why.starts_with(UNSUPPORTED) => Err(format!("{}: {why}", path.display())),
        category => Ok(PropertyFile { text: text.trim_end().to_string(), category }),
    }
}

/// Recognises the formulas of a property file (one `CHECK(...)` per line).
pub fn parse(text: &str) -> Result<Category, String> {
    let formulas: Vec<String> = text
        .lines()
        .map(|line| line.split_whitespace().collect::<String>())
        .filter(|line| !line.is_empty() && !line.starts_with("//"))
        .map(|line| ltl_formula(&line))
        .collect::<Result<_, _>>()?;
    let mut names: Vec<&str> = formulas.iter().map(String::as_str).collect();
    names.sort_unstable();
    match names.as_slice() {
        [one] if is_unreach_call(one) => Ok(Category::UnreachCall),
        ["G!overflow"] => Ok(Category::NoOverflow),
        ["Gvalid-memcleanup"] => Ok(Category::MemCleanup),
        ["Gvalid-deref", "Gvalid-free", "Gvalid-memtrack"] => Ok(Category::MemSafety),
        ["Fend"] => Ok(Category::Termination),
        ["G!data-race"] => Ok(Category::NoDataRace),
        [] => Err("no CHECK(...) line".to_string()),
        _ => Err(format!(
            "{UNSUPPORTED} property `{}`; tarsier knows unreach-call, no-overflow, valid-memsafety, valid-memcleanup, termination and no-data-race",
            text.lines().map(str::trim).filter(|l| l.starts_with("CHECK")).collect::<Vec<_>>().join(" ")
        )),
    }
}

/// `CHECK(init(main()),LTL(φ))` (whitespace removed) → `φ`.
fn ltl_formula(line: &str) -> Result<String, String> {
    let inner = line
        .strip_prefix("CHECK(init(main()),LTL(")
        .and_then(|rest| rest.strip_suffix("))"))
        .ok_or_else(|| format!("expected `CHECK( init(main()), LTL(...) )`, found `{line}`"))?;
    Ok(inner.to_string())
}

fn is_unreach_call(formula: &str) -> bool {
    ERROR_FUNCTIONS.iter().any(|f| formula == format!("G!call({f}())"))
}

impl Category {
    /// The SV-COMP result of a violation of a property of `class`; `None`
    /// when the class does not belong to this category (a bug: only the
    /// category's checks are on).
    pub fn violation(self, class: PropertyClass) -> Option<&'static str> {
        use PropertyClass::*;
        match (self, class) {
            (Category::UnreachCall, ReachError) => Some("FALSE(unreach-call)"),
            (Category::NoOverflow, SignedOverflow) => Some("FALSE(no-overflow)"),
            (Category::MemSafety, PointerDereference | ArrayBounds) => Some("FALSE(valid-deref)"),
            (Category::MemSafety, InvalidFree) => Some("FALSE(valid-free)"),
            (Category::MemSafety, MemoryLeak) => Some("FALSE(valid-memtrack)"),
            (Category::MemCleanup, MemoryCleanup | MemoryLeak) => Some("FALSE(valid-memcleanup)"),
            (Category::Termination, NonTermination) => Some("FALSE(termination)"),
            (Category::NoDataRace, DataRace) => Some("FALSE(no-data-race)"),
            _ => None,
        }
    }

    /// The result line of `verdict`: a bounded proof is no proof, and a
    /// violation of a class outside the category is UNKNOWN.
    pub fn result(self, verdict: &Verdict) -> &'static str {
        match verdict {
            Verdict::True => "TRUE",
            Verdict::False(cex) => self.violation(cex.property.class).unwrap_or("UNKNOWN"),
            Verdict::BoundedTrue { .. } | Verdict::Unknown(_) => "UNKNOWN",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_the_competition_properties() {
        assert_eq!(parse("CHECK( init(main()), LTL(G ! call(reach_error())) )\n"), Ok(Category::UnreachCall));
        assert_eq!(parse("CHECK( init(main()), LTL(G ! overflow) )"), Ok(Category::NoOverflow));
        assert_eq!(parse("CHECK( init(main()), LTL(G valid-memcleanup) )"), Ok(Category::MemCleanup));
        let memsafety = "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n\
                         CHECK( init(main()), LTL(G valid-memtrack) )\n";
        assert_eq!(parse(memsafety), Ok(Category::MemSafety));
        assert_eq!(parse("CHECK( init(main()), LTL(F end) )"), Ok(Category::Termination));
        assert_eq!(parse("CHECK( init(main()), LTL(G ! data-race) )"), Ok(Category::NoDataRace));
    }

    #[test]
    fn rejects_what_it_does_not_decide() {
        assert!(parse("CHECK( init(main()), LTL(G valid-free) )").unwrap_err().starts_with("unsupported: property"));
        assert!(parse("CHECK( init(main()), LTL(G ! call(reach_error())) )\nCHECK( init(main()), LTL(F end) )").is_err());
        assert!(parse("CHECK( init(main()), LTL(G ! call(foo())) )").is_err());
        assert!(parse("LTL(G ! overflow)").unwrap_err().contains("expected `CHECK"));
        assert!(parse("").is_err());
    }

    #[test]
    fn violations_map_to_result_strings() {
        assert_eq!(Category::MemSafety.violation(PropertyClass::ArrayBounds), Some("FALSE(valid-deref)"));
        assert_eq!(Category::MemSafety.violation(PropertyClass::InvalidFree), Some("FALSE(valid-free)"));
        assert_eq!(Category::MemSafety.violation(PropertyClass::MemoryLeak), Some("FALSE(valid-memtrack)"));
        assert_eq!(Category::UnreachCall.violation(PropertyClass::UserAssertion), None);
        assert_eq!(Category::NoDataRace.violation(PropertyClass::DataRace), Some("FALSE(no-data-race)"));
        assert_eq!(Category::NoDataRace.violation(PropertyClass::UserAssertion), None);
    }

    #[test]
    fn bounded_proofs_are_unknown_to_the_competition() {
        assert_eq!(Category::UnreachCall.result(&Verdict::True), "TRUE");
        assert_eq!(Category::UnreachCall.result(&Verdict::BoundedTrue { bound: Some(3) }), "UNKNOWN");
    }
}
