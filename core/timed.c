#include "timed.h"

int timed_prologue(timed_clock *c, const timed_outcomes *codes, int32_t t, bool in_range,
                   int32_t last_ms)
{
    if (c->ended)
        return codes->after_end;
    if (!in_range)
        return codes->out_of_range;
    if (t < c->prev_t)
        return codes->time_backwards;
    c->prev_t = t;
    if (t > last_ms) {
        c->ended = true;
        return codes->after_end;
    }
    return TIMED_GO_ON;
}

bool timed_count(timed_clock *c, int32_t t, int32_t min_gap_ms)
{
    if (t - c->counted_t < min_gap_ms)
        return false;
    c->counted_t = t;
    return true;
}

void timed_put_floors(const game_writer *w, const timed_gaps *gaps, int32_t finish_floor_ms)
{
    w->put_int(w->ctx, "gap_same_ms", gaps->same_ms);
    w->put_int(w->ctx, "gap_other_ms", gaps->other_ms);
    w->put_int(w->ctx, "finish_floor_ms", finish_floor_ms);
}

bool timed_count_at(timed_clock *c, int32_t t, int32_t target, const timed_gaps *gaps)
{
    bool same = c->counted_any && target == c->counted_target;
    if (!timed_count(c, t, same ? gaps->same_ms : gaps->other_ms))
        return false;
    c->counted_target = target;
    c->counted_any = true;
    return true;
}

int32_t timed_slack(int version, int32_t v1_gap_ms, const timed_gaps *gaps, const game_move *prev,
                    const game_move *move)
{
    int32_t t = move->v[0], prev_t = prev ? prev->v[0] : 0;
    if (t < prev_t)
        return -1;
    int32_t floor = version == 1 ? v1_gap_ms
                    : prev && prev->v[1] == move->v[1] ? gaps->same_ms
                                                       : gaps->other_ms;
    int64_t slack = (int64_t)t - prev_t - floor;
    return slack < 0 ? 0 : slack > INT32_MAX ? INT32_MAX : (int32_t)slack;
}
