// The time.h models against the values the C standard and glibc give.
// Only conversions that do not depend on the time zone are checked, so the
// program gives the same answers natively whatever TZ is.
#define _GNU_SOURCE
#include <time.h>
#include <string.h>

#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

static int same_fields(const struct tm *a, const struct tm *b) {
    return a->tm_sec == b->tm_sec && a->tm_min == b->tm_min && a->tm_hour == b->tm_hour
        && a->tm_mday == b->tm_mday && a->tm_mon == b->tm_mon && a->tm_year == b->tm_year
        && a->tm_wday == b->tm_wday && a->tm_yday == b->tm_yday;
}

int main(void) {
    time_t epoch = 0;
    struct tm tm;
    CHECK(gmtime_r(&epoch, &tm) == &tm);
    CHECK(tm.tm_year == 70 && tm.tm_mon == 0 && tm.tm_mday == 1 && tm.tm_hour == 0);
    CHECK(tm.tm_wday == 4 && tm.tm_yday == 0 && tm.tm_isdst == 0);
    time_t leap_day = 951782400; /* 2000-02-29 00:00:00 UTC */
    CHECK(gmtime_r(&leap_day, &tm) == &tm);
    CHECK(tm.tm_year == 100 && tm.tm_mon == 1 && tm.tm_mday == 29 && tm.tm_yday == 59 && tm.tm_wday == 2);
    time_t before_epoch = -1; /* 1969-12-31 23:59:59 UTC */
    CHECK(gmtime_r(&before_epoch, &tm) == &tm);
    CHECK(tm.tm_year == 69 && tm.tm_mon == 11 && tm.tm_mday == 31 && tm.tm_hour == 23);
    CHECK(tm.tm_min == 59 && tm.tm_sec == 59 && tm.tm_yday == 364 && tm.tm_wday == 3);
    time_t later = 1705322445; /* 2024-01-15 12:40:45 UTC, a Monday */
    struct tm *shared = gmtime(&later);
    CHECK(shared != 0 && shared->tm_year == 124 && shared->tm_yday == 14 && shared->tm_wday == 1);
    CHECK(localtime(&epoch) == shared); /* one static buffer */
    char buf[26];
    CHECK(asctime_r(gmtime(&later), buf) == buf);
    CHECK(strcmp(buf, "Mon Jan 15 12:40:45 2024\n") == 0);
    CHECK(strcmp(asctime(gmtime(&leap_day)), "Tue Feb 29 00:00:00 2000\n") == 0);
    struct tm odd = {0};
    odd.tm_mday = 5;
    odd.tm_wday = 9;
    odd.tm_mon = -1;
    odd.tm_year = 100;
    CHECK(strcmp(asctime(&odd), "??? ???  5 00:00:00 2000\n") == 0);
    /* Local time and back, and mktime's normalisation. */
    struct tm local;
    CHECK(localtime_r(&later, &local) == &local);
    CHECK(mktime(&local) == later);
    local.tm_mon += 13;
    local.tm_mday += 40;
    time_t moved = mktime(&local);
    struct tm again;
    CHECK(moved != (time_t)-1 && localtime_r(&moved, &again) == &again);
    CHECK(local.tm_mon >= 0 && local.tm_mon <= 11 && local.tm_mday >= 1 && local.tm_mday <= 31);
    CHECK(same_fields(&local, &again));
    CHECK(ctime_r(&later, buf) == buf && buf[24] == '\n' && buf[25] == 0);
    CHECK(difftime(10, 4) == 6.0 && difftime(4, 10) == -6.0);
    struct timespec ts;
    CHECK(clock_gettime(999, &ts) == -1);
    CHECK(clock_gettime(CLOCK_REALTIME, &ts) == 0 && ts.tv_nsec >= 0 && ts.tv_nsec < 1000000000L);
    CHECK(timespec_get(&ts, TIME_UTC) == TIME_UTC && ts.tv_nsec >= 0 && ts.tv_nsec < 1000000000L);
    struct timespec bad = {0, 1000000000L};
    CHECK(nanosleep(&bad, 0) == -1);
    tzset();
    CHECK(daylight == 0 || daylight == 1);
    /* strftime spells the numeric fields as glibc does. */
    char text[32];
    struct tm when = {0};
    when.tm_year = 99 - 1900;
    CHECK(strftime(text, sizeof text, "%Y", &when) == 2 && strcmp(text, "99") == 0);
    when.tm_year = 2024 - 1900;
    when.tm_mon = 5;
    when.tm_mday = 7;
    when.tm_hour = 3;
    when.tm_min = 4;
    when.tm_sec = 61;
    when.tm_yday = 5;
    CHECK(strftime(text, sizeof text, "%Y-%m/%d %H:%M:%S %j %%", &when) == 25);
    CHECK(strcmp(text, "2024-06/07 03:04:61 006 %") == 0);
    when.tm_mon = 150;
    CHECK(strftime(text, sizeof text, "<%m>", &when) == 5 && strcmp(text, "<151>") == 0);
    CHECK(strftime(text, 5, "%Y", &when) == 4 && strcmp(text, "2024") == 0);
    return 0;
}
