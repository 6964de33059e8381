#include "civil.h"

int64_t civil_to_days(civil_date d)
{
    int64_t y = d.year - (d.month <= 2);
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t mp = (d.month + 9) % 12;
    int64_t doy = (153 * mp + 2) / 5 + d.day - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

civil_date civil_from_days(int64_t z)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1;
    int64_t m = mp < 10 ? mp + 3 : mp - 9;
    int64_t y = yoe + era * 400 + (m <= 2);
    civil_date out = { (int32_t)y, (int32_t)m, (int32_t)d };
    return out;
}

static bool is_leap(int32_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

bool civil_valid(civil_date d)
{
    static const int32_t mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    if (d.year < 1970 || d.year > 9999 || d.month < 1 || d.month > 12 || d.day < 1)
        return false;
    int32_t limit = mdays[d.month - 1] + (d.month == 2 && is_leap(d.year));
    return d.day <= limit;
}

static bool parse_digits(const char *p, int n, int32_t *out)
{
    int32_t v = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        v = v * 10 + (p[i] - '0');
    }
    *out = v;
    return true;
}

bool civil_parse(const char *text, civil_date *out)
{
    civil_date d;
    if (!text || !parse_digits(text, 4, &d.year) || text[4] != '-' ||
        !parse_digits(text + 5, 2, &d.month) || text[7] != '-' ||
        !parse_digits(text + 8, 2, &d.day) || text[10] != '\0')
        return false;
    if (!civil_valid(d))
        return false;
    *out = d;
    return true;
}

/* n digits of v (0 <= v), most significant first. */
static char *put_digits(char *p, int32_t v, int n)
{
    for (int i = n - 1; i >= 0; i--, v /= 10)
        p[i] = (char)('0' + v % 10);
    return p + n;
}

/* Digits by hand rather than snprintf: the library builds without libc
 * (wasm32). Dates are 1970..9999 (civil_parse's range); a field outside
 * its width is written modulo it. */
void civil_format(civil_date d, char buf[11])
{
    char *p = put_digits(buf, d.year < 0 ? 0 : d.year % 10000, 4);
    *p++ = '-';
    p = put_digits(p, d.month < 0 ? 0 : d.month % 100, 2);
    *p++ = '-';
    p = put_digits(p, d.day < 0 ? 0 : d.day % 100, 2);
    *p = '\0';
}

civil_date civil_from_unix(int64_t unix_seconds)
{
    int64_t days = unix_seconds >= 0 ? unix_seconds / 86400 : -((-unix_seconds + 86399) / 86400);
    return civil_from_days(days);
}
