/* store_driver: the statements' names, for error logs, and the helpers
 * the rules share (see the header). */
#include "store_driver.h"

const char *const sd_names[SD_COUNT] = {
    [SD_NET_QUOTA_PRUNE] = "net_quota_prune",
    [SD_NET_QUOTA_TAKE] = "net_quota_take",
    [SD_KEY_RECORD] = "key_record",
    [SD_KEY_GET] = "key_get",
    [SD_KEY_IDS] = "key_ids",
    [SD_DAILY_ISSUED] = "daily_issued",
    [SD_BEGIN] = "begin",
    [SD_COMMIT] = "commit",
    [SD_ROLLBACK] = "rollback",
    [SD_SAVEPOINT] = "savepoint",
    [SD_RELEASE] = "release",
    [SD_ROLLBACK_TO] = "rollback_to",
    [SD_READ_BEGIN] = "read_begin",
    [SD_READ_END] = "read_end",
    [SD_PLAYER_INSERT] = "player_insert",
    [SD_PLAYER_BY_HASH] = "player_by_token",
    [SD_PLAYER_NAMES] = "player_names",
    [SD_PLAYER_LOCK] = "player_lock",
    [SD_TOKEN_INSERT] = "token_insert",
    [SD_TOKEN_GET] = "token_get",
    [SD_SCORE_TOKEN] = "score_token",
    [SD_TOKEN_DAILY] = "token_daily",
    [SD_TOKEN_LIMITS] = "token_limits",
    [SD_TOKEN_STATS] = "token_stats",
    [SD_PLAYED_RUNS] = "played_runs",
    [SD_SCORE_RECORD] = "score_record",
    [SD_SCORE_TWIN] = "score_twin",
    [SD_TWIN_CANDIDATES] = "twin_candidates",
    [SD_TWIN_LOCK] = "twin_lock",
    [SD_PLAYER_WINDOWS] = "player_windows",
    [SD_SCORE_BY_NONCE] = "score_by_nonce",
    [SD_REJECTION_INSERT] = "rejection_insert",
    [SD_TOKEN_REJECTED] = "token_rejected",
    [SD_QUOTA_PRUNE] = "quota_prune",
    [SD_QUOTA_TAKE] = "quota_take",
    [SD_LOAD_LEVEL] = "load_level",
    [SD_LOAD_DAILY] = "load_daily",
    [SD_SCORES_PAGE] = "scores_page",
    [SD_SCORES_COUNT] = "scores_count",
    [SD_BEST_DELETE] = "admin_best_delete",
    [SD_BEST_RECOMPUTE] = "admin_best_insert",
    [SD_DAILY_ENTRY] = "admin_board_entry",
    [SD_PLAYER_BOARDS] = "admin_player_boards",
    [SD_ADMIN_LOG_INSERT] = "admin_log_insert",
    [SD_ADMIN_PLAYER_ROW] = "admin_player_row",
    [SD_ADMIN_SCORE_ROW] = "admin_score_row",
    [SD_SCORE_VOID] = "admin_void",
    [SD_SCORE_RESTORE] = "admin_restore",
    [SD_SCORE_APPROVE] = "admin_approve",
    [SD_PLAYER_RENAME] = "admin_rename",
    [SD_PLAYER_BAN] = "admin_ban",
    [SD_PLAYER_UNBAN] = "admin_unban",
    [SD_ADMIN_PLAYER] = "admin_player",
    [SD_ADMIN_FEATURES] = "admin_player_features",
    [SD_ADMIN_TOKENS] = "admin_player_tokens",
    [SD_ADMIN_TWIN] = "admin_review_twin",
    [SD_ADMIN_LINKED] = "admin_linked_accounts",
    [SD_ADMIN_BOARD_TIMES] = "admin_board_times",
    [SD_ADMIN_PLAYER_RUNS] = "admin_player_runs",
    [SD_IDENTITY_LOCK] = "identity_lock",
    [SD_IDENTITY_GET] = "identity_get",
    [SD_IDENTITY_OF_PLAYER] = "identity_of_player",
    [SD_IDENTITY_INSERT] = "identity_insert",
    [SD_IDENTITY_LIST] = "identity_list",
    [SD_PLAYER_SET_TOKEN] = "player_set_token",
    [SD_NONCE_INSERT] = "nonce_insert",
    [SD_NONCE_PURGE] = "nonce_purge",
    [SD_NONCE_TAKE] = "nonce_take",
    [SD_PLAYER_APPROVED] = "player_approved",
    [SD_LOG_NEXT] = "log_next",
    [SD_LOG_APPEND] = "log_append",
    [SD_LOG_ENTRIES] = "log_entries",
    [SD_LOG_SEAL_STATE] = "log_seal_state",
    [SD_LOG_LOCK] = "log_lock",
    [SD_LOG_HASH_ADD] = "log_hash_add",
    [SD_LOG_CHECKPOINT_SET] = "log_checkpoint_set",
    [SD_LOG_CHECKPOINT] = "log_checkpoint",
    [SD_LOG_HASHES] = "log_hashes",
};

store_status sd_failed(const sd_db *x, sd_stmt *s, sd_id id)
{
    if (s)
        x->d->done(s);
    return x->d->failed(x->c, sd_names[id]);
}

store_status sd_run(const sd_db *x, sd_stmt *s, sd_id id)
{
    if (x->d->step(s) == SD_FAIL)
        return sd_failed(x, s, id);
    x->d->done(s);
    return STORE_OK;
}

store_status sd_lock_player(const sd_db *x, int64_t player_id)
{
    sd_stmt *s = x->d->start(x->c, SD_PLAYER_LOCK);
    if (!s)
        return sd_failed(x, NULL, SD_PLAYER_LOCK);
    x->d->bind_int(s, player_id);
    return sd_run(x, s, SD_PLAYER_LOCK);
}
