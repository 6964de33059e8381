-- 004_hostile: bounded rejections. A token counts its rejected replays and
-- is burned after the configured number; the moves of a rejected replay are
-- kept only up to a quota per player per day (rejection_moves_quota) and
-- per token (the first rejections of a token). 002 and 003 are other
-- migrations; versions apply in order and gaps are allowed.

ALTER TABLE seed_tokens ADD COLUMN rejections INTEGER NOT NULL DEFAULT 0;

CREATE TABLE rejection_moves_quota (
    player_id INTEGER NOT NULL,
    day       INTEGER NOT NULL,   -- unix day (received_at / 86400000)
    kept      INTEGER NOT NULL,   -- rejections of that day whose moves were kept
    PRIMARY KEY (player_id, day)
) WITHOUT ROWID;
