-- 006_redeem_pages: a redeem no longer moves an index entry.
-- seed_tokens_player was (player_id, redeemed, expires_at), so marking a
-- token redeemed deleted and re-inserted its entry: one more page written
-- per verified submission, a random one once there are many players. Keyed
-- (player_id, expires_at), the outstanding-token count reads the player's
-- unexpired tokens (at most a token lifetime's worth) and checks `redeemed`
-- in the row, and the redeem leaves the index alone.

DROP INDEX seed_tokens_player;
CREATE INDEX seed_tokens_player ON seed_tokens (player_id, expires_at);
