-- 0011 (issue 30): a bisect of one metric between two measured commits of a
-- series: its steps (commit, position, boots, verdict), its answer (the
-- culprit, or the narrowest range the skipped commits leave, or why it gave
-- up), what it cost. A regression found between the two commits moves to the
-- culprit when one is found (found_commit_id keeps where it was found first;
-- bisect_id links the bisect), so the midpoints' own verdicts open no
-- duplicate and its triage history stays with it.
CREATE TABLE bisects (
	id INTEGER PRIMARY KEY,
	series_id INTEGER NOT NULL REFERENCES series(id),
	workload TEXT NOT NULL,
	variant TEXT NOT NULL,
	metric TEXT NOT NULL,
	direction TEXT NOT NULL CHECK (direction IN ('regression', 'improvement')),
	good_sha TEXT NOT NULL,
	bad_sha TEXT NOT NULL,
	state TEXT NOT NULL CHECK (state IN ('running', 'done', 'gave up')),
	culprit_sha TEXT,
	range_lo_sha TEXT,
	range_hi_sha TEXT,
	why TEXT,
	steps TEXT NOT NULL DEFAULT '[]',
	boots INTEGER NOT NULL DEFAULT 0,
	seconds REAL NOT NULL DEFAULT 0,
	started_at TEXT NOT NULL,
	finished_at TEXT
);
CREATE INDEX bisects_by_series ON bisects(series_id, id);
ALTER TABLE regressions ADD COLUMN found_commit_id INTEGER REFERENCES commits(id);
ALTER TABLE regressions ADD COLUMN bisect_id INTEGER REFERENCES bisects(id);
-- A regression moved to its culprit is an event, `bisected`, for the
-- webhooks. outbox's CHECK lists the types, and a CHECK changes only with
-- the table: it is rebuilt as 0005 and 0008 left it (state, indexes, the
-- delivery trigger) with its rows, ids and AUTOINCREMENT counter (an
-- event's id is never reused). Its deliveries refer to it by id: the
-- foreign keys are checked at the commit, when every row is back.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE outbox_0011 AS SELECT * FROM outbox;
CREATE TEMP TABLE outbox_seq_0011 AS SELECT seq FROM sqlite_sequence WHERE name = 'outbox';
DROP TABLE outbox;
CREATE TABLE outbox (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	event_key TEXT NOT NULL UNIQUE,
	type TEXT NOT NULL CHECK (type IN ('new', 'fixed', 'status', 'bisected')),
	regression_id INTEGER NOT NULL REFERENCES regressions(id),
	series TEXT NOT NULL,
	revision INTEGER NOT NULL,
	commit_sha TEXT NOT NULL,
	metric TEXT NOT NULL,
	payload TEXT NOT NULL,
	created_at TEXT NOT NULL,
	state TEXT NOT NULL DEFAULT 'released' CHECK (state IN ('held', 'released', 'merged'))
);
INSERT INTO outbox SELECT * FROM temp.outbox_0011;
UPDATE sqlite_sequence SET seq = max(seq, (SELECT seq FROM temp.outbox_seq_0011)) WHERE name = 'outbox';
INSERT INTO sqlite_sequence(name, seq) SELECT 'outbox', seq FROM temp.outbox_seq_0011
	WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'outbox');
DROP TABLE temp.outbox_0011;
DROP TABLE temp.outbox_seq_0011;
CREATE INDEX outbox_by_regression ON outbox(regression_id, id);
CREATE INDEX outbox_held ON outbox(series, revision) WHERE state = 'held';
-- 0008's: an event of a held series revision waits (no delivery rows yet).
CREATE TRIGGER outbox_deliveries AFTER INSERT ON outbox BEGIN
	UPDATE outbox SET state = 'held' WHERE id = NEW.id AND EXISTS (
		SELECT 1 FROM series_holds h JOIN series s ON s.id = h.series_id
		WHERE s.name = NEW.series AND s.revision = NEW.revision);
	INSERT INTO webhook_deliveries(webhook_id, outbox_id)
		SELECT id, NEW.id FROM webhooks WHERE active = 1 AND NOT EXISTS (
			SELECT 1 FROM series_holds h JOIN series s ON s.id = h.series_id
			WHERE s.name = NEW.series AND s.revision = NEW.revision);
END;
-- The events' payload names where a moved regression was found and its bisect.
DROP VIEW outbox_source;
CREATE VIEW outbox_source AS
	SELECT g.id AS regression_id, s.name AS series, s.revision AS revision, c.sha AS commit_sha,
	       g.metric AS metric,
	       json_object('id', g.id, 'series', s.name, 'revision', s.revision,
			   'sha', c.sha, 'subject', c.subject, 'position', c.position,
			   'env_fingerprint', g.env_fingerprint, 'workload', g.workload,
			   'variant', g.variant, 'metric', g.metric, 'delta_pct', g.delta_pct,
			   'p_value', g.p_value, 'status', g.status, 'status_by', g.status_by,
			   'status_note', g.status_note, 'status_at', g.status_at,
			   'created_at', g.created_at,
			   'found_sha', (SELECT f.sha FROM commits f WHERE f.id = g.found_commit_id),
			   'bisect_id', g.bisect_id) AS payload
	FROM regressions g JOIN series s ON s.id = g.series_id JOIN commits c ON c.id = g.commit_id;
CREATE TRIGGER outbox_regression_bisected AFTER UPDATE OF commit_id ON regressions
WHEN NEW.bisect_id IS NOT NULL AND OLD.commit_id IS NOT NEW.commit_id BEGIN
	INSERT INTO outbox(event_key, type, regression_id, series, revision, commit_sha, metric, payload, created_at)
		SELECT printf('r%d.%d.%s', NEW.id, 1 + (SELECT count(*) FROM outbox WHERE regression_id = NEW.id),
			      lower(hex(randomblob(6)))),
		       'bisected', regression_id, series, revision, commit_sha, metric, payload,
		       strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
		FROM outbox_source WHERE regression_id = NEW.id;
END;
