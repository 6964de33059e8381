#include "fairplay.h"

#include <string.h>

#define DAY_MS 86400000LL

int64_t fairplay_allowed_ms(const config *c, int64_t elapsed_ms)
{
    if (elapsed_ms < 0)
        elapsed_ms = 0;
    return elapsed_ms + elapsed_ms * c->plausibility_slack_permille / 1000 + c->plausibility_slack_ms;
}

static int64_t run_length(const game_result *res, int64_t elapsed_ms)
{
    return res->duration_ms >= 0 ? res->duration_ms : elapsed_ms;
}

run_outcome fairplay_outcome(const config *c, const game_result *res, int64_t elapsed_ms)
{
    if (res->completed)
        return RUN_COMPLETED;
    return run_length(res, elapsed_ms) < c->forfeit_short_ms ? RUN_FORFEIT : RUN_INCOMPLETE;
}

json_t *fairplay_signals(const config *c, const game_result *res, int64_t elapsed_ms)
{
    int64_t idle = elapsed_ms - run_length(res, elapsed_ms);
    return json_pack("{s:I,s:o,s:I,s:b}", "elapsed_ms", (json_int_t)elapsed_ms, "claimed_ms",
                     res->duration_ms >= 0 ? json_integer(res->duration_ms) : json_null(), "idle_ms",
                     (json_int_t)idle, "rehearsal", idle > c->rehearsal_bound_ms);
}

int64_t fairplay_moves_public_at(const config *c, const play *p)
{
    if (!play_is_daily(p))
        return 0;
    return ((int64_t)p->day + 1) * DAY_MS + (int64_t)c->daily_grace_s * 1000;
}

static int64_t isqrt64(int64_t v)
{
    if (v <= 0)
        return 0;
    int64_t r = 0, bit = (int64_t)1 << 62;
    while (bit > v)
        bit >>= 2;
    while (bit) {
        if (v >= r + bit) {
            v -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return r;
}

static int time_field(const game *g, int version)
{
    for (int f = 0; f < g->n_fields; f++)
        if (strcmp(g->fields[f].name, "t") == 0 && game_field_in(&g->fields[f], version))
            return f;
    return -1;
}

json_t *fairplay_features(const config *c, const game *g, const game_level *level, int version,
                          const game_move *moves, size_t n, size_t applied, const game_result *res,
                          int64_t elapsed_ms, int64_t *suspicion)
{
    int64_t points = 0;
    json_t *f = json_object();
    int min = g->min_moves ? g->min_moves(level) : -1;
    int64_t claimed = res->duration_ms;
    if (min >= 0) {
        int64_t wasted = (int64_t)applied > min ? (int64_t)applied - min : 0;
        json_object_set_new(f, "min_moves", json_integer(min));
        json_object_set_new(f, "wasted", json_integer(wasted));
        if (res->completed && wasted == 0 && min >= 3)
            points += FAIRPLAY_W_PERFECT;
        if (claimed >= 0 && min > 0)
            json_object_set_new(f, "claimed_per_min_move_ms", json_integer(claimed / min));
    }
    int32_t finish = g->finish_floor_ms ? g->finish_floor_ms(level) : 0;
    if (finish > 0 && claimed >= 0 && res->completed) {
        int64_t ratio = claimed * 1000 / finish;
        json_object_set_new(f, "finish_floor_ms", json_integer(finish));
        json_object_set_new(f, "floor_ratio_permille", json_integer(ratio));
        if (ratio < 1500)
            points += FAIRPLAY_W_NEAR_FINISH * (1500 - (ratio < 1000 ? 1000 : ratio)) / 500;
    }
    int tf = time_field(g, version);
    if (g->move_slack_ms && n > 0) {
        int64_t paced = 0, at_floor = 0, sum = 0, sq = 0;
        for (size_t i = 0; i < n; i++) {
            int32_t slack = g->move_slack_ms(level, i ? &moves[i - 1] : NULL, &moves[i]);
            if (slack < 0)
                continue;
            int64_t s64 = slack > 60000 ? 60000 : slack; /* a pause is not pace */
            paced++;
            at_floor += slack < FAIRPLAY_FLOOR_TOLERANCE_MS;
            sum += s64;
            sq += s64 * s64;
        }
        if (paced > 0) {
            int64_t share = at_floor * 1000 / paced;
            int64_t sd = isqrt64((sq - sum * sum / paced) / paced);
            json_object_set_new(f, "paced_moves", json_integer(paced));
            json_object_set_new(f, "at_floor_permille", json_integer(share));
            json_object_set_new(f, "slack_sd_ms", json_integer(sd));
            points += FAIRPLAY_W_AT_FLOOR * share / 1000;
            if (paced >= 5 && sd < 100)
                points += FAIRPLAY_W_STEADY * (100 - sd) / 100;
        }
    }
    if (tf >= 0 && n > 0) {
        int64_t round = 0;
        for (size_t i = 0; i < n; i++)
            round += moves[i].v[tf] % 10 == 0;
        int64_t share = round * 1000 / (int64_t)n;
        json_object_set_new(f, "round_t_permille", json_integer(share));
        points += FAIRPLAY_W_ROUND_T * share / 1000;
    }
    int64_t idle = elapsed_ms - run_length(res, elapsed_ms);
    if (idle > c->rehearsal_bound_ms)
        points += FAIRPLAY_W_REHEARSAL;
    *suspicion = points;
    return f;
}
