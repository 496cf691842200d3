//! The floating-point rounding mode as program state: a global `int`
//! named [`ROUNDING_MODE_VARIABLE`] (ESBMC's name and numbering) that every
//! rounding float operation reads, in symex and in the interpreter alike.
//! The front end starts it at the mode the command line asks for; the
//! `fenv.h` models (`fesetround`, `fegetround`) and programs write it. A
//! program without the variable rounds to nearest-even.

use crate::program::{Program, SymbolId, SymbolKind};

/// The name of the rounding-mode variable.
pub const ROUNDING_MODE_VARIABLE: &str = "__ESBMC_rounding_mode";

/// The IEEE-754 rounding-direction attributes, numbered as the variable holds them.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum RoundingMode {
    #[default]
    NearestEven,
    NearestAway,
    Upward,
    Downward,
    TowardZero,
}

impl RoundingMode {
    pub const ALL: [RoundingMode; 5] = [
        RoundingMode::NearestEven,
        RoundingMode::NearestAway,
        RoundingMode::Upward,
        RoundingMode::Downward,
        RoundingMode::TowardZero,
    ];

    /// The variable's value for this mode.
    pub fn value(self) -> u128 {
        match self {
            RoundingMode::NearestEven => 0,
            RoundingMode::NearestAway => 1,
            RoundingMode::Upward => 2,
            RoundingMode::Downward => 3,
            RoundingMode::TowardZero => 4,
        }
    }

    /// The mode a value of the variable selects; a value that names no
    /// mode (only a program writing the variable directly can store one)
    /// rounds to nearest-even, in symex and the interpreter alike.
    pub fn from_value(value: u128) -> RoundingMode {
        RoundingMode::ALL.into_iter().find(|m| m.value() == value).unwrap_or_default()
    }
}

impl Program {
    /// The rounding-mode variable, if the program has one.
    pub fn rounding_mode_variable(&self) -> Option<SymbolId> {
        self.symbols
            .iter()
            .find(|(_, s)| s.kind == SymbolKind::Global && s.name == ROUNDING_MODE_VARIABLE)
            .map(|(id, _)| id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_unknown_values_mean_nearest_even() {
        for mode in RoundingMode::ALL {
            assert_eq!(RoundingMode::from_value(mode.value()), mode);
        }
        assert_eq!(RoundingMode::from_value(7), RoundingMode::NearestEven);
    }
}
