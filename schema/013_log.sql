-- 013_log: the score log's leaves (issue 48, docs/LOG.md section 7). The
-- writer's transaction appends each one with the row it describes (a
-- recorded score, an operator's void, restore, approve, ban, unban or
-- rename): idx 0, 1, 2, ... in commit order, with no gap. log_head holds
-- the size; taking the next idx updates its one row, so on PostgreSQL two
-- nodes' transactions append one after the other (the row stays locked
-- until the commit) and on both engines a write rolled back takes its
-- entry and its idx with it.

CREATE TABLE log_head (one INTEGER PRIMARY KEY CHECK (one = 1), size INTEGER NOT NULL);
INSERT INTO log_head (one, size) VALUES (1, 0);
CREATE TABLE log_entries (idx INTEGER PRIMARY KEY, entry BLOB NOT NULL);
-- append-only, as admin_log: a leaf once committed is never changed
CREATE TRIGGER log_entries_no_update BEFORE UPDATE ON log_entries
BEGIN SELECT RAISE(ABORT, 'log_entries is append-only'); END;
CREATE TRIGGER log_entries_no_delete BEFORE DELETE ON log_entries
BEGIN SELECT RAISE(ABORT, 'log_entries is append-only'); END;
