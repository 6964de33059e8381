-- pg/001_init: the PostgreSQL backend's tables, everything the SQLite
-- migrations 001, 002 and 004 make, in one step (PostgreSQL databases start
-- here; there is nothing older to carry along). Applied by store_open in one
-- transaction under an advisory lock, then recorded in schema_version.
-- Times are unix milliseconds; columns mean what they mean in schema/*.sql.
-- store version: 4 (/healthz reports it: the SQLite migration this one matches)

CREATE TABLE schema_version (
    version    integer PRIMARY KEY,
    applied_at bigint NOT NULL
);

CREATE TABLE players (
    id         bigserial PRIMARY KEY,
    name       text NOT NULL,
    token_hash bytea NOT NULL UNIQUE,   -- keyed BLAKE2b of the bearer token
    created_at bigint NOT NULL
);

-- seq is the server-received order, assigned at insert by the sequence
-- (across nodes: the order of the inserts in the one database).
CREATE TABLE scores (
    seq          bigserial PRIMARY KEY,
    score_id     text NOT NULL,
    nonce        bytea NOT NULL,
    player_id    bigint NOT NULL REFERENCES players(id),
    game         text NOT NULL,
    level        integer NOT NULL,
    seed         bigint NOT NULL,
    version      integer NOT NULL,
    daily_date   text NOT NULL DEFAULT '',
    score        bigint NOT NULL,
    completed    boolean NOT NULL,
    received_at  bigint NOT NULL,
    moves_hash   bytea NOT NULL,
    receipt      text NOT NULL,
    moves_json   text NOT NULL,
    result_json  text NOT NULL,
    status       text NOT NULL DEFAULT 'ranked',  -- 'ranked' or 'held'
    signals      text NOT NULL DEFAULT '{}',
    duplicate_of bigint
);

-- Exactly once, whatever a node believes: one score per token, by the
-- database. Two nodes redeeming one token at once cannot both insert.
CREATE UNIQUE INDEX scores_nonce ON scores (nonce);
-- the daily board of a date, in board order
CREATE INDEX scores_daily ON scores (daily_date, score DESC, seq)
    WHERE daily_date <> '' AND status = 'ranked';
-- identical runs: the same seed and moves hash (then game, level, version)
CREATE INDEX scores_run ON scores (seed, moves_hash);

CREATE TABLE seed_tokens (
    nonce      bytea PRIMARY KEY,
    player_id  bigint NOT NULL REFERENCES players(id),
    game       text NOT NULL,
    level      integer NOT NULL,
    seed       bigint NOT NULL,
    version    integer NOT NULL,
    issued_at  bigint NOT NULL,
    expires_at bigint NOT NULL,
    daily_date text NOT NULL DEFAULT '',
    text       text NOT NULL,
    redeemed   boolean NOT NULL DEFAULT false,
    score_seq  bigint REFERENCES scores(seq),
    outcome    text,                       -- 'completed', 'incomplete', 'forfeit'
    rejections integer NOT NULL DEFAULT 0
);

CREATE INDEX seed_tokens_player ON seed_tokens (player_id, redeemed, expires_at);
-- one daily token per player per date, also across nodes
CREATE UNIQUE INDEX seed_tokens_daily ON seed_tokens (player_id, daily_date)
    WHERE daily_date <> '';
CREATE INDEX seed_tokens_level_day ON seed_tokens (player_id, game, level, issued_at)
    WHERE daily_date = '';

-- each player's best per (game, level): the level boards
CREATE TABLE level_bests (
    game        text NOT NULL,
    level       integer NOT NULL,
    player_id   bigint NOT NULL REFERENCES players(id),
    score       bigint NOT NULL,
    seq         bigint NOT NULL REFERENCES scores(seq),
    received_at bigint NOT NULL,
    nonce       bytea NOT NULL,
    PRIMARY KEY (game, level, player_id)
);
CREATE INDEX level_bests_order ON level_bests (game, level, score DESC, seq);

CREATE TABLE rejections (
    id          bigserial PRIMARY KEY,
    nonce       bytea NOT NULL,
    player_id   bigint NOT NULL,
    game        text NOT NULL,
    level       integer NOT NULL,
    seed        bigint NOT NULL,
    version     integer NOT NULL,
    reason      text NOT NULL,
    move_index  bigint NOT NULL,
    received_at bigint NOT NULL,
    moves_hash  bytea NOT NULL,
    moves_json  text NOT NULL
);
CREATE INDEX rejections_player ON rejections (player_id, received_at);

CREATE TABLE rejection_moves_quota (
    player_id bigint NOT NULL,
    day       bigint NOT NULL,
    kept      integer NOT NULL,
    PRIMARY KEY (player_id, day)
);
