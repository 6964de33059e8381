-- 012_play_window: parallel play (issue 37). A score keeps the time its run
-- claims (claimed_ms, the replay's duration; NULL for an untimed run or a
-- score of an older build), so its claimed play [received_at - claimed_ms,
-- received_at] can be set against the player's other runs: one person plays
-- one level at a time.

ALTER TABLE scores ADD COLUMN claimed_ms INTEGER;
CREATE INDEX scores_player_recent ON scores (player_id, received_at);
