#include "parse.h"

bool parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
    if (!s || !*s)
        return false;
    bool neg = false;
    if (*s == '-' && min < 0) {
        neg = true;
        s++;
        if (!*s)
            return false;
    }
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        if (v > (UINT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > (uint64_t)INT64_MAX)
            return false;
    }
    int64_t x = neg ? -(int64_t)v : (int64_t)v;
    if (x < min || x > max)
        return false;
    *out = x;
    return true;
}

bool parse_u32(const char *s, uint32_t *out)
{
    int64_t v;
    if (!parse_i64(s, 0, UINT32_MAX, &v))
        return false;
    *out = (uint32_t)v;
    return true;
}
