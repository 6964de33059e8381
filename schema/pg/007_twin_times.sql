-- pg/007_twin_times: twins judged as a pair; the PostgreSQL form of
-- schema/011_twin_times.sql (same column, same meaning): scores.twin_times,
-- the progress moves' times in hex (server/trust/twins.h).
-- store version: 11 (/healthz reports it: the SQLite migration this one matches)

ALTER TABLE scores ADD COLUMN twin_times text;
