-- pg/010_log_tree: the score log's tree and checkpoint; the PostgreSQL
-- form of schema/014_log_tree.sql (same tables, same meaning). A seal runs
-- in a transaction that appended, so it holds log_head's row: one node
-- seals at a time and every node serves the same checkpoint.
-- store version: 14 (/healthz reports it: the SQLite migration this one matches)

CREATE TABLE log_checkpoint (
    one integer PRIMARY KEY CHECK (one = 1),
    size bigint NOT NULL,
    frontier bytea NOT NULL,
    note text NOT NULL,
    at_ms bigint NOT NULL
);
INSERT INTO log_checkpoint (one, size, frontier, note, at_ms) VALUES (1, 0, '\x', '', 0);
CREATE TABLE log_hashes (
    level integer NOT NULL,
    idx bigint NOT NULL,
    hash bytea NOT NULL,
    PRIMARY KEY (level, idx)
);
CREATE FUNCTION log_hashes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'log_hashes is append-only';
END
$$;
CREATE TRIGGER log_hashes_no_update BEFORE UPDATE OR DELETE ON log_hashes
    FOR EACH ROW EXECUTE FUNCTION log_hashes_append_only();
CREATE TRIGGER log_hashes_no_truncate BEFORE TRUNCATE ON log_hashes
    FOR EACH STATEMENT EXECUTE FUNCTION log_hashes_append_only();
