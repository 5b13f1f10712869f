-- 0006 (issue 16): the mail a series was measured from (run --mbox), so that
-- `report --format email` can reply in its thread. The first document that
-- carries a commit's mail (or a series' cover letter) wins, like builds.
-- IF NOT EXISTS: the tests' hand-made older DBs (tests/t1065, t1068) set
-- user_version back without dropping later tables; a replay must not fail.
CREATE TABLE IF NOT EXISTS commit_mail (
	commit_id INTEGER PRIMARY KEY REFERENCES commits(id),
	message_id TEXT,
	from_addr TEXT,
	to_addrs TEXT,
	cc_addrs TEXT,
	subject TEXT
);
CREATE TABLE IF NOT EXISTS series_cover (
	series_id INTEGER PRIMARY KEY REFERENCES series(id),
	message_id TEXT,
	subject TEXT
);
