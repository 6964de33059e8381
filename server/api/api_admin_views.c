/*
 * api_admin_views: the operators' reads as the API answers them
 * (GET /v1/admin/players/{id}, /v1/admin/review, /v1/admin/rejections,
 * /v1/admin/log): the JSON built from the store's rows
 * (store.h store_admin_answer), with the field names, types and
 * null/absent rules of docs/API.md and docs/openapi.yaml. What a handler
 * adds to it (a player's tokens and counts, api_moderation.c; a review
 * item's held_reason and would_be_rank, api_review_items.c) is the
 * handler's.
 *
 * Ownership: api_admin_view returns a new reference; the rows stay the
 * caller's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "../trust/gap_bands.h"

static const char *or_empty(const char *t)
{
    return t ? t : "";
}

/* A JSON text as a value; null for none, "" or a text that does not parse. */
static json_t *json_text(const char *t)
{
    json_t *v = t && *t ? json_loads(t, 0, NULL) : NULL;
    return v ? v : json_null();
}

/* A run's progress gaps (gap_bands.h: the times text, 8 hex digits a
 * move) as a JSON array of ms, the first from 0; null without times. */
static json_t *gaps_json(const char *hex)
{
    int n = gap_count(hex);
    if (n <= 0)
        return json_null();
    json_t *out = json_array();
    for (int i = 0; out && i < n; i++)
        json_array_append_new(out, json_integer((json_int_t)gap_at(hex, i)));
    return out;
}

static json_t *features_json(const store_player_features *f)
{
    int64_t runs = f->completed_runs;
    return json_pack("{s:I,s:I,s:I,s:I}", "completed_runs", (json_int_t)runs, "perfect_permille",
                     (json_int_t)(runs ? f->perfect_runs * 1000 / runs : 0), "forfeits", (json_int_t)f->forfeits,
                     "abandons", (json_int_t)f->abandons);
}

static json_t *linked_json(const store_linked_account *a, int n)
{
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, json_pack("{s:I,s:s,s:I}", "player_id", (json_int_t)a[i].player_id, "name",
                                               a[i].name, "created_at_ms", (json_int_t)a[i].created_at));
    return list;
}

/* ---- the player ---- */

/* [{score_id, game, level, date?, score, status (ranked, held, voided),
 * suspicion, submitted_at_ms}] */
static json_t *runs_json(const store_player_view *v)
{
    json_t *list = json_array();
    for (int i = 0; i < v->n_runs; i++) {
        const store_player_run *r = &v->runs[i];
        json_t *run = json_pack("{s:s,s:s,s:I,s:I,s:s,s:I,s:I}", "score_id", r->score_id, "game", r->game,
                                "level", (json_int_t)r->level, "score", (json_int_t)r->score, "status",
                                r->voided ? "voided" : r->status, "suspicion", (json_int_t)r->suspicion,
                                "submitted_at_ms", (json_int_t)r->received_at);
        if (run && r->date[0])
            json_object_set_new(run, "date", json_string(r->date));
        json_array_append_new(list, run);
    }
    return list;
}

static json_t *player_json(const store_player_view *v)
{
    json_t *identities = json_array();
    for (int i = 0; i < v->n_identities; i++)
        json_array_append_new(identities, json_pack("{s:s,s:I}", "provider", v->identities[i].provider,
                                                    "bound_at_ms", (json_int_t)v->identities[i].bound_at));
    json_t *out = json_pack("{s:I,s:s,s:I,s:o,s:{s:I,s:I,s:I},s:o}", "player_id", (json_int_t)v->player_id,
                            "name", v->name, "created_at_ms", (json_int_t)v->created_at, "banned_at_ms",
                            v->banned ? json_integer(v->banned_at) : json_null(), "scores", "rejected",
                            (json_int_t)v->rejected, "voided", (json_int_t)v->voided, "held",
                            (json_int_t)v->held, "features", features_json(&v->features));
    if (!out) {
        json_decref(identities);
        return NULL;
    }
    json_object_set_new(out, "linked_accounts", linked_json(v->linked, v->n_linked));
    json_object_set_new(out, "identities", identities);
    json_object_set_new(out, "runs", runs_json(v));
    return out;
}

/* ---- pages ---- */

static json_t *rejection_json(const store_rejection_row *r)
{
    char id[2 * PLAY_NONCE_BYTES + 1], hex[2 * STORE_HASH_BYTES + 1];
    sodium_bin2hex(id, sizeof id, r->nonce, sizeof r->nonce);
    sodium_bin2hex(hex, sizeof hex, r->moves_hash, sizeof r->moves_hash);
    return json_pack("{s:I,s:s,s:I,s:s,s:i,s:I,s:i,s:s,s:I,s:I,s:s,s:o}", "id", (json_int_t)r->id, "token_id", id,
                     "player_id", (json_int_t)r->player_id, "game", r->game, "level", r->level, "seed",
                     (json_int_t)r->seed, "version", r->version, "reason", r->reason, "move",
                     (json_int_t)r->move_index, "received_at_ms", (json_int_t)r->received_at, "moves_hash", hex,
                     "moves", json_text(r->moves_json));
}

static json_t *log_json(const store_admin_log_row *r)
{
    return json_pack("{s:I,s:I,s:s,s:s,s:s,s:s,s:o}", "id", (json_int_t)r->id, "at_ms", (json_int_t)r->at,
                     "actor", or_empty(r->actor), "action", or_empty(r->action), "target", or_empty(r->target),
                     "reason", or_empty(r->reason), "detail", json_text(r->detail_json));
}

/* A review item's twin: the other run of the pair, whether it came first,
 * its progress gaps. */
static json_t *twin_json(const store_review_item *it)
{
    const store_review_twin *t = &it->twin;
    return json_pack("{s:s,s:I,s:s,s:I,s:s,s:I,s:I,s:b,s:b,s:o}", "score_id", t->score_id, "player_id",
                     (json_int_t)t->player_id, "name", t->name, "score", (json_int_t)t->score, "status",
                     t->status, "suspicion", (json_int_t)t->suspicion, "submitted_at_ms",
                     (json_int_t)t->received_at, "voided", t->voided, "came_first", it->twin_of < it->seq,
                     "gaps_ms", gaps_json(t->times));
}

/* A queue item: its row; date only for a daily's run, duplicate_of_seq
 * only for a duplicate, provider null for a guest, gaps_ms only beside a
 * twin; then the player's features, the twin (when still there) and
 * linked accounts (when any). */
static json_t *review_json(const store_review_item *it)
{
    json_t *item = json_pack("{s:s,s:I,s:s,s:s,s:i,s:I,s:s,s:I,s:o,s:I,s:b}", "score_id", it->score_id,
                             "player_id", (json_int_t)it->player_id, "name", it->name, "game", it->game,
                             "level", it->level, "score", (json_int_t)it->score, "status", it->status,
                             "suspicion", (json_int_t)it->suspicion, "signals", json_text(it->signals_json),
                             "submitted_at_ms", (json_int_t)it->received_at, "banned", it->banned);
    if (!item)
        return NULL;
    if (it->date[0])
        json_object_set_new(item, "date", json_string(it->date));
    if (it->duplicate_of)
        json_object_set_new(item, "duplicate_of_seq", json_integer(it->duplicate_of));
    json_object_set_new(item, "provider", it->provider[0] ? json_string(it->provider) : json_null());
    if (it->twin_of)
        json_object_set_new(item, "gaps_ms", gaps_json(it->times));
    json_t *pf = features_json(&it->features);
    json_object_set_new(item, "player_features", pf ? pf : json_null());
    if (it->has_twin)
        json_object_set_new(item, "twin", twin_json(it));
    if (it->n_linked)
        json_object_set_new(item, "linked_accounts", linked_json(it->linked, it->n_linked));
    return item;
}

json_t *api_admin_view(const store_admin_answer *a)
{
    if (a->kind == ADMIN_Q_PLAYER)
        return player_json(&a->player);
    json_t *items = json_array();
    for (int i = 0; i < a->n; i++)
        json_array_append_new(items, a->kind == ADMIN_Q_REJECTIONS ? rejection_json(&a->rejections[i])
                                     : a->kind == ADMIN_Q_REVIEW   ? review_json(&a->review[i])
                                                                   : log_json(&a->log[i]));
    return json_pack("{s:o,s:o}", "items", items, "next_cursor",
                     a->more ? json_string(a->next_cursor) : json_null());
}
