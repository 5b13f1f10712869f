-- 0003: sequential boots (issue 12). A boot added between rounds of analysis
-- records which look (round) it belongs to and how many looks its design
-- planned, from the run document's optional `sequential`; NULL for a fixed
-- design (one look). The analysis spends alpha over max_looks looks.
ALTER TABLE runs ADD COLUMN look INTEGER CHECK (look IS NULL OR look >= 1);
ALTER TABLE runs ADD COLUMN max_looks INTEGER CHECK (max_looks IS NULL OR max_looks >= 1);
-- The analysis pools same-kernel boots of an environment (the newest kernels
-- first): boots by environment and build.
CREATE INDEX runs_by_env_build ON runs(env_id, build_id);
