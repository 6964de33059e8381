-- pg/002_admin: what operators do, and what it changes; the PostgreSQL
-- form of schema/005_admin.sql (same columns, same meaning).
-- - admin_log: every admin action (who, what, on what, why, when), append
--   only: a trigger refuses UPDATE, DELETE and TRUNCATE.
-- - players.banned_at: NULL, or when the player was banned. A banned
--   player's entries are off every board; new tokens and scores are refused.
-- - scores.voided_at / void_reason: a voided score is off every board
--   (and restorable: its status stays what it was).
-- - scores.suspicion: the weighted combination of the score's features;
--   scores.reviewed_at: when an operator approved or voided it (NULL:
--   still in the review queue).
-- A score is on its board when status = 'ranked', it is not voided and its
-- player is not banned; level_bests holds each player's best such score.
-- store version: 5 (/healthz reports it: the SQLite migration this one matches)

CREATE TABLE admin_log (
    id      bigserial PRIMARY KEY,
    at      bigint NOT NULL,
    actor   text NOT NULL,          -- the operator's name as given, and the address
    action  text NOT NULL,          -- void, restore, approve, ban, unban, rename
    target  text NOT NULL,          -- a score id, or "player:<id>"
    reason  text NOT NULL DEFAULT '',
    detail  text NOT NULL DEFAULT '{}'  -- JSON: what changed
);

CREATE FUNCTION admin_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'admin_log is append-only';
END
$$;
CREATE TRIGGER admin_log_no_update BEFORE UPDATE OR DELETE ON admin_log
    FOR EACH ROW EXECUTE FUNCTION admin_log_append_only();
CREATE TRIGGER admin_log_no_truncate BEFORE TRUNCATE ON admin_log
    FOR EACH STATEMENT EXECUTE FUNCTION admin_log_append_only();

ALTER TABLE players ADD COLUMN banned_at bigint;
ALTER TABLE scores ADD COLUMN voided_at bigint;
ALTER TABLE scores ADD COLUMN void_reason text NOT NULL DEFAULT '';
ALTER TABLE scores ADD COLUMN suspicion bigint NOT NULL DEFAULT 0;
ALTER TABLE scores ADD COLUMN reviewed_at bigint;

-- a player's scores by board: the next best after a void, a ban's boards
CREATE INDEX scores_player ON scores (player_id, game, level, score DESC, seq);
-- the review queue: scores no operator has looked at, highest suspicion first
CREATE INDEX scores_review ON scores (suspicion DESC, seq)
    WHERE reviewed_at IS NULL AND voided_at IS NULL;
-- rejections by time, for GET /v1/admin/rejections without a player
CREATE INDEX rejections_time ON rejections (received_at, id);
-- the banned players, which a daily board load leaves out
CREATE INDEX players_banned ON players (id) WHERE banned_at IS NOT NULL;
