/*
 * civil: proleptic Gregorian dates <-> day numbers (days since 1970-01-01).
 *
 * Pure integer arithmetic (Howard Hinnant's days_from_civil), no libc time
 * zone, so a UTC date always maps to the same day on every machine.
 */
#ifndef REPLAYD_CORE_CIVIL_H
#define REPLAYD_CORE_CIVIL_H

#include <stdbool.h>
#include <stdint.h>

typedef struct civil_date {
    int32_t year;  /* 1970..9999 accepted by civil_parse */
    int32_t month; /* 1..12 */
    int32_t day;   /* 1..31 */
} civil_date;

int64_t civil_to_days(civil_date d);
civil_date civil_from_days(int64_t days);
bool civil_valid(civil_date d);

/* Strict "YYYY-MM-DD" (zero-padded, years 1970..9999). Returns false on
 * anything else, including impossible dates such as 2026-02-30. */
bool civil_parse(const char *text, civil_date *out);

/* Writes "YYYY-MM-DD" into buf (at least 11 bytes). */
void civil_format(civil_date d, char buf[11]);

/* The UTC date containing unix time t (seconds). */
civil_date civil_from_unix(int64_t unix_seconds);

#endif
