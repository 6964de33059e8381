-- 009_twins: twin runs (issue 25). A score keeps its shape (its moves
-- without their times, server/trust/twins.h) so another player's re-timed copy on
-- the same level and seed is found by index; twin_of is the seq of the run
-- it is linked to (set on both runs of a pair; NULL: none). Older scores
-- have no shape and are never candidates.

ALTER TABLE scores ADD COLUMN shape_hash BLOB;
ALTER TABLE scores ADD COLUMN twin_of INTEGER;
CREATE INDEX scores_shape ON scores (seed, shape_hash) WHERE shape_hash IS NOT NULL;

-- Accounts registered from one network prefix (IPv4 /24, IPv6 /64) close
-- together in time are shown to operators as linked; NULL: not recorded
-- (players made before this migration, or by the CLI).
ALTER TABLE players ADD COLUMN reg_prefix TEXT;
CREATE INDEX players_prefix ON players (reg_prefix, created_at) WHERE reg_prefix IS NOT NULL;
