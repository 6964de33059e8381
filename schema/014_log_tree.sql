-- 014_log_tree: the score log's tree and checkpoint (issue 48, docs/LOG.md
-- sections 2 and 8). Every transaction that appends leaves also seals them
-- before its commit (server/store/store_logseal.c): it extends the tree
-- from the checkpoint's frontier, keeps the stored hashes the tiles above
-- level 0 serve, and signs the new checkpoint, so a commit and its
-- checkpoint are one. A database whose leaves were appended without a
-- seal (store version 13, or a command run without the keys) is sealed by
-- the next transaction that appends.
--
-- log_checkpoint: the latest checkpoint, one row. size is the tree's
-- size; frontier the hashes of its complete subtrees, one per 1 bit of
-- size from the highest, 32 bytes each (everything the next seal needs);
-- note the signed checkpoint ('' until the first seal); at_ms when it was
-- signed.
CREATE TABLE log_checkpoint (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    size INTEGER NOT NULL,
    frontier BLOB NOT NULL,
    note TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);
INSERT INTO log_checkpoint (one, size, frontier, note, at_ms) VALUES (1, 0, x'', '', 0);
-- log_hashes: the stored hashes of levels 8, 16, ..., 56 (the hash tiles
-- above level 0; level-0 tiles are the leaves' hashes, made from
-- log_entries). Appended once, never changed.
CREATE TABLE log_hashes (
    level INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    hash BLOB NOT NULL,
    PRIMARY KEY (level, idx)
) WITHOUT ROWID;
CREATE TRIGGER log_hashes_no_update BEFORE UPDATE ON log_hashes
BEGIN SELECT RAISE(ABORT, 'log_hashes is append-only'); END;
CREATE TRIGGER log_hashes_no_delete BEFORE DELETE ON log_hashes
BEGIN SELECT RAISE(ABORT, 'log_hashes is append-only'); END;
