//! The `time` family: `<time.h>`'s calendar functions. Exact cases convert
//! times across the whole range (negative ones, the epoch, leap days,
//! 2038, years beyond int) with `gmtime`/`gmtime_r`, format broken-down
//! times (from gmtime, or fields out of range) with `asctime`/`asctime_r`
//! and `strftime`, and subtract with `difftime`. Environment cases run
//! `localtime`, `localtime_r`, `mktime`, `ctime` and `ctime_r` natively in
//! a time zone set through `TZ` (zones with daylight saving time, with
//! offsets of half and quarter hours, south of the equator, with negative
//! daylight saving time, POSIX rules, and zones whose offsets changed over
//! history), on instants and on fields across those histories, which the
//! model must admit, and assert what holds in every zone.

use super::{c_string, Case, Family, Kind};
use crate::oracle::Rng;

/// Times worth converting: boundaries and random ones over the range.
fn time_value(rng: &mut Rng) -> i64 {
    match rng.below(5) {
        0 => rng.pick(&[
            0,
            -1,
            1,
            86399,
            86400,
            951_782_400,   // 2000-02-29
            951_868_799,   // 2000-02-29 23:59:59
            2_147_483_647, // 2038-01-19 03:14:07
            2_147_483_648,
            -2_147_483_648,
            -62_135_596_800, // 0001-01-01
            -62_135_596_801,
            253_402_300_799, // 9999-12-31 23:59:59
            253_402_300_800,
            67_767_976_233_532_799, // the last second of year INT_MAX - 1900 + 1900
            67_767_976_233_532_800,
            67_768_036_191_676_799, // the last second of year INT_MAX + 1900
            67_768_036_191_676_800,
            -67_768_040_609_740_800, // the first second of year INT_MIN + 1900
            -67_768_040_609_740_801,
            1_711_846_800, // 2024-03-31 01:00:00 UTC, a daylight saving change in Europe
            1_730_595_600, // 2024-11-03 01:00:00 UTC
        ]),
        1 => rng.below(4_102_444_800) as i64,                  // 1970 .. 2100
        2 => rng.below(4_102_444_800) as i64 - 4_102_444_800, // 1840 .. 1970
        3 => (rng.next_u64() >> rng.below(40)) as i64 * if rng.chance(2) { -1 } else { 1 },
        _ => rng.below(1 << 40) as i64 - (1 << 39),
    }
}

/// The fields of a broken-down time, mostly in range.
fn fields(rng: &mut Rng) -> [i64; 9] {
    let mut field = |low: i64, high: i64| {
        if rng.chance(8) {
            rng.pick(&[-1, 60, 100, 1000, -2_147_483_648, 2_147_483_647, 99, 9999])
        } else {
            low + rng.below((high - low + 1) as u64) as i64
        }
    };
    [field(0, 60), field(0, 59), field(0, 23), field(1, 31), field(0, 11), field(-1900, 8100), field(0, 6), field(0, 365), field(-1, 1)]
}

const FIELD_NAMES: [&str; 9] = ["tm_sec", "tm_min", "tm_hour", "tm_mday", "tm_mon", "tm_year", "tm_wday", "tm_yday", "tm_isdst"];

/// Observes the fields of the broken-down time `tm` (a pointer).
fn observe_fields(case: &mut Case, tm: &str) {
    for field in FIELD_NAMES {
        case.observe(format!("{tm}->{field}"));
    }
    case.observe(format!("{tm}->tm_gmtoff"));
}

pub fn case(rng: &mut Rng) -> Case {
    if rng.chance(3) {
        return local_case(rng);
    }
    let mut case = Case::new(Family::Time, Kind::Exact);
    case.include("time.h");
    case.include("errno.h");
    case.include("string.h");
    case.code("errno = 0;");
    match rng.below(5) {
        0 | 1 => {
            let reentrant = rng.chance(2);
            case.uses(if reentrant { "gmtime_r" } else { "gmtime" });
            case.pin("time_t", "t", &format!("{}L", time_value(rng)));
            let call = if reentrant { "gmtime_r(&t, &buffer)" } else { "gmtime(&t)" };
            case.code(format!("struct tm buffer; struct tm *tm = {call};"));
            case.observe("tm == 0");
            case.code("if (tm == 0) tm = &buffer;\n  if (tm == &buffer) memset(&buffer, 0, sizeof buffer);");
            observe_fields(&mut case, "tm");
            if rng.chance(2) {
                formatted(rng, &mut case);
            }
        }
        2 => {
            case.code("struct tm buffer; memset(&buffer, 0, sizeof buffer); struct tm *tm = &buffer;");
            for (name, value) in FIELD_NAMES.iter().zip(fields(rng)) {
                case.pin("int", &format!("f_{name}"), &value.to_string());
                case.code(format!("tm->{name} = f_{name};"));
            }
            formatted(rng, &mut case);
        }
        3 => {
            case.uses("difftime");
            case.pin("time_t", "t1", &format!("{}L", time_value(rng)));
            case.pin("time_t", "t0", &format!("{}L", time_value(rng)));
            case.code("double d = difftime(t1, t0); unsigned long long bits; memcpy(&bits, &d, 8);");
            case.observe("bits");
        }
        _ => {
            // gmtime then a second conversion: the static buffer is shared.
            case.uses("gmtime");
            case.pin("time_t", "t", &format!("{}L", time_value(rng)));
            case.pin("time_t", "u", &format!("{}L", time_value(rng)));
            case.code("struct tm *first = gmtime(&t); struct tm *second = gmtime(&u);");
            case.observe("first == second");
            case.code("if (second != 0) {");
            observe_fields(&mut case, "second");
            case.code("}");
        }
    }
    case.observe("errno");
    case
}

/// asctime, asctime_r or strftime of `*tm`.
fn formatted(rng: &mut Rng, case: &mut Case) {
    match rng.below(3) {
        0 => {
            case.uses("asctime");
            case.code("char *text = asctime(tm);");
            case.observe("text == 0 ? 0 : oracle_string(text)");
        }
        1 => {
            case.uses("asctime_r");
            case.code("char out[26]; memset(out, 'x', sizeof out); char *text = asctime_r(tm, out);");
            case.observe("text == 0 ? 0 : oracle_string(text)");
            case.observe("oracle_hash(out, sizeof out)");
        }
        _ => {
            case.uses("strftime");
            let format = strftime_format(rng);
            let size = rng.pick(&[0, 1, 5, 11, 64]);
            case.code(format!("char out[64]; memset(out, 'x', sizeof out); size_t n = strftime(out, {size}, {}, tm);", c_string(format.as_bytes())));
            case.observe("n");
            // glibc leaves the array's contents unspecified when the text
            // does not fit (C 7.27.3.5p8): observe it only when it did.
            case.observe("n == 0 ? 0 : oracle_hash(out, sizeof out)");
        }
    }
}

/// A strftime format: mostly the conversions the model spells, literal
/// text, `%%`, and now and then another conversion.
fn strftime_format(rng: &mut Rng) -> String {
    let mut format = String::new();
    for _ in 0..1 + rng.below(4) {
        let piece = match rng.below(10) {
            0 => rng.pick(&["%a", "%b", "%e", "%y", "%p", "%Z", "%c", "%F"]),
            1 => rng.pick(&["-", " ", "T", ":", "%%"]),
            _ => rng.pick(&["%Y", "%m", "%d", "%H", "%M", "%S", "%j"]),
        };
        format.push_str(piece);
    }
    format
}

/// Time zones glibc finds through `TZ`.
const ZONES: [&str; 13] = [
    "UTC",
    "Europe/Moscow",
    "America/New_York",
    "Europe/Berlin",
    "Australia/Lord_Howe",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Pacific/Kiritimati",
    "America/St_Johns",
    "Europe/Dublin",
    "Antarctica/Troll",
    "EST5EDT,M3.2.0,M11.1.0",
    "<+0330>-3:30",
];

/// A conversion in the local zone: glibc's run in a zone `TZ` names must
/// be one the model allows (`admits`), and what every zone gives must
/// hold (`contract`).
fn local_case(rng: &mut Rng) -> Case {
    let mut case = Case::new(Family::Time, Kind::Environment);
    case.include("time.h");
    case.include("string.h");
    let zone = rng.pick(&ZONES);
    case.include("stdlib.h");
    case.native(format!("setenv(\"TZ\", {}, 1); tzset();", c_string(zone.as_bytes())));
    // Times glibc's local conversion handles in every zone (years within int).
    let t = time_value(rng).clamp(-67_768_040_609_700_000, 67_767_976_233_400_000);
    case.pin("time_t", "t", &format!("{t}L"));
    match rng.below(6) {
        4 => {
            // Two conversions in one run: the zone's rules connect them.
            case.uses("localtime_r");
            let u = time_value(rng).clamp(-67_768_040_609_700_000, 67_767_976_233_400_000);
            case.pin("time_t", "u", &format!("{u}L"));
            case.code("struct tm first, second; struct tm *a = localtime_r(&t, &first); struct tm *b = localtime_r(&u, &second);");
            case.observe("a != 0 && b != 0");
            case.code("if (a != 0 && b != 0) {");
            case.observe("a->tm_gmtoff");
            case.observe("a->tm_isdst");
            case.observe("b->tm_gmtoff");
            case.observe("b->tm_isdst");
            case.contract("t != u || (a->tm_gmtoff == b->tm_gmtoff && a->tm_isdst == b->tm_isdst)");
            case.code("}");
        }
        0 | 1 => {
            let reentrant = rng.chance(2);
            case.uses(if reentrant { "localtime_r" } else { "localtime" });
            let call = if reentrant { "localtime_r(&t, &buffer)" } else { "localtime(&t)" };
            case.code(format!("struct tm buffer; struct tm *tm = {call};"));
            case.observe("tm != 0");
            case.code("if (tm != 0) {");
            observe_fields(&mut case, "tm");
            case.contract("tm->tm_sec >= 0 && tm->tm_sec <= 60 && tm->tm_min >= 0 && tm->tm_min <= 59 && tm->tm_hour >= 0 && tm->tm_hour <= 23");
            case.contract("tm->tm_mon >= 0 && tm->tm_mon <= 11 && tm->tm_mday >= 1 && tm->tm_mday <= 31 && tm->tm_wday >= 0 && tm->tm_wday <= 6");
            case.code("}");
        }
        2 => {
            case.uses("localtime_r");
            case.uses("mktime");
            case.code("t = t % (1LL << 40);");
            case.code("struct tm buffer; struct tm *tm = localtime_r(&t, &buffer);");
            case.code("if (tm != 0) {\n  struct tm copy = *tm;\n  time_t back = mktime(&copy);");
            case.observe("back");
            case.observe("copy.tm_isdst");
            // Not `back == t`: where local time repeats with one daylight
            // flag (Moscow, 2014-10-26) glibc may find the other instant.
            normalised_as_localtime(&mut case);
            case.code("}");
        }
        3 => mktime_of_fields(rng, &mut case),
        _ => {
            let reentrant = rng.chance(2);
            case.uses(if reentrant { "ctime_r" } else { "ctime" });
            let call = if reentrant { "ctime_r(&t, out)" } else { "ctime(&t)" };
            case.code(format!("char out[26]; char *text = {call};"));
            case.observe("text == 0 ? 0 : oracle_string(text)");
            // glibc prints the year with %d: year 1 makes the shortest text.
            case.contract("text == 0 || strlen(text) >= 22");
        }
    }
    case
}

/// What holds of mktime's result in every zone: -1, or an instant whose
/// conversion is the normalised `copy` (glibc stores the conversion of the
/// instant it returns). Its offset and daylight flag are compared: the
/// other fields would make the solver prove two calendar computations on
/// the same instant equal, which costs minutes.
fn normalised_as_localtime(case: &mut Case) {
    case.code("struct tm again; int agrees = back == -1 || (localtime_r(&back, &again) != 0 && again.tm_isdst == copy.tm_isdst && again.tm_gmtoff == copy.tm_gmtoff);");
    case.contract("agrees");
}

/// mktime of fields the program sets: dates across the zones' histories
/// (local mean times, war times, changed standard offsets), fields out of
/// range, and each daylight saving request (-1, 0, 1), so that glibc's
/// search meets gaps, repeated hours and requests the instant found does
/// not have.
fn mktime_of_fields(rng: &mut Rng, case: &mut Case) {
    case.uses("mktime");
    case.code("struct tm copy; memset(&copy, 0, sizeof copy);");
    let year = match rng.below(3) {
        0 => 1800 + rng.below(300) as i64,
        1 => rng.pick(&[1890, 1916, 1942, 1945, 1970, 2011, 2014, 2024, 2038, 2100]),
        _ => 1 + rng.below(9999) as i64,
    };
    let fields = [
        ("tm_year", year - 1900),
        ("tm_mon", if rng.chance(6) { rng.pick(&[-1, 12, 25, -13]) } else { rng.below(12) as i64 }),
        ("tm_mday", if rng.chance(6) { rng.pick(&[0, 32, -5, 400]) } else { 1 + rng.below(31) as i64 }),
        ("tm_hour", if rng.chance(6) { rng.pick(&[-1, 24, 49]) } else { rng.below(24) as i64 }),
        ("tm_min", rng.pick(&[0, 0, 30, 59, 15, 61, -1])),
        ("tm_sec", rng.pick(&[0, 0, 30, 59, 60, 61, -1, 100])),
        ("tm_isdst", rng.pick(&[-1, -1, 0, 1])),
    ];
    for (name, value) in fields {
        case.pin("int", &format!("f_{name}"), &value.to_string());
        case.code(format!("copy.{name} = f_{name};"));
    }
    case.code("time_t back = mktime(&copy);");
    case.observe("back");
    case.observe("copy.tm_hour");
    case.observe("copy.tm_mday");
    case.observe("copy.tm_isdst");
    case.observe("copy.tm_gmtoff");
    normalised_as_localtime(case);
}
