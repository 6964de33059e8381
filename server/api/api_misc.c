/* api_misc: the catalogue, public keys, health and metrics (see
 * metrics_http.h for the separate metrics listener). */
#include <stdlib.h>
#include <string.h>

#include "../../core/game.h"
#include "api.h"
#include "../base/json_game.h"
#include "../log/note.h"

void api_games(request *r)
{
    json_t *games = json_array();
    for (size_t i = 0; i < game_catalog_count; i++) {
        json_t *g = game_to_json(game_catalog[i]);
        json_object_set_new(g, "issue_version", json_integer(app_issue_version(r->app, game_catalog[i])));
        json_array_append_new(games, g);
    }
    reply_json(r, 200, json_pack("{s:o}", "games", games));
}

/* Every published key, retired ones included (their receipts verify for
 * ever), with its validity window. */
void api_keys(request *r)
{
    json_t *keys = json_array();
    const keyring *kr = &r->app->keys;
    const char *origin = r->app->cfg.log_origin;
    for (int i = 0; i < kr->count; i++) {
        const key_entry *k = &kr->keys[i];
        char b64[sodium_base64_ENCODED_LEN(crypto_sign_PUBLICKEYBYTES,
                                           sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
        char from[32], until[32];
        sodium_bin2base64(b64, sizeof b64, k->sign_pk, sizeof k->sign_pk,
                          sodium_base64_VARIANT_URLSAFE_NO_PADDING);
        iso_time_format(k->valid_from_ms, from);
        iso_time_format(k->valid_until_ms, until);
        /* the same key signs the score log's checkpoints under log_origin
         * (docs/LOG.md section 9): its C2SP note verifier key */
        note_verifier v;
        char vkey[NOTE_VERIFIER_KEY_MAX];
        json_t *log_key = note_verifier_make(origin, k->sign_pk, &v) == NOTE_OK &&
                                  note_verifier_encode(&v, vkey, sizeof vkey) > 0
                              ? json_string(vkey)
                              : json_null();
        json_array_append_new(keys, json_pack("{s:i,s:s,s:s,s:b,s:b,s:s,s:o,s:o}", "key_id", (int)k->id,
                                              "alg", "Ed25519", "public_key", b64, "current",
                                              i == kr->current, "retired", k->retired, "valid_from",
                                              from, "valid_until",
                                              k->retired ? json_string(until) : json_null(),
                                              "log_verifier_key", log_key));
    }
    reply_json(r, 200, json_pack("{s:o,s:s}", "keys", keys, "log_origin", origin));
}

/* 503 "draining" from the first moment of shutdown, so a load balancer
 * stops sending before the listener closes. */
void api_healthz(request *r)
{
    if (atomic_load(&r->app->draining)) {
        r->retry_after_s = 5;
        reply_json(r, 503, json_pack("{s:s}", "status", "draining"));
        return;
    }
    reply_json(r, 200, json_pack("{s:s,s:i}", "status", "ok", "schema_version",
                                 store_schema_version(r->app->db)));
}

/* /metrics on the main listener: absent when metrics_listen serves them
 * elsewhere; behind the admin token when one is set; public only when
 * metrics_public says so; otherwise absent. */
void api_metrics(request *r)
{
    const config *c = &r->app->cfg;
    if (c->metrics_listen[0] || (!c->admin_token[0] && !c->metrics_public)) {
        reply_error(r, 404, "not_found", "no such endpoint");
        return;
    }
    if (!c->metrics_public && !api_admin_ok(r))
        return;
    size_t len = 0;
    char *text = metrics_render(&r->app->stats, &len);
    if (!text) {
        reply_error(r, 500, "internal", "out of memory");
        return;
    }
    reply_text(r, 200, "text/plain; version=0.0.4", text, len);
}
