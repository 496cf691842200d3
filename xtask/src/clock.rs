//! UTC timestamps for the names of saved results. The date arithmetic is
//! the report crate's (`crates/report/src/clock.rs`), compiled here as a
//! module because the scripts depend on no workspace crate.

#[path = "../../crates/report/src/clock.rs"]
mod utc;

/// The current time as `YYYYMMDDTHHMMSSZ`, which sorts chronologically
/// and is safe in file names.
pub fn utc_timestamp() -> String {
    utc::utc_now().replace(['-', ':'], "")
}

#[cfg(test)]
mod tests {
    #[test]
    fn timestamps_have_no_separators() {
        let stamp = super::utc_timestamp();
        assert_eq!((stamp.len(), &stamp[8..9], &stamp[15..]), (16, "T", "Z"), "{stamp}");
        assert!(stamp[..8].bytes().chain(stamp[9..15].bytes()).all(|b| b.is_ascii_digit()), "{stamp}");
    }
}
