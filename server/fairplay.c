#include "fairplay.h"

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
