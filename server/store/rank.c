/*
 * rank: the order-statistic skiplist behind every leaderboard (see rank.h).
 * The list follows Redis's zskiplist: level[i].span counts the level-0 steps
 * a link jumps over, so ranks fall out of the search. Loading a board from
 * SQL in board order appends at the tail in O(1), which keeps a lazy load of
 * a million entries short; any other change drops that tail cache.
 */
#include "rank.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RANK_MAXLEVEL 32
#define ARENA_BLOCK (64 * 1024) /* bytes a height's arena takes from malloc at a time */

typedef struct rank_node rank_node;
struct rank_node {
    rank_entry e;
    uint8_t nlevel;
    struct {
        rank_node *forward;
        int64_t span;
    } level[]; /* nlevel of them */
};

/* Nodes of one height: carved from blocks, freed ones kept for reuse. */
typedef struct arena_block {
    struct arena_block *next;
    max_align_t align_; /* the nodes start here, aligned */
} arena_block;

typedef struct arena {
    arena_block *blocks;
    char *bump, *end;
    rank_node *free_list; /* linked through level[0].forward */
} arena;

struct rank_board {
    rank_node *head, *tail;
    int64_t length;
    int level;
    uint64_t rng;
    /* the rightmost node of each level and its rank, valid while only
     * appends happened since it was computed */
    bool tail_valid;
    rank_node *tail_upd[RANK_MAXLEVEL];
    int64_t tail_rank[RANK_MAXLEVEL];
    arena arenas[RANK_MAXLEVEL + 1]; /* by node height */
    size_t arena_bytes;
    /* player id -> node: open addressing, linear probing, backward-shift
     * deletion; an empty slot is NULL */
    rank_node **slots;
    size_t nslots, nplayers;
};

bool rank_before(int64_t a_score, int64_t a_seq, int64_t b_score, int64_t b_seq)
{
    return a_score > b_score || (a_score == b_score && a_seq < b_seq);
}

static size_t node_bytes(int nlevel)
{
    size_t n = sizeof(rank_node) + (size_t)nlevel * sizeof(((rank_node *)0)->level[0]);
    return (n + 7) & ~(size_t)7;
}

static rank_node *node_new(rank_board *b, int nlevel)
{
    arena *a = &b->arenas[nlevel];
    rank_node *n = a->free_list;
    size_t size = node_bytes(nlevel);
    if (n) {
        a->free_list = n->level[0].forward;
    } else {
        if (!a->bump || (size_t)(a->end - a->bump) < size) {
            size_t block = ARENA_BLOCK > size * 4 ? ARENA_BLOCK : size * 4;
            arena_block *blk = malloc(offsetof(arena_block, align_) + block);
            if (!blk)
                return NULL;
            blk->next = a->blocks;
            a->blocks = blk;
            a->bump = (char *)&blk->align_;
            a->end = a->bump + block;
            b->arena_bytes += offsetof(arena_block, align_) + block;
        }
        n = (rank_node *)(void *)a->bump;
        a->bump += size;
    }
    memset(n, 0, size);
    n->nlevel = (uint8_t)nlevel;
    return n;
}

static void node_free(rank_board *b, rank_node *n)
{
    arena *a = &b->arenas[n->nlevel];
    n->level[0].forward = a->free_list;
    a->free_list = n;
}

rank_board *rank_new(void)
{
    rank_board *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->head = calloc(1, node_bytes(RANK_MAXLEVEL));
    b->nslots = 64;
    b->slots = calloc(b->nslots, sizeof *b->slots);
    if (!b->head || !b->slots) {
        rank_free(b);
        return NULL;
    }
    b->head->nlevel = RANK_MAXLEVEL;
    b->level = 1;
    b->rng = 0x9e3779b97f4a7c15u;
    return b;
}

void rank_free(rank_board *b)
{
    if (!b)
        return;
    for (int i = 0; i <= RANK_MAXLEVEL; i++) {
        arena_block *blk = b->arenas[i].blocks;
        while (blk) {
            arena_block *next = blk->next;
            free(blk);
            blk = next;
        }
    }
    free(b->head);
    free(b->slots);
    free(b);
}

int64_t rank_size(const rank_board *b)
{
    return b->length;
}

size_t rank_bytes(const rank_board *b)
{
    return sizeof *b + node_bytes(RANK_MAXLEVEL) + b->arena_bytes + b->nslots * sizeof *b->slots;
}

/* xorshift64: a board's own generator, so nothing touches libc rand. */
static int random_level(rank_board *b)
{
    uint64_t x = b->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b->rng = x;
    int level = 1;
    while ((x & 3) == 0 && level < RANK_MAXLEVEL) { /* p = 1/4, as in Redis */
        level++;
        x >>= 2;
    }
    return level;
}

static size_t home_of(const rank_board *b, int64_t player_id)
{
    uint64_t h = (uint64_t)player_id * 0x9e3779b97f4a7c15u;
    return (size_t)(h >> 20) & (b->nslots - 1);
}

/* The slot holding the player's node, or the empty slot where it would go. */
static size_t slot_of(const rank_board *b, int64_t player_id)
{
    size_t i = home_of(b, player_id);
    while (b->slots[i] && b->slots[i]->e.player_id != player_id)
        i = (i + 1) & (b->nslots - 1);
    return i;
}

static int index_grow(rank_board *b)
{
    rank_node **old = b->slots;
    size_t oldn = b->nslots;
    rank_node **fresh = calloc(oldn * 2, sizeof *fresh);
    if (!fresh)
        return -1;
    b->slots = fresh;
    b->nslots = oldn * 2;
    for (size_t i = 0; i < oldn; i++)
        if (old[i])
            b->slots[slot_of(b, old[i]->e.player_id)] = old[i];
    free(old);
    return 0;
}

/* Empties slot i and shifts later members of its probe run back, so no
 * tombstones are needed (Knuth's algorithm R). */
static void index_delete(rank_board *b, size_t i)
{
    size_t mask = b->nslots - 1, j = i;
    b->slots[i] = NULL;
    for (;;) {
        j = (j + 1) & mask;
        if (!b->slots[j])
            return;
        size_t home = home_of(b, b->slots[j]->e.player_id);
        /* move j back to i unless its home lies cyclically in (i, j] */
        bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            b->slots[i] = b->slots[j];
            b->slots[j] = NULL;
            i = j;
        }
    }
}

static void compute_tails(rank_board *b)
{
    rank_node *x = b->head;
    int64_t r = 0;
    for (int i = b->level - 1; i >= 0; i--) {
        while (x->level[i].forward) {
            r += x->level[i].span;
            x = x->level[i].forward;
        }
        b->tail_upd[i] = x;
        b->tail_rank[i] = r;
    }
    b->tail_valid = true;
}

/* Links x in after update[i] at each of its levels (Redis's zslInsert). */
static void link_node(rank_board *b, rank_node *x, rank_node **update, int64_t *rank)
{
    int level = x->nlevel;
    if (level > b->level) {
        for (int i = b->level; i < level; i++) {
            rank[i] = 0;
            update[i] = b->head;
            update[i]->level[i].span = b->length;
        }
        b->level = level;
    }
    for (int i = 0; i < level; i++) {
        x->level[i].forward = update[i]->level[i].forward;
        update[i]->level[i].forward = x;
        x->level[i].span = update[i]->level[i].span - (rank[0] - rank[i]);
        update[i]->level[i].span = (rank[0] - rank[i]) + 1;
    }
    for (int i = level; i < b->level; i++)
        update[i]->level[i].span++;
    if (!x->level[0].forward)
        b->tail = x;
    b->length++;
}

static void insert_node(rank_board *b, rank_node *x)
{
    rank_node *update[RANK_MAXLEVEL];
    int64_t rank[RANK_MAXLEVEL];
    bool at_tail = !b->tail || rank_before(b->tail->e.score, b->tail->e.seq, x->e.score, x->e.seq);
    if (at_tail) {
        if (!b->tail_valid)
            compute_tails(b);
        memcpy(update, b->tail_upd, sizeof update);
        memcpy(rank, b->tail_rank, sizeof rank);
        link_node(b, x, update, rank);
        /* x is now the rightmost node of its levels; the rest are unchanged */
        for (int i = 0; i < x->nlevel; i++) {
            b->tail_upd[i] = x;
            b->tail_rank[i] = b->length;
        }
        for (int i = x->nlevel; i < b->level; i++) {
            b->tail_upd[i] = update[i];
            b->tail_rank[i] = rank[i];
        }
        return;
    }
    rank_node *y = b->head;
    for (int i = b->level - 1; i >= 0; i--) {
        rank[i] = i == b->level - 1 ? 0 : rank[i + 1];
        while (y->level[i].forward &&
               rank_before(y->level[i].forward->e.score, y->level[i].forward->e.seq, x->e.score,
                           x->e.seq)) {
            rank[i] += y->level[i].span;
            y = y->level[i].forward;
        }
        update[i] = y;
    }
    link_node(b, x, update, rank);
    b->tail_valid = false;
}

static void delete_node(rank_board *b, rank_node *x)
{
    rank_node *update[RANK_MAXLEVEL];
    rank_node *y = b->head;
    update[0] = b->head; /* b->level >= 1: the loop sets it too */
    for (int i = b->level - 1; i >= 0; i--) {
        while (y->level[i].forward && y->level[i].forward != x &&
               rank_before(y->level[i].forward->e.score, y->level[i].forward->e.seq, x->e.score,
                           x->e.seq))
            y = y->level[i].forward;
        update[i] = y;
    }
    for (int i = 0; i < b->level; i++) {
        if (update[i]->level[i].forward == x) {
            update[i]->level[i].span += x->level[i].span - 1;
            update[i]->level[i].forward = x->level[i].forward;
        } else {
            update[i]->level[i].span -= 1;
        }
    }
    if (!x->level[0].forward)
        b->tail = update[0] == b->head ? NULL : update[0];
    while (b->level > 1 && b->head->level[b->level - 1].forward == NULL)
        b->level--;
    b->length--;
    b->tail_valid = false;
}

int rank_offer(rank_board *b, const rank_entry *e)
{
    if ((b->nplayers + 1) * 4 > b->nslots * 3 && index_grow(b) != 0)
        return -1;
    size_t slot = slot_of(b, e->player_id);
    rank_node *old = b->slots[slot];
    /* Only a strictly higher score replaces: an equal score keeps the
     * earlier submission, which is also the one that sorts first. */
    if (old && e->score <= old->e.score)
        return 0;
    rank_node *x = node_new(b, random_level(b));
    if (!x)
        return -1;
    x->e = *e;
    if (old) {
        delete_node(b, old);
        node_free(b, old);
    } else {
        b->nplayers++;
    }
    b->slots[slot] = x;
    insert_node(b, x);
    return 1;
}

bool rank_remove(rank_board *b, int64_t player_id)
{
    size_t slot = slot_of(b, player_id);
    rank_node *x = b->slots[slot];
    if (!x)
        return false;
    delete_node(b, x);
    node_free(b, x);
    index_delete(b, slot);
    b->nplayers--;
    return true;
}

int64_t rank_count_before(const rank_board *b, int64_t score, int64_t seq, bool inclusive)
{
    const rank_node *x = b->head;
    int64_t r = 0;
    for (int i = b->level - 1; i >= 0; i--) {
        for (;;) {
            const rank_node *f = x->level[i].forward;
            if (!f)
                break;
            bool take = rank_before(f->e.score, f->e.seq, score, seq) ||
                        (inclusive && f->e.score == score && f->e.seq == seq);
            if (!take)
                break;
            r += x->level[i].span;
            x = f;
        }
    }
    return r;
}

int64_t rank_of_player(const rank_board *b, int64_t player_id, rank_entry *out)
{
    const rank_node *x = b->slots[slot_of(b, player_id)];
    if (!x)
        return 0;
    if (out)
        *out = x->e;
    return rank_count_before(b, x->e.score, x->e.seq, true);
}

static const rank_node *node_at(const rank_board *b, int64_t rank)
{
    const rank_node *x = b->head;
    int64_t traversed = 0;
    for (int i = b->level - 1; i >= 0; i--) {
        while (x->level[i].forward && traversed + x->level[i].span <= rank) {
            traversed += x->level[i].span;
            x = x->level[i].forward;
        }
        if (traversed == rank)
            return x;
    }
    return NULL;
}

int rank_range(const rank_board *b, int64_t first, int n, rank_entry *out)
{
    if (first < 1 || first > b->length || n <= 0)
        return 0;
    const rank_node *x = node_at(b, first);
    int k = 0;
    while (x && k < n) {
        out[k++] = x->e;
        x = x->level[0].forward;
    }
    return k;
}
