//! The current time in UTC, as the exchange formats write it (RFC 3339,
//! `2025-01-31T12:00:00Z`): witnesses and Test-Comp test suites record
//! when they were made. No time-zone database is needed in UTC. The
//! project scripts (`xtask`, which depends on no workspace crate) compile
//! this file as a module of their own to name saved results, so it uses
//! nothing outside the standard library.

use std::time::{SystemTime, UNIX_EPOCH};

/// The current time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    utc_time(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()))
}

/// `secs` since 1970 as `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian, UTC).
pub fn utc_time(secs: u64) -> String {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days since 0000-03-01, counted in 400-year eras of 146097 days, so
    // that the leap day ends a year.
    let z = days + 719_468;
    let (era, day_of_era) = (z / 146_097, z % 146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest % 3600 / 60, rest % 60)
}

#[cfg(test)]
mod tests {
    use super::utc_time;

    #[test]
    fn times_are_utc_dates() {
        assert_eq!(utc_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_time(951_782_400 + 3_661), "2000-02-29T01:01:01Z");
        assert_eq!(utc_time(19_782 * 86_400), "2024-02-29T00:00:00Z");
        assert_eq!(utc_time(20_454 * 86_400), "2026-01-01T00:00:00Z");
        assert_eq!(utc_time(1_763_775_600), "2025-11-22T01:40:00Z");
        assert_eq!(utc_time(4_107_542_399), "2100-02-28T23:59:59Z");
    }
}
