/* iso_time: a unix time in milliseconds as the API writes it,
 * "2026-12-02T13:10:35.123Z" (UTC, always milliseconds). Pure: no state,
 * safe from any thread. */
#ifndef REPLAYD_SERVER_ISO_TIME_H
#define REPLAYD_SERVER_ISO_TIME_H

#include <stdint.h>

/* Writes unix_ms into buf (at most 31 characters and the NUL). */
void iso_time_format(int64_t unix_ms, char buf[32]);

#endif
