/*
 * config: every setting of `replayd serve`, its embedded default, the
 * config file ("key = value" lines, # comments) and command-line overrides.
 * config/replayd.conf.example documents each key. Strings are inline.
 */
#ifndef REPLAYD_SERVER_CONFIG_H
#define REPLAYD_SERVER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct config {
    char listen_addr[64];
    int port;
    char data_dir[512];
    /* empty: the SQLite file data_dir/replayd.db; a postgres:// URL: that
     * PostgreSQL database (several nodes may share it) */
    char database[512];
    char tls_cert[512]; /* both set: serve HTTPS */
    char tls_key[512];
    int threads;
    int max_connections;
    int max_connections_per_ip;
    int connection_timeout_s;  /* libmicrohttpd's idle timeout */
    /* conn_guard: deadlines per request, not idle timers */
    int header_timeout_ms;
    int body_timeout_ms;
    int body_min_rate;         /* bytes per second */
    size_t connection_memory;
    size_t max_body;
    int max_json_depth;
    int max_moves;
    int token_lifetime_s;
    int daily_grace_s;
    /* "sealed": a daily's seed comes from the date and keys/daily.key and
     * is published only once its day opens (daily_seal.h); "public": the
     * schedule's own seeds, which anyone can compute ahead */
    char daily_seeds[16];
    int max_outstanding_tokens;
    /* A run may claim at most elapsed * (1 + permille/1000) + ms, elapsed
     * measured from issue to receipt on the server's clock: the slack
     * covers only the client clock's rate error and timer granularity. */
    int plausibility_slack_ms;
    int plausibility_slack_permille;
    int forfeit_short_ms;          /* an incomplete run shorter than this is a forfeit */
    int max_forfeits_per_level_day; /* forfeits + abandons + open tokens; 0: no cap */
    int max_draws_per_level_day;    /* level tokens issued, however they ended; 0: no cap */
    int rehearsal_bound_ms;        /* idle time before a run above this is a signal */
    /* rate limits: requests per minute, per key */
    int rate_register_per_ip;
    int rate_register_per_prefix; /* per IPv4 /24 or IPv6 /64 of the client */
    int rate_seeds_per_player;
    int rate_scores_per_player;
    int rate_per_ip;
    int busy_timeout_ms;
    int group_commit_max;
    int group_commit_wait_us;
    int wal_checkpoint_frames;
    int level_cache_entries;
    size_t board_cache_bytes; /* leaderboards held in memory, LRU past this */
    /* rejected replays: a token burns after rejections_per_token; moves are
     * kept for a token's first rejection_moves_per_token rejections and at
     * most rejection_moves_per_player_day a day per player */
    int rejections_per_token;
    int rejection_moves_per_token;
    int rejection_moves_per_player_day;
    int rejection_moves_per_net_day; /* per client /24 or /64 a day */
    /* The admin bearer token (empty: admin endpoints disabled): at least
     * ADMIN_TOKEN_MIN bytes, set in the config file or read from
     * admin_token_file (never from the command line, which /proc shows). */
    char admin_token[256];
    char admin_token_file[512];
    int admin_failures_per_minute; /* failed admin attempts per client address */
    /* Scores whose suspicion is at or above this are held off the public
     * boards until an operator approves them; 0: off (default 500). */
    int review_hold_threshold;
    /* A daily run that would enter the top review_top of its board, from a
     * player none of whose runs an operator has approved, is held until one
     * does (records are reviewed); 0: off (default 3). */
    int review_top;
    /* Think floors (fairplay.h, think_ms): a run whose first decision came
     * sooner after its token's issue than this permille of its game's
     * think floor (the spec's "Fair play") is held; 0: off (default 1000). */
    int think_floor_permille;
    /* The new-account hold (docs/OPERATIONS.md, New accounts): a guest's
     * daily score is held until the account is new_account_hours old AND
     * has played new_account_play_minutes (the union of its completed,
     * unheld level runs' intervals on the server's clock) across
     * new_account_levels distinct boards in at least new_account_runs such
     * runs. new_account_runs or new_account_hours 0: the hold is off. */
    int new_account_runs;
    int new_account_hours;
    int new_account_play_minutes;
    int new_account_levels;
    /* Twin runs (twins.h): another player's run with the same moves whose
     * gaps correlate at least this (permille) links both; 0: off. */
    int twin_correlation_permille;
    int parallel_overlap_ms; /* a run whose claimed play overlaps another of the player's by more: held; 0 off */
    /* Accounts registered from one network prefix (IPv4 /24, IPv6 /64)
     * within this many seconds of each other are shown to operators as
     * linked (admin views); 0: not shown. */
    int linked_window_s;
    bool keepalive;            /* false: every answer closes its connection */
    /* SIGTERM: /healthz answers 503 this many seconds while everything
     * else is served (Connection: close) before the listener stops, so a
     * balancer takes the node out first; 0: the listener stops at once. */
    int drain_grace_s;
    char trusted_proxies[512]; /* CIDR list: only these may say who the client is */
    char cors_origins[1024];   /* origins browsers may call from; "*" for any */
    char log_origin[256];      /* the score log's origin and key name (docs/LOG.md) */
    int receipt_version;       /* the receipts new scores get: 3 (the log's) or 2 (signed) */
    /* /metrics: on its own listener ("ADDR:PORT", e.g. 127.0.0.1:9090), or
     * on the main one behind admin_token, or public when metrics_public */
    char metrics_listen[80];
    bool metrics_public;
    bool log_requests;
    /* Per-game issuing version overrides, "game=version,..." (tests and
     * staged rollouts); empty: each game's current version. */
    char issue_versions[256];
    /* Shifts the server's clock, for tests of day boundaries only. */
    int clock_offset_s;
    /* Sign in with Apple and Google (identity.h, docs/OPERATIONS.md): each
     * provider is on with its client ids (comma-separated: the aud an ID
     * token may carry) and a JWKS file, a JWKS URL (jwks_fetch.h: fetched
     * at start and refreshed between identity_jwks_min_refresh_s and
     * identity_jwks_max_refresh_s apart), or both. ID tokens' exp, nbf and
     * iat may be off by identity_clock_skew_s; sign-in nonces live
     * identity_nonce_ttl_s and, with identity_require_nonce, every ID token
     * must carry one. */
    char identity_apple_client_ids[1024];
    char identity_google_client_ids[1024];
    char identity_apple_jwks_file[512];
    char identity_google_jwks_file[512];
    char identity_apple_jwks_url[512];
    char identity_google_jwks_url[512];
    int identity_jwks_min_refresh_s;
    int identity_jwks_max_refresh_s;
    int identity_clock_skew_s;
    int identity_nonce_ttl_s;
    bool identity_require_nonce;
    int rate_nonces_per_ip;
    /* What a player must have for their scores to rank on each kind of
     * board: "any" (every player) or "identity" (a player with a bound
     * Apple or Google identity; others' scores are kept, held off with
     * held_reason "identity"). Bound players are never under the
     * new-account hold. */
    char daily_requires[16];
    char level_requires[16];
} config;

void config_defaults(config *c);

/* Loads a file over the current values. Returns false with a message
 * (file:line: problem) on an unreadable file, an unknown key or a bad value,
 * and when the file sets admin_token but its group or others may read or
 * write it (as ssh refuses such a key). */
bool config_load_file(config *c, const char *path, char *err, size_t err_len);

/* Sets one key from text, as the file would. */
bool config_set(config *c, const char *key, const char *value, char *err, size_t err_len);

#define ADMIN_TOKEN_MIN 32

/* Reads admin_token_file into admin_token (trailing newline and spaces
 * dropped) and checks the token's length, and that the file has no group
 * or other permission bit. false with a message. */
bool config_admin_token(config *c, char *err, size_t err_len);

#endif
