-- pg/004_rejection_net_quota: the PostgreSQL form of
-- schema/008_rejection_net_quota.sql (same columns, same meaning).
-- store version: 8 (/healthz reports it: the SQLite migration this one matches)
CREATE TABLE rejection_moves_net_quota (
    day  bigint NOT NULL,
    net  text NOT NULL,
    kept integer NOT NULL,
    PRIMARY KEY (day, net)
);
