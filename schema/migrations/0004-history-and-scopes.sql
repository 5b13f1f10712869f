-- 0004 (issue 17): every status change of a stored regression is kept (who,
-- note, when), whoever makes it (the API, the CLI, the analysis marking one
-- fixed): triggers on regressions write the history, so no path can forget.
ALTER TABLE regressions ADD COLUMN status_note TEXT NOT NULL DEFAULT '';
CREATE TABLE regression_history (
	id INTEGER PRIMARY KEY,
	regression_id INTEGER NOT NULL REFERENCES regressions(id),
	status TEXT NOT NULL,
	changed_by TEXT NOT NULL,
	note TEXT NOT NULL DEFAULT '',
	changed_at TEXT NOT NULL
);
CREATE INDEX regression_history_by_regression ON regression_history(regression_id, id);
-- What the DB knew before: the creation, and the last change if any.
INSERT INTO regression_history(regression_id, status, changed_by, note, changed_at)
	SELECT id, 'new', 'analysis', '', created_at FROM regressions ORDER BY id;
INSERT INTO regression_history(regression_id, status, changed_by, note, changed_at)
	SELECT id, status, status_by, '', status_at FROM regressions
	WHERE NOT (status = 'new' AND status_by = 'analysis') ORDER BY id;
CREATE TRIGGER regression_history_insert AFTER INSERT ON regressions BEGIN
	INSERT INTO regression_history(regression_id, status, changed_by, note, changed_at)
		VALUES (NEW.id, NEW.status, NEW.status_by, NEW.status_note, NEW.status_at);
END;
CREATE TRIGGER regression_history_update AFTER UPDATE OF status, status_by, status_note, status_at ON regressions
BEGIN
	INSERT INTO regression_history(regression_id, status, changed_by, note, changed_at)
		VALUES (NEW.id, NEW.status, NEW.status_by, NEW.status_note, NEW.status_at);
END;
-- Token scopes: ingest (POST /api/v1/runs), triage (POST /api/v1/regressions/{id}),
-- admin (every scope). Tokens made before could do both: they keep both.
ALTER TABLE api_tokens ADD COLUMN scopes TEXT NOT NULL DEFAULT 'ingest,triage';
