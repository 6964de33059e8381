/*
 * solver: the uniform-cost search and the independent plan replay.
 * Closed-on-pop (Dijkstra): a key is expanded once, at its cheapest cost;
 * duplicates may wait in the queue and are skipped when popped.
 */
#include "solver.h"

#include <string.h>

#include "../../core/fnv.h"

#define HASH_BITS 17
#define HASH_SIZE (1u << HASH_BITS)

typedef struct node {
    dl_walker wk;
    uint8_t left[DL_SKILLS];
    uint8_t used;
    int8_t skill; /* assigned on the edge into this node, -1 none */
    uint16_t carved_n;
    int32_t t;
    int32_t parent;
    uint32_t carved_off;
} node;

typedef struct workspace {
    node nodes[DL_NODE_MAX];
    int32_t heap[DL_NODE_MAX];
    int32_t table[HASH_SIZE]; /* closed keys: node index + 1, 0 empty */
    uint16_t pool[DL_CARVE_MAX];
    uint8_t terrain[DL_MAX_CELLS];
} workspace;

static _Thread_local workspace ws;

static bool before(const node *a, int32_t ia, const node *b, int32_t ib)
{
    if (a->used != b->used)
        return a->used < b->used;
    if (a->t != b->t)
        return a->t < b->t;
    return ia < ib;
}

static void heap_push(int *len, int32_t i)
{
    int k = (*len)++;
    while (k > 0) {
        int p = (k - 1) / 2;
        if (!before(&ws.nodes[i], i, &ws.nodes[ws.heap[p]], ws.heap[p]))
            break;
        ws.heap[k] = ws.heap[p];
        k = p;
    }
    ws.heap[k] = i;
}

static int32_t heap_pop(int *len)
{
    int32_t top = ws.heap[0];
    int32_t last = ws.heap[--(*len)];
    int k = 0;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= *len)
            break;
        int32_t a = ws.heap[c], b = c + 1 < *len ? ws.heap[c + 1] : -1;
        if (b >= 0 && before(&ws.nodes[b], b, &ws.nodes[a], a))
            c++;
        if (!before(&ws.nodes[ws.heap[c]], ws.heap[c], &ws.nodes[last], last))
            break;
        ws.heap[k] = ws.heap[c];
        k = c;
    }
    if (*len > 0)
        ws.heap[k] = last;
    return top;
}

static uint32_t key_hash(const node *n)
{
    uint8_t b[6 + DL_SKILLS] = { n->wk.x, n->wk.y, (uint8_t)n->wk.dir, n->wk.act, n->wk.traits,
                                 n->wk.fall };
    memcpy(b + 6, n->left, DL_SKILLS);
    uint32_t h = fnv1a32_update(FNV1A32_OFFSET, b, sizeof b);
    return fnv1a32_update(h, &ws.pool[n->carved_off], n->carved_n * sizeof(uint16_t));
}

static bool key_equal(const node *a, const node *b)
{
    return memcmp(&a->wk, &b->wk, sizeof a->wk) == 0 && memcmp(a->left, b->left, DL_SKILLS) == 0 &&
           a->carved_n == b->carved_n &&
           memcmp(&ws.pool[a->carved_off], &ws.pool[b->carved_off],
                  a->carved_n * sizeof(uint16_t)) == 0;
}

/* Returns the slot holding an equal closed key, or the empty slot where it
 * would go. */
static uint32_t find_slot(const node *n, bool *found)
{
    uint32_t s = key_hash(n) & (HASH_SIZE - 1);
    while (ws.table[s]) {
        if (key_equal(&ws.nodes[ws.table[s] - 1], n)) {
            *found = true;
            return s;
        }
        s = (s + 1) & (HASH_SIZE - 1);
    }
    *found = false;
    return s;
}

static bool earth_at(const dl_map *m, int x, int y)
{
    return x >= 0 && y >= 0 && x < m->w && y < m->h && m->cell[y * m->w + x] == DL_EARTH;
}

/* Whether the option (-1: no skill) is worth trying from this node. Skills
 * that would change nothing are pruned (spec.md, "Solver"). */
static bool option_ok(const dl_map *m, const node *n, int skill)
{
    if (skill < 0)
        return true;
    if (skill == DL_BLOCKER || n->left[skill] == 0)
        return false;
    if (dl_check_assign(&n->wk, skill) != DL_ASSIGN_OK)
        return false;
    if (skill == DL_BASHER)
        return earth_at(m, n->wk.x + n->wk.dir, n->wk.y);
    if (skill == DL_DIGGER)
        return earth_at(m, n->wk.x, n->wk.y + 1);
    return true;
}

typedef struct search {
    dl_map map; /* the working terrain: base plus the expanded node's carvings */
    int32_t cap;
    int node_cap;
    uint32_t carve_cap;
    int n_nodes;
    int heap_len;
    uint32_t pool_len;
    bool overflow;
} search;

/* Append a child; returns false when out of room. */
static bool push_child(search *s, const node *child)
{
    bool found;
    find_slot(child, &found);
    if (found)
        return true; /* already expanded */
    if (s->n_nodes >= s->node_cap) {
        s->overflow = true;
        return false;
    }
    ws.nodes[s->n_nodes] = *child;
    heap_push(&s->heap_len, s->n_nodes);
    s->n_nodes++;
    return true;
}

static void expand(search *s, int32_t i)
{
    const node *n = &ws.nodes[i];
    const uint16_t *cv = &ws.pool[n->carved_off];
    for (int k = 0; k < n->carved_n; k++)
        s->map.cell[cv[k]] = DL_AIR;
    for (int opt = -1; opt < DL_SKILLS && !s->overflow; opt++) {
        if (!option_ok(&s->map, n, opt))
            continue;
        node c = *n;
        c.parent = i;
        c.skill = (int8_t)opt;
        c.t = n->t + 1;
        if (opt >= 0) {
            dl_assign(&c.wk, opt);
            c.left[opt]--;
            c.used++;
        }
        int carved = dl_step(&s->map, &c.wk, NULL, 0, -1);
        if (carved >= 0) {
            s->map.cell[carved] = ws.terrain[carved]; /* undo for the next option */
            if (s->pool_len + n->carved_n + 1u > s->carve_cap) {
                s->overflow = true;
                break;
            }
            /* copy the parent's sorted list with the new cell in place */
            uint32_t off = s->pool_len;
            int k = 0, o = 0;
            while (k < n->carved_n && cv[k] < carved)
                ws.pool[off + o++] = cv[k++];
            ws.pool[off + o++] = (uint16_t)carved;
            while (k < n->carved_n)
                ws.pool[off + o++] = cv[k++];
            c.carved_off = off;
            c.carved_n = (uint16_t)o;
            s->pool_len += (uint32_t)o;
        }
        if (c.wk.act == DL_DEAD || c.t > s->cap)
            continue;
        if (c.wk.act == DL_CLIMB || c.wk.act == DL_WALK || c.wk.act == DL_FALL ||
            c.wk.act == DL_BASH || c.wk.act == DL_DIG || c.wk.act == DL_SAVED)
            push_child(s, &c);
    }
    for (int k = 0; k < n->carved_n; k++)
        s->map.cell[cv[k]] = ws.terrain[cv[k]];
}

static void record(const node *goal, dl_solution *out)
{
    int n = 0;
    for (const node *p = goal; p->parent >= 0; p = &ws.nodes[p->parent])
        if (p->skill >= 0)
            n++;
    out->n_moves = n < DL_PLAN_MAX ? n : DL_PLAN_MAX;
    out->route_ticks = goal->t;
    int k = n;
    for (const node *p = goal; p->parent >= 0; p = &ws.nodes[p->parent]) {
        if (p->skill < 0)
            continue;
        k--;
        if (k < DL_PLAN_MAX) {
            const node *from = &ws.nodes[p->parent];
            out->moves[k].tick = from->t;
            out->moves[k].skill = p->skill;
            out->moves[k].at = from->wk;
        }
    }
}

void dl_solve(const dl_map *m, const int skills[DL_SKILLS], int32_t cap, const dl_limits *lim,
              bool count_alternatives, dl_solution *out)
{
    search s;
    memset(out, 0, sizeof *out);
    memset(ws.table, 0, sizeof ws.table);
    memset(&s, 0, sizeof s);
    s.map = *m;
    memcpy(ws.terrain, m->cell, sizeof ws.terrain);
    s.cap = cap;
    s.node_cap = lim->node_cap < DL_NODE_MAX ? lim->node_cap : DL_NODE_MAX;
    s.carve_cap = (uint32_t)(lim->carve_cap < DL_CARVE_MAX ? lim->carve_cap : DL_CARVE_MAX);

    /* The root: the pioneer after tick 0 (spawned, one step taken). */
    node root;
    memset(&root, 0, sizeof root);
    root.wk.x = (uint8_t)m->ex;
    root.wk.y = (uint8_t)m->ey;
    root.wk.dir = 1;
    root.wk.act = DL_FALL;
    dl_step(&s.map, &root.wk, NULL, 0, -1);
    root.t = 1;
    root.parent = -1;
    root.skill = -1;
    for (int k = 0; k < DL_SKILLS; k++)
        root.left[k] = (uint8_t)(skills[k] < 0 ? 0 : skills[k] > 255 ? 255 : skills[k]);
    if (root.wk.act == DL_DEAD)
        return;
    push_child(&s, &root);

    int best = -1, extra = 0;
    while (s.heap_len > 0 && !s.overflow) {
        int32_t i = heap_pop(&s.heap_len);
        const node *n = &ws.nodes[i];
        if (best >= 0 && (n->used > best || extra >= lim->alt_window))
            break;
        bool found;
        uint32_t slot = find_slot(n, &found);
        if (found)
            continue;
        ws.table[slot] = i + 1;
        out->expansions++;
        if (best >= 0)
            extra++;
        if (n->wk.act == DL_SAVED) {
            if (best < 0) {
                best = n->used;
                out->solved = true;
                record(n, out);
                if (!count_alternatives) {
                    out->alternatives = 1;
                    return;
                }
            }
            out->alternatives++;
            continue;
        }
        expand(&s, i);
    }
    if (!out->solved)
        out->capped = s.overflow;
}

bool dl_replay_solution(const dl_map *m, const dl_solution *s)
{
    dl_world w;
    memset(&w, 0, sizeof w);
    w.map = *m;
    w.crowd = 1;
    w.interval = 1;
    int next = 0;
    while (w.tick < s->route_ticks) {
        while (next < s->n_moves && s->moves[next].tick == w.tick) {
            dl_walker *k = &w.walker[0];
            if (w.spawned < 1 || dl_check_assign(k, s->moves[next].skill) != DL_ASSIGN_OK)
                return false;
            dl_assign(k, s->moves[next].skill);
            next++;
        }
        dl_tick(&w);
    }
    return next == s->n_moves && w.spawned == 1 && w.walker[0].act == DL_SAVED;
}
