-- pg/003_cluster_keys: the PostgreSQL form of schema/007_cluster_keys.sql
-- (same columns, same meaning): each key's fingerprint, recorded by the
-- first node that starts with it; a node whose key differs refuses to start.
-- store version: 7 (/healthz reports it: the SQLite migration this one matches)
CREATE TABLE cluster_keys (
    key_id      bigint PRIMARY KEY,
    fingerprint text NOT NULL,
    recorded_at bigint NOT NULL
);
