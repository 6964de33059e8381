-- 010_identity: Sign in with Apple and Google (issue 36). An identity is a
-- provider's subject (the ID token's sub), bound to one player for good:
-- one player per (provider, subject), at most one subject per provider per
-- player. A banned player's identities stay bound to them, so that signing
-- in (or linking) with one again is refused.

CREATE TABLE identities (
    provider   TEXT NOT NULL,       -- 'apple' | 'google'
    subject    TEXT NOT NULL,       -- the ID token's sub
    player_id  INTEGER NOT NULL REFERENCES players (id),
    created_at INTEGER NOT NULL,    -- ms since the epoch
    PRIMARY KEY (provider, subject)
);
CREATE UNIQUE INDEX identities_player ON identities (player_id, provider);

-- Sign-in nonces the server issued (POST /v1/identity/nonce): an ID token
-- that carries one is taken once, before it expires. Kept as a hash.
CREATE TABLE identity_nonces (
    nonce_hash BLOB PRIMARY KEY,    -- SHA-256 of the nonce as issued
    expires_at INTEGER NOT NULL     -- ms since the epoch
);
CREATE INDEX identity_nonces_expiry ON identity_nonces (expires_at);
