/* board: topology, the solved test and countSolutions (see board.h). */
#include "board.h"

#include <string.h>

void pipes_topo_init(pipes_topo *t, int w, int h, bool wrap)
{
    static const int dr[4] = { -1, 0, 1, 0 };
    static const int dc[4] = { 0, 1, 0, -1 };
    memset(t, 0, sizeof *t);
    t->w = w;
    t->h = h;
    t->n = w * h;
    t->wrap = wrap;
    t->source = (h / 2) * w + w / 2;
    for (int r = 0; r < h; r++) {
        for (int c = 0; c < w; c++) {
            for (int d = 0; d < 4; d++) {
                int nr = r + dr[d], nc = c + dc[d];
                if (wrap) {
                    nr = (nr + h) % h;
                    nc = (nc + w) % w;
                } else if (nr < 0 || nr >= h || nc < 0 || nc >= w) {
                    t->nb[r * w + c][d] = -1;
                    continue;
                }
                t->nb[r * w + c][d] = (int8_t)(nr * w + nc);
            }
        }
    }
}

static int opposite(int d)
{
    return (d + 2) & 3;
}

/* Flood from the source through openings that are met from the other side. */
static bool all_linked(const pipes_topo *t, const uint8_t *tiles)
{
    bool seen[PIPES_MAX_CELLS] = { false };
    int queue[PIPES_MAX_CELLS];
    int head = 0, tail = 0, count = 1;
    queue[tail++] = t->source;
    seen[t->source] = true;
    while (head < tail) {
        int c = queue[head++];
        for (int d = 0; d < 4; d++) {
            int n = t->nb[c][d];
            if (!(tiles[c] & (1 << d)) || n < 0 || seen[n] || !(tiles[n] & (1 << opposite(d))))
                continue;
            seen[n] = true;
            queue[tail++] = n;
            count++;
        }
    }
    return count == t->n;
}

bool pipes_solved(const pipes_topo *t, const uint8_t *tiles)
{
    for (int c = 0; c < t->n; c++) {
        for (int d = 0; d < 4; d++) {
            if (!(tiles[c] & (1 << d)))
                continue;
            int n = t->nb[c][d];
            if (n < 0 || !(tiles[n] & (1 << opposite(d))))
                return false;
        }
    }
    return all_linked(t, tiles);
}

/* A domain is a 16-bit set: bit m set when mask m is still possible. */
typedef uint16_t domain;

typedef struct search_ctx {
    const pipes_topo *topo;
    int node_cap;
    int nodes;
    int solutions;
    bool capped;
} search_ctx;

/* HAS[d]: the set of all masks that open toward d. With it a domain's
 * "some mask opens toward d" and "every mask does" are one AND each. */
static const domain HAS[4] = { 0xAAAA, 0xCCCC, 0xF0F0, 0xFF00 };

static uint8_t domain_or(domain d)
{
    uint8_t acc = 0;
    for (int k = 0; k < 4; k++)
        if (d & HAS[k])
            acc |= (uint8_t)(1 << k);
    return acc;
}

static uint8_t domain_and(domain d)
{
    uint8_t acc = 0;
    for (int k = 0; k < 4; k++)
        if ((d & (domain)~HAS[k]) == 0)
            acc |= (uint8_t)(1 << k);
    return acc;
}

/* Drop masks that an opening toward a closed neighbour (or the border)
 * rules out, or that lack an opening a neighbour forces; repeat to the
 * fixpoint. Returns false when a domain empties. */
static bool propagate(const pipes_topo *t, domain *dom)
{
    uint8_t any[PIPES_MAX_CELLS], all[PIPES_MAX_CELLS];
    for (int c = 0; c < t->n; c++) {
        any[c] = domain_or(dom[c]);
        all[c] = domain_and(dom[c]);
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (int c = 0; c < t->n; c++) {
            domain allowed = 0xFFFF;
            for (int d = 0; d < 4; d++) {
                int n = t->nb[c][d];
                int back = 1 << opposite(d);
                if (n < 0 || !(any[n] & back))
                    allowed &= (domain)~HAS[d]; /* no opening toward d */
                else if (all[n] & back)
                    allowed &= HAS[d]; /* the neighbour opens toward c */
            }
            domain keep = dom[c] & allowed;
            if (keep == 0)
                return false;
            if (keep != dom[c]) {
                dom[c] = keep;
                any[c] = domain_or(keep);
                all[c] = domain_and(keep);
                changed = true;
            }
        }
    }
    return true;
}

static int popcount16(domain d)
{
    return __builtin_popcount(d);
}

static void search(search_ctx *ctx, const domain *parent)
{
    const pipes_topo *t = ctx->topo;
    if (ctx->nodes >= ctx->node_cap) {
        ctx->capped = true;
        return;
    }
    ctx->nodes++;
    domain dom[PIPES_MAX_CELLS];
    memcpy(dom, parent, sizeof(domain) * (size_t)t->n);
    if (!propagate(t, dom))
        return;
    int best = -1, best_count = 17;
    for (int c = 0; c < t->n; c++) {
        int k = popcount16(dom[c]);
        if (k > 1 && k < best_count) {
            best = c;
            best_count = k;
        }
    }
    if (best < 0) {
        uint8_t tiles[PIPES_MAX_CELLS];
        for (int c = 0; c < t->n; c++)
            tiles[c] = domain_or(dom[c]);
        if (all_linked(t, tiles))
            ctx->solutions++;
        return;
    }
    domain options = dom[best];
    for (int m = 0; m < 16; m++) {
        if (!(options & (1u << m)))
            continue;
        dom[best] = (domain)(1u << m);
        search(ctx, dom);
        if (ctx->solutions >= 2 || ctx->capped)
            return;
    }
}

pipes_count pipes_count_solutions(const pipes_topo *t, const uint8_t *tiles, int node_cap)
{
    domain dom[PIPES_MAX_CELLS];
    for (int c = 0; c < t->n; c++) {
        uint8_t m = tiles[c];
        dom[c] = 0;
        for (int r = 0; r < 4; r++) {
            dom[c] |= (domain)(1u << m);
            m = pipes_rotate(m);
        }
    }
    search_ctx ctx = { t, node_cap, 0, 0, false };
    search(&ctx, dom);
    pipes_count out = { ctx.solutions, ctx.nodes, ctx.capped };
    return out;
}
