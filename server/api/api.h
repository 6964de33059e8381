/* api: the HTTP handlers, one function per endpoint (api_*.c). Each reads
 * the request and answers with reply_json / reply_error. */
#ifndef REPLAYD_SERVER_API_H
#define REPLAYD_SERVER_API_H

#include "../../core/daily.h"
#include "../base/iso_time.h"
#include "../http/http.h"

void api_players_create(request *r);
void api_players_link(request *r);
void api_identity_nonce(request *r);
void api_games(request *r);
void api_seeds_create(request *r);
void api_scores_submit(request *r);
void api_score_get(request *r);
void api_daily(request *r);
void api_board_daily(request *r);
void api_board_daily_me(request *r);
void api_board_level(request *r);
void api_board_level_me(request *r);
void api_board_daily_player(request *r);
void api_board_level_player(request *r);
void api_boards_list(request *r);
void api_keys(request *r);
void api_log_checkpoint(request *r);
void api_log_tile(request *r);
void api_healthz(request *r);
void api_metrics(request *r);
void api_admin_player(request *r);
void api_admin_score(request *r);
void api_admin_void(request *r);
void api_admin_restore(request *r);
void api_admin_approve(request *r);
void api_admin_ban(request *r);
void api_admin_unban(request *r);
void api_admin_rename(request *r);
void api_admin_review(request *r);
void api_admin_rejections(request *r);
void api_admin_log(request *r);
void api_admin_reverify_start(request *r);
void api_admin_reverify_status(request *r);
void api_web_index(request *r);
void api_web_replay(request *r);
void api_web_asset(request *r);
void api_web_admin(request *r);

/* Shared by handlers: the authenticated player, or NULL after a 401. */
#include "../store/store.h"
bool api_auth(request *r, store_player *out);
/* api_player_new.c: a new player's name, checked and NFC-normalised into
 * out (false after a 400); a new bearer token ("pt_" and 32 random bytes)
 * and its keyed hash, the only form the store keeps. */
#define API_PLAYER_TOKEN_LEN (3 + sodium_base64_ENCODED_LEN(32, sodium_base64_VARIANT_URLSAFE_NO_PADDING))
bool api_player_name(request *r, const json_t *name, char out[STORE_NAME_MAX + 1]);
void api_new_player_token(request *r, char token[API_PLAYER_TOKEN_LEN], uint8_t hash[STORE_HASH_BYTES]);
/* api_identity.c: a sign-in with {"identity": ..., "name"?} (doc is
 * taken and freed), from the client's network prefix. */
void api_identity_sign_in(request *r, json_t *doc, const char *prefix);
/* Hands w to the store's writer and suspends r until it committed (or
 * failed); then `then` answers from w. w must live as long as r (req_own). */
void api_write(request *r, store_write *w, void (*then)(request *r));
/* The admin bearer token (admin_token) is present; else answers 404 (no
 * admin token configured) or 401 and returns false. */
bool api_admin_ok(request *r);
/* api_review_items.c: adds held_reason and would_be_rank to every item of
 * a review page (GET /v1/admin/review) built from a's rows. */
void api_review_enrich(request *r, const store_admin_answer *a, json_t *page);
/* api_admin_views.c: an operators' read's answer built from the store's
 * rows: the player, or a page {items, next_cursor}. A new reference;
 * NULL when memory runs out. */
json_t *api_admin_view(const store_admin_answer *a);
/* The review queue's filters from the query (reason, game, level, date,
 * status) into q, whose limit is set; date is the buffer q->date points
 * to. False after a 400/404 answer. */
bool api_review_filters(request *r, store_admin_query *q, char date[11]);
/* Maps a store failure to 503/500 and answers. */
void api_store_error(request *r, store_status st);
/* The admin re-verification job (api_reverify.c): made once the store is
 * open, freed (its run cancelled and joined) before it closes. */
reverify_job *reverify_job_new(store *db, const keyring *keys);
void reverify_job_free(reverify_job *j);
/* The daily of date d as this deployment serves it (api_seeds.c): the
 * schedule's game and level, and the seed sealed under keys/daily.key when
 * daily_seeds = sealed covers d (*sealed then holds its reveal and
 * commitment, *is_sealed is true). false: no daily that day. */
bool api_served_daily(const app *a, civil_date d, daily_pick *p, daily_sealed *sealed,
                      bool *is_sealed);

#endif
