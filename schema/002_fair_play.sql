-- 002_fair_play: what fair play keeps beside the rows of 001.
-- - scores.status: 'ranked' (on the public boards) or 'held' (kept off them
--   until an operator looks: a run identical to another player's on an
--   untimed game). scores.signals: JSON facts measured at verification
--   (elapsed and claimed time, idle time before the run, flags).
--   scores.duplicate_of: the seq of the earlier identical run.
-- - seed_tokens.outcome: how the token's run ended ('completed',
--   'incomplete', 'forfeit'); NULL while it is open or once it expired
--   unredeemed (abandoned). Forfeits and abandons are capped per player,
--   game, level and day.
-- - Daily scores count on their day's board only: the level boards drop
--   the entries daily runs put there and take each player's best level run.

ALTER TABLE scores ADD COLUMN status TEXT NOT NULL DEFAULT 'ranked';
ALTER TABLE scores ADD COLUMN signals TEXT NOT NULL DEFAULT '{}';
ALTER TABLE scores ADD COLUMN duplicate_of INTEGER;
ALTER TABLE seed_tokens ADD COLUMN outcome TEXT;

-- identical runs: the same seed and moves hash (then game, level, version)
CREATE INDEX scores_run ON scores (seed, moves_hash);
-- a player's level tokens of one (game, level) and day, for the forfeit cap
CREATE INDEX seed_tokens_level_day ON seed_tokens (player_id, game, level, issued_at)
    WHERE daily_date = '';

UPDATE seed_tokens SET outcome = (
    SELECT CASE WHEN s.completed THEN 'completed' ELSE 'incomplete' END
    FROM scores s WHERE s.seq = seed_tokens.score_seq)
WHERE redeemed = 1;

DELETE FROM level_bests WHERE seq IN (SELECT seq FROM scores WHERE daily_date <> '');
INSERT INTO level_bests (game, level, score, seq, player_id, received_at, nonce)
SELECT game, level, score, seq, player_id, received_at, nonce FROM (
    SELECT s.game, s.level, s.score, s.seq, s.player_id, s.received_at, s.nonce,
           ROW_NUMBER() OVER (PARTITION BY s.game, s.level, s.player_id
                              ORDER BY s.score DESC, s.seq ASC) AS rn
    FROM scores s
    WHERE s.daily_date = ''
      AND NOT EXISTS (SELECT 1 FROM level_bests b
                      WHERE b.game = s.game AND b.level = s.level AND b.player_id = s.player_id))
WHERE rn = 1;
