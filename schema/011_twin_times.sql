-- 011_twin_times: twins judged as a pair (issue 37). A score keeps the
-- times of its progress moves (its applied moves that were not a slip,
-- server/trust/twins.h), 4 bytes a move in hex, so a later run of the same
-- shape is compared with it without replaying it. The shape's meaning
-- changes with it (progress moves only): scores of older builds have no
-- times and are never candidates.

ALTER TABLE scores ADD COLUMN twin_times TEXT;
