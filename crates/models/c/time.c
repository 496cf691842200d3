/* time.h and the POSIX clocks, with glibc's observable behaviour.

   The clocks are arbitrary. The time zone is part of the environment the
   program does not control, and a zone is a history: glibc's tzfile zones
   give each instant the offset and the daylight saving flag of the period
   it falls in (a local mean time before 1900, war and double summer times,
   standard offsets that changed, as Moscow's in 2011 and 2014), and a
   tzfile may hold any offset of 32 bits. So the offset and the flag are
   uninterpreted functions of the instant: the same for the same instant,
   so that localtime and mktime agree, and otherwise unconstrained.
   `timezone` and `daylight` describe the zone's latest rule, which says
   nothing about other instants. mktime follows glibc's search for the
   instant whose local time is the one requested, starting from the offset
   its previous call found; what it does when the instant found has the
   other daylight saving flag than the one requested (a probe of hundreds
   of instants around it) is not modelled. Calendar conversions use the
   proleptic Gregorian calendar in closed form (days from 1970-01-01 to a
   civil date and back), so they need no loops. As in glibc, gmtime and
   localtime share one static struct tm, asctime and ctime one static text
   buffer, and localtime, ctime and mktime set the zone up as tzset does.
   Not modelled: zones with leap seconds (TZ=right/...), in which glibc's
   gmtime and localtime count them. */

long __VERIFIER_nondet_tarsier_long(void);
int __VERIFIER_nondet_tarsier_int(void);
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
/* The zone names' text is unknown: no unit defines these arrays. */
extern char __tarsier_standard_zone_name[8];
extern char __tarsier_daylight_zone_name[8];

time_t
time(time_t *result)
{
    time_t now = __VERIFIER_nondet_tarsier_long();
    if (result != 0)
        *result = now;
    return now;
}

/* The largest offset a tzfile holds (a signed 32-bit number other than
   INT_MIN; TZ strings stay within 24:59:59). */
enum { __TARSIER_OFFSET_MAX = 2147483647 };

void
tzset(void)
{
    if (__tarsier_zone_chosen)
        return;
    __tarsier_zone_chosen = 1;
    timezone = __VERIFIER_nondet_tarsier_long();
    __VERIFIER_assume(timezone >= -__TARSIER_OFFSET_MAX && timezone <= __TARSIER_OFFSET_MAX);
    daylight = __VERIFIER_nondet_tarsier_int();
    __VERIFIER_assume(daylight == 0 || daylight == 1);
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

/* The seconds a year within tm_year can hold: from the first second of
   year INT_MIN + 1900 to the last of year INT_MAX + 1900 (glibc's gmtime
   fails one second beyond either). Whether a conversion fails is this
   comparison, not the calendar arithmetic, for the solver. */
int
__tarsier_year_fits(long long seconds)
{
    return seconds >= -67768040609740800LL && seconds <= 67768036191676799LL;
}

/* Breaks seconds since the epoch, already shifted to local time, into
   *tm; 0 when the year does not fit tm_year. Only two divisions are on
   64-bit values: the rest works within a 400-year era (146097 days, a
   whole number of weeks), on small unsigned values. */
int
__tarsier_break_down(long long seconds, struct tm *tm)
{
    if (!__tarsier_year_fits(seconds))
        return 0;
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

/* The zone's offset and daylight saving flag at an instant (see the top
   of the file). */
long __CPROVER_uninterpreted_tarsier_offset_at(long long seconds);
int __CPROVER_uninterpreted_tarsier_daylight_at(long long seconds);

long
__tarsier_offset_at(long long seconds)
{
    long offset = __CPROVER_uninterpreted_tarsier_offset_at(seconds);
    __VERIFIER_assume(offset >= -__TARSIER_OFFSET_MAX && offset <= __TARSIER_OFFSET_MAX);
    return offset;
}

int
__tarsier_daylight_at(long long seconds)
{
    return __CPROVER_uninterpreted_tarsier_daylight_at(seconds) != 0;
}

/* The instant `seconds` in local time, or 0 with EOVERFLOW when its year
   does not fit tm_year (glibc's __offtime). */
struct tm *
__tarsier_local_break_down(long long seconds, struct tm *result)
{
    long offset = __tarsier_offset_at(seconds);
    int dst = __tarsier_daylight_at(seconds);
    /* An instant this far from the epoch is beyond every year, whatever
       the offset (and adding it could overflow). */
    int far = seconds > 67768036191676799LL + (long long)__TARSIER_OFFSET_MAX || seconds < -67768040609740800LL - (long long)__TARSIER_OFFSET_MAX;
    if (far || !__tarsier_break_down(seconds + offset, result)) {
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
    return __tarsier_local_break_down(seconds, result);
}

struct tm *
localtime(const time_t *timer)
{
    return localtime_r(timer, &__tarsier_tm_buffer);
}

/* Reached where the mktime model stops following glibc: the instant found
   has the other daylight saving flag than the one requested (glibc then
   probes instants up to eight years away for one with the flag requested
   and uses its offset), or a probe's local time is beyond every year. The
   argument makes a verdict resting on the call untrusted either way. */
time_t __tarsier_unmodelled_mktime(struct tm *tm);

/* glibc's guess of the offset for the next mktime (its localtime_offset):
   the instant the previous call found minus the local time requested. */
int __tarsier_mktime_offset;

/* The requested local time in seconds since the epoch, as glibc's
   ydhms_diff counts it (months beyond 0..11 carry into the year; the
   other fields are taken as they are). */
long long
__tarsier_requested_local(const struct tm *tm, int sec)
{
    long long months = (long long)tm->tm_mon;
    long long year = tm->tm_year + 1900LL + months / 12;
    long long month = months % 12;
    if (month < 0) {
        month += 12;
        year -= 1;
    }
    long long days = __tarsier_days_from_civil(year, month + 1, 1) + tm->tm_mday - 1;
    return days * 86400 + tm->tm_hour * 3600LL + tm->tm_min * 60LL + sec;
}

/* glibc's __mktime_internal: normalises *tm (fields out of range carry
   into the next larger one) and returns the instant it denotes in the
   local zone, found by at most six probes each moving by the difference
   between the local time requested and the probe's; -1 with EOVERFLOW
   when they do not settle. Two probes in turn (a gap in local time) end
   the search on the one whose daylight saving flag glibc prefers. */
time_t
mktime(struct tm *tm)
{
    tzset();
    int isdst = tm->tm_isdst;
    int sec_requested = tm->tm_sec;
    int sec = sec_requested < 0 ? 0 : sec_requested > 59 ? 59 : sec_requested;
    long long local = __tarsier_requested_local(tm, sec);
    long long t0 = local + __tarsier_mktime_offset;
    long long t = t0, t1 = t0, t2 = t0;
    int dst2 = 0, dst = 0, matched = 0, settled = 0;
    for (int probe = 0; probe < 6 && !settled; probe++) {
        long offset = __tarsier_offset_at(t);
        if (!__tarsier_year_fits(t + offset))
            return __tarsier_unmodelled_mktime(tm);
        dst = __tarsier_daylight_at(t);
        long long difference = local - (t + offset);
        matched = difference == 0;
        int oscillating = t == t1 && t != t2 && (isdst < 0 ? dst2 <= dst : (isdst != 0) != dst);
        settled = matched || oscillating;
        if (!settled) {
            t1 = t2;
            t2 = t;
            t += difference;
            dst2 = dst;
        }
    }
    if (!settled) {
        __tarsier_errno = 75; /* EOVERFLOW */
        return -1;
    }
    if (matched && isdst >= 0 && (isdst != 0) != dst)
        return __tarsier_unmodelled_mktime(tm);
    __tarsier_mktime_offset = (int)(t - local);
    /* A second out of range is added to the instant found, not to its
       normalised fields (a leap second would be; the model's zones have
       none). */
    long long shifted = t + __tarsier_offset_at(t);
    long long second = shifted % 60;
    if (second < 0)
        second += 60;
    if (sec_requested != second)
        t += (long long)sec_requested - sec;
    struct tm normalised;
    if (__tarsier_local_break_down(t, &normalised) == 0)
        return -1;
    *tm = normalised;
    return t;
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
    clock_t used = __VERIFIER_nondet_tarsier_long();
    __VERIFIER_assume(used >= -1);
    return used;
}

/* An arbitrary time with nanoseconds in range. */
void
__tarsier_clock_reading(struct timespec *ts)
{
    ts->tv_sec = __VERIFIER_nondet_tarsier_long();
    ts->tv_nsec = __VERIFIER_nondet_tarsier_long();
    __VERIFIER_assume(ts->tv_nsec >= 0 && ts->tv_nsec <= 999999999L);
}

/* Linux's clocks are 0 to 9 and 11; negative ids name the CPU clocks of
   processes and threads, which may or may not exist. */
int
clock_gettime(int clock_id, struct timespec *ts)
{
    int known = (clock_id >= 0 && clock_id <= 9) || clock_id == 11;
    if (!known && (clock_id >= 0 || __VERIFIER_nondet_tarsier_int())) {
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
    if (__VERIFIER_nondet_tarsier_int() == 0)
        return 0;
    __tarsier_errno = 4; /* EINTR */
    if (rem != 0) {
        rem->tv_sec = __VERIFIER_nondet_tarsier_long();
        rem->tv_nsec = __VERIFIER_nondet_tarsier_long();
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
