-- 001_init: players, seed tokens, scores, per-level bests, rejections.
-- Applied by store_open inside one transaction, then recorded in
-- schema_version. Times are unix milliseconds.

CREATE TABLE schema_version (
    version    INTEGER PRIMARY KEY,
    applied_at INTEGER NOT NULL
);

CREATE TABLE players (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    token_hash BLOB NOT NULL UNIQUE,   -- keyed BLAKE2b of the bearer token
    created_at INTEGER NOT NULL
);

CREATE TABLE seed_tokens (
    nonce      BLOB PRIMARY KEY,       -- 16 random bytes: the token's identity
    player_id  INTEGER NOT NULL REFERENCES players(id),
    game       TEXT NOT NULL,
    level      INTEGER NOT NULL,
    seed       INTEGER NOT NULL,
    version    INTEGER NOT NULL,
    issued_at  INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    daily_date TEXT NOT NULL DEFAULT '',  -- '' for a level token
    text       TEXT NOT NULL,
    redeemed   INTEGER NOT NULL DEFAULT 0,
    score_seq  INTEGER REFERENCES scores(seq)  -- the score that redeemed it
) WITHOUT ROWID;

-- outstanding-token counts and per-player stats
CREATE INDEX seed_tokens_player ON seed_tokens (player_id, redeemed, expires_at);
-- one daily token per player per date
CREATE UNIQUE INDEX seed_tokens_daily ON seed_tokens (player_id, daily_date)
    WHERE daily_date <> '';

-- seq is the rowid: the server-received order, assigned at insert.
-- A score is found by its id through seed_tokens (nonce -> score_seq):
-- the redeem already writes that row, so no second random-keyed index
-- costs a page per submission.
CREATE TABLE scores (
    seq         INTEGER PRIMARY KEY,
    score_id    TEXT NOT NULL,         -- lower-case hex of the nonce
    nonce       BLOB NOT NULL,
    player_id   INTEGER NOT NULL REFERENCES players(id),
    game        TEXT NOT NULL,
    level       INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    daily_date  TEXT NOT NULL DEFAULT '',
    score       INTEGER NOT NULL,
    completed   INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    moves_hash  BLOB NOT NULL,
    receipt     TEXT NOT NULL,
    moves_json  TEXT NOT NULL,
    result_json TEXT NOT NULL
);

-- the daily board: every daily score of a date in board order, covering
-- what a board load reads so the load is one index scan
CREATE INDEX scores_daily ON scores (daily_date, score DESC, seq, player_id, received_at, nonce)
    WHERE daily_date <> '';

-- the level boards: each player's best, kept on insert (never GROUP BY).
-- Stored in board order, so loading a board is one sequential scan; the
-- unique index finds a player's row for the upsert.
CREATE TABLE level_bests (
    game        TEXT NOT NULL,
    level       INTEGER NOT NULL,
    score       INTEGER NOT NULL,
    seq         INTEGER NOT NULL REFERENCES scores(seq),
    player_id   INTEGER NOT NULL REFERENCES players(id),
    received_at INTEGER NOT NULL,
    nonce       BLOB NOT NULL,
    PRIMARY KEY (game, level, score DESC, seq)
) WITHOUT ROWID;

CREATE UNIQUE INDEX level_bests_player ON level_bests (game, level, player_id);

CREATE TABLE rejections (
    id          INTEGER PRIMARY KEY,
    nonce       BLOB NOT NULL,
    player_id   INTEGER NOT NULL,
    game        TEXT NOT NULL,
    level       INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    reason      TEXT NOT NULL,
    move_index  INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    moves_hash  BLOB NOT NULL,
    moves_json  TEXT NOT NULL
);

CREATE INDEX rejections_player ON rejections (player_id, received_at);
