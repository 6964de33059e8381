/* Unit tests for core/: rng, shuffle, fnv, civil dates, daily schedule. */
#include "../check.h"

#include "../../core/civil.h"
#include "../../core/daily.h"
#include "../../core/fnv.h"
#include "../../core/rng.h"

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

int main(void)
{
    RUN(mulberry32_seed0);
    RUN(shuffle_seed42);
    RUN(fnv_known);
    RUN(civil_round_trip);
    RUN(civil_parse_strict);
    RUN(civil_unix);
    RUN(daily_is_pure_and_scheduled);
    CHECK_DONE();
}
