/* iso_time: a unix time in milliseconds as "YYYY-MM-DDTHH:MM:SS.mmmZ" (iso_time.h). */
#include "iso_time.h"

#include <stdio.h>

#include "../../core/civil.h"

void iso_time_format(int64_t unix_ms, char buf[32])
{
    int64_t secs = unix_ms >= 0 ? unix_ms / 1000 : -((-unix_ms + 999) / 1000);
    int64_t ms = unix_ms - secs * 1000;
    int64_t day_secs = ((secs % 86400) + 86400) % 86400;
    civil_date d = civil_from_unix(secs);
    snprintf(buf, 32, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", (int)d.year, (int)d.month, (int)d.day,
             (int)(day_secs / 3600), (int)(day_secs / 60 % 60), (int)(day_secs % 60), (int)ms);
}
