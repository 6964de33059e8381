-- 007_cluster_keys: the fingerprint of each key the nodes sign, MAC and
-- hash bearer tokens with, recorded by the first node that starts with it
-- (key_id 0: token-hash.key; n: key id n's MAC key and signing key). A node
-- whose key of a recorded id differs refuses to start (serve.c), so nodes
-- with different keys never split a cluster. Fingerprints only: BLAKE2b of
-- the keys, no secret.
CREATE TABLE cluster_keys (
    key_id      INTEGER PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    recorded_at INTEGER NOT NULL
);
