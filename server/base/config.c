#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "parse.h"
#include "private_file.h"

void config_defaults(config *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->listen_addr, sizeof c->listen_addr, "127.0.0.1");
    c->port = 8080;
    snprintf(c->data_dir, sizeof c->data_dir, "./var");
    c->threads = 0; /* as many as cores: no handler waits for I/O (writes suspend their request) */
    c->max_connections = 1024;
    c->max_connections_per_ip = 128;
    c->connection_timeout_s = 15;
    c->header_timeout_ms = 10000;
    c->body_timeout_ms = 30000;
    c->body_min_rate = 1024;
    c->connection_memory = 64 * 1024;
    c->max_body = 256 * 1024;
    c->max_json_depth = 8;
    c->max_moves = 5000;
    c->token_lifetime_s = 3600;
    c->daily_grace_s = 3600;
    snprintf(c->daily_seeds, sizeof c->daily_seeds, "sealed");
    snprintf(c->log_origin, sizeof c->log_origin, "localhost/v1/log");
    c->receipt_version = 3;
    c->max_outstanding_tokens = 20;
    c->plausibility_slack_ms = 100;
    c->plausibility_slack_permille = 10;
    c->forfeit_short_ms = 20000;
    c->max_forfeits_per_level_day = 10;
    c->max_draws_per_level_day = 30;
    c->rehearsal_bound_ms = 300000;
    c->review_hold_threshold = 500; /* calibrated on tests/fairplay (docs/OPERATIONS.md) */
    c->review_top = 3;
    c->think_floor_permille = 1000;
    c->rate_register_per_ip = 30;
    c->rate_register_per_prefix = 120;
    c->rate_seeds_per_player = 120;
    c->rate_scores_per_player = 120;
    c->rate_per_ip = 6000;
    c->busy_timeout_ms = 5000;
    c->group_commit_max = 256;
    c->group_commit_wait_us = 500;
    c->wal_checkpoint_frames = 10000;
    c->level_cache_entries = 4096;
    c->board_cache_bytes = (size_t)256 << 20;
    c->rejections_per_token = 5;
    c->rejection_moves_per_token = 1;
    c->rejection_moves_per_player_day = 20;
    c->rejection_moves_per_net_day = 200;
    c->admin_failures_per_minute = 10;
    c->new_account_runs = 10;
    c->new_account_hours = 24;
    c->new_account_play_minutes = 30;
    c->new_account_levels = 3;
    c->twin_correlation_permille = 950;
    c->parallel_overlap_ms = 1000;
    c->linked_window_s = 600;
    c->log_requests = true;
    c->identity_clock_skew_s = 60;
    c->identity_nonce_ttl_s = 600;
    c->identity_jwks_min_refresh_s = 300;
    c->identity_jwks_max_refresh_s = 86400;
    c->identity_require_nonce = true;
    c->rate_nonces_per_ip = 60;
    snprintf(c->daily_requires, sizeof c->daily_requires, "any");
    snprintf(c->level_requires, sizeof c->level_requires, "any");
    c->keepalive = true;
    c->drain_grace_s = 5;
}

typedef enum { K_STR, K_INT, K_SIZE, K_BOOL } kind;

typedef struct key_def {
    const char *name;
    kind k;
    size_t offset;
    size_t size;     /* for strings */
    int64_t min, max;
} key_def;

#define STR(n) { #n, K_STR, offsetof(config, n), sizeof(((config *)0)->n), 0, 0 }
#define INT(n, lo, hi) { #n, K_INT, offsetof(config, n), 0, lo, hi }
#define SIZE(n, lo, hi) { #n, K_SIZE, offsetof(config, n), 0, lo, hi }
#define BOOL(n) { #n, K_BOOL, offsetof(config, n), 0, 0, 1 }

static const key_def keys[] = {
    STR(listen_addr),
    INT(port, 0, 65535),
    STR(data_dir),
    STR(database),
    STR(tls_cert),
    STR(tls_key),
    INT(threads, 0, 256),
    INT(max_connections, 1, 100000),
    INT(max_connections_per_ip, 1, 100000),
    INT(connection_timeout_s, 1, 3600),
    INT(header_timeout_ms, 100, 3600000),
    INT(body_timeout_ms, 100, 3600000),
    INT(body_min_rate, 0, 1 << 30),
    SIZE(connection_memory, 8192, 16 << 20),
    SIZE(max_body, 1024, 64 << 20),
    INT(max_json_depth, 2, 64),
    INT(max_moves, 1, 1000000),
    INT(token_lifetime_s, 1, 7 * 86400),
    INT(daily_grace_s, 0, 86400),
    STR(daily_seeds),
    INT(max_outstanding_tokens, 1, 100000),
    INT(plausibility_slack_ms, 0, 600000),
    INT(plausibility_slack_permille, 0, 1000),
    INT(forfeit_short_ms, 0, 3600000),
    INT(max_forfeits_per_level_day, 0, 100000),
    INT(max_draws_per_level_day, 0, 100000),
    INT(rehearsal_bound_ms, 0, 7 * 86400000),
    INT(rate_register_per_ip, 0, 10000000),
    INT(rate_register_per_prefix, 0, 10000000),
    INT(rate_seeds_per_player, 0, 10000000),
    INT(rate_scores_per_player, 0, 10000000),
    INT(rate_per_ip, 0, 10000000),
    INT(busy_timeout_ms, 0, 600000),
    INT(group_commit_max, 1, 100000),
    INT(group_commit_wait_us, 0, 1000000),
    INT(wal_checkpoint_frames, 100, 1000000),
    INT(level_cache_entries, 16, 10000000),
    SIZE(board_cache_bytes, 1 << 20, (int64_t)1 << 40),
    INT(rejections_per_token, 1, 1000000),
    INT(rejection_moves_per_token, 1, 1000000),
    INT(rejection_moves_per_player_day, 1, 1000000),
    INT(rejection_moves_per_net_day, 0, 100000000),
    STR(admin_token),
    STR(admin_token_file),
    INT(admin_failures_per_minute, 1, 100000),
    INT(review_hold_threshold, 0, 1000000),
    INT(review_top, 0, 1000),
    INT(think_floor_permille, 0, 10000),
    INT(new_account_runs, 0, 1000000),
    INT(new_account_hours, 0, 100000),
    INT(new_account_play_minutes, 0, 100000),
    INT(new_account_levels, 0, 10000),
    INT(twin_correlation_permille, 0, 1000),
    INT(parallel_overlap_ms, 0, 3600000),
    INT(linked_window_s, 0, 30 * 86400),
    BOOL(keepalive),
    INT(drain_grace_s, 0, 600),
    STR(trusted_proxies),
    STR(cors_origins),
    STR(log_origin),
    INT(receipt_version, 2, 3),
    STR(metrics_listen),
    BOOL(metrics_public),
    BOOL(log_requests),
    STR(issue_versions),
    INT(clock_offset_s, -10 * 365 * 86400, 10 * 365 * 86400),
    STR(identity_apple_client_ids),
    STR(identity_google_client_ids),
    STR(identity_apple_jwks_file),
    STR(identity_google_jwks_file),
    STR(identity_apple_jwks_url),
    STR(identity_google_jwks_url),
    INT(identity_jwks_min_refresh_s, 1, 86400),
    INT(identity_jwks_max_refresh_s, 1, 7 * 86400),
    INT(identity_clock_skew_s, 0, 3600),
    INT(identity_nonce_ttl_s, 10, 86400),
    BOOL(identity_require_nonce),
    INT(rate_nonces_per_ip, 0, 10000000),
    STR(daily_requires),
    STR(level_requires),
};

bool config_set(config *c, const char *key, const char *value, char *err, size_t err_len)
{
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const key_def *k = &keys[i];
        if (strcmp(k->name, key) != 0)
            continue;
        char *field = (char *)c + k->offset;
        int64_t v = 0;
        switch (k->k) {
        case K_STR:
            if (strlen(value) >= k->size) {
                snprintf(err, err_len, "%s: value too long", key);
                return false;
            }
            if (strcmp(k->name, "daily_seeds") == 0 && strcmp(value, "sealed") != 0 &&
                strcmp(value, "public") != 0) {
                snprintf(err, err_len, "%s: expected sealed or public", key);
                return false;
            }
            if ((strcmp(k->name, "daily_requires") == 0 || strcmp(k->name, "level_requires") == 0) &&
                strcmp(value, "any") != 0 && strcmp(value, "identity") != 0) {
                snprintf(err, err_len, "%s: expected any or identity", key);
                return false;
            }
            memcpy(field, value, strlen(value) + 1);
            return true;
        case K_BOOL:
            if (strcmp(value, "true") == 0 || strcmp(value, "1") == 0)
                v = 1;
            else if (strcmp(value, "false") != 0 && strcmp(value, "0") != 0) {
                snprintf(err, err_len, "%s: expected true or false", key);
                return false;
            }
            *(bool *)(void *)field = v != 0;
            return true;
        case K_INT:
        case K_SIZE:
            if (!parse_i64(value, k->min, k->max, &v)) {
                snprintf(err, err_len, "%s: expected an integer in %lld..%lld", key,
                         (long long)k->min, (long long)k->max);
                return false;
            }
            if (k->k == K_INT)
                *(int *)(void *)field = (int)v;
            else
                *(size_t *)(void *)field = (size_t)v;
            return true;
        }
    }
    snprintf(err, err_len, "unknown setting \"%s\"", key);
    return false;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

/* A file holding the admin token follows private_file.h's rule (as ssh
 * does with a private key). what names the setting, hint ends the
 * message; f is the open file. */
static bool token_file_private(FILE *f, const char *what, const char *path, const char *hint,
                               char *err, size_t err_len)
{
    char why[1024];
    if (private_file_fd(fileno(f), path, why, sizeof why))
        return true;
    snprintf(err, err_len, "%s %s%s", what, why, hint);
    return false;
}

bool config_load_file(config *c, const char *path, char *err, size_t err_len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_len, "%s: cannot open", path);
        return false;
    }
    char line[1024];
    int lineno = 0;
    bool ok = true;
    char token_before[sizeof c->admin_token];
    memcpy(token_before, c->admin_token, sizeof token_before);
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = trim(line);
        if (!*s)
            continue;
        char *eq = strchr(s, '=');
        char msg[256];
        if (!eq) {
            snprintf(err, err_len, "%s:%d: expected key = value", path, lineno);
            ok = false;
            break;
        }
        *eq = '\0';
        if (!config_set(c, trim(s), trim(eq + 1), msg, sizeof msg)) {
            snprintf(err, err_len, "%s:%d: %s", path, lineno, msg);
            ok = false;
        }
    }
    /* a file that sets admin_token is a secret's file */
    if (ok && c->admin_token[0] && strcmp(c->admin_token, token_before) != 0)
        ok = token_file_private(f, "the config file", path,
                                "; it holds the admin token (or keep the token in admin_token_file)",
                                err, err_len);
    sodium_memzero(token_before, sizeof token_before);
    fclose(f);
    return ok;
}

bool config_admin_token(config *c, char *err, size_t err_len)
{
    if (c->admin_token_file[0]) {
        FILE *f = fopen(c->admin_token_file, "r");
        if (!f) {
            snprintf(err, err_len, "admin_token_file %s: cannot open", c->admin_token_file);
            return false;
        }
        if (!token_file_private(f, "admin_token_file", c->admin_token_file, "", err, err_len)) {
            fclose(f);
            return false;
        }
        size_t n = fread(c->admin_token, 1, sizeof c->admin_token - 1, f);
        bool longer = fgetc(f) != EOF;
        fclose(f);
        c->admin_token[n] = '\0';
        while (n > 0 && isspace((unsigned char)c->admin_token[n - 1]))
            c->admin_token[--n] = '\0';
        if (longer || strchr(c->admin_token, '\n')) {
            snprintf(err, err_len, "admin_token_file %s: expected one line of at most %zu bytes",
                     c->admin_token_file, sizeof c->admin_token - 1);
            return false;
        }
        if (n == 0) {
            snprintf(err, err_len, "admin_token_file %s: the file is empty", c->admin_token_file);
            return false;
        }
    }
    size_t n = strlen(c->admin_token);
    if (n > 0 && n < ADMIN_TOKEN_MIN) {
        snprintf(err, err_len, "admin_token: at least %d bytes are required (e.g. head -c 32 /dev/urandom | base64)",
                 ADMIN_TOKEN_MIN);
        return false;
    }
    return true;
}
