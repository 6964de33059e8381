/*
 * sections: the vector sections two games add of their own (Contraption's
 * trig, traces and daily; Driftlings' traces), for the wasm32 build's
 * vector test only. They reach into the games' internals the way
 * tests/unit/test_vectors.c does, so they are not part of the public ABI
 * (include/replay.h) and not in the native library.
 *
 * Plain int32 arrays in and out (the JavaScript side lays them out; the
 * layouts are described at each function); the caller owns every buffer.
 */
#include <stdint.h>
#include <string.h>

#include "../games/contraption/contraption.h"
#include "../games/contraption/physics.h"
#include "../games/driftlings/driftlings.h"
#include "../games/driftlings/world.h"

#include "wasm.h"

#define EXPORT WASM_EXPORT

EXPORT void rp_x_ct_trig(int32_t mrad, int32_t *out)
{
    ct_trig(mrad, &out[0], &out[1]);
}

EXPORT uint32_t rp_x_ct_daily_seed(int32_t year, int32_t month, int32_t day)
{
    return contraption_daily_seed((civil_date){ year, month, day });
}

/* in: ball x y vx, goal x0 y0 x1 y1, n_walls, walls (4 each), n_moves,
 * moves (part x y angle each), all in field units as the vectors give them.
 * ticks: 4 x CT_TICK_CAP values (x y vx vy after each tick); run: reached,
 * arrival_tick, ticks, end. Returns the ticks simulated, or -1 when the
 * field or the placements do not fit. */
EXPORT int32_t rp_x_ct_trace(const int32_t *in, int32_t *ticks, int32_t *run_out)
{
    static ct_tick tr[CT_TICK_CAP];
    ct_field f;
    memset(&f, 0, sizeof f);
    f.ball_x = in[0] * CT_SUB;
    f.ball_y = in[1] * CT_SUB;
    f.ball_vx = in[2];
    f.goal = (ct_box){ in[3] * CT_SUB, in[4] * CT_SUB, in[5] * CT_SUB, in[6] * CT_SUB };
    int n_walls = in[7];
    if (n_walls < 0 || n_walls + 3 > CT_MAX_WALLS)
        return -1;
    f.walls[f.n_walls++] = (ct_box){ -8 * CT_SUB, -8 * CT_SUB, 0, 148 * CT_SUB };
    f.walls[f.n_walls++] = (ct_box){ 100 * CT_SUB, -8 * CT_SUB, 108 * CT_SUB, 148 * CT_SUB };
    f.walls[f.n_walls++] = (ct_box){ -8 * CT_SUB, -8 * CT_SUB, 108 * CT_SUB, 0 };
    const int32_t *w = in + 8;
    for (int i = 0; i < n_walls; i++, w += 4)
        f.walls[f.n_walls++] = (ct_box){ w[0] * CT_SUB, w[1] * CT_SUB, w[2] * CT_SUB, w[3] * CT_SUB };
    int n = *w++;
    if (n < 0 || n > CT_MAX_PARTS)
        return -1;
    ct_part parts[CT_MAX_PARTS];
    for (int i = 0; i < n; i++, w += 4)
        ct_part_init(&parts[i], w[0], w[1], w[2], w[3]);
    ct_run run;
    ct_simulate(&f, parts, n, tr, CT_TICK_CAP, &run);
    for (int t = 0; t < run.ticks && t < CT_TICK_CAP; t++) {
        ticks[4 * t] = tr[t].x;
        ticks[4 * t + 1] = tr[t].y;
        ticks[4 * t + 2] = tr[t].vx;
        ticks[4 * t + 3] = tr[t].vy;
    }
    run_out[0] = run.reached;
    run_out[1] = run.arrival_tick;
    run_out[2] = run.ticks;
    run_out[3] = run.end;
    return run.ticks;
}

/* The walkers' record at a checkpoint: spawned, then 6 values each. */
#define DL_RECORD (1 + 6 * DL_MAX_CROWD)

static void record_walkers(const dl_world *w, int32_t *rec)
{
    rec[0] = w->spawned;
    for (int i = 0; i < w->spawned; i++) {
        const dl_walker *k = &w->walker[i];
        int32_t *r = rec + 1 + 6 * i;
        r[0] = k->x;
        r[1] = k->y;
        r[2] = k->dir;
        r[3] = k->act;
        r[4] = k->traits;
        r[5] = k->fall;
    }
}

static game_move trace_move(const int32_t *m)
{
    game_move out;
    memset(&out, 0, sizeof out);
    out.v[0] = m[0];
    out.v[1] = m[1];
    out.v[2] = m[2];
    return out;
}

/* A Driftlings trace as tests/unit/test_vectors.c plays it.
 * rows: n_rows NUL-terminated strings one after another.
 * in: n_rows, crowd, quota, interval, cap, inventory (5), version (0: 1),
 *     n_moves, n_ticks, moves (tick walker skill each), checkpoint ticks.
 * out: [0] outcomes given, [1] the rejected move or -1, [2] checkpoints
 *      recorded, [3] completed, [4] score, [5] duration_ms, [6..11] extras,
 *      [12] width, [13] height, [16...] outcome indices (n_moves), then
 *      DL_RECORD values per checkpoint.
 * terrain: width x height characters of the settled world (E and X drawn).
 * Returns 0, or -1 when the rows do not make a level. */
EXPORT int32_t rp_x_dl_trace(const char *rows, const int32_t *in, int32_t *out, char *terrain)
{
    static dl_level lv;
    static dl_state st;
    const game *g = &driftlings_game;
    game_state *h = game_state_handle(&st);
    int n_rows = in[0];
    if (n_rows < 1 || n_rows > DL_MAX_H)
        return -1;
    const char *r[DL_MAX_H];
    for (int i = 0; i < n_rows; i++) {
        r[i] = rows;
        rows += strlen(rows) + 1;
    }
    int inv[DL_SKILLS];
    for (int s = 0; s < DL_SKILLS; s++)
        inv[s] = in[5 + s];
    if (!driftlings_level_from_ascii(&lv, r, n_rows, in[1], in[2], in[3], in[4], inv))
        return -1;
    if (in[10])
        lv.version = in[10];
    int nm = in[11], nt = in[12];
    const int32_t *moves = in + 13, *cps = in + 13 + 3 * nm;
    int32_t *outcomes = out + 16, *recs = out + 16 + nm;
    out[1] = -1;
    g->start(h, game_level_handle(&lv));
    int mi = 0, ti = 0;
    for (;;) {
        int64_t next_move = mi < nm ? moves[3 * mi] : INT64_MAX;
        int64_t next_cp = ti < nt ? cps[ti] : INT64_MAX;
        if (next_move == INT64_MAX && next_cp == INT64_MAX)
            break;
        if (next_cp <= next_move) {
            while (!st.ended && st.world.tick < next_cp) {
                dl_tick(&st.world);
                if (dl_settled(&st.world) || st.world.tick >= st.level->cap)
                    st.ended = true;
            }
            while (st.world.tick < next_cp)
                dl_tick(&st.world);
            record_walkers(&st.world, recs + DL_RECORD * ti);
            ti++;
            continue;
        }
        game_move m = trace_move(moves + 3 * mi);
        int o = g->apply(h, &m);
        outcomes[mi++] = o;
        if (g->outcomes[o].kind == OUTCOME_REJECTED) {
            out[1] = mi - 1;
            break;
        }
    }
    out[0] = mi;
    out[2] = ti;
    if (out[1] >= 0)
        return 0;
    /* The result and the settled terrain from the apply()-only path, on a
     * fresh state. */
    g->start(h, game_level_handle(&lv));
    for (int i = 0; i < nm; i++) {
        game_move m = trace_move(moves + 3 * i);
        g->apply(h, &m);
    }
    game_result res;
    g->result(h, &res);
    out[3] = res.completed;
    out[4] = (int32_t)res.score;
    out[5] = (int32_t)res.duration_ms;
    for (int i = 0; i < g->n_extras && i < 6; i++)
        out[6 + i] = (int32_t)res.extra[i];
    dl_state end = st;
    const dl_map *map = &end.level->map;
    while (end.world.tick < end.level->cap && !dl_settled(&end.world))
        dl_tick(&end.world);
    out[12] = map->w;
    out[13] = map->h;
    for (int y = 0; y < map->h; y++)
        for (int x = 0; x < map->w; x++) {
            char ch = (char)end.world.map.cell[y * map->w + x];
            if (x == map->ex && y == map->ey)
                ch = 'E';
            if (x == map->xx && y == map->xy)
                ch = 'X';
            terrain[y * map->w + x] = ch;
        }
    return 0;
}
