/*
 * store_logseal: the score log's seal, in the writer's transaction before
 * its commit (store_rules.h, store_txn.c): the leaves appended since the
 * last checkpoint are hashed onto the tree's frontier (log/frontier.h),
 * the stored hashes of tile levels 8, 16, ... they complete are kept in
 * log_hashes, and the new checkpoint, signed with the store's log keys,
 * replaces the old one with the new frontier beside it. A commit and its
 * checkpoint are one: nothing committed is ever left unsealed but by a
 * store without keys, and the next seal covers what such a store left.
 * It counts the checkpoints it signs (store_log_checkpoints_signed).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../log/checkpoint.h"
#include "../log/frontier.h"
#include "../log/prover.h"
#include "../log/tile.h"
#include "store_backend.h"
#include "store_rules.h"

#define SEAL_CHUNK 32 /* leaves read at a time */

/* Checkpoints signed, process-wide (store.h). */
static atomic_uint_fast64_t checkpoints_signed;

uint64_t store_log_checkpoints_signed(void)
{
    return (uint64_t)atomic_load(&checkpoints_signed);
}

/* log_head's size, the checkpoint's frontier, whether it has a note. */
static store_status seal_state(const sd_db *x, int64_t *head, merkle_frontier *f, bool *signed_)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_LOG_SEAL_STATE);
    if (!s)
        return sd_failed(x, NULL, SD_LOG_SEAL_STATE);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_LOG_SEAL_STATE);
    if (rc != SD_ROW) {
        d->done(s);
        store_log_error("log_seal", "log_head or log_checkpoint has no row");
        return STORE_ERROR;
    }
    *head = d->col_int(s, 0);
    int64_t size = d->col_int(s, 1), len = d->col_int(s, 3);
    *signed_ = d->col_int(s, 4) > 0;
    uint8_t blob[FRONTIER_BYTES_MAX];
    bool fits = len >= 0 && len <= (int64_t)sizeof blob;
    if (fits)
        d->col_blob(s, 2, blob, (size_t)len);
    d->done(s);
    if (!fits || size < 0 || *head < size ||
        frontier_decode((uint64_t)size, blob, (size_t)len, f) != MERKLE_OK) {
        store_log_error("log_seal", "log_checkpoint's frontier does not match its size");
        return STORE_ERROR;
    }
    return STORE_OK;
}

static store_status add_hash(const sd_db *x, const merkle_stored *h)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_LOG_HASH_ADD);
    if (!s)
        return sd_failed(x, NULL, SD_LOG_HASH_ADD);
    d->bind_int(s, h->level);
    d->bind_int(s, (int64_t)h->index);
    d->bind_blob(s, h->hash, MERKLE_HASH_BYTES);
    return sd_run(x, s, SD_LOG_HASH_ADD);
}

/* The leaves [f->size, head) onto f, their tile-level hashes kept; the
 * prover starts at leaf `first` (the batch's own) and keeps every hash
 * from there (prover_ok false when it could not). */
static store_status grow(const sd_db *x, int64_t head, merkle_frontier *f, int64_t first, log_prover *p,
                         bool *prover_ok)
{
    store_log_entry chunk[SEAL_CHUNK];
    while ((int64_t)f->size < head) {
        int n = 0;
        int64_t want = head - (int64_t)f->size;
        store_status st = store_read_log_entries(x, (int64_t)f->size,
                                                 want < SEAL_CHUNK ? (int)want : SEAL_CHUNK, chunk, &n);
        if (st != STORE_OK)
            return st;
        if (n == 0) {
            store_log_error("log_seal", "log_entries ends before log_head's size");
            return STORE_ERROR;
        }
        for (int i = 0; i < n; i++) {
            if (chunk[i].idx != (int64_t)f->size) {
                store_log_error("log_seal", "a gap in log_entries");
                return STORE_ERROR;
            }
            if ((int64_t)f->size == first)
                prover_start(p, f);
            uint8_t leaf[MERKLE_HASH_BYTES];
            merkle_leaf_hash(chunk[i].bytes, chunk[i].len, leaf);
            merkle_stored added[MERKLE_PROOF_MAX];
            int count = 0;
            if (frontier_append(f, leaf, added, &count) != MERKLE_OK) {
                store_log_error("log_seal", "the log is full");
                return STORE_ERROR;
            }
            if ((int64_t)f->size > first && *prover_ok)
                *prover_ok = prover_add(p, added, count);
            for (int k = TILE_HEIGHT; k < count; k += TILE_HEIGHT)
                if ((st = add_hash(x, &added[k])) != STORE_OK)
                    return st;
        }
    }
    return STORE_OK;
}

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Each logged write's tlog-proof (store.h), from the prover. */
static void prove(const log_prover *p, bool ok, uint64_t size, const char *note, store_write *const *logged,
                  int n)
{
    for (int i = 0; i < n; i++) {
        store_write *w = logged[i];
        if (w->log_index < 0 || w->kind != STORE_WRITE_SCORE)
            continue;
        merkle_proof proof;
        char text[8192];
        size_t len = 0;
        if (ok && prover_inclusion(p, (uint64_t)w->log_index, size, &proof) == MERKLE_OK)
            len = tlog_proof_text((uint64_t)w->log_index, &proof, note, text, sizeof text);
        free(w->log_proof);
        w->log_proof = len ? malloc(len + 1) : NULL;
        if (w->log_proof)
            memcpy(w->log_proof, text, len + 1);
        else
            store_log_error("log_seal", "a leaf's inclusion proof could not be made (no proof in its answer)");
    }
}

store_status store_logseal(const sd_db *x, const store_log_keys *keys, store_write *const *logged, int n)
{
    if (keys->n < 1)
        return STORE_OK;
    int64_t head = 0;
    merkle_frontier f;
    bool signed_ = false;
    store_status st = seal_state(x, &head, &f, &signed_);
    if (st != STORE_OK || (head == (int64_t)f.size && signed_))
        return st;
    /* the batch's first leaf: the prover keeps what proves it and the rest */
    int64_t first = head;
    for (int i = 0; i < n; i++)
        if (logged[i]->log_index >= 0 && logged[i]->log_index < first)
            first = logged[i]->log_index;
    log_prover p;
    prover_start(&p, &f);
    bool prover_ok = first >= (int64_t)f.size;
    st = grow(x, head, &f, first, &p, &prover_ok);
    if (st != STORE_OK) {
        prover_free(&p);
        return st;
    }
    checkpoint c = { .size = f.size };
    snprintf(c.origin, sizeof c.origin, "%s", keys->origin);
    frontier_root(&f, c.root);
    note_signer signers[STORE_LOG_KEYS_MAX];
    int n_keys = keys->n < STORE_LOG_KEYS_MAX ? keys->n : STORE_LOG_KEYS_MAX;
    for (int i = 0; i < n_keys; i++)
        signers[i] = (note_signer){ keys->origin, keys->secret[i] };
    char note[STORE_LOG_NOTE_MAX];
    size_t note_len = 0;
    if (checkpoint_sign(&c, signers, n_keys, note, sizeof note, &note_len) != CHECKPOINT_OK) {
        store_log_error("log_seal", "the checkpoint cannot be signed (log_origin is not a key name?)");
        prover_free(&p);
        return STORE_ERROR;
    }
    atomic_fetch_add(&checkpoints_signed, 1);
    prove(&p, prover_ok, f.size, note, logged, n);
    prover_free(&p);
    uint8_t blob[FRONTIER_BYTES_MAX];
    size_t blob_len = frontier_encode(&f, blob, sizeof blob);
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_LOG_CHECKPOINT_SET);
    if (!s)
        return sd_failed(x, NULL, SD_LOG_CHECKPOINT_SET);
    d->bind_int(s, (int64_t)f.size);
    d->bind_blob(s, blob, blob_len);
    d->bind_text(s, note);
    d->bind_int(s, wall_ms());
    return sd_run(x, s, SD_LOG_CHECKPOINT_SET);
}

store_status store_logseal_take(const sd_db *x, store_write *w)
{
    sd_stmt *s = x->d->start(x->c, SD_LOG_LOCK);
    if (!s)
        return sd_failed(x, NULL, SD_LOG_LOCK);
    store_status st = sd_run(x, s, SD_LOG_LOCK);
    if (st == STORE_OK) {
        w->logged = true;
        w->log_index = -1;
    }
    return st;
}

store_status store_read_log_checkpoint(const sd_db *x, int64_t *size, char *note, size_t cap)
{
    const store_driver *d = x->d;
    sd_stmt *s = d->start(x->c, SD_LOG_CHECKPOINT);
    if (!s)
        return sd_failed(x, NULL, SD_LOG_CHECKPOINT);
    int rc = d->step(s);
    if (rc == SD_FAIL)
        return sd_failed(x, s, SD_LOG_CHECKPOINT);
    store_status st = STORE_ERROR;
    if (rc == SD_ROW) {
        const char *text = d->col_text(s, 1);
        *size = d->col_int(s, 0);
        if (text && strlen(text) < cap) {
            memcpy(note, text, strlen(text) + 1);
            st = STORE_OK;
        }
    }
    d->done(s);
    if (st != STORE_OK)
        store_log_error("log_checkpoint", "no checkpoint row, or a note longer than the caller's buffer");
    return st;
}

store_status store_read_log_hashes(const sd_db *x, int level, int64_t from, int max,
                                   uint8_t (*out)[32], int *n)
{
    const store_driver *d = x->d;
    *n = 0;
    int rc = SD_DONE;
    sd_stmt *s = d->start(x->c, SD_LOG_HASHES);
    if (!s)
        return sd_failed(x, NULL, SD_LOG_HASHES);
    d->bind_int(s, level);
    d->bind_int(s, from);
    d->bind_int(s, max);
    while (*n < max && (rc = d->step(s)) == SD_ROW) {
        if (d->col_int(s, 0) != from + *n) {
            d->done(s);
            store_log_error("log_hashes", "a gap in log_hashes");
            return STORE_ERROR;
        }
        d->col_blob(s, 1, out[*n], 32);
        ++*n;
    }
    if (*n < max && rc == SD_FAIL)
        return sd_failed(x, s, SD_LOG_HASHES);
    d->done(s);
    return STORE_OK;
}
