-- 0006 (issue 16): the mail a series was measured from (run --mbox), so that
-- `report --format email` can reply in its thread. The first document that
-- carries a commit's mail (or a series' cover letter) wins, like builds.
CREATE TABLE commit_mail (
	commit_id INTEGER PRIMARY KEY REFERENCES commits(id),
	message_id TEXT,
	from_addr TEXT,
	to_addrs TEXT,
	cc_addrs TEXT,
	subject TEXT
);
CREATE TABLE series_cover (
	series_id INTEGER PRIMARY KEY REFERENCES series(id),
	message_id TEXT,
	subject TEXT
);
