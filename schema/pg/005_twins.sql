-- pg/005_twins: twin runs; the PostgreSQL form of schema/009_twins.sql
-- (same columns, same meaning): scores.shape_hash (the moves without their
-- times, server/trust/twins.h) and scores.twin_of (the seq of the linked run).
-- store version: 9 (/healthz reports it: the SQLite migration this one matches)

ALTER TABLE scores ADD COLUMN shape_hash bytea;
ALTER TABLE scores ADD COLUMN twin_of bigint;
CREATE INDEX scores_shape ON scores (seed, shape_hash) WHERE shape_hash IS NOT NULL;

-- players.reg_prefix: the registering client's network prefix (IPv4 /24,
-- IPv6 /64), for showing accounts registered together as linked.
ALTER TABLE players ADD COLUMN reg_prefix text;
CREATE INDEX players_prefix ON players (reg_prefix, created_at) WHERE reg_prefix IS NOT NULL;
