/* Unit tests for server/trust/twins.c: the shape ignores only the time field,
 * the gap correlation of a re-timed copy is 1000 and of independent paces
 * low, too few or flat gaps say nothing, stored moves give their times. */
#include <stdlib.h>
#include <string.h>

#include "../../core/game.h"
#include "../../server/trust/twins.h"
#include "../check.h"

static const game *schulte(void)
{
    return game_find("schulte");
}

static void shape_ignores_only_time(void)
{
    const game *g = schulte();
    CHECK(g != NULL);
    int tf = twin_time_field(g, 2);
    CHECK(tf >= 0);
    int cf = tf == 0 ? 1 : 0; /* the other field: the cell */
    game_move a[3], b[3];
    memset(a, 0, sizeof a);
    for (int i = 0; i < 3; i++) {
        a[i].v[cf] = i + 1;
        a[i].v[tf] = 300 * (i + 1);
    }
    memcpy(b, a, sizeof a);
    b[1].v[tf] += 1; /* one tap moved by 1 ms */
    uint8_t ha[TWIN_SHAPE_BYTES], hb[TWIN_SHAPE_BYTES];
    twin_shape_hash(g, 2, a, 3, ha);
    twin_shape_hash(g, 2, b, 3, hb);
    CHECK(memcmp(ha, hb, sizeof ha) == 0);
    b[2].v[cf] = 9; /* another cell: another shape */
    twin_shape_hash(g, 2, b, 3, hb);
    CHECK(memcmp(ha, hb, sizeof ha) != 0);
    twin_shape_hash(g, 2, a, 2, hb); /* a prefix: another shape */
    CHECK(memcmp(ha, hb, sizeof ha) != 0);
}

static void correlation(void)
{
    int64_t a[16], b[16], c[16], flat[16];
    int64_t ta = 0, tc = 0;
    unsigned x = 12345;
    for (int i = 0; i < 16; i++) {
        x = x * 1103515245u + 12345u;
        ta += 400 + (int64_t)((x >> 16) % 300);
        a[i] = ta;
        b[i] = ta * 7 / 10; /* re-timed x0.7 */
        x = x * 1103515245u + 12345u;
        tc += 400 + (int64_t)((x >> 16) % 300);
        c[i] = tc;
        flat[i] = 500 * (i + 1);
    }
    int r = 0;
    CHECK(twin_gap_correlation(a, b, 16, &r));
    CHECK(r >= 995);
    CHECK(twin_gap_correlation(a, a, 16, &r) && r == 1000);
    CHECK(twin_gap_correlation(a, c, 16, &r));
    CHECK(r < 950);
    CHECK(!twin_gap_correlation(a, flat, 16, &r)); /* flat gaps say nothing */
    CHECK(!twin_gap_correlation(a, b, TWIN_MIN_GAPS - 1, &r));
}

static void times_from_stored_moves(void)
{
    int64_t t[4];
    size_t n = 0;
    CHECK(twin_times_from_json("[{\"t\":5,\"cell\":1},{\"t\":9,\"cell\":2}]", t, 4, &n));
    CHECK(n == 2 && t[0] == 5 && t[1] == 9);
    CHECK(!twin_times_from_json("[{\"cell\":1}]", t, 4, &n));
    CHECK(!twin_times_from_json("[{\"t\":1},{\"t\":2},{\"t\":3},{\"t\":4},{\"t\":5}]", t, 4, &n));
    CHECK(!twin_times_from_json("{}", t, 4, &n));
    CHECK(!twin_times_from_json("not json", t, 4, &n));
    CHECK(!twin_times_from_json(NULL, t, 4, &n));
    CHECK(twin_times_from_json("[]", t, 4, &n) && n == 0);
}

int main(void)
{
    RUN(shape_ignores_only_time);
    RUN(correlation);
    RUN(times_from_stored_moves);
    CHECK_DONE();
}
