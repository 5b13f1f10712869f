-- 0010 (issue 31): the cached analysis of a series is stored row by row, so a
-- page reads the rows of its window of positions, or of one metric, through
-- an index instead of parsing the whole result (75 MB at 600 commits).
-- analysis_cache.body keeps the rest (commits, determinism, change points,
-- combined rows); regressions_stored says the stored regressions were
-- refreshed from exactly that result, so a GET does not redo it.
CREATE TABLE analysis_rows (
	key TEXT NOT NULL,
	seq INTEGER NOT NULL,
	position INTEGER NOT NULL,
	metric_key TEXT NOT NULL,
	decided INTEGER NOT NULL,
	body TEXT NOT NULL,
	PRIMARY KEY (key, position, seq)
) WITHOUT ROWID;
-- seq follows position (the rows are sorted by commit first): a window is a
-- range of the key, a metric a range of this index, neither needs a sort.
CREATE INDEX analysis_rows_by_metric ON analysis_rows(key, metric_key, position, seq);
ALTER TABLE analysis_cache ADD COLUMN regressions_stored INTEGER NOT NULL DEFAULT 0;
-- How long the analysis took: a page does not compute a slow one itself while
-- it can show the older one (the detection thread computes it).
ALTER TABLE analysis_cache ADD COLUMN compute_ms INTEGER NOT NULL DEFAULT 0;
-- Derived data: bodies of the old layout hold their rows; recomputed on first use.
DELETE FROM analysis_cache;
