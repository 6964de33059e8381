/* Unit tests for server/trust/gap_bands.c: gaps from progress times,
 * refused texts, nearest-rank bands over runs of different lengths. */
#include <stdio.h>
#include <string.h>

#include "../../server/trust/gap_bands.h"
#include "../check.h"

/* times t[0..n) as 8 hex digits each */
static void times_hex(const int64_t *t, int n, char *out)
{
    for (int i = 0; i < n; i++)
        snprintf(out + 8 * i, 9, "%08llx", (unsigned long long)t[i]);
    out[8 * n] = '\0';
}

static void gaps_from_times(void)
{
    char h[8 * 4 + 1];
    const int64_t t[] = { 300, 800, 800, 2100 };
    times_hex(t, 4, h);
    CHECK_EQ(gap_count(h), 4);
    CHECK_EQ(gap_at(h, 0), 300);
    CHECK_EQ(gap_at(h, 1), 500);
    CHECK_EQ(gap_at(h, 2), 0);
    CHECK_EQ(gap_at(h, 3), 1300);
    CHECK_EQ(gap_count("00000010ABCDEF01"), 2);
    CHECK_EQ(gap_at("00000010ABCDEF01", 1), 0xABCDEF01LL - 0x10);
}

static void refused_texts(void)
{
    CHECK_EQ(gap_count(NULL), -1);
    CHECK_EQ(gap_count(""), -1);
    CHECK_EQ(gap_count("0000001"), -1);          /* not a multiple of 8 */
    CHECK_EQ(gap_count("0000001g"), -1);         /* not hex */
    CHECK_EQ(gap_count("00000010 0000002"), -1); /* a space */
}

static void bands_over_runs(void)
{
    /* five runs; gap 0 is 100, 200, 300, 400, 500; only two runs have a
     * gap 1 (1000 and 3000); one text is refused and counts nowhere */
    char h[6][8 * 2 + 1];
    const int64_t a[] = { 100, 1100 }, b[] = { 200, 3200 }, c[] = { 300 }, d[] = { 400 }, e[] = { 500 };
    times_hex(a, 2, h[0]);
    times_hex(b, 2, h[1]);
    times_hex(c, 1, h[2]);
    times_hex(d, 1, h[3]);
    times_hex(e, 1, h[4]);
    snprintf(h[5], sizeof h[5], "zz");
    const char *texts[] = { h[4], h[0], h[5], h[2], h[1], h[3] }; /* any order */
    gap_band out[3];
    memset(out, 0x55, sizeof out);
    CHECK_EQ(gap_bands(texts, 6, 3, out), 0);
    CHECK_EQ(out[0].runs, 5);
    CHECK_EQ(out[0].p25, 200); /* nearest rank: ceil(5 x 0.25) = 2nd */
    CHECK_EQ(out[0].median, 300);
    CHECK_EQ(out[0].p75, 400); /* ceil(3.75) = 4th */
    CHECK_EQ(out[1].runs, 2);
    CHECK_EQ(out[1].p25, 1000);
    CHECK_EQ(out[1].median, 1000);
    CHECK_EQ(out[1].p75, 3000);
    CHECK_EQ(out[2].runs, 0);
    CHECK_EQ(out[2].median, 0);
    /* no runs at all: empty bands */
    CHECK_EQ(gap_bands(NULL, 0, 2, out), 0);
    CHECK_EQ(out[0].runs, 0);
    CHECK_EQ(out[1].runs, 0);
}

int main(void)
{
    RUN(gaps_from_times);
    RUN(refused_texts);
    RUN(bands_over_runs);
    CHECK_DONE();
}
