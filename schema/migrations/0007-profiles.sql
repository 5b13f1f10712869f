-- 0007 (issue 13): the kernel function profile of a boot (ftrace function
-- profiler, untimed round), per workload/variant/function: hits, time with
-- children (time_us) and without (self_us, NULL: not measured).
-- IF NOT EXISTS: the tests' hand-made older DBs set user_version back.
CREATE TABLE IF NOT EXISTS profiles (
	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	workload TEXT NOT NULL,
	variant TEXT NOT NULL,
	function TEXT NOT NULL,
	hits INTEGER NOT NULL,
	time_us REAL NOT NULL,
	self_us REAL,
	PRIMARY KEY (run_id, workload, variant, function)
) WITHOUT ROWID;
