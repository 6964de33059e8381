#include "daily.h"

#include "rng.h"

#define ERA_MAX_GAMES 8

/* One era of the daily schedule. Never edit a past era: append a new one
 * whose first day is in the future. */
typedef struct daily_era {
    civil_date from;
    int n_games;
    const char *games[ERA_MAX_GAMES]; /* rotation order */
    int level_lo, level_hi;           /* inclusive */
} daily_era;

static const daily_era eras[] = {
    /* 1: launch catalogue. Levels 3..12 keep the daily neither trivial nor
     * long enough to put casual players off. */
    { { 2026, 1, 1 }, 2, { "schulte", "pipes" }, 3, 12 },
    /* 2: Target Sums, Opposites and Contraption join, from a future day. */
    { { 2026, 12, 7 }, 5, { "schulte", "pipes", "target-sums", "opposites", "contraption" }, 3, 12 },
};

static const int n_eras = (int)(sizeof eras / sizeof eras[0]);

uint32_t daily_catalogue_seed(int64_t day_number)
{
    uint32_t state = (uint32_t)day_number;
    return rng_next(&state);
}

uint32_t daily_seed_for(const game *g, civil_date d)
{
    if (g->daily_seed)
        return g->daily_seed(d);
    return daily_catalogue_seed(civil_to_days(d));
}

civil_date daily_first_date(void)
{
    return eras[0].from;
}

bool daily_for_date(civil_date d, daily_pick *out)
{
    if (!civil_valid(d))
        return false;
    int64_t day = civil_to_days(d);
    int e = -1;
    for (int i = 0; i < n_eras; i++)
        if (day >= civil_to_days(eras[i].from))
            e = i;
    if (e < 0)
        return false;
    const daily_era *era = &eras[e];
    int64_t since = day - civil_to_days(era->from);
    const game *g = game_find(era->games[since % era->n_games]);
    if (!g)
        return false;
    /* The level comes from the draw after the seed in the day's stream. */
    uint32_t state = (uint32_t)day;
    (void)rng_next(&state);
    uint32_t span = (uint32_t)(era->level_hi - era->level_lo + 1);
    out->game = g;
    out->level = era->level_lo + (int)rng_below(&state, span);
    out->seed = daily_seed_for(g, d);
    out->schedule_version = e + 1;
    return true;
}
