/*
 * api_admin: what an operator reviews, behind the admin token (config
 * admin_token; empty disables these endpoints, which then answer 404):
 * the admin credential check (api_admin_ok) and GET /v1/admin/scores/{id},
 * a score as the operator sees it:
 * its status, the run it duplicates and the signals measured at
 * verification (and its moves, even a daily's that are still private).
 * The other admin endpoints are in api_moderation.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api.h"
#include "../base/json_game.h"
#include "../base/parse.h"
#include "../trust/gap_bands.h"

/* Compares hashes, so neither the length nor the content of the admin token
 * leaks through timing. Failed attempts are counted per client address
 * (admin_failures_per_minute): past the limit the address is answered 429
 * before its token is even looked at, so guessing cannot go faster. */
bool api_admin_ok(request *r)
{
    const config *c = &r->app->cfg;
    const char *want = c->admin_token;
    const char *h = req_header(r, "Authorization");
    if (!want[0]) {
        reply_error(r, 404, "not_found", "no such endpoint");
        return false;
    }
    if (!ratelimit_peek(&r->app->limits, "admin_fail", r->ip_key, c->admin_failures_per_minute,
                        r->started_us)) {
        reply_rate_limited(r, c->admin_failures_per_minute,
                           "too many failed admin attempts from this address");
        return false;
    }
    unsigned char a[32], b[32];
    const char *got = h && strncasecmp(h, "Bearer ", 7) == 0 ? h + 7 : "";
    crypto_generichash(a, sizeof a, (const unsigned char *)got, strlen(got), NULL, 0);
    crypto_generichash(b, sizeof b, (const unsigned char *)want, strlen(want), NULL, 0);
    if (!h || sodium_memcmp(a, b, sizeof a) != 0) {
        ratelimit_allow(&r->app->limits, "admin_fail", r->ip_key, c->admin_failures_per_minute,
                        r->started_us);
        reply_error(r, 401, "unauthorized", "the admin token is required");
        return false;
    }
    return true;
}

/* A run's progress gaps (gap_bands.h) beside its board's population: the
 * gaps of up to POPULATION_RUNS of the board's ranked runs (any seed,
 * newest first), a band (25th, 50th, 75th percentile) for each of the
 * run's gap indexes. Sets "gaps_ms" (null for a run without times) and
 * "population" {runs, bands} on out; false after answering an error. */
#define POPULATION_RUNS 200
#define POPULATION_GAPS_MAX 5000 /* the most moves a submission can have */
static bool add_population(request *r, const store_score *sc, json_t *out)
{
    store_twin_candidate *rows = malloc(POPULATION_RUNS * sizeof *rows);
    const char **texts = malloc(POPULATION_RUNS * sizeof *texts);
    int n = 0;
    store_status st = rows && texts ? store_board_times(r->app->db, &sc->p, sc->seq, POPULATION_RUNS, rows, &n)
                                    : STORE_ERROR;
    if (st != STORE_OK) {
        free(rows);
        free(texts);
        api_store_error(r, st);
        return false;
    }
    const char *own = n && rows[0].seq == sc->seq ? rows[0].times : NULL;
    int gaps = gap_count(own);
    size_t m = 0;
    for (int k = own ? 1 : 0; k < n; k++)
        texts[m++] = rows[k].times;
    if (gaps > POPULATION_GAPS_MAX)
        gaps = POPULATION_GAPS_MAX;
    gap_band *bands = gaps > 0 ? malloc((size_t)gaps * sizeof *bands) : NULL;
    bool ok = gaps <= 0 || (bands && gap_bands(texts, m, gaps, bands) == 0);
    json_t *mine = gaps > 0 ? json_array() : json_null();
    json_t *list = gaps > 0 ? json_array() : json_null();
    for (int i = 0; ok && i < gaps; i++) {
        json_array_append_new(mine, json_integer((json_int_t)gap_at(own, i)));
        json_array_append_new(list, json_pack("{s:I,s:I,s:I,s:i}", "p25", (json_int_t)bands[i].p25, "median",
                                              (json_int_t)bands[i].median, "p75", (json_int_t)bands[i].p75,
                                              "runs", bands[i].runs));
    }
    free(bands);
    store_twin_candidates_clear(rows, n);
    free(rows);
    free(texts);
    if (!ok) {
        json_decref(mine);
        json_decref(list);
        reply_error(r, 500, "internal", "out of memory");
        return false;
    }
    json_object_set_new(out, "gaps_ms", mine);
    json_object_set_new(out, "population", json_pack("{s:I,s:o}", "runs", (json_int_t)m, "bands", list));
    return true;
}

void api_admin_score(request *r)
{
    if (!api_admin_ok(r))
        return;
    uint8_t nonce[PLAY_NONCE_BYTES];
    const char *id = r->seg[3];
    store_score sc;
    memset(&sc, 0, sizeof sc);
    store_status st = strspn(id, "0123456789abcdef") == PLAY_ID_LEN && play_nonce_from_id(id, nonce)
                          ? store_score_get(r->app->db, nonce, &sc)
                          : STORE_NOT_FOUND;
    if (st == STORE_NOT_FOUND) {
        reply_error(r, 404, "not_found", "no such score");
        return;
    }
    if (st != STORE_OK) {
        api_store_error(r, st);
        return;
    }
    static const char *const outcomes[] = { [RUN_COMPLETED] = "completed",
                                            [RUN_INCOMPLETE] = "incomplete",
                                            [RUN_FORFEIT] = "forfeit" };
    json_t *signals = json_loads(sc.signals_json, 0, NULL);
    json_t *moves = json_loads(sc.moves_json, 0, NULL);
    json_t *out = json_pack("{s:s,s:I,s:s,s:s,s:i,s:I,s:i,s:I,s:s,s:s,s:o,s:o}", "score_id", sc.score_id,
                            "player_id", (json_int_t)sc.p.player_id, "name", sc.player_name, "game",
                            sc.p.g->name, "level", sc.p.level, "seed", (json_int_t)sc.p.seed, "version",
                            sc.p.version, "score", (json_int_t)sc.score, "status",
                            sc.status == SCORE_RANKED ? "ranked" : "held", "outcome", outcomes[sc.outcome],
                            "signals", signals ? signals : json_object(), "moves",
                            moves ? moves : json_array());
    if (sc.duplicate_of)
        json_object_set_new(out, "duplicate_of_seq", json_integer(sc.duplicate_of));
    json_object_set_new(out, "suspicion", json_integer(sc.suspicion));
    if (sc.voided_at) {
        json_object_set_new(out, "status", json_string("voided"));
        json_object_set_new(out, "voided_at_ms", json_integer(sc.voided_at));
        json_object_set_new(out, "void_reason", json_string(sc.void_reason));
    }
    bool shown = add_population(r, &sc, out);
    store_score_clear(&sc);
    if (!shown) {
        json_decref(out);
        return;
    }
    reply_json(r, 200, out);
}
