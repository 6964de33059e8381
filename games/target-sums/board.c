/* board: targets and countSolutions (see board.h). */
#include "board.h"

#include <string.h>

void ts_set_targets(ts_grid *g, const uint8_t *kept)
{
    memset(g->row_target, 0, sizeof g->row_target);
    memset(g->col_target, 0, sizeof g->col_target);
    for (int i = 0; i < g->n; i++) {
        if (!kept[i])
            continue;
        g->row_target[i / g->cols] += g->value[i];
        g->col_target[i % g->cols] += g->value[i];
    }
}

/* kept[r] is the sum of the kept cells decided so far in row r, left[r]
 * the sum of the cells not decided yet; likewise for columns. A line is
 * still possible while kept <= target <= kept + left. */
typedef struct search_ctx {
    const ts_grid *g;
    int node_cap;
    int32_t row_kept[TS_MAX_SIDE], row_left[TS_MAX_SIDE];
    int32_t col_kept[TS_MAX_SIDE], col_left[TS_MAX_SIDE];
    int nodes;
    int solutions;
    bool capped;
} search_ctx;

static bool line_ok(int32_t kept, int32_t left, int32_t target)
{
    return kept <= target && target <= kept + left;
}

/* Decide cell k, trying "kept" before "removed". */
static void search(search_ctx *ctx, int k)
{
    const ts_grid *g = ctx->g;
    if (ctx->nodes >= ctx->node_cap) {
        ctx->capped = true;
        return;
    }
    ctx->nodes++;
    if (k == g->n) {
        ctx->solutions++;
        return;
    }
    int r = k / g->cols, c = k % g->cols;
    int32_t v = g->value[k];
    ctx->row_left[r] -= v;
    ctx->col_left[c] -= v;
    for (int keep = 1; keep >= 0; keep--) {
        int32_t add = keep ? v : 0;
        if (!line_ok(ctx->row_kept[r] + add, ctx->row_left[r], g->row_target[r]) ||
            !line_ok(ctx->col_kept[c] + add, ctx->col_left[c], g->col_target[c]))
            continue;
        ctx->row_kept[r] += add;
        ctx->col_kept[c] += add;
        search(ctx, k + 1);
        ctx->row_kept[r] -= add;
        ctx->col_kept[c] -= add;
        if (ctx->solutions >= 2 || ctx->capped)
            break;
    }
    ctx->row_left[r] += v;
    ctx->col_left[c] += v;
}

ts_count ts_count_solutions(const ts_grid *g, int node_cap)
{
    search_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.g = g;
    ctx.node_cap = node_cap;
    for (int i = 0; i < g->n; i++) {
        ctx.row_left[i / g->cols] += g->value[i];
        ctx.col_left[i % g->cols] += g->value[i];
    }
    search(&ctx, 0);
    ts_count out = { ctx.solutions, ctx.nodes, ctx.capped };
    return out;
}
