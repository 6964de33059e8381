/*
 * gap_bands: see gap_bands.h.
 */
#include "gap_bands.h"

#include <stdlib.h>
#include <string.h>

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int64_t time_at(const char *hex, int i)
{
    int64_t t = 0;
    for (int k = 0; k < 8; k++)
        t = t * 16 + hex_digit(hex[(size_t)i * 8 + (size_t)k]);
    return t;
}

int gap_count(const char *hex)
{
    size_t len = hex ? strlen(hex) : 0;
    if (len == 0 || len % 8 || len / 8 > (size_t)INT32_MAX)
        return -1;
    for (size_t k = 0; k < len; k++)
        if (hex_digit(hex[k]) < 0)
            return -1;
    return (int)(len / 8);
}

int64_t gap_at(const char *hex, int i)
{
    return time_at(hex, i) - (i ? time_at(hex, i - 1) : 0);
}

static int compare(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The nearest-rank percentile p (of 100) of v[0..n), sorted, n >= 1. */
static int64_t rank_of(const int64_t *v, size_t n, int p)
{
    size_t r = (n * (size_t)p + 99) / 100; /* ceil(n p / 100), 1-based */
    return v[r ? r - 1 : 0];
}

int gap_bands(const char *const *hex, size_t n, int max_gaps, gap_band *out)
{
    int *count = n ? malloc(n * sizeof *count) : NULL;
    int64_t *v = n ? malloc(n * sizeof *v) : NULL;
    if (n && (!count || !v)) {
        free(count);
        free(v);
        return -1;
    }
    for (size_t k = 0; k < n; k++)
        count[k] = gap_count(hex[k]);
    for (int i = 0; i < max_gaps; i++) {
        size_t m = 0;
        for (size_t k = 0; k < n; k++)
            if (count[k] > i)
                v[m++] = gap_at(hex[k], i);
        out[i] = (gap_band){ 0, 0, 0, (int)m };
        if (!m)
            continue;
        qsort(v, m, sizeof *v, compare);
        out[i].p25 = rank_of(v, m, 25);
        out[i].median = rank_of(v, m, 50);
        out[i].p75 = rank_of(v, m, 75);
    }
    free(count);
    free(v);
    return 0;
}
