/* Unit tests for core/: rng, shuffle, fnv, civil dates, daily schedule,
 * the checked generate entry point and the timed prologue. */
#include "../check.h"

#include <stdlib.h>

#include "../../core/civil.h"
#include "../../core/daily.h"
#include "../../core/fnv.h"
#include "../../core/game.h"
#include "../../core/rng.h"
#include "../../core/timed.h"

static void mulberry32_seed0(void)
{
    uint32_t s = 0;
    CHECK_EQ(rng_next(&s), 1144304738u);
    CHECK_EQ(rng_next(&s), 1416247u);
    CHECK_EQ(rng_next(&s), 958946056u);
}

static void shuffle_seed42(void)
{
    int32_t v[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    const int32_t want[9] = { 7, 8, 2, 5, 4, 6, 9, 3, 1 };
    uint32_t s = 42;
    rng_shuffle_i32(&s, v, 9);
    CHECK(memcmp(v, want, sizeof v) == 0);
}

static void fnv_known(void)
{
    CHECK_EQ(fnv1a32_str(""), 0x811c9dc5u);
    CHECK_EQ(fnv1a32_str("a"), 0xe40c292cu);
    CHECK_EQ(fnv1a32_str("foobar"), 0xbf9cf968u);
}

static void civil_round_trip(void)
{
    civil_date epoch = { 1970, 1, 1 };
    CHECK_EQ(civil_to_days(epoch), 0);
    civil_date d = { 2026, 7, 28 };
    CHECK_EQ(civil_to_days(d), 20662);
    civil_date leap = { 2000, 2, 29 };
    CHECK_EQ(civil_to_days(leap), 11016);
    for (int64_t day = -800000; day < 3000000; day += 97) {
        civil_date c = civil_from_days(day);
        CHECK_EQ(civil_to_days(c), day);
    }
}

static void civil_parse_strict(void)
{
    civil_date d;
    CHECK(civil_parse("2026-12-02", &d) && d.year == 2026 && d.month == 12 && d.day == 2);
    CHECK(civil_parse("2024-02-29", &d));
    CHECK(!civil_parse("2026-02-29", &d));
    CHECK(!civil_parse("2026-2-3", &d));
    CHECK(!civil_parse("2026-13-01", &d));
    CHECK(!civil_parse("2026-12-00", &d));
    CHECK(!civil_parse("2026-12-02x", &d));
    CHECK(!civil_parse("1969-12-31", &d));
    CHECK(!civil_parse("", &d));
    CHECK(!civil_parse(NULL, &d));
    char buf[11];
    civil_format((civil_date){ 2026, 7, 8 }, buf);
    CHECK(strcmp(buf, "2026-07-08") == 0);
}

static void civil_unix(void)
{
    civil_date d = civil_from_unix(1785196800); /* 2026-07-28T00:00:00Z */
    CHECK(d.year == 2026 && d.month == 7 && d.day == 28);
    d = civil_from_unix(1785196799);
    CHECK(d.day == 27);
}

static void daily_is_pure_and_scheduled(void)
{
    civil_date d = { 2026, 12, 2 };
    daily_pick a, b;
    CHECK(daily_for_date(d, &a));
    CHECK(daily_for_date(d, &b));
    CHECK(a.game == b.game && a.level == b.level && a.seed == b.seed);
    uint32_t s = (uint32_t)civil_to_days(d);
    CHECK_EQ(daily_catalogue_seed(civil_to_days(d)), rng_next(&s));
    CHECK(a.level >= 1 && a.level <= a.game->levels);
    civil_date before = { 2025, 12, 31 };
    CHECK(!daily_for_date(before, &a));
    /* Every day for years ahead names a game in the catalogue. */
    for (int64_t day = civil_to_days(daily_first_date()); day < 20454 + 3650; day++)
        CHECK(daily_for_date(civil_from_days(day), &a) && a.game != NULL);
}

/* The shell, not the game, refuses a version or level the game does not
 * declare, and leaves the buffer untouched when it does. */
static void generate_checks_ranges(void)
{
    for (size_t i = 0; i < game_catalog_count; i++) {
        const game *g = game_catalog[i];
        unsigned char *before = malloc(g->level_size);
        game_level *lv = malloc(g->level_size);
        CHECK(before && lv);
        if (!before || !lv) {
            free(before);
            free(lv);
            continue;
        }
        memset(before, 0xa5, g->level_size);
        memset(lv, 0xa5, g->level_size);
        CHECK_EQ(game_generate(g, lv, g->min_version - 1, 1, 7), GEN_BAD_VERSION);
        CHECK_EQ(game_generate(g, lv, g->version + 1, 1, 7), GEN_BAD_VERSION);
        CHECK_EQ(game_generate(g, lv, g->version, 0, 7), GEN_BAD_LEVEL);
        CHECK_EQ(game_generate(g, lv, g->version, g->levels + 1, 7), GEN_BAD_LEVEL);
        CHECK_EQ(game_generate(g, lv, g->version, -1, 7), GEN_BAD_LEVEL);
        /* Both wrong: the version is named first. */
        CHECK_EQ(game_generate(g, lv, g->version + 1, 0, 7), GEN_BAD_VERSION);
        CHECK(memcmp(before, lv, g->level_size) == 0);
        CHECK_EQ(game_generate(g, lv, g->min_version, 1, 7), GEN_OK);
        CHECK_EQ(game_generate(g, lv, g->version, g->levels, 7), GEN_OK);
        CHECK(memcmp(before, lv, g->level_size) != 0);
        free(before);
        free(lv);
    }
}

static const timed_outcomes codes = { .after_end = 10, .out_of_range = 11, .time_backwards = 12 };

/* Rules 1-4 in their order: each check wins over the ones after it. */
static void timed_prologue_order(void)
{
    timed_clock c = { 0 };
    CHECK_EQ(timed_prologue(&c, &codes, 0, true, 1000), TIMED_GO_ON);
    CHECK_EQ(timed_prologue(&c, &codes, 500, false, 1000), 11); /* before the time check */
    CHECK_EQ(c.prev_t, 0);
    CHECK_EQ(timed_prologue(&c, &codes, 500, true, 1000), TIMED_GO_ON);
    CHECK_EQ(c.prev_t, 500);
    CHECK_EQ(timed_prologue(&c, &codes, 499, true, 1000), 12);
    CHECK_EQ(timed_prologue(&c, &codes, 499, false, 1000), 11);
    CHECK_EQ(c.prev_t, 500); /* a rejected t is not recorded */
    CHECK_EQ(timed_prologue(&c, &codes, 500, true, 1000), TIMED_GO_ON); /* equal t is fine */
    CHECK_EQ(timed_prologue(&c, &codes, 1000, true, 1000), TIMED_GO_ON); /* the last counted ms */
    CHECK(!c.ended);
    CHECK_EQ(timed_prologue(&c, &codes, 1001, true, 1000), 10);
    CHECK(c.ended);
    CHECK_EQ(c.prev_t, 1001);
    /* Once ended, everything is after_end, even a bad index or an earlier t. */
    CHECK_EQ(timed_prologue(&c, &codes, 5, false, 1000), 10);
    CHECK_EQ(timed_prologue(&c, &codes, 2000, true, 1000), 10);
    CHECK_EQ(c.prev_t, 1001);
}

/* The minimum gap counts from the previous counted move (0 at the start). */
static void timed_count_gap(void)
{
    timed_clock c = { 0 };
    CHECK(!timed_count(&c, 99, 100));
    CHECK_EQ(c.counted_t, 0);
    CHECK(timed_count(&c, 100, 100));
    CHECK_EQ(c.counted_t, 100);
    CHECK(!timed_count(&c, 199, 100));
    CHECK(timed_count(&c, 200, 100));
    CHECK(timed_count(&c, 250, 50));
    CHECK_EQ(c.counted_t, 250);
    CHECK(timed_count(&c, INT32_MAX, 100));
}

/* Version 2 floors: the gap depends on whether the move taps the target of
 * the previous counted move; a refused move changes nothing. */
static void timed_count_at_by_target(void)
{
    static const timed_gaps gaps = { 100, 150 };
    timed_clock c = { 0 };
    CHECK(!timed_count_at(&c, 149, 0, &gaps)); /* the first move: another target */
    CHECK(!c.counted_any);
    CHECK(timed_count_at(&c, 150, 0, &gaps));
    CHECK(!timed_count_at(&c, 249, 0, &gaps)); /* the same target */
    CHECK(timed_count_at(&c, 250, 0, &gaps));
    CHECK(!timed_count_at(&c, 399, 7, &gaps)); /* another target */
    CHECK_EQ(c.counted_target, 0);
    CHECK_EQ(c.counted_t, 250);
    CHECK(timed_count_at(&c, 400, 7, &gaps));
    CHECK_EQ(c.counted_target, 7);
    CHECK(timed_count_at(&c, 500, 7, &gaps));
    CHECK(timed_count_at(&c, INT32_MAX, 3, &gaps));
}

/* Every game declares its minimum work; the fields a version's moves carry. */
static void min_moves_and_fields(void)
{
    for (size_t i = 0; i < game_catalog_count; i++) {
        const game *g = game_catalog[i];
        CHECK(g->min_moves != NULL);
        game_level *lv = malloc(g->level_size);
        for (int v = g->min_version; v <= g->version; v++) {
            for (int l = 1; l <= g->levels; l += 7) {
                CHECK_EQ(game_generate(g, lv, v, l, 11), GEN_OK);
                int m = g->min_moves(lv);
                CHECK(m == -1 || (m >= 1 && m <= g->max_moves));
            }
            int n = game_field_count(g, v);
            CHECK(n >= 1 && n <= g->n_fields);
        }
        CHECK_EQ(game_field_count(g, g->version), g->n_fields); /* the newest carries them all */
        free(lv);
    }
    const game *s = game_find("schulte"), *c = game_find("contraption");
    game_level *lv = malloc(s->level_size);
    CHECK_EQ(game_generate(s, lv, 2, 15, 0), GEN_OK);
    CHECK_EQ(s->min_moves(lv), 49); /* N = 7 x 7 */
    free(lv);
    CHECK_EQ(game_field_count(c, 1), 4); /* part, x, y, angle */
    CHECK_EQ(game_field_count(c, 2), 5); /* and t */
}

int main(void)
{
    RUN(mulberry32_seed0);
    RUN(shuffle_seed42);
    RUN(fnv_known);
    RUN(civil_round_trip);
    RUN(civil_parse_strict);
    RUN(civil_unix);
    RUN(daily_is_pure_and_scheduled);
    RUN(generate_checks_ranges);
    RUN(timed_prologue_order);
    RUN(timed_count_gap);
    RUN(timed_count_at_by_target);
    RUN(min_moves_and_fields);
    CHECK_DONE();
}
