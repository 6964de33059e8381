-- pg/008_play_window: parallel play; the PostgreSQL form of
-- schema/012_play_window.sql (same column, same meaning): scores.claimed_ms.
-- store version: 12 (/healthz reports it: the SQLite migration this one matches)

ALTER TABLE scores ADD COLUMN claimed_ms bigint;
CREATE INDEX scores_player_recent ON scores (player_id, received_at);
