/*
 * store: everything replayd keeps, behind one interface.
 *
 * Nothing outside server/store/ (and its backends) knows which database is
 * underneath. store_open picks the backend that claims `database` (the
 * embedded default is a SQLite file; see store_backend.h for the table of
 * backends). Above the backend, the store owns what every backend shares:
 * the writer queue that group-commits writes, the leaderboards held in
 * memory (board_cache.h) and the cache of player names shown on boards.
 * Operators' actions (STORE_WRITE_ADMIN) are writes like the others: their
 * board changes reach the boards in memory on the writer thread, in order
 * with the scores committed around them.
 *
 * Writes are asynchronous records: the caller fills a store_write, hands it
 * to store_write_async and gets it back through its `done` callback, once,
 * on the writer thread, after the transaction that holds it committed (or
 * failed). Nothing is acknowledged before its commit. store_write_wait is
 * the same write for callers that may block (the CLI, tests, admin tools).
 *
 * Thread safety: every function may be called from any thread at once.
 *
 * Ownership: a store_write belongs to its caller, who must keep it alive
 * until `done` ran. Out-structs are filled by the store; the heap strings
 * in them are store_score's moves_json, result_json, signals_json and
 * twin_times (freed with store_score_clear), a twin candidate's times
 * (store_twin_candidates_clear), an admin write's board changes
 * (store_admin_clear) and an operators' read's rows (store_admin_answer_clear
 * and each row's own _clear); all are in store_clear.c, a leaf. Times are
 * unix milliseconds.
 */
#ifndef REPLAYD_SERVER_STORE_H
#define REPLAYD_SERVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "../base/play.h"
#include "../log/entry.h"

typedef enum store_status {
    STORE_OK = 0,
    STORE_NOT_FOUND,
    STORE_CONFLICT, /* e.g. a token already redeemed */
    STORE_LIMIT,    /* e.g. too many outstanding tokens, a burned token */
    STORE_BUSY,     /* the database stayed locked past the busy timeout: 503 */
    STORE_DUPLICATE, /* a timed run identical to another player's: refused */
    STORE_BANNED,   /* the player is banned: 403 */
    STORE_ERROR     /* anything else: 500, logged once where it happened */
} store_status;

#define STORE_NAME_MAX 64   /* player names, bytes of UTF-8 */
#define STORE_TOKEN_MAX 255 /* a seed token's text */
#define STORE_HASH_BYTES 32
#define STORE_RECEIPT_MAX 255
#define STORE_REASON_MAX 47
#define STORE_REASON_TEXT_MAX 500 /* an operator's reason for an action */
#define STORE_ACTOR_MAX 127
#define STORE_NET_MAX 63 /* a client network's text */

typedef struct store store;

/* The score log's signing (docs/LOG.md sections 6 and 9): every
 * transaction that appends leaves seals them before its commit with a
 * checkpoint signed under `origin` (also the keys' name) by each key, the
 * current one first (two during a rotation). n = 0: leaves are appended
 * and left for the next store opened with keys to seal (a command run
 * without the server's keys). Copied by store_open; store_close wipes it. */
#define STORE_LOG_KEYS_MAX 2
#define STORE_LOG_ORIGIN_MAX 255
typedef struct store_log_keys {
    char origin[STORE_LOG_ORIGIN_MAX + 1];
    int n;
    uint8_t secret[STORE_LOG_KEYS_MAX][64]; /* libsodium Ed25519 secret keys */
} store_log_keys;

typedef struct store_config {
    const char *database;     /* a SQLite file path (created with its directory) */
    int busy_timeout_ms;
    int group_commit_max;     /* most writes in one transaction */
    int group_commit_wait_us; /* how long the writer waits to fill a batch */
    /* SQLite: WAL frames (pages) a checkpoint waits for (0: 10000) */
    int wal_checkpoint_frames;
    /* Bytes of leaderboards kept in memory (0: 256 MiB); see board_cache.h */
    size_t board_cache_bytes;
    /* Rejected replays (0: no cap): a token is burned after this many */
    int rejections_per_token;
    /* their moves are kept for the first this-many rejections of a token */
    int rejection_moves_per_token;
    /* and for at most this many rejections of a player in a UTC day */
    int rejection_moves_per_player_day;
    /* and of a client network (store_rejection.net) in a UTC day (0: no cap) */
    int rejection_moves_per_net_day;
    store_log_keys log;
} store_config;

store_status store_open(const store_config *cfg, store **out, char *err, size_t err_len);
/* Commits what the writer holds, stops it, closes the database. */
void store_close(store *s);
/* The newest schema migration applied (store_open applies them all), or
 * -1 when the database cannot say. */
int store_schema_version(store *s);

/* ---- records ---- */

/* A leaderboard: a daily board (day >= 0) or a level board (g + level);
 * see "leaderboards" below. */
typedef struct store_board {
    int32_t day;  /* a daily board's day number, or -1 */
    const game *g; /* a level board's game (NULL for a daily board) */
    int level;
} store_board;


#define STORE_PROVIDER_MAX 15  /* an identity provider's name: "apple", "google" */
#define STORE_SUBJECT_MAX 255  /* an identity's subject (an ID token's sub) */

typedef struct store_player {
    int64_t id;
    char name[STORE_NAME_MAX + 1];
    int64_t created_at;
    bool banned;
    /* the provider of the player's identity ("" for a guest; of several,
     * the first by name) */
    char provider[STORE_PROVIDER_MAX + 1];
} store_player;

/* An issued seed token, as recorded. */
typedef struct store_token {
    play p;
    int64_t issued_at;
    int64_t expires_at;
    char text[STORE_TOKEN_MAX + 1]; /* the token as issued, for re-issue */
    bool redeemed;
} store_token;

/* A player's tokens by how their runs ended. issued = completed +
 * incomplete + forfeited + outstanding + abandoned (expired unredeemed).
 * Draws: the level tokens issued since the start of the UTC day, and the
 * most of them of one (game, level) (what max_draws_per_level_day caps). */
typedef struct store_token_stats {
    int64_t issued, completed, incomplete, forfeited, outstanding, abandoned;
    int64_t draws_today, most_draws_one_level_today;
} store_token_stats;

/* How a redeemed token's run ended. A forfeit is an incomplete run that
 * gave up early (the server's forfeit_short_ms rule): with abandons it is
 * what drawing seeds until an easy one comes up leaves behind. */
typedef enum run_outcome { RUN_COMPLETED, RUN_INCOMPLETE, RUN_FORFEIT } run_outcome;

/* Where a score stands: on the public boards, or held off them until an
 * operator looks. */
typedef enum score_status { SCORE_RANKED, SCORE_HELD } score_status;

/* A verified score: one per seed token. */
/* Compares two runs' progress times (twins.h, twin_times_correlation):
 * true with their correlation in permille, false when it says nothing.
 * Handed down by the caller; the store runs it on its writer thread. */
typedef bool (*store_twin_match)(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
                                 int *permille);

/* The new-account hold's thresholds and the player's facts it needs
 * (store_score.new_account). */
typedef struct store_new_account {
    int64_t hours, play_minutes, levels, runs; /* config.h's new_account_* */
    int64_t created_at;                       /* the player's registration, ms */
    bool bound;                               /* the player has an identity */
} store_new_account;

typedef struct store_score {
    play p;
    char score_id[PLAY_ID_LEN + 1]; /* play_score_id(&p), computed once by whoever builds it */
    char player_name[STORE_NAME_MAX + 1]; /* filled by reads (store_score_get) */
    int64_t score;
    bool completed;
    run_outcome outcome;
    bool timed;            /* the game measures time (an untimed duplicate is held, not refused) */
    score_status status;   /* set by the store when it commits (and by reads) */
    int64_t duplicate_of;  /* set by the store: the seq of an identical earlier run, or 0 */
    int64_t received_at;
    int64_t seq; /* the server-received order, assigned by the store at commit */
    uint8_t moves_hash[STORE_HASH_BYTES];
    char receipt[STORE_RECEIPT_MAX + 1];
    char *moves_json;   /* owned */
    char *result_json;  /* owned */
    char *signals_json; /* owned: facts measured at verification, a JSON object */
    int64_t suspicion;  /* the features' weighted sum (fairplay.h); recorded with duplicate_weight
                         * and twin_weight added where they apply */
    int64_t duplicate_weight; /* in: added to suspicion when the store finds the run a duplicate */
    int64_t review_threshold; /* in: a suspicion at or above it is held until approved (0: never) */
    bool hold;          /* in: held until approved whatever the suspicion (identity, record, think time) */
    /* in: the run's shape and its progress times (twins.h), kept to find
     * twins by (twin_times: hex, owned, freed by store_score_clear; NULL
     * for an untimed run). twin_of: the seq of another player's run this
     * one twins, or 0, with that run's player and the correlation, as the
     * caller found them among the candidates it read (store_twin_candidates),
     * the newest of which was twin_seen. When twin_match is set, the store
     * compares, inside the score's transaction, the candidates committed
     * after twin_seen too (so two twins committed together meet) and keeps
     * the best at twin_threshold or more, adding a "twin" record to
     * signals_json when it is its own find. Once linked, both runs are
     * held: this one, and the other, which gains twin_weight suspicion,
     * this run as its twin_of unless it has one, and leaves its board
     * (the write's twin_change). */
    bool has_shape;
    uint8_t shape_hash[STORE_HASH_BYTES];
    char *twin_times;
    int64_t twin_of;
    int64_t twin_player;
    int twin_permille;
    int64_t twin_seen;
    int twin_threshold;
    store_twin_match twin_match;
    bool twin_found_here; /* set by the store: its own pass linked the pair */
    /* in: the time the run claims (its replay's duration; -1 untimed) and
     * parallel_overlap_ms (0: off). The store sets the run's claimed play,
     * [received_at - claimed_ms, received_at], against the player's other
     * runs of the last hour inside the score's transaction (the player's
     * row held), so runs sent together still meet: overlapping one by more
     * than parallel_overlap_ms, the run is held and its signals get a
     * "parallel" record ({"runs", "overlap_ms", "with_seq"}; parallel_found) */
    int64_t claimed_ms;
    int64_t parallel_overlap_ms;
    bool parallel_found;
    /* in: the new-account hold (docs/OPERATIONS.md, New accounts), for a
     * daily score: the thresholds (runs or hours 0: off), the player's
     * registration time and whether it has an Apple or Google identity
     * (then it skips the hold). The store reads the player's played time
     * (store_read_play_time) inside the score's transaction, after the
     * player's row lock, so the runs committed before it in its batch or
     * on another node count and a run held meanwhile does not. Too new,
     * the run is held and its signals get a "new_account" record
     * (age_ms, completed_runs, played_ms, levels and the thresholds;
     * new_account_found). */
    store_new_account new_account;
    bool new_account_found;
    int64_t twin_weight;
    int64_t voided_at;  /* read: when an operator voided it, or 0 */
    char void_reason[STORE_REASON_TEXT_MAX + 1]; /* read */
} store_score;

void store_score_clear(store_score *sc);

/* A rejected replay, kept for abuse review: its reason, move index and
 * moves hash always; its moves only within the store_config quotas. */
typedef struct store_rejection {
    play p;
    char reason[STORE_REASON_MAX + 1];
    long move_index;
    int64_t received_at;
    uint8_t moves_hash[STORE_HASH_BYTES];
    const char *moves_json; /* borrowed until done */
    /* the client's network ("192.0.2.0/24", netaddr_prefix_of); "": none
     * (a duplicate run), counted against the player's quota only */
    char net[STORE_NET_MAX + 1];
    /* out (STORE_OK): the moves were kept; this rejection burned the token */
    bool moves_kept;
    bool burned;
} store_rejection;

/* ---- writes ---- */

typedef enum store_write_kind {
    STORE_WRITE_PLAYER,    /* register a player */
    STORE_WRITE_TOKEN,     /* record an issued seed token */
    STORE_WRITE_SCORE,     /* redeem a token with its verified score */
    STORE_WRITE_REJECTION, /* record a rejected replay */
    STORE_WRITE_ADMIN,     /* an operator's action (admin_action) */
    STORE_WRITE_KEY,       /* record a key's fingerprint, or compare it with the recorded one */
    STORE_WRITE_NONCE,     /* record a sign-in nonce the server issued */
    STORE_WRITE_LOG_SEAL   /* seal the score log now (store_log_seal) */
} store_write_kind;

#define STORE_KEY_FP_HEX 64 /* a key fingerprint: BLAKE2b-256 in hex */

/* What an operator can do. Each is one transaction that also writes its
 * admin_log row and, when it moves entries, changes the boards in memory
 * in the same writer step (see store_board_change). */
typedef enum admin_action {
    ADMIN_VOID,    /* a score leaves every board; a level board takes the player's next best */
    ADMIN_RESTORE, /* a voided score is valid again */
    ADMIN_APPROVE, /* a score held for review (or as a duplicate) is ranked */
    ADMIN_BAN,     /* the player's entries leave every board; new tokens and scores refused */
    ADMIN_UNBAN,   /* the player's entries come back */
    ADMIN_RENAME   /* the player's name (e.g. an offensive one) */
} admin_action;

/* A board as an action left it for one player: that player's entry now
 * (or none). The store applies it to the board in memory under the
 * board's write lock, as one step: the old entry out, the new one in. */
typedef struct store_board_change {
    store_board board;
    int64_t player_id;
    bool has_entry;
    int64_t score, seq, received_at;
    uint8_t nonce[PLAY_NONCE_BYTES];
} store_board_change;

typedef struct store_write store_write;
typedef void (*store_write_done)(store_write *w);

struct store_write {
    store_write_kind kind;
    store_write_done done; /* once, on the writer thread, after the commit; keep it short */
    void *ctx;             /* the caller's */
    store_status status;   /* set before done */
    /* out, set by the store: the score log's leaf this write appended
     * (a recorded score, an operator's action), at log_index */
    bool logged;
    int64_t log_index;
    /* out, for a score: its leaf's c2sp.org/tlog-proof@v1 (its inclusion
     * in the checkpoint its transaction signed, that checkpoint included),
     * or NULL (not recorded, no keys); heap text the caller frees */
    char *log_proof;
    union {
        /* in: name, token_hash, now, prefix (the client's network prefix
         * as text, "" when unknown). out: created (on STORE_OK). A taken
         * token hash is STORE_CONFLICT.
         * With an identity (provider not ""): a sign-in (link_to 0) or a
         * link of player link_to. Every check comes before any change, so
         * a refusal writes nothing:
         *   - the identity is bound to a banned player: STORE_BANNED;
         *   - a link, of an identity bound to another player, or of a
         *     player bound to another subject of that provider:
         *     STORE_CONFLICT (refused says which);
         *   - has_nonce and the nonce was not issued, is used or has
         *     expired: STORE_NOT_FOUND (the nonce is taken otherwise);
         *   - a sign-in of a bound identity: that player, whose bearer
         *     token becomes token_hash (existed: true; the older token
         *     stops working); of a new one: a new player bound to it;
         *   - a link: bound (existed: true when it was already). */
        struct {
            const char *name;
            uint8_t token_hash[STORE_HASH_BYTES];
            int64_t now;
            char prefix[64];
            char provider[STORE_PROVIDER_MAX + 1];
            char subject[STORE_SUBJECT_MAX + 1];
            bool has_nonce;
            uint8_t nonce_hash[STORE_HASH_BYTES];
            int64_t link_to;
            store_player created;
            bool existed;
            enum { IDENTITY_TAKEN = 1, IDENTITY_PROVIDER_BOUND } refused;
        } player;
        /* in: nonce_hash, expires_at, now (expired nonces are dropped) */
        struct {
            uint8_t nonce_hash[STORE_HASH_BYTES];
            int64_t expires_at;
            int64_t now;
        } nonce;
        /* in: token, max_outstanding, max_forfeits, max_draws, day_start,
         * now. For a level token, STORE_LIMIT with `limit` saying which:
         * the player already holds max_outstanding unexpired unredeemed
         * level tokens, or has max_forfeits tokens of that game and level
         * issued since day_start that were forfeited, abandoned or are
         * still open, or has drawn max_draws tokens of that game and level
         * since day_start whatever became of them (0: no cap). out: draws,
         * the tokens of that game and level drawn since day_start before
         * this one (when either day cap is on). The daily is exempt. A daily token when
         * the player has one for that day already: STORE_CONFLICT with
         * `existing` filled (the caller re-issues an outstanding one, or
         * answers 409 once it is redeemed). */
        struct {
            store_token token;
            int max_outstanding;
            int max_forfeits;
            int max_draws;
            int64_t day_start;
            int64_t now;
            enum { TOKEN_LIMIT_OUTSTANDING, TOKEN_LIMIT_FORFEITS, TOKEN_LIMIT_DRAWS } limit;
            int64_t draws;
            store_token existing;
        } token;
        /* in: score (everything but seq, status, duplicate_of and
         * player_name). The only redeem check: in one transaction the
         * token is marked redeemed with its run's outcome, the score
         * inserted and its board's rows updated; score.seq is set. When the
         * token was redeemed already: STORE_CONFLICT with `existing` filled
         * by the recorded score (same moves hash: a retry; other moves: a
         * conflict). STORE_NOT_FOUND when the token is not on record,
         * STORE_LIMIT when it was burned by rejections_per_token rejections.
         * A run identical to another player's earlier one (same game,
         * level, seed, version and moves hash): a timed one is
         * STORE_DUPLICATE (kept as a rejection, the token stays open); an
         * untimed one is recorded with status SCORE_HELD (off the boards).
         * Either way score.duplicate_of is that run's seq. */
        struct {
            store_score score;
            store_score existing;
            /* out: the board of the run this one was linked to as it now
             * stands for that run's player (held: off it) */
            store_board_change twin_change;
            bool twin_changed;
        } score;
        /* in: key_id, fingerprint, now. The first write of a key id
         * records its fingerprint; out (STORE_OK): recorded (the one on
         * record), matches (it is this one). */
        struct {
            int64_t key_id;
            char fingerprint[STORE_KEY_FP_HEX + 1];
            int64_t now;
            char recorded[STORE_KEY_FP_HEX + 1];
            bool matches;
        } key;
        /* STORE_CONFLICT when the token was redeemed, STORE_LIMIT when it
         * was burned already (nothing is kept then). */
        struct {
            store_rejection rejection;
        } rejection;
        /* in: action, the score (nonce) or player_id, reason, actor, now,
         * name (rename). STORE_NOT_FOUND: no such score or player;
         * STORE_CONFLICT: nothing to do (already voided, not voided, not
         * held, already banned, not banned). out (STORE_OK): log_id,
         * player_id (a score's), changes: heap, freed by
         * store_admin_clear (n_changes entries). */
        struct {
            admin_action action;
            uint8_t nonce[PLAY_NONCE_BYTES];
            int64_t player_id;
            char name[STORE_NAME_MAX + 1];
            char reason[STORE_REASON_TEXT_MAX + 1];
            char actor[STORE_ACTOR_MAX + 1];
            int64_t now;
            int64_t log_id;
            store_board_change *changes;
            int n_changes;
        } admin;
    } u;
    store_write *next; /* the writer queue's link */
};

/* Frees what an admin write's commit filled (its board changes). */
void store_admin_clear(store_write *w);

/* Queues w; w->done runs once it is committed or failed (also while the
 * store is closing: then with STORE_ERROR). */
void store_write_async(store *s, store_write *w);
/* Runs w and waits for it; w->done may be NULL. Returns w->status. */
store_status store_write_wait(store *s, store_write *w);
/* Records key_id's fingerprint when the database has none for it, and
 * says whether the one on record (copied to recorded) is fingerprint: so
 * every node of a shared database checks its keys against the first. */
store_status store_key_check(store *s, int64_t key_id, const char *fingerprint, int64_t now,
                             bool *matches, char recorded[STORE_KEY_FP_HEX + 1]);
/* The key ids the database records a fingerprint for (store_key_check's
 * first writes), in order: the first max in ids, their count in *n (which
 * may exceed max). */
store_status store_key_ids(store *s, int64_t *ids, int max, int *n);

/* One leaf of the score log (docs/LOG.md section 7, server/log/entry.h):
 * its index and bytes. */
typedef struct store_log_entry {
    int64_t idx;
    size_t len;
    uint8_t bytes[LOG_ENTRY_MAX];
} store_log_entry;

/* The score log's leaves from index `from`, at most max, in order, into
 * the caller's out[]; *n gets how many (fewer at the log's end). The
 * writer appends them with the rows they describe (store_scorelog.c). */
store_status store_log_entries(store *s, int64_t from, int max, store_log_entry *out, int *n);

/* Seals the score log now, in a transaction of its own: the first
 * checkpoint of an empty log, and whatever leaves a store without keys
 * appended (store_config's log). Nothing without keys. The server calls it
 * once it has checked its keys and log_origin against the database. */
store_status store_log_seal(store *s);

/* Checkpoints signed since the process started, by every store it opened
 * (store_logseal.c's counter; /metrics shows it): one a writer transaction
 * that appended leaves, counted when signed, so one whose transaction then
 * rolled back counts too. Any thread. */
uint64_t store_log_checkpoints_signed(void);

/* The score log's leaf of a recorded score (docs/LOG.md section 7), its
 * status at the commit held or not, into out (cap bytes, LOG_ENTRY_MAX
 * always fits); its length, 0 when the score cannot be a leaf. What a v3
 * receipt ("v3.<index>": the leaf's index) is checked against. */
size_t store_score_leaf(const store_score *sc, bool held, uint8_t *out, size_t cap);

/* The latest checkpoint: its tree size and signed note (a C2SP signed
 * note, docs/LOG.md section 6) into note (cap bytes, NUL-terminated; ""
 * before the first seal). STORE_ERROR when it does not fit. */
#define STORE_LOG_NOTE_MAX 2048
store_status store_log_checkpoint(store *s, int64_t *size, char *note, size_t cap);
/* The stored hashes of tile level `level` (8, 16, ..., 56: level-0 tiles
 * are the leaves' hashes) from index `from`, at most max, in order, into
 * out (32 bytes each); *n gets how many. */
store_status store_log_hashes(store *s, int level, int64_t from, int max, uint8_t (*out)[32], int *n);

/* ---- reads ---- */

store_status store_player_by_token(store *s, const uint8_t token_hash[STORE_HASH_BYTES],
                                   store_player *out);
/* The score redeemed by the token with that nonce, with its player's name
 * and its status. */
store_status store_score_get(store *s, const uint8_t nonce[PLAY_NONCE_BYTES], store_score *out);
/* How many of the player's scores an operator approved (reviewed, ranked,
 * not voided since): their history of reviewed runs (review_top). */
store_status store_player_approved(store *s, int64_t player_id, int64_t *count);
/* Whether any daily token of date ("YYYY-MM-DD") was issued: a day whose
 * daily was published (read once, when a sealed deployment makes its
 * daily key; a scan of the tokens). */
store_status store_daily_issued(store *s, const char *date, bool *issued);
store_status store_token_stats_for(store *s, int64_t player_id, int64_t now,
                                   store_token_stats *out);

/* A player's played time (the new-account hold, read inside a score's
 * transaction by store_read_play_time): over their
 * STORE_PLAYED_RUNS_MAX most recent completed level runs that are neither
 * held nor voided, the union of the runs' intervals [token issued_at,
 * score received_at] on the server's clock (runs played in parallel count
 * once; server/store/play_time.h), the distinct (game, level) boards among
 * them and how many runs were read. Older runs are not read: an account
 * that has played more has played enough. */
#define STORE_PLAYED_RUNS_MAX 2000
typedef struct store_play_time {
    int64_t played_ms, levels, runs;
} store_play_time;

/* Another player's run on the same (game, level, seed, version) with the
 * same shape (twins.h), not voided: the candidates of a twin link. */
typedef struct store_twin_candidate {
    int64_t seq;
    int64_t player_id;
    char *times; /* its progress times (twins.h) in hex; owned: freed by store_twin_candidates_clear */
} store_twin_candidate;

/* Up to limit candidates for play p's run of that shape by another player,
 * newest first, into out[0..*n). */
store_status store_twin_candidates(store *s, const play *p, const uint8_t shape[STORE_HASH_BYTES],
                                   int limit, store_twin_candidate *out, int *n);
void store_twin_candidates_clear(store_twin_candidate *c, int n);
/* For the review of one run (the operator's console): the progress times
 * of run seq (play p's) and of up to limit - 1 of the ranked, unvoided
 * runs of its board (same game, level, version and day; any seed), seq's
 * own first when it has times, then newest first, into out[0..*n) (cleared
 * with store_twin_candidates_clear). Not indexed by board: an operator's
 * read, bounded by limit. */
store_status store_board_times(store *s, const play *p, int64_t seq, int limit, store_twin_candidate *out,
                               int *n);

/* Every stored score, for re-verification (reverify.h): those of game g
 * (NULL: every game) received at or after since_ms. */
typedef struct store_scan {
    const game *g;
    int64_t since_ms;
} store_scan;

/* The scan's scores with seq > after_seq, in seq order, at most limit of
 * them into out[0..*n) (player_name left empty); each is cleared with
 * store_score_clear by the caller. *n < limit: the scan is over. */
store_status store_scores_page(store *s, const store_scan *scan, int64_t after_seq, int limit,
                               store_score *out, int *n);
/* How many scores the scan holds now. */
store_status store_scores_count(store *s, const store_scan *scan, int64_t *out);

/* ---- leaderboards ----
 * A board is either a daily board (day >= 0: every daily score of that
 * day) or a level board (g + level: each player's best level score).
 * Order: higher score first, then lower seq (the earlier server-received
 * submission). Ranks are 1-based and shared by equal scores (1, 1, 3):
 * the order inside a tie is only the listing order, never a rank.
 * Positions (the around-me index, cursors) stay unique. Cursors are opaque to
 * callers: a store_board_key of the boundary entry, so pages stay correct
 * under concurrent inserts. */

/* The board a play's score goes to. */
store_board store_board_of(const play *p);

typedef struct store_board_key {
    int64_t score;
    int64_t seq;
} store_board_key;

typedef struct store_entry {
    int64_t rank;
    int64_t player_id;
    char player_name[STORE_NAME_MAX + 1];
    int64_t score;
    int64_t seq;
    int64_t submitted_at;
    char score_id[PLAY_ID_LEN + 1];
} store_entry;

/* Up to limit entries strictly after `after` (NULL: from the top), or, when
 * backwards, the limit entries strictly before `after`, returned in board
 * order. *n is the number written; *more says whether entries remain in
 * that direction. *total, when not NULL, is the board's size. */
store_status store_board_page(store *s, const store_board *b, const store_board_key *after,
                              bool backwards, int limit, store_entry *out, int *n, bool *more,
                              int64_t *total);

/* The rank a score would take on board b, on it or not: 1 + the entries
 * scoring strictly higher (ties share a rank). */
store_status store_board_would_rank(store *s, const store_board *b, int64_t score, int64_t *rank);
/* The player's entry and rank, STORE_NOT_FOUND if not on the board. */
store_status store_board_rank(store *s, const store_board *b, int64_t player_id,
                              store_entry *out);

/* The player's entry with up to `around` entries either side, in board
 * order (at most 2 * around + 1 entries). *self is the player's index in out. */
store_status store_board_around(store *s, const store_board *b, int64_t player_id, int around,
                                store_entry *out, int *n, int *self);

/* Bytes the leaderboards in memory hold (bounded by board_cache_bytes). */
size_t store_board_bytes(store *s);

/* Number of entries on a board. */
store_status store_board_size(store *s, const store_board *b, int64_t *out);

/* ---- operators' reads ----
 * Rows, never an answer: the store reads them from one snapshot and the
 * caller (server/api/) builds what it sends. Pages go by an opaque cursor
 * string ("" for the first page) that the store parses and makes. */
typedef enum store_admin_query_kind {
    ADMIN_Q_PLAYER,     /* one store_player_view; STORE_NOT_FOUND */
    ADMIN_Q_REJECTIONS, /* store_rejection_row page: newest first */
    ADMIN_Q_REVIEW,     /* store_review_item page: highest suspicion first, then seq */
    ADMIN_Q_LOG         /* store_admin_log_row page: oldest first (newest_first: newest) */
} store_admin_query_kind;

#define STORE_GAME_NAME_MAX 31 /* a game's name as rows carry it (as the actions' boards do) */
#define STORE_DATE_LEN 10      /* "YYYY-MM-DD" */

/* A player's runs as the review sees them: completed runs and the perfect
 * ones among them (no wasted moves), forfeits and abandons (at `now`). */
typedef struct store_player_features {
    int64_t completed_runs, perfect_runs, forfeits, abandons;
} store_player_features;

/* Another account registered from the player's network prefix within
 * linked_window_ms of it (oldest first, at most 20). */
typedef struct store_linked_account {
    int64_t player_id;
    char name[STORE_NAME_MAX + 1];
    int64_t created_at;
} store_linked_account;

/* One of the player's identities (never the subject). */
typedef struct store_identity_row {
    char provider[STORE_PROVIDER_MAX + 1];
    int64_t bound_at;
} store_identity_row;

/* One of the player's newest runs (at most 50). */
typedef struct store_player_run {
    char score_id[PLAY_ID_LEN + 1];
    char game[STORE_GAME_NAME_MAX + 1];
    int64_t level;
    char date[STORE_DATE_LEN + 1]; /* "" for a level board's run */
    int64_t score;
    char status[8]; /* "ranked" or "held" */
    bool voided;
    int64_t suspicion, received_at;
} store_player_run;

/* PLAYER: the player's row and what other statements add. linked,
 * identities and runs are heap arrays (store_player_view_clear). */
typedef struct store_player_view {
    int64_t player_id;
    char name[STORE_NAME_MAX + 1];
    int64_t created_at;
    bool banned;
    int64_t banned_at;
    int64_t rejected, voided, held; /* the player's rejections, voided and held scores */
    store_player_features features;
    store_linked_account *linked;
    int n_linked;
    store_identity_row *identities;
    int n_identities;
    store_player_run *runs;
    int n_runs;
} store_player_view;

/* REJECTIONS: one rejected replay. moves_json: heap, the moves as kept
 * (NULL when they were not). */
typedef struct store_rejection_row {
    int64_t id;
    uint8_t nonce[PLAY_NONCE_BYTES];
    int64_t player_id;
    char game[STORE_GAME_NAME_MAX + 1];
    int level;
    int64_t seed;
    int version;
    char reason[STORE_REASON_MAX + 1];
    int64_t move_index, received_at;
    uint8_t moves_hash[STORE_HASH_BYTES];
    char *moves_json;
} store_rejection_row;

/* REVIEW: the twin beside an item (the other run of the pair and its
 * player). times: heap, its progress times (twin_times' hex; NULL when
 * none). */
typedef struct store_review_twin {
    char score_id[PLAY_ID_LEN + 1];
    int64_t player_id;
    char name[STORE_NAME_MAX + 1];
    int64_t score;
    char status[8];
    int64_t suspicion, received_at;
    bool voided;
    char *times;
} store_review_twin;

/* REVIEW: a queue row (a run neither reviewed nor voided) and, for a kept
 * one, what other statements add: the player's features, the twin (when
 * twin_of and that run is still there: has_twin) and linked accounts.
 * signals_json and times (the run's own progress times) are heap, and
 * so is linked (store_review_item_clear). */
typedef struct store_review_item {
    int64_t seq;
    char score_id[PLAY_ID_LEN + 1];
    int64_t player_id;
    char name[STORE_NAME_MAX + 1];
    char game[STORE_GAME_NAME_MAX + 1];
    int level;
    char date[STORE_DATE_LEN + 1]; /* "" for a level board's run */
    int64_t score;
    char status[8];
    int64_t suspicion;
    char *signals_json;
    int64_t received_at;
    bool banned;
    int64_t duplicate_of; /* 0: none */
    int64_t twin_of;      /* 0: none */
    char provider[STORE_PROVIDER_MAX + 1]; /* the first by name; "" for a guest */
    char *times;
    store_player_features features;
    bool has_twin;
    store_review_twin twin;
    store_linked_account *linked;
    int n_linked;
} store_review_item;

/* LOG: one admin_log row. actor, target, reason and detail_json (the
 * action's detail as recorded) are heap. */
typedef struct store_admin_log_row {
    int64_t id, at;
    char *actor, *action, *target, *reason, *detail_json;
} store_admin_log_row;

/* What a read filled: player for PLAYER; else one of the page's arrays
 * (heap, n rows) with more (rows are left after it) and next_cursor (the
 * cursor that continues after it; meaningful when more). Freed with
 * store_admin_answer_clear. */
typedef struct store_admin_answer {
    store_admin_query_kind kind;
    store_player_view player;
    store_rejection_row *rejections;
    store_review_item *review;
    store_admin_log_row *log;
    int n;
    bool more;
    char next_cursor[48];
} store_admin_answer;

/* REVIEW: says whether a queue row, as the queue's statement gives it
 * (before the player's features, twin and linked accounts are added), is
 * kept. */
typedef bool (*store_review_keep)(const store_review_item *row, void *ctx);

typedef struct store_admin_query {
    store_admin_query_kind kind;
    int64_t player_id; /* PLAYER; REJECTIONS: 0 for every player */
    const game *g;     /* REJECTIONS, REVIEW: NULL for every game */
    int64_t since;     /* REJECTIONS: received at or after (unix ms), 0: any */
    int64_t now;       /* PLAYER: for the open/abandoned split */
    /* PLAYER, REVIEW: accounts registered from the player's prefix within
     * this many ms either side are listed as linked accounts (0: none) */
    int64_t linked_window_ms;
    /* REVIEW filters, in SQL: level (with g: that level board's runs, no
     * daily's; 0: any), date (a daily board's day, "YYYY-MM-DD"; NULL:
     * any), status ("held" or "ranked"; NULL: both). */
    int level;
    const char *date;
    const char *status;
    /* REVIEW: a filter over the rows (NULL: every row is kept). With one,
     * a page reads at most scan_max rows (at least limit) and may hold
     * fewer than limit items while more is true: the cursor continues
     * after the last row read, kept or not. */
    store_review_keep keep;
    void *keep_ctx;
    int scan_max;
    /* LOG: newest_first (the cursor then goes to older ids), and only the
     * rows of one action ("void", ...; NULL: any) or one actor (exact;
     * NULL: any) */
    bool newest_first;
    const char *action;
    const char *actor;
    const char *cursor;
    int limit;
} store_admin_query;

/* Fills *out (zeroed first), which the caller frees with
 * store_admin_answer_clear (after a failure it holds nothing, and clearing
 * it is harmless). STORE_NOT_FOUND (unknown player), STORE_CONFLICT (a
 * malformed cursor). */
store_status store_admin_read(store *s, const store_admin_query *q, store_admin_answer *out);

/* store_clear.c: what each row owns, freed (the struct zeroed). */
void store_player_view_clear(store_player_view *v);
void store_rejection_row_clear(store_rejection_row *r);
void store_review_item_clear(store_review_item *it);
void store_admin_log_row_clear(store_admin_log_row *r);
void store_admin_answer_clear(store_admin_answer *a);

#endif
