-- 008_rejection_net_quota: the moves of rejected replays are also kept at
-- most rejection_moves_per_net_day times a UTC day per client network (its
-- IPv4 /24 or IPv6 /64), so many players registered from one place cannot
-- make the server keep their rejected move lists without bound. Keyed
-- (day, net): dropping the earlier days is a range at the front.
CREATE TABLE rejection_moves_net_quota (
    day  INTEGER NOT NULL,   -- unix day (received_at / 86400000)
    net  TEXT NOT NULL,      -- "192.0.2.0/24", "2001:db8:1:2::/64"
    kept INTEGER NOT NULL,   -- rejections of that day whose moves were kept
    PRIMARY KEY (day, net)
) WITHOUT ROWID;
