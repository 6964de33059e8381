-- pg/009_log: the score log's leaves; the PostgreSQL form of
-- schema/013_log.sql (same tables, same meaning): one log for the cluster,
-- sequenced in the database by log_head's one row, locked by each
-- appending transaction until its commit.
-- store version: 13 (/healthz reports it: the SQLite migration this one matches)

CREATE TABLE log_head (one integer PRIMARY KEY CHECK (one = 1), size bigint NOT NULL);
INSERT INTO log_head (one, size) VALUES (1, 0);
CREATE TABLE log_entries (idx bigint PRIMARY KEY, entry bytea NOT NULL);
-- append-only, as admin_log: a leaf once committed is never changed
CREATE FUNCTION log_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'log_entries is append-only';
END
$$;
CREATE TRIGGER log_entries_no_update BEFORE UPDATE OR DELETE ON log_entries
    FOR EACH ROW EXECUTE FUNCTION log_entries_append_only();
CREATE TRIGGER log_entries_no_truncate BEFORE TRUNCATE ON log_entries
    FOR EACH STATEMENT EXECUTE FUNCTION log_entries_append_only();
