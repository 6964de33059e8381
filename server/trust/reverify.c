#include "reverify.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/replay.h"
#include "../base/json_game.h"
#include "receipt.h"
#include "verify.h"

/* Scores read per page and per job: large enough that a page's threads
 * are worth starting, small enough to bound memory. */
#define PAGE_PER_JOB 256

/* One worker's buffers, sized for the largest game. */
typedef struct scratch {
    game_level *level;
    game_state *state;
    game_move *moves;
    size_t moves_cap;
} scratch;

static bool scratch_init(scratch *w)
{
    size_t lsz = 1, ssz = 1, mcap = 1;
    for (size_t i = 0; i < game_catalog_count; i++) {
        const game *g = game_catalog[i];
        lsz = g->level_size > lsz ? g->level_size : lsz;
        ssz = g->state_size > ssz ? g->state_size : ssz;
        mcap = (size_t)g->max_moves > mcap ? (size_t)g->max_moves : mcap;
    }
    w->level = malloc(lsz);
    w->state = malloc(ssz);
    w->moves = calloc(mcap + 1, sizeof *w->moves);
    w->moves_cap = mcap;
    return w->level && w->state && w->moves;
}

static void scratch_free(scratch *w)
{
    free(w->level);
    free(w->state);
    free(w->moves);
}

static json_t *divergence_head(const store_score *sc)
{
    json_t *o = json_pack("{s:s,s:I,s:I,s:s,s:i,s:I,s:i}", "score_id", sc->score_id, "seq",
                          (json_int_t)sc->seq, "player_id", (json_int_t)sc->p.player_id, "game",
                          sc->p.g->name, "level", sc->p.level, "seed", (json_int_t)sc->p.seed,
                          "version", sc->p.version);
    if (o && play_is_daily(&sc->p)) {
        char date[11];
        play_date(&sc->p, date);
        json_object_set_new(o, "date", json_string(date));
    }
    return o;
}

static json_t *cannot_replay(const store_score *sc, const char *detail)
{
    json_t *o = divergence_head(sc);
    json_object_set_new(o, "differs", json_pack("[s]", "replay"));
    json_object_set_new(o, "detail", json_string(detail));
    return o;
}

/* A v3 receipt's index ("v3.<digits>", no leading zero), or -1. */
static int64_t v3_index(const char *receipt)
{
    if (strncmp(receipt, "v3.", 3) != 0)
        return -1;
    const char *d = receipt + 3;
    size_t n = strspn(d, "0123456789");
    if (n == 0 || n > 18 || d[n] != '\0' || (d[0] == '0' && n > 1))
        return -1;
    return strtoll(d, NULL, 10);
}

/* The leaf at a v3 receipt's index is the one sc's fields make. */
static bool leaf_matches(const store_score *sc, const store_log_entry *leaf)
{
    if (!leaf || leaf->idx != v3_index(sc->receipt))
        return false;
    for (int held = 0; held <= 1; held++) {
        uint8_t want[LOG_ENTRY_MAX];
        size_t len = store_score_leaf(sc, held, want, sizeof want);
        if (len > 0 && len == leaf->len && memcmp(want, leaf->bytes, len) == 0)
            return true;
    }
    return false;
}

static json_t *check_one(const store_score *sc, const keyring *keys, const store_log_entry *leaf, scratch *w)
{
    const game *g = sc->p.g;
    if (sc->p.version < g->min_version || sc->p.version > g->version)
        return cannot_replay(sc, "this build does not replay that spec version");
    if (sc->p.level < 1 || sc->p.level > g->levels)
        return cannot_replay(sc, "no such level");
    json_error_t je;
    json_t *arr = json_loads(sc->moves_json, JSON_REJECT_DUPLICATES, &je);
    move_error merr;
    long n = json_is_array(arr) ? moves_from_json(g, sc->p.version, arr, w->moves, w->moves_cap, &merr)
                                : -1;
    json_decref(arr);
    if (n < 0)
        return cannot_replay(sc, "the stored moves do not decode");
    /* the replay a submission's verification runs (verify.h) */
    replay_report rep;
    if (!verify_replay(NULL, &sc->p, w->moves, (size_t)n, w->level, w->state, NULL, &rep))
        return cannot_replay(sc, "the level could not be rebuilt");
    uint8_t hash[MOVES_HASH_BYTES];
    moves_hash(g, sc->p.version, w->moves, (size_t)n, hash);
    json_t *differs = json_array();
    if (memcmp(hash, sc->moves_hash, sizeof hash) != 0)
        json_array_append_new(differs, json_string("moves_hash"));
    json_t *replayed;
    if (rep.rejected) {
        json_array_append_new(differs, json_string("rejected"));
        replayed = json_pack("{s:s,s:I}", "rejected", g->outcomes[rep.rejected_outcome].code, "move",
                             (json_int_t)rep.rejected_move);
    } else {
        if (rep.result.score != sc->score)
            json_array_append_new(differs, json_string("score"));
        if (rep.result.completed != sc->completed)
            json_array_append_new(differs, json_string("completed"));
        replayed = result_to_json(g, &rep.result);
        json_t *stored = json_loads(sc->result_json, 0, &je);
        if (!json_equal(stored, replayed))
            json_array_append_new(differs, json_string("result"));
        json_decref(stored);
    }
    receipt_fields f = { &sc->p, sc->score_id, sc->score, sc->completed, sc->received_at, sc->moves_hash };
    if (strncmp(sc->receipt, "v3.", 3) == 0 ? !leaf_matches(sc, leaf)
                                             : keys && receipt_verify(keys, &f, sc->receipt) != 0)
        json_array_append_new(differs, json_string("receipt"));
    if (json_array_size(differs) == 0) {
        json_decref(differs);
        json_decref(replayed);
        return NULL;
    }
    json_t *o = divergence_head(sc);
    json_object_set_new(o, "differs", differs);
    json_t *stored = json_loads(sc->result_json, 0, &je);
    json_object_set_new(o, "stored",
                        json_pack("{s:I,s:b,s:o}", "score", (json_int_t)sc->score, "completed",
                                  sc->completed, "result", stored ? stored : json_null()));
    json_object_set_new(o, "replayed", replayed);
    return o;
}

json_t *reverify_score(const store_score *sc, const keyring *keys, const store_log_entry *leaf)
{
    scratch w;
    json_t *o = scratch_init(&w) ? check_one(sc, keys, leaf, &w) : cannot_replay(sc, "out of memory");
    scratch_free(&w);
    return o;
}

/* A page shared by its workers: each takes the next index. */
typedef struct page {
    store_score *scores;
    store_log_entry *leaves; /* a v3 receipt's leaf, read before the workers start */
    bool *has_leaf;
    json_t **verdicts;
    int n;
    atomic_int next;
    const keyring *keys;
    reverify_counts *c;
} page;

typedef struct worker {
    pthread_t th;
    page *pg;
    scratch w;
} worker;

static void *work(void *arg)
{
    worker *wk = arg;
    page *pg = wk->pg;
    for (int i; (i = atomic_fetch_add(&pg->next, 1)) < pg->n;) {
        pg->verdicts[i] = check_one(&pg->scores[i], pg->keys, pg->has_leaf[i] ? &pg->leaves[i] : NULL, &wk->w);
        atomic_fetch_add(&pg->c->checked, 1);
    }
    return NULL;
}

store_status reverify_run(store *s, const store_scan *scan, int jobs, const keyring *keys,
                          reverify_counts *c, reverify_found found, reverify_tick tick, void *ctx)
{
    if (jobs < 1)
        jobs = 1;
    if (jobs > REVERIFY_MAX_JOBS)
        jobs = REVERIFY_MAX_JOBS;
    int64_t total = 0;
    store_status st = store_scores_count(s, scan, &total);
    if (st != STORE_OK)
        return st;
    atomic_store(&c->total, total);
    int limit = PAGE_PER_JOB * jobs;
    page pg;
    memset(&pg, 0, sizeof pg);
    pg.c = c;
    pg.keys = keys;
    pg.scores = calloc((size_t)limit, sizeof *pg.scores);
    pg.verdicts = calloc((size_t)limit, sizeof *pg.verdicts);
    pg.leaves = calloc((size_t)limit, sizeof *pg.leaves);
    pg.has_leaf = calloc((size_t)limit, sizeof *pg.has_leaf);
    worker *wk = calloc((size_t)jobs, sizeof *wk);
    bool ready = pg.scores && pg.verdicts && pg.leaves && pg.has_leaf && wk;
    for (int j = 0; ready && j < jobs; j++) {
        wk[j].pg = &pg;
        ready = scratch_init(&wk[j].w);
    }
    int64_t after = 0;
    st = ready ? STORE_OK : STORE_ERROR;
    while (st == STORE_OK && !atomic_load(&c->cancel)) {
        int n = 0;
        st = store_scores_page(s, scan, after, limit, pg.scores, &n);
        if (st != STORE_OK || n == 0)
            break;
        pg.n = n;
        for (int i = 0; st == STORE_OK && i < n; i++) {
            int64_t idx = v3_index(pg.scores[i].receipt);
            int got = 0;
            if (idx >= 0)
                st = store_log_entries(s, idx, 1, &pg.leaves[i], &got);
            pg.has_leaf[i] = got == 1;
        }
        if (st != STORE_OK) {
            for (int i = 0; i < n; i++)
                store_score_clear(&pg.scores[i]);
            break;
        }
        atomic_store(&pg.next, 0);
        bool started[REVERIFY_MAX_JOBS] = { false };
        for (int j = 1; j < jobs && j * PAGE_PER_JOB / 4 < n; j++)
            started[j] = pthread_create(&wk[j].th, NULL, work, &wk[j]) == 0;
        work(&wk[0]); /* the calling thread is a worker too */
        for (int j = 1; j < jobs; j++)
            if (started[j])
                pthread_join(wk[j].th, NULL);
        after = pg.scores[n - 1].seq;
        for (int i = 0; i < n; i++) {
            if (pg.verdicts[i]) {
                atomic_fetch_add(&c->divergent, 1);
                if (found)
                    found(ctx, pg.verdicts[i]);
                json_decref(pg.verdicts[i]);
                pg.verdicts[i] = NULL;
            }
            store_score_clear(&pg.scores[i]);
        }
        if (tick)
            tick(ctx, c);
        if (n < limit)
            break;
    }
    for (int j = 0; wk && j < jobs; j++)
        scratch_free(&wk[j].w);
    free(wk);
    free(pg.scores);
    free(pg.verdicts);
    free(pg.leaves);
    free(pg.has_leaf);
    return st;
}
