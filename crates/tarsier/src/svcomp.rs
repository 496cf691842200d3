//! How an SV-COMP property (`--property FILE.prp`, read by
//! [`report::svcomp`]) sets the checks: exactly the property's, with
//! `malloc` never failing, as the competition defines them. Termination and
//! no-data-race switch on the checks of the same name (termination runs
//! its own engine; data races answer UNKNOWN until an engine decides them).

use crate::config::{Checks, VerifyOptions};
use report::svcomp::{Category, PropertyFile};

/// Records the property of `file` in `options` (its checks are set by
/// [`configure`] once every flag is read).
pub fn set_property(file: PropertyFile, options: &mut VerifyOptions) {
    match file.category {
        Ok(category) => options.property = Some(category),
        Err(why) => options.unsupported_property = Some(why),
    }
    options.specification = Some(file.text);
}

/// Sets the checks of `options` to exactly those of `category`.
pub fn configure(category: Category, options: &mut VerifyOptions) {
    let none = Checks {
        assertions: false,
        bounds: false,
        pointer: false,
        pointer_relation: false,
        div_by_zero: false,
        bit_count: false,
        reach_error: false,
        ..Checks::default()
    };
    options.checks = match category {
        Category::UnreachCall => Checks { reach_error: true, ..none },
        Category::NoOverflow => Checks { signed_overflow: true, ..none },
        Category::MemSafety => Checks { bounds: true, pointer: true, memory_leak: true, ..none },
        Category::MemCleanup => Checks { bounds: true, pointer: true, ..none },
        Category::Termination => Checks { termination: true, ..none },
        Category::NoDataRace => Checks { data_races: true, ..none },
    };
    options.memory_cleanup = category == Category::MemCleanup;
    options.force_malloc_success = true;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memsafety_switches_on_memory_checks_only() {
        let mut options = VerifyOptions::default();
        configure(Category::MemSafety, &mut options);
        assert!(options.checks.pointer && options.checks.bounds && options.checks.memory_leak);
        assert!(!options.checks.assertions && !options.checks.div_by_zero && !options.checks.signed_overflow);
        assert!(options.force_malloc_success);
        assert!(!options.checks.reach_error, "reach_error() ends the program under valid-memsafety");
        configure(Category::UnreachCall, &mut options);
        assert!(options.checks.reach_error);
    }

    /// Termination and data races switch on their own check only, so a
    /// task asking for them is never answered about another property.
    #[test]
    fn termination_and_data_races_switch_on_their_checks_only() {
        for category in [Category::Termination, Category::NoDataRace] {
            let mut options = VerifyOptions::default();
            configure(category, &mut options);
            let checks = &options.checks;
            assert_eq!((checks.termination, checks.data_races), (category == Category::Termination, category == Category::NoDataRace));
            assert!(!checks.assertions && !checks.pointer && !checks.bounds);
        }
    }

    #[test]
    fn no_overflow_means_signed_integers_only() {
        let mut options = VerifyOptions::default();
        configure(Category::NoOverflow, &mut options);
        assert!(options.checks.signed_overflow);
        assert!(!options.checks.float_overflow && !options.checks.unsigned_overflow && !options.checks.shift);
    }
}
