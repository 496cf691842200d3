/* time.h and the POSIX clocks, with glibc's observable behaviour.

   The clocks are arbitrary. The time zone is part of the environment the
   program does not control: it is chosen once per run, as a POSIX TZ rule
   gives it: a standard offset, and whether the zone has daylight saving
   time with its own offset, each anywhere glibc's TZ parser allows
   (24:59:59 either way; daylight time may be 30 minutes, 2 hours or a
   negative step away, as in Lord Howe, Troll or Dublin). Whether daylight
   saving time applies is chosen per conversion when the zone has it. A
   zone whose rules changed over history (a tzfile zone's local mean time,
   a new standard offset) gives more than one standard offset in a run,
   which is not modelled. Calendar conversions use the proleptic Gregorian
   calendar in closed form (days from 1970-01-01 to a civil date and back),
   so they need no loops. As in glibc, gmtime and localtime share one
   static struct tm, asctime and ctime one static text buffer, and
   localtime, ctime and mktime set the zone up as tzset does. */

long __VERIFIER_nondet_long(void);
int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int condition);
extern int __tarsier_errno;

struct tm {
    int tm_sec;
    int tm_min;
    int tm_hour;
    int tm_mday;
    int tm_mon;
    int tm_year;
    int tm_wday;
    int tm_yday;
    int tm_isdst;
    long tm_gmtoff;
    const char *tm_zone;
};

struct timespec {
    time_t tv_sec;
    long tv_nsec;
};

typedef long clock_t;

long timezone;
int daylight;
char *tzname[2];

struct tm __tarsier_tm_buffer;
/* glibc's static buffer: room for every field at its widest. */
char __tarsier_asctime_buffer[3 + 1 + 3 + 1 + 20 + 1 + 20 + 1 + 20 + 1 + 20 + 1 + 20 + 1 + 1];
int __tarsier_zone_chosen;
long __tarsier_utc_offset;
long __tarsier_daylight_offset;
/* The zone names' text is unknown: no unit defines these arrays. */
extern char __tarsier_standard_zone_name[8];
extern char __tarsier_daylight_zone_name[8];

time_t
time(time_t *result)
{
    time_t now = __VERIFIER_nondet_long();
    if (result != 0)
        *result = now;
    return now;
}

void
tzset(void)
{
    if (__tarsier_zone_chosen)
        return;
    __tarsier_zone_chosen = 1;
    /* glibc's compute_offset: hours up to 24, minutes and seconds up to 59. */
    __tarsier_utc_offset = __VERIFIER_nondet_long();
    __VERIFIER_assume(__tarsier_utc_offset >= -89999L && __tarsier_utc_offset <= 89999L);
    daylight = __VERIFIER_nondet_int();
    __VERIFIER_assume(daylight == 0 || daylight == 1);
    __tarsier_daylight_offset = __VERIFIER_nondet_long();
    __VERIFIER_assume(__tarsier_daylight_offset >= -89999L && __tarsier_daylight_offset <= 89999L);
    timezone = -__tarsier_utc_offset;
    __tarsier_standard_zone_name[7] = 0;
    __tarsier_daylight_zone_name[7] = 0;
    tzname[0] = __tarsier_standard_zone_name;
    tzname[1] = daylight ? __tarsier_daylight_zone_name : __tarsier_standard_zone_name;
}

/* Days from 1970-01-01 to the given proleptic Gregorian date (month 1 to
   12). */
long long
__tarsier_days_from_civil(long long year, long long month, long long day)
{
    long long y = month <= 2 ? year - 1 : year;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long year_of_era = y - era * 400;
    long long day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    long long day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + day_of_era - 719468;
}

/* Breaks seconds since the epoch, already shifted to local time, into
   *tm; 0 when the year does not fit tm_year. Only two divisions are on
   64-bit values: the rest works within a 400-year era (146097 days, a
   whole number of weeks), on small unsigned values. */
int
__tarsier_break_down(long long seconds, struct tm *tm)
{
    long long days = seconds / 86400;
    long long rest = seconds - days * 86400;
    if (rest < 0) {
        rest += 86400;
        days -= 1;
    }
    unsigned int second_of_day = (unsigned int)rest;
    /* Eras start on 0000-03-01, 719468 days before the epoch. */
    long long shifted = days + 719468;
    long long era = (shifted >= 0 ? shifted : shifted - 146096) / 146097;
    unsigned int day_of_era = (unsigned int)(shifted - era * 146097);
    unsigned int year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    unsigned int day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    unsigned int month_index = (5 * day_of_year + 2) / 153; /* 0 is March */
    unsigned int in_next_year = month_index >= 10;
    long long year = year_of_era + era * 400 + in_next_year;
    if (year - 1900 < -2147483647LL - 1 || year - 1900 > 2147483647LL)
        return 0;
    /* Whether the year starting in March is a leap year (the era's years
       repeat every 400). */
    unsigned int leap = (year_of_era % 4 == 0 && year_of_era % 100 != 0) || year_of_era == 0;
    tm->tm_sec = (int)(second_of_day % 60);
    tm->tm_min = (int)(second_of_day / 60 % 60);
    tm->tm_hour = (int)(second_of_day / 3600);
    tm->tm_mday = (int)(day_of_year - (153 * month_index + 2) / 5 + 1);
    tm->tm_mon = (int)(in_next_year ? month_index - 10 : month_index + 2);
    tm->tm_year = (int)(year - 1900);
    /* 1970-01-01, day 135080 of its era, was a Thursday. */
    tm->tm_wday = (int)((day_of_era + 3) % 7);
    tm->tm_yday = (int)(in_next_year ? day_of_year - 306 : day_of_year + 59 + leap);
    /* Facts the arithmetic above implies (checked for every day of an era
       by running it natively), stated so that the solver need not derive
       them through the divisions. */
    __VERIFIER_assume(tm->tm_sec >= 0 && tm->tm_sec <= 59 && tm->tm_min >= 0 && tm->tm_min <= 59);
    __VERIFIER_assume(tm->tm_hour >= 0 && tm->tm_hour <= 23 && tm->tm_mon >= 0 && tm->tm_mon <= 11);
    __VERIFIER_assume(tm->tm_mday >= 1 && tm->tm_mday <= 31 && tm->tm_wday >= 0 && tm->tm_wday <= 6);
    __VERIFIER_assume(tm->tm_yday >= 0 && tm->tm_yday <= 365);
    return 1;
}

struct tm *
gmtime_r(const time_t *timer, struct tm *result)
{
    if (!__tarsier_break_down(*timer, result)) {
        __tarsier_errno = 75; /* EOVERFLOW */
        return 0;
    }
    result->tm_isdst = 0;
    result->tm_gmtoff = 0;
    result->tm_zone = "GMT";
    return result;
}

struct tm *
gmtime(const time_t *timer)
{
    return gmtime_r(timer, &__tarsier_tm_buffer);
}

/* Whether daylight saving time applies at an instant: unknown when the
   zone has it, but the same for the same instant (an uninterpreted
   function of the time), so that localtime and mktime agree. */
int __CPROVER_uninterpreted_tarsier_daylight_at(long long seconds);

int
__tarsier_daylight_at(long long seconds)
{
    return daylight && __CPROVER_uninterpreted_tarsier_daylight_at(seconds) != 0;
}

/* The zone's offset in standard or daylight saving time. */
long
__tarsier_offset(int dst)
{
    return dst ? __tarsier_daylight_offset : __tarsier_utc_offset;
}

/* Local time: the time plus the zone's offset, its daylight saving
   time's when `dst`. */
struct tm *
__tarsier_local_break_down(long long seconds, int dst, struct tm *result)
{
    long offset = __tarsier_offset(dst);
    if (!__tarsier_break_down(seconds + offset, result)) {
        __tarsier_errno = 75; /* EOVERFLOW */
        return 0;
    }
    result->tm_isdst = dst;
    result->tm_gmtoff = offset;
    result->tm_zone = tzname[dst];
    return result;
}

struct tm *
localtime_r(const time_t *timer, struct tm *result)
{
    time_t seconds = *timer;
    tzset();
    return __tarsier_local_break_down(seconds, __tarsier_daylight_at(seconds), result);
}

struct tm *
localtime(const time_t *timer)
{
    return localtime_r(timer, &__tarsier_tm_buffer);
}

/* Normalises *tm (fields out of range carry into the next larger one) and
   returns the time it denotes in the local zone, or -1 when that does not
   fit time_t. */
time_t
mktime(struct tm *tm)
{
    tzset();
    long long months = (long long)tm->tm_mon;
    long long year = tm->tm_year + 1900LL + months / 12;
    long long month = months % 12;
    if (month < 0) {
        month += 12;
        year -= 1;
    }
    long long days = __tarsier_days_from_civil(year, month + 1, 1) + tm->tm_mday - 1;
    long long local = days * 86400 + tm->tm_hour * 3600LL + tm->tm_min * 60LL + tm->tm_sec;
    /* The fields are read in the time the program names (a zone without
       daylight saving time ignores a request for it, as glibc does), or,
       when it does not know (tm_isdst < 0), in one that applies at the
       instant they then denote (either, in a gap where none does). The
       result is broken down in the time that applies at that instant,
       which may be the other one: glibc moves a time in a spring-forward
       gap, or daylight time claimed in winter, by the difference. */
    int dst = tm->tm_isdst > 0 && daylight;
    if (tm->tm_isdst < 0) {
        int standard_fits = !__tarsier_daylight_at(local - __tarsier_offset(0));
        int daylight_fits = __tarsier_daylight_at(local - __tarsier_offset(1));
        dst = daylight && __VERIFIER_nondet_int() != 0;
        __VERIFIER_assume((dst ? daylight_fits : standard_fits) || (!standard_fits && !daylight_fits));
    }
    long long seconds = local - __tarsier_offset(dst);
    time_t result = (time_t)seconds;
    if (result != seconds) {
        __tarsier_errno = 75; /* EOVERFLOW */
        return -1;
    }
    struct tm normalised;
    if (__tarsier_local_break_down(seconds, __tarsier_daylight_at(seconds), &normalised) == 0)
        return -1;
    *tm = normalised;
    return result;
}

/* t1 - t0 rounded once to double, as glibc computes it. */
double
difftime(time_t t1, time_t t0)
{
    unsigned long long a = (unsigned long long)(long long)t1;
    unsigned long long b = (unsigned long long)(long long)t0;
    if ((long long)t1 >= (long long)t0)
        return (double)(a - b);
    return -(double)(b - a);
}

/* Writes the two decimal digits of a value from 0 to 99. */
void
__tarsier_two_digits(char *out, int value)
{
    out[0] = (char)('0' + value / 10);
    out[1] = (char)('0' + value % 10);
}

/* Writes the three-letter name number `index` of `names`, or "???" when
   there are not that many. */
void
__tarsier_abbreviation(char *out, const char *names, int index, int count)
{
    int known = index >= 0 && index < count;
    out[0] = known ? names[3 * index] : '?';
    out[1] = known ? names[3 * index + 1] : '?';
    out[2] = known ? names[3 * index + 2] : '?';
}

/* asctime's text is built in a local array at most 67 characters long
   (every field at its widest); the index is taken modulo the array's size,
   which changes nothing and leaves no bounds check to solve. */
enum { __TARSIER_ASCTIME_TEXT = 128 };

/* Puts character c at position at of text; the next position. */
int
__tarsier_put_char(char *text, int at, char c)
{
    text[at & (__TARSIER_ASCTIME_TEXT - 1)] = c;
    return at + 1;
}

/* Puts value as printf's "%<width>.<precision>d" does (width at most 3,
   precision 1 or 2, as asctime uses them): spaces up to width, a '-',
   zeros up to precision, the digits. Each digit is written straight to
   its place, the least significant first, so no digit is read back. */
int
__tarsier_put_decimal(char *text, int at, int value, int width, int precision)
{
    unsigned int magnitude = value < 0 ? 0u - (unsigned int)value : (unsigned int)value;
    int count = 1 + (magnitude >= 10u) + (magnitude >= 100u) + (magnitude >= 1000u) + (magnitude >= 10000u)
        + (magnitude >= 100000u) + (magnitude >= 1000000u) + (magnitude >= 10000000u) + (magnitude >= 100000000u)
        + (magnitude >= 1000000000u);
    int shown = count < precision ? precision : count;
    int length = shown + (value < 0);
    for (int i = 0; i < 3; i++)
        if (i < width - length)
            at = __tarsier_put_char(text, at, ' ');
    if (value < 0)
        at = __tarsier_put_char(text, at, '-');
    for (int i = 0; i < 2; i++)
        if (i < shown - count)
            at = __tarsier_put_char(text, at, '0');
    for (int i = 0; i < 10; i++) {
        if (i < count)
            __tarsier_put_char(text, at + count - 1 - i, (char)('0' + magnitude % 10u));
        magnitude /= 10u;
    }
    return at + count;
}

/* asctime's text for fields of the fixed 24-character layout (day of
   month, time fields 0..99, year 1000..9999): every character at a known
   place, which is much cheaper to solve than the general text. */
char *
__tarsier_asctime_fixed(const struct tm *tm, char *buf)
{
    int mday = tm->tm_mday;
    int year = tm->tm_year + 1900;
    __tarsier_abbreviation(buf, "SunMonTueWedThuFriSat", tm->tm_wday, 7);
    buf[3] = ' ';
    __tarsier_abbreviation(buf + 4, "JanFebMarAprMayJunJulAugSepOctNovDec", tm->tm_mon, 12);
    buf[7] = ' ';
    buf[8] = mday < 10 ? ' ' : (char)('0' + mday / 10);
    buf[9] = (char)('0' + mday % 10);
    buf[10] = ' ';
    __tarsier_two_digits(buf + 11, tm->tm_hour);
    buf[13] = ':';
    __tarsier_two_digits(buf + 14, tm->tm_min);
    buf[16] = ':';
    __tarsier_two_digits(buf + 17, tm->tm_sec);
    buf[19] = ' ';
    __tarsier_two_digits(buf + 20, year / 100);
    __tarsier_two_digits(buf + 22, year % 100);
    buf[24] = '\n';
    buf[25] = 0;
    return buf;
}

/* glibc's asctime_internal: the text "%.3s %.3s%3d %.2d:%.2d:%.2d %d\n"
   (names "???" out of range, the year 1900 + tm_year) printed by snprintf
   into size bytes; NULL with EOVERFLOW when tm_year + 1900 overflows int
   or the text does not fit (snprintf's truncated text stays in buf). */
char *
__tarsier_asctime(const struct tm *tm, char *buf, int size)
{
    if (tm->tm_year > 2147483647 - 1900) {
        __tarsier_errno = 75; /* EOVERFLOW */
        return 0;
    }
    int mday = tm->tm_mday, hour = tm->tm_hour, min = tm->tm_min, sec = tm->tm_sec;
    int year = tm->tm_year + 1900;
    if (size >= 26 && mday >= 0 && mday <= 99 && hour >= 0 && hour <= 99 && min >= 0 && min <= 99 && sec >= 0
        && sec <= 99 && year >= 1000 && year <= 9999)
        return __tarsier_asctime_fixed(tm, buf);
    char text[__TARSIER_ASCTIME_TEXT];
    char day[3], month[3];
    __tarsier_abbreviation(day, "SunMonTueWedThuFriSat", tm->tm_wday, 7);
    __tarsier_abbreviation(month, "JanFebMarAprMayJunJulAugSepOctNovDec", tm->tm_mon, 12);
    int at = 0;
    for (int i = 0; i < 3; i++)
        at = __tarsier_put_char(text, at, day[i]);
    at = __tarsier_put_char(text, at, ' ');
    for (int i = 0; i < 3; i++)
        at = __tarsier_put_char(text, at, month[i]);
    at = __tarsier_put_decimal(text, at, mday, 3, 1);
    at = __tarsier_put_char(text, at, ' ');
    at = __tarsier_put_decimal(text, at, hour, 0, 2);
    at = __tarsier_put_char(text, at, ':');
    at = __tarsier_put_decimal(text, at, min, 0, 2);
    at = __tarsier_put_char(text, at, ':');
    at = __tarsier_put_decimal(text, at, sec, 0, 2);
    at = __tarsier_put_char(text, at, ' ');
    at = __tarsier_put_decimal(text, at, year, 0, 1);
    at = __tarsier_put_char(text, at, '\n');
    /* snprintf's output: the first size - 1 characters and a NUL. */
    for (int i = 0; i < size - 1; i++)
        if (i < at)
            buf[i] = text[i];
    buf[at < size - 1 ? at : size - 1] = 0;
    if (at >= size) {
        __tarsier_errno = 75; /* EOVERFLOW */
        return 0;
    }
    return buf;
}

char *
asctime_r(const struct tm *tm, char *buf)
{
    return __tarsier_asctime(tm, buf, 26);
}

char *
asctime(const struct tm *tm)
{
    return __tarsier_asctime(tm, __tarsier_asctime_buffer, sizeof __tarsier_asctime_buffer);
}

char *
ctime_r(const time_t *timer, char *buf)
{
    struct tm local;
    if (localtime_r(timer, &local) == 0)
        return 0;
    return asctime_r(&local, buf);
}

char *
ctime(const time_t *timer)
{
    return asctime(localtime(timer));
}

/* Processor time used, or -1 when unavailable. */
clock_t
clock(void)
{
    clock_t used = __VERIFIER_nondet_long();
    __VERIFIER_assume(used >= -1);
    return used;
}

/* An arbitrary time with nanoseconds in range. */
void
__tarsier_clock_reading(struct timespec *ts)
{
    ts->tv_sec = __VERIFIER_nondet_long();
    ts->tv_nsec = __VERIFIER_nondet_long();
    __VERIFIER_assume(ts->tv_nsec >= 0 && ts->tv_nsec <= 999999999L);
}

/* Linux's clocks are 0 to 9 and 11; negative ids name the CPU clocks of
   processes and threads, which may or may not exist. */
int
clock_gettime(int clock_id, struct timespec *ts)
{
    int known = (clock_id >= 0 && clock_id <= 9) || clock_id == 11;
    if (!known && (clock_id >= 0 || __VERIFIER_nondet_int())) {
        __tarsier_errno = 22; /* EINVAL */
        return -1;
    }
    __tarsier_clock_reading(ts);
    return 0;
}

/* TIME_UTC (1) is the only base. */
int
timespec_get(struct timespec *ts, int base)
{
    if (base != 1)
        return 0;
    __tarsier_clock_reading(ts);
    return base;
}

/* 0 after the whole interval, or -1 with errno EINTR and the time left
   (at most the request) in *rem when a signal interrupts it. */
int
nanosleep(const struct timespec *req, struct timespec *rem)
{
    time_t seconds = req->tv_sec;
    long nanoseconds = req->tv_nsec;
    if (seconds < 0 || nanoseconds < 0 || nanoseconds > 999999999L) {
        __tarsier_errno = 22; /* EINVAL */
        return -1;
    }
    if (__VERIFIER_nondet_int() == 0)
        return 0;
    __tarsier_errno = 4; /* EINTR */
    if (rem != 0) {
        rem->tv_sec = __VERIFIER_nondet_long();
        rem->tv_nsec = __VERIFIER_nondet_long();
        __VERIFIER_assume(rem->tv_sec >= 0 && rem->tv_sec <= seconds);
        __VERIFIER_assume(rem->tv_nsec >= 0 && rem->tv_nsec <= 999999999L);
        __VERIFIER_assume(rem->tv_sec < seconds || rem->tv_nsec <= nanoseconds);
    }
    return -1;
}

/* Reached for what the strftime model does not spell: a conversion other
   than those below, a negative field, or a text that does not fit (glibc
   then leaves a partial text). The buffer is an argument so that a
   verdict resting on the call is not trusted either way. */
size_t __tarsier_unmodelled_strftime(char *s, size_t max, const char *format, const struct tm *tm);

/* Appends the decimal digits of `value` (>= 0), zero-padded to at least
   `width`, at `s + *length` when they fit before the last byte of `max`;
   returns whether they did. */
static int
__tarsier_put_number(char *s, size_t max, size_t *length, int value, int width)
{
    char digits[10];
    int count = width;
    for (int k = 0; k < 10; k++) {
        digits[k] = (char)('0' + value % 10);
        value /= 10;
        if (digits[k] != '0' && k + 1 > count)
            count = k + 1;
    }
    if ((size_t)count >= max - *length)
        return 0;
    for (int k = 9; k >= 0; k--)
        if (k < count) {
            s[*length] = digits[k];
            *length += 1;
        }
    return 1;
}

/* The C locale's %Y, %m, %d, %H, %M, %S, %j and %% of fields that are
   not negative, and literal text, as glibc spells them. */
size_t
strftime(char *s, size_t max, const char *format, const struct tm *tm)
{
    size_t length = 0;
    for (size_t i = 0; format[i] != 0; i++) {
        if (format[i] != '%' || format[i + 1] == '%') {
            if (length + 1 >= max)
                return __tarsier_unmodelled_strftime(s, max, format, tm);
            s[length] = format[i];
            length++;
            if (format[i] == '%')
                i++;
            continue;
        }
        i++;
        int value;
        int width = 2;
        switch (format[i]) {
        case 'Y':
            value = tm->tm_year < -1900 || tm->tm_year > 2147483647 - 1900 ? -1 : tm->tm_year + 1900;
            width = 1;
            break;
        case 'm':
            value = tm->tm_mon < 0 || tm->tm_mon > 99999 ? -1 : tm->tm_mon + 1;
            break;
        case 'd':
            value = tm->tm_mday;
            break;
        case 'H':
            value = tm->tm_hour;
            break;
        case 'M':
            value = tm->tm_min;
            break;
        case 'S':
            value = tm->tm_sec;
            break;
        case 'j':
            value = tm->tm_yday < 0 || tm->tm_yday > 99999 ? -1 : tm->tm_yday + 1;
            width = 3;
            break;
        default:
            return __tarsier_unmodelled_strftime(s, max, format, tm);
        }
        if (value < 0 || !__tarsier_put_number(s, max, &length, value, width))
            return __tarsier_unmodelled_strftime(s, max, format, tm);
    }
    if (max == 0)
        return __tarsier_unmodelled_strftime(s, max, format, tm);
    s[length] = 0;
    return length;
}
