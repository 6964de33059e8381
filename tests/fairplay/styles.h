/*
 * styles: who plays a corpus run, and how its taps are timed. Human-like
 * timing models (a millisecond clock or a 60 Hz frame clock; log-normal
 * search times that grow with the grid, fast repeat taps, hesitations,
 * slips and double taps) and six bot styles, each written as a cheater
 * would (docs/THREAT-MODEL.md, issues 25 and 37): at the floors, at the
 * floors with padding the game ignores, a jittered human-like pace, a copy
 * of a person's run with noise, a person's run re-timed x0.7 on another
 * account, a perfect run at a slow steady pace, and a careful bot (issue
 * 37): every gap drawn from the human-like model itself, slips, pauses and
 * double taps included, with one profile kept run after run.
 *
 * A person is not the same player twice: their form differs from run to
 * run (attention, practice, fatigue, the time of day), by more than the
 * sampling noise of one run's gaps. profile_for_run draws that form: the
 * run's search time is the account's base times exp(form_sd x N(0,1)),
 * form_sd drawn per account in 0.08..0.25 (session-to-session variability
 * of a person's mean response time is commonly reported at 10-20%; the
 * low end is kept in). The careful bot has no form: a script draws every
 * gap from one fixed distribution (form_sd 0).
 *
 * A style times a plan: the level's solution as targets in order
 * (tests/bench/solutions.h); the floors are read from the game's own
 * move_slack_ms hook, never written here. Test code: floats are fine.
 */
#ifndef REPLAYD_FAIRPLAY_STYLES_H
#define REPLAYD_FAIRPLAY_STYLES_H

#include <stdbool.h>
#include <string.h>

#include "../../core/game.h"
#include "draw.h"

typedef enum style {
    STYLE_HUMAN_MS,     /* a person, millisecond clock */
    STYLE_HUMAN_FRAMES, /* a person, 60 Hz frame clock (t in 16.67 ms steps) */
    STYLE_FLOOR,        /* a bot at the floors */
    STYLE_PADDED,       /* a floor bot adding moves the game ignores (after the end) */
    STYLE_JITTER,       /* a bot at a human-like pace, evenly jittered, the odd slip */
    STYLE_COPY_NOISE,   /* a person's run copied, each t moved a few ms */
    STYLE_TWIN,         /* a person's run re-timed x0.7 on a linked account */
    STYLE_SLOW_PERFECT, /* a solver at a slow steady pace, never a slip */
    STYLE_CAREFUL,      /* a bot drawing every gap from the human-like model, one profile */
    STYLE_COUNT
} style;

static const char *const style_names[STYLE_COUNT] = {
    "human-ms", "human-60hz", "floor", "padded", "jittered", "copy+noise", "twin-x0.7", "slow-perfect",
    "careful",
};

static inline bool style_human(style s)
{
    return s == STYLE_HUMAN_MS || s == STYLE_HUMAN_FRAMES;
}

/* One account's habits, drawn once per account. */
typedef struct profile {
    style st;
    double base_ms;   /* median search-and-aim time for a new target */
    double slip_p;    /* a mistake or a wasted turn before a planned move */
    double pause_p;   /* a hesitation before a move */
    double double_p;  /* a double tap after a found number (Schulte: ignored) */
    double early_p;   /* floor bots: submit as soon as the server allows */
    double form_sd;   /* a person's run-to-run form: log-sd of base_ms per run */
} profile;

static inline profile profile_draw(style st, draw *d)
{
    profile p = { .st = st };
    switch (st) {
    case STYLE_HUMAN_MS:
    case STYLE_HUMAN_FRAMES:
        p.base_ms = exp(draw_between(d, log(260.0), log(900.0))); /* experts to casuals */
        p.slip_p = draw_between(d, 0.0, 0.06);
        p.pause_p = draw_between(d, 0.02, 0.08);
        p.double_p = draw_between(d, 0.0, 0.04);
        p.form_sd = draw_between(d, 0.08, 0.25);
        break;
    case STYLE_CAREFUL: /* a person's habits, drawn the same way, kept fixed */
        p.base_ms = exp(draw_between(d, log(260.0), log(500.0))); /* set to rank: the faster half */
        p.slip_p = draw_between(d, 0.0, 0.06);
        p.pause_p = draw_between(d, 0.02, 0.08);
        p.double_p = draw_between(d, 0.0, 0.04);
        break;
    case STYLE_JITTER:
        p.base_ms = draw_between(d, 240.0, 380.0); /* set to beat most people */
        p.slip_p = 0.03;
        break;
    case STYLE_SLOW_PERFECT:
        p.base_ms = draw_between(d, 650.0, 1000.0);
        break;
    case STYLE_FLOOR:
    case STYLE_PADDED:
        p.early_p = 0.6;
        break;
    default:
        break;
    }
    return p;
}

/* The profile of one run: a person's form of the day (form_sd 0: the
 * account's own). */
static inline profile profile_for_run(const profile *p, draw *d)
{
    profile r = *p;
    if (p->form_sd > 0)
        r.base_ms = p->base_ms * exp(p->form_sd * draw_normal(d));
    return r;
}

/* The floor of a move at target after prev (NULL: the first), from the
 * game's hook: how much of a long gap it does not count as slack. */
static inline int32_t floor_of(const game *g, const game_level *lv, const game_move *prev,
                               int32_t target)
{
    const int32_t far = 100000;
    int32_t t0 = prev ? prev->v[0] : 0;
    game_move m = { { t0 + far, target } };
    int32_t slack = g->move_slack_ms(lv, prev, &m);
    return slack < 0 ? 0 : far - slack;
}

/* Time beyond the floor a style takes for a move (same: the target of the
 * previous counted move again; first: the run's first move). */
static inline double extra_ms(const profile *p, draw *d, bool same, bool first, double grid)
{
    switch (p->st) {
    case STYLE_HUMAN_MS:
    case STYLE_HUMAN_FRAMES:
    case STYLE_CAREFUL: {
        double e = same ? 40.0 + draw_lognormal(d, 90.0, 0.35)
                 : first ? draw_lognormal(d, 900.0, 0.4) /* seeing the level first */
                         : draw_lognormal(d, p->base_ms * grid, 0.5);
        if (draw_chance(d, p->pause_p))
            e += draw_between(d, 600.0, 3000.0);
        return e;
    }
    case STYLE_JITTER:
        return same ? 60.0 + draw_between(d, 0.0, 80.0) : p->base_ms * grid * draw_between(d, 0.5, 1.5);
    case STYLE_SLOW_PERFECT:
        return same ? 120.0 + draw_between(d, 0.0, 20.0) : p->base_ms + draw_between(d, 0.0, 50.0);
    default: /* floor bots */
        return draw_between(d, 0.0, 8.0);
    }
}

#endif
