-- pg/006_identity: Sign in with Apple and Google; the PostgreSQL form of
-- schema/010_identity.sql (same tables, same meaning).
-- store version: 10 (/healthz reports it: the SQLite migration this one matches)

CREATE TABLE identities (
    provider   text NOT NULL,
    subject    text NOT NULL,
    player_id  bigint NOT NULL REFERENCES players (id),
    created_at bigint NOT NULL,
    PRIMARY KEY (provider, subject)
);
CREATE UNIQUE INDEX identities_player ON identities (player_id, provider);

CREATE TABLE identity_nonces (
    nonce_hash bytea PRIMARY KEY,
    expires_at bigint NOT NULL
);
CREATE INDEX identity_nonces_expiry ON identity_nonces (expires_at);
