/*
 * store_rules: the store's domain rules, written once above the backends
 * over store_driver.h: a registration, a token issue (the daily's one
 * token, the outstanding-token cap, the forfeit cap), a rejection (the
 * burned token, the moves quota), a score (the one redeem check, the ban,
 * the duplicate rule, the review hold, the level best) and each
 * operator's action (store_admin.c: void, restore, approve, ban, unban,
 * rename and the settling of each board they touch), and the reads every
 * backend answers the same way (store_reads.c; the operators' reads,
 * store_admin_reads.c).
 *
 * The store's one transaction loop (store_txn.c) runs each write of a
 * batch through store_rules_write inside the batch's transaction. A
 * refusal (conflict, limit, not found, banned) is decided before the
 * write changes a row, so it leaves nothing behind; a refused duplicate
 * run keeps its rejection row (STORE_DUPLICATE). A write that fails after
 * it may have written answers STORE_ERROR or STORE_BUSY and the loop
 * undoes it alone (a rollback to its savepoint, or the batch run again
 * without it): a rule never undoes its own work.
 *
 * Ownership: what a write fills for its caller (an existing score's
 * strings, an action's board changes) is the caller's, freed by
 * store_rules_forget when the work is undone; row readers fill heap
 * strings the caller frees with store_score_clear.
 */
#ifndef REPLAYD_SERVER_STORE_RULES_H
#define REPLAYD_SERVER_STORE_RULES_H

#include "rank.h"
#include "store_driver.h"

/* Runs w (any kind) in the open transaction and returns its status;
 * cfg holds the rejection caps. */
store_status store_rules_write(const sd_db *x, const store_config *cfg, store_write *w);
/* Drops what w filled for its caller when its work is undone. */
void store_rules_forget(store_write *w);

/* store_player.c: a registration (a player of its own; no identity). */
store_status store_rules_player(const sd_db *x, store_write *w);
/* store_identity.c: a sign-in or link with an identity (store.h's player
 * write says each answer), and a sign-in nonce's record. */
store_status store_rules_identity(const sd_db *x, store_write *w);
store_status store_rules_nonce(const sd_db *x, store_write *w);

/* store_admin.c: an operator's action (in the transaction). */
store_status store_rules_admin(const sd_db *x, store_write *w);
/* store_admin_reads.c: the operators' reads into rows (store.h's
 * store_admin_read), from one snapshot of x. */
store_status store_rules_admin_read(const sd_db *x, const store_admin_query *q, store_admin_answer *out);
/* store_admin.c: recomputes the player's entry on one board (a game's
 * level board, date "" or NULL; or a day's board) from the scores, as an
 * action or a twin hold left them, into *out: a level board's level_bests
 * row is replaced by the player's best score still on the board (or
 * none); a daily board reads the player's day's score. */
store_status store_rules_settle(const sd_db *x, const char *game_name, int level, const char *date,
                                int64_t player, store_board_change *out);

/* store_twins.c: a score's twin pass inside its transaction (the runs of
 * its shape committed after the caller's read; before the score's row),
 * the other run of a linked pair held (after it), and what the pass set,
 * dropped when the write is undone. */
store_status store_rules_twin_pass(const sd_db *x, store_score *sc);
store_status store_rules_twin_hold(const sd_db *x, store_write *w, int64_t cause);
void store_rules_twin_forget(store_write *w);
/* store_parallel.c: a score's claimed play against the player's other
 * runs (store.h, parallel_overlap_ms), inside its transaction after the
 * player's row lock; and what it set, dropped when the write is undone. */
store_status store_rules_parallel_pass(const sd_db *x, store_score *sc);
void store_rules_parallel_forget(store_write *w);

/* store_ageing.c: the new-account hold (store.h, new_account), judged
 * inside the score's transaction after the player's lock, and what it
 * set, dropped when the write is undone. */
store_status store_rules_new_account_pass(const sd_db *x, store_score *sc);
void store_rules_new_account_forget(store_write *w);

/* store_scorelog.c: the score log's leaf of what the write just changed,
 * appended in the open transaction (docs/LOG.md section 7): a recorded
 * score (its status as it commits); an operator's action (kind, its
 * admin log id, when, the player, the score's id bytes (its nonce) for
 * void, restore and approve, else NULL, the new name for rename). The next index is taken from
 * log_head (its row held until the commit), so the leaves' order is the
 * commits' and a write undone takes its leaf and index with it. The
 * write's logged and log_index record the leaf. */
store_status store_scorelog_score(const sd_db *x, store_write *w, int64_t idx);
/* The next index, taken ahead of a score's leaf (its v3 receipt names it
 * in the score's row); store_scorelog_score then appends at it (idx -1:
 * it takes the next itself). */
store_status store_scorelog_reserve(const sd_db *x, int64_t *idx);
store_status store_scorelog_action(const sd_db *x, store_write *w, log_kind kind, int64_t action_id, int64_t at_ms,
                                   int64_t player_id, const uint8_t *score_id, const char *name);
/* The leaves from index `from`, at most max, in order; *n gets how many. */
store_status store_read_log_entries(const sd_db *x, int64_t from, int max, store_log_entry *out,
                                    int *n);
/* store_logseal.c: seals the leaves appended since the last checkpoint,
 * in the open transaction of a batch that appended (so it holds
 * log_head's row): extends the tree from the checkpoint's frontier, adds
 * the stored hashes of tile levels above 0 (log_hashes), and writes the
 * new checkpoint signed with keys (store.h). Nothing when no leaf waits
 * or keys has none. A failure fails the batch. Each of the n writes
 * that appended a leaf gets its tlog-proof (store.h, log_proof); one
 * that cannot be made is logged and left NULL. */
store_status store_logseal(const sd_db *x, const store_log_keys *keys, store_write *const *logged, int n);
/* A seal on its own (STORE_WRITE_LOG_SEAL): takes log_head's row as an
 * append does and marks w logged (log_index -1), so the transaction
 * seals; the empty log's first checkpoint is signed too. */
store_status store_logseal_take(const sd_db *x, store_write *w);
/* The latest checkpoint and a tile level's stored hashes (store.h's
 * store_log_checkpoint and store_log_hashes) on a reader. */
store_status store_read_log_checkpoint(const sd_db *x, int64_t *size, char *note, size_t cap);
store_status store_read_log_hashes(const sd_db *x, int level, int64_t from, int max,
                                   uint8_t (*out)[32], int *n);

/* store_signals.c: adds {key: value} to sc's signals, replacing a record
 * of that key (value's reference is taken, also on failure), or drops
 * key's record (nothing when it has none or memory runs out). */
store_status store_signal_set(store_score *sc, const char *key, json_t *value);
void store_signal_drop(store_score *sc, const char *key);
/* store_rows.c (a leaf, with store_game_day and the texts below). Rows:
 * a TOKEN_ROW at column 0 (false when it names a game this build
 * does not serve or a date that is not one), a SCORE_ROW. */
bool store_read_token(const sd_db *x, sd_stmt *s, store_token *t, int64_t *rejections);
store_status store_read_score(const sd_db *x, sd_stmt *s, store_score *o);
/* The score of a token; STORE_NOT_FOUND when it has none. */
store_status store_score_by_nonce(const sd_db *x, const uint8_t nonce[PLAY_NONCE_BYTES],
                                  store_score *out);

/* A game's name and a date ("" or NULL for a level) into a play's game and
 * day; false when either is not one this build knows. */
bool store_game_day(const char *name, const char *date, play *p);
/* The text columns of a run's outcome and a score's status. */
const char *store_outcome_text(run_outcome o);
const char *store_status_text(score_status s);

/* store_reads.c: the reads of store_backend.h, on a reader connection. */
store_status store_read_player_by_token(const sd_db *x, const uint8_t hash[STORE_HASH_BYTES],
                                        store_player *out);
store_status store_read_player_names(const sd_db *x, int n, const int64_t *ids,
                                     char (*names)[STORE_NAME_MAX + 1]);
store_status store_read_player_approved(const sd_db *x, int64_t player_id, int64_t *count);
store_status store_read_daily_issued(const sd_db *x, const char *date, bool *issued);
store_status store_read_key_ids(const sd_db *x, int64_t *ids, int max, int *n);
store_status store_read_token_stats(const sd_db *x, int64_t player_id, int64_t now,
                                    store_token_stats *out);
store_status store_read_play_time(const sd_db *x, int64_t player_id, store_play_time *out);
store_status store_read_scores_page(const sd_db *x, const store_scan *scan, int64_t after_seq,
                                    int limit, store_score *out, int *n);
store_status store_read_scores_count(const sd_db *x, const store_scan *scan, int64_t *out);
/* The twin candidates newer than after_seq (store.h), newest first; on
 * the writer's connection too (run_score's pass inside the transaction). */
store_status store_read_twin_candidates(const sd_db *x, const play *p,
                                        const uint8_t shape[STORE_HASH_BYTES], int64_t after_seq,
                                        int limit, store_twin_candidate *out, int *n);
/* The run seq's times and its board's population's (store.h, store_board_times). */
store_status store_read_board_times(const sd_db *x, const play *p, int64_t seq, int limit,
                                    store_twin_candidate *out, int *n);
store_status store_read_board(const sd_db *x, const store_board *b, rank_board *into);

#endif
