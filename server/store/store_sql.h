/*
 * store_sql: the SQL text of the store's named statements (store_driver.h),
 * written once for both backends with ?N parameters, and beside each its
 * declared parameter count (the highest ?N) and column count. SQLite
 * prepares the text as it is; PostgreSQL prepares it with $N for each ?N
 * (sd_sql_dollars). A backend keeps its own text only for the few
 * statements its engine needs to differ (sqlite_conn.c, pg_conn.c list
 * them, each with its reason); an entry here without text is one of those,
 * or a hook one engine does not need (a PostgreSQL row lock). The counts
 * are declared here for every statement, overrides included: each backend
 * checks its prepared statements against them when it opens
 * (sd_sql_counts_ok), so a statement whose parameters or columns drifted
 * from what the rules bind and read refuses to start the store.
 *
 * Static data; sd_sql_dollars' text is the caller's to free.
 */
#ifndef REPLAYD_SERVER_STORE_SQL_H
#define REPLAYD_SERVER_STORE_SQL_H

#include <stdbool.h>
#include <stddef.h>

#include "store_driver.h"

typedef struct sd_sql {
    const char *text; /* ?N parameters; NULL: a backend's own (see above) */
    int params;       /* parameters: the highest ?N */
    int cols;         /* columns of a row; 0: no rows */
} sd_sql;

extern const sd_sql sd_sql_of[SD_COUNT];

/* Pieces of the backends' own SD_SCORE_RECORD (a list on SQLite, a CTE on
 * PostgreSQL) and of SD_BEST_RECOMPUTE: the score's insert, the level
 * best's, and its rule (replaced only by a strictly higher score). */
#define SD_SCORE_INSERT                                                                    \
    "INSERT INTO scores (score_id, nonce, player_id, game, level, seed, version, daily_date," \
    " score, completed, received_at, moves_hash, receipt, moves_json, result_json, status,"  \
    " signals, duplicate_of, suspicion, shape_hash, twin_of, twin_times, claimed_ms)"       \
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,"  \
    " ?18, ?21, ?22, ?23, ?24, ?25)"
#define SD_BEST_INSERT "INSERT INTO level_bests (game, level, score, seq, player_id, received_at, nonce)"
#define SD_BEST_IF_HIGHER                                                                  \
    " ON CONFLICT (game, level, player_id) DO UPDATE SET score = excluded.score,"           \
    " seq = excluded.seq, received_at = excluded.received_at, nonce = excluded.nonce"       \
    " WHERE excluded.score > level_bests.score"

/* True when a prepared statement's counts are the declared ones; else
 * false, with err naming the statement and both counts. */
bool sd_sql_counts_ok(const char *name, const sd_sql *declared, int params, int cols,
                      char *err, size_t err_len);

/* text with $N for each ?N outside string literals, then suffix (may be
 * NULL); NULL when out of memory. */
char *sd_sql_dollars(const char *text, const char *suffix);

#endif
