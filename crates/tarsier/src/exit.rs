//! Exit codes of the `tarsier` binary. They follow the CBMC convention
//! (0 proved, 10 violated, 5 inconclusive), so scripts written for those
//! tools read tarsier's results unchanged.

use std::process::ExitCode;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Exit {
    /// VERIFICATION SUCCESSFUL, `--parse-only` accepted, or help printed.
    Success,
    /// The input could not be read, preprocessed, parsed or type-checked.
    InputError,
    /// VERIFICATION UNKNOWN: no proof and no counterexample.
    Unknown,
    /// The command line is malformed.
    UsageError,
    /// VERIFICATION FAILED: a property is violated.
    Failed,
    /// tarsier itself failed (a bug); the message asks for a report.
    InternalError,
}

impl Exit {
    pub const fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::InputError => 1,
            Exit::Unknown => 5,
            Exit::UsageError => 6,
            Exit::Failed => 10,
            Exit::InternalError => 70,
        }
    }
}

impl Exit {
    /// Which of several runs' exits a command line reports: a violation
    /// first, then errors, then an unknown, then success.
    pub const fn severity(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::Unknown => 1,
            Exit::UsageError | Exit::InputError => 2,
            Exit::InternalError => 3,
            Exit::Failed => 4,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit.code())
    }
}
