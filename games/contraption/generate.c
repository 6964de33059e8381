/*
 * generate: draw a candidate field from mulberry32, then judge it with the
 * same simulate() that judges players: preSolved (the bare ball must miss)
 * and plausiblySolvable (one ramp swept over a grid must hit). The draw
 * order is the contract (spec.md, "Generation").
 */
#include <string.h>

#include "../../core/rng.h"
#include "level.h"

const int32_t ct_sweep_angles[4] = { 450, -450, 800, -800 };

static ct_box unit_box(int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
    return (ct_box){ x0 * CT_SUB, y0 * CT_SUB, x1 * CT_SUB, y1 * CT_SUB };
}

/* One candidate: every draw in spec order, walls that crowd the goal dropped. */
static void draw_candidate(ct_level *lv, uint32_t *rng)
{
    const ct_row *row = &lv->row;
    ct_field *f = &lv->field;
    memset(f, 0, sizeof *f);
    lv->start_x = 10 + (int32_t)rng_below(rng, 81);
    lv->start_y = 4 + (int32_t)rng_below(rng, 9);
    lv->start_vx = (int32_t)rng_below(rng, 161) - 80;
    lv->goal_x = 4 + (int32_t)rng_below(rng, (uint32_t)(93 - row->goal_w));
    lv->goal_y = row->goal_y_min + (int32_t)rng_below(rng, (uint32_t)(129 - row->goal_y_min));
    int n = row->walls_min + (int32_t)rng_below(rng, (uint32_t)(row->walls_max - row->walls_min + 1));

    f->ball_x = lv->start_x * CT_SUB;
    f->ball_y = lv->start_y * CT_SUB;
    f->ball_vx = lv->start_vx;
    f->ball_vy = 0;
    int32_t gx = lv->goal_x, gy = lv->goal_y, gw = row->goal_w;
    f->goal = unit_box(gx, gy, gx + gw, gy + 6);
    f->walls[f->n_walls++] = unit_box(-8, -8, 0, CT_FIELD_H + 8);
    f->walls[f->n_walls++] = unit_box(CT_FIELD_W, -8, CT_FIELD_W + 8, CT_FIELD_H + 8);
    f->walls[f->n_walls++] = unit_box(-8, -8, CT_FIELD_W + 8, 0);
    f->walls[f->n_walls++] = unit_box(gx - 2, gy + 6, gx + gw + 2, gy + 9);
    ct_box reserved = unit_box(gx - 2, gy - 6, gx + gw + 2, gy + 9);
    lv->dropped_walls = 0;
    for (int i = 0; i < n; i++) {
        int32_t kind = (int32_t)rng_below(rng, 3);
        int32_t len = 10 + (int32_t)rng_below(rng, 21);
        int32_t w = kind < 2 ? len : 3, h = kind < 2 ? 3 : len;
        int32_t x = (int32_t)rng_below(rng, (uint32_t)(101 - w));
        int32_t y = 18 + (int32_t)rng_below(rng, (uint32_t)(108 - h));
        ct_box b = unit_box(x, y, x + w, y + h);
        if (ct_box_overlap(&b, &reserved)) {
            lv->dropped_walls++;
            continue;
        }
        f->walls[f->n_walls++] = b;
    }
    lv->n_level_walls = f->n_walls - 3;
}

int ct_check_placement(const ct_level *lv, const int *left, const ct_part *placed, int n_placed,
                       int32_t kind, int32_t x, int32_t y, int32_t angle, ct_part *out)
{
    if (kind < 0 || kind >= CT_KINDS || left[kind] <= 0)
        return CT_NO_PART_LEFT;
    if (angle < -CT_ANGLE_MAX || angle > CT_ANGLE_MAX)
        return CT_BAD_ANGLE;
    if (x < 0 || x > CT_FIELD_W || y < 0 || y > CT_FIELD_H)
        return CT_OUT_OF_FIELD;
    ct_part p;
    ct_part_init(&p, kind, x, y, angle);
    if (p.foot.x0 < 0 || p.foot.y0 < 0 || p.foot.x1 > CT_FIELD_W * CT_SUB ||
        p.foot.y1 > CT_FIELD_H * CT_SUB)
        return CT_OUT_OF_FIELD;
    for (int i = 3; i < lv->field.n_walls; i++)
        if (ct_box_overlap(&p.foot, &lv->field.walls[i]))
            return CT_OVERLAPS_WALL;
    for (int i = 0; i < n_placed; i++)
        if (ct_box_overlap(&p.foot, &placed[i].foot))
            return CT_OVERLAPS_PART;
    *out = p;
    return CT_PLACED;
}

/* plausiblySolvable: the first legal one-ramp placement that reaches the goal. */
static bool sweep(ct_level *lv)
{
    for (int32_t x = CT_SWEEP_X0; x <= CT_SWEEP_X1; x += CT_SWEEP_DX)
        for (int32_t y = CT_SWEEP_Y0; y <= CT_SWEEP_Y1; y += CT_SWEEP_DY)
            for (int a = 0; a < 4; a++) {
                ct_part p;
                if (ct_check_placement(lv, lv->inventory, NULL, 0, CT_RAMP, x, y,
                                       ct_sweep_angles[a], &p) != CT_PLACED)
                    continue;
                ct_run run;
                ct_simulate(&lv->field, &p, 1, NULL, 0, &run);
                lv->sims++;
                if (run.reached) {
                    lv->has_plan = true;
                    lv->plan = p;
                    lv->plan_run = run;
                    return true;
                }
            }
    return false;
}

void ct_generate(ct_level *lv, const ct_row *row, const ct_limits *lim)
{
    uint32_t rng = lv->seed;
    ct_level fallback;
    memset(&fallback, 0, sizeof fallback);
    bool have_fallback = false;
    lv->row = *row;
    lv->inventory[CT_RAMP] = row->ramps;
    lv->inventory[CT_FAN] = row->fans;
    for (int attempt = 1; attempt <= lim->attempt_cap; attempt++) {
        lv->attempts = attempt;
        lv->issued = attempt;
        draw_candidate(lv, &rng);
        ct_run bare;
        ct_simulate(&lv->field, NULL, 0, NULL, 0, &bare);
        lv->sims++;
        if (bare.reached) {
            lv->pre_solved++;
        } else if (sweep(lv)) {
            return;
        } else {
            lv->no_sweep_solution++;
            if (!have_fallback) {
                fallback = *lv;
                have_fallback = true;
            }
        }
        if ((attempt >= lim->fallback_after || attempt == lim->attempt_cap) && have_fallback) {
            /* The fallback's field with this run's counters. */
            fallback.attempts = lv->attempts;
            fallback.pre_solved = lv->pre_solved;
            fallback.no_sweep_solution = lv->no_sweep_solution;
            fallback.sims = lv->sims;
            fallback.fallback = true;
            *lv = fallback;
            return;
        }
    }
    lv->trivial = true;
    lv->fallback = true;
}
