/* Unit tests for server/trust/twins.c: the shape counts only progress
 * moves (not slips, not ignored moves) and ignores their time; the rank
 * correlation of a re-timed, nudged or clamped copy is at the threshold
 * and of independent paces low; too few or flat gaps say nothing; packed
 * times hold the progress moves' t and compare only at one length. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/game.h"
#include "../../server/trust/twins.h"
#include "../check.h"

static const game *schulte(void)
{
    return game_find("schulte");
}

/* A Schulte run: n taps on cells 1..n at 300 ms apart, each found. */
static void taps(const game *g, game_move *m, int *o, int n)
{
    int tf = twin_time_field(g, 2), cf = tf == 0 ? 1 : 0;
    memset(m, 0, (size_t)n * sizeof *m);
    for (int i = 0; i < n; i++) {
        m[i].v[cf] = i + 1;
        m[i].v[tf] = 300 * (i + 1);
        o[i] = game_outcome_index(g, "found");
    }
}

static void shape_counts_progress_only(void)
{
    const game *g = schulte();
    CHECK(g != NULL);
    int tf = twin_time_field(g, 2);
    CHECK(tf >= 0);
    int cf = tf == 0 ? 1 : 0;
    CHECK(twin_progress(g, game_outcome_index(g, "found")));
    CHECK(!twin_progress(g, game_outcome_index(g, "mistake")));
    CHECK(!twin_progress(g, game_outcome_index(g, "already_found")));
    CHECK(!twin_progress(g, -1));
    game_move a[3], b[5];
    int oa[3], ob[5];
    taps(g, a, oa, 3);
    uint8_t ha[TWIN_SHAPE_BYTES], hb[TWIN_SHAPE_BYTES];
    twin_shape_hash(g, 2, a, oa, 3, ha);
    /* the same taps with a slip and an ignored tap between them, and one tap moved by 1 ms */
    b[0] = a[0], ob[0] = oa[0];
    b[1] = a[1], b[1].v[cf] = 7, ob[1] = game_outcome_index(g, "mistake");
    b[2] = a[1], ob[2] = oa[1];
    b[3] = a[1], ob[3] = game_outcome_index(g, "already_found");
    b[4] = a[2], b[4].v[tf] += 1, ob[4] = oa[2];
    twin_shape_hash(g, 2, b, ob, 5, hb);
    CHECK(memcmp(ha, hb, sizeof ha) == 0);
    b[4].v[cf] = 9; /* another cell found: another shape */
    twin_shape_hash(g, 2, b, ob, 5, hb);
    CHECK(memcmp(ha, hb, sizeof ha) != 0);
    twin_shape_hash(g, 2, a, oa, 2, hb); /* a prefix: another shape */
    CHECK(memcmp(ha, hb, sizeof ha) != 0);
}

/* Pearson's r of the gaps, x1000: what the rule used before ranks. */
static int pearson(const int64_t *ta, const int64_t *tb, int n)
{
    double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
    for (int i = 0; i < n; i++) {
        ma += (double)(ta[i] - (i ? ta[i - 1] : 0)) / n;
        mb += (double)(tb[i] - (i ? tb[i - 1] : 0)) / n;
    }
    for (int i = 0; i < n; i++) {
        double a = (double)(ta[i] - (i ? ta[i - 1] : 0)) - ma, b = (double)(tb[i] - (i ? tb[i - 1] : 0)) - mb;
        sab += a * b;
        saa += a * a;
        sbb += b * b;
    }
    return (int)lround(sab / sqrt(saa * sbb) * 1000);
}

static void correlation(void)
{
    enum { N = 24 };
    int64_t a[N], b[N], c[N], clamped[N], flat[N];
    int64_t ta = 0, tc = 0, tk = 0;
    unsigned x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 1103515245u + 12345u;
        int64_t gap = 400 + (int64_t)((x >> 16) % 300);
        if (i % 6 == 5)
            gap += 1500 + (int64_t)((x >> 8) % 2500); /* a person's long pauses */
        ta += gap;
        a[i] = ta;
        b[i] = ta * 7 / 10; /* re-timed x0.7 */
        tk += gap > 700 ? 700 : gap; /* the long pauses clamped */
        clamped[i] = tk;
        x = x * 1103515245u + 12345u;
        tc += 400 + (int64_t)((x >> 16) % 300);
        c[i] = tc;
        flat[i] = 500 * (i + 1);
    }
    int r = 0;
    CHECK(twin_gap_correlation(a, b, N, &r));
    CHECK(r >= 995);
    CHECK(twin_gap_correlation(a, a, N, &r) && r == 1000);
    CHECK(twin_gap_correlation(a, c, N, &r));
    CHECK(r < 950);
    /* clamping the pauses: Pearson's r falls well under the default 950,
     * the ranks keep the order of everything else */
    CHECK(pearson(a, clamped, N) < 900);
    CHECK(twin_gap_correlation(a, clamped, N, &r));
    CHECK(r >= 950);
    CHECK(!twin_gap_correlation(a, flat, N, &r)); /* flat gaps say nothing */
    CHECK(!twin_gap_correlation(a, b, TWIN_MIN_GAPS - 1, &r));
}

static void packed_times(void)
{
    const game *g = schulte();
    enum { N = 12 };
    game_move m[N];
    int o[N];
    taps(g, m, o, N);
    o[4] = game_outcome_index(g, "mistake"); /* a slip: not packed */
    uint8_t p[N * TWIN_TIME_BYTES], q[N * TWIN_TIME_BYTES];
    size_t len = twin_times_pack(g, 2, m, o, N, p);
    CHECK(len == (N - 1) * TWIN_TIME_BYTES);
    CHECK(p[0] == 0 && p[1] == 0 && p[2] == 0x01 && p[3] == 0x2c); /* 300 ms, big-endian */
    int tf = twin_time_field(g, 2);
    unsigned x = 7;
    for (int i = 0; i < N; i++) { /* uneven gaps, then the same re-timed */
        x = x * 1103515245u + 12345u;
        m[i].v[tf] = (i ? m[i - 1].v[tf] : 0) + 300 + (int32_t)((x >> 16) % 400);
    }
    len = twin_times_pack(g, 2, m, o, N, p);
    for (int i = 0; i < N; i++)
        m[i].v[tf] = m[i].v[tf] * 3 / 2;
    CHECK(twin_times_pack(g, 2, m, o, N, q) == len);
    int r = 0;
    CHECK(twin_times_correlation(p, len, q, len, &r) && r >= 990);
    CHECK(!twin_times_correlation(p, len, q, len - TWIN_TIME_BYTES, &r)); /* lengths differ */
    CHECK(!twin_times_correlation(p, len - 1, q, len - 1, &r));          /* not whole moves */
    CHECK(!twin_times_correlation(p, 4, q, 4, &r));                      /* too few gaps */
}

int main(void)
{
    RUN(shape_counts_progress_only);
    RUN(correlation);
    RUN(packed_times);
    CHECK_DONE();
}
