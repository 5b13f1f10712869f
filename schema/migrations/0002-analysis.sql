-- 0002: derived data of the analysis: stored regressions with a lifecycle,
-- and a cache of computed results keyed by a hash of the data they came from.
CREATE TABLE regressions (
	id INTEGER PRIMARY KEY,
	series_id INTEGER NOT NULL REFERENCES series(id),
	env_fingerprint TEXT NOT NULL,
	workload TEXT NOT NULL,
	variant TEXT NOT NULL,
	metric TEXT NOT NULL,
	commit_id INTEGER NOT NULL REFERENCES commits(id),
	delta_pct REAL NOT NULL,
	p_value REAL,
	status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'acknowledged', 'fixed', 'invalid')),
	status_by TEXT NOT NULL DEFAULT 'analysis',
	status_at TEXT NOT NULL,
	created_at TEXT NOT NULL,
	UNIQUE (series_id, env_fingerprint, workload, variant, metric, commit_id)
);
CREATE TABLE analysis_cache (
	key TEXT PRIMARY KEY,
	data_hash TEXT NOT NULL,
	body TEXT NOT NULL,
	computed_at TEXT NOT NULL
);
