-- 0005 (issue 16): every change of a stored regression (new, fixed, other
-- status) becomes an event in the outbox, written by triggers in the
-- transaction that makes the change, so no path can change a regression and
-- forget to tell. Each event is then delivered to every webhook active when
-- it was written (webhook_deliveries: one row per webhook and event, retried
-- until delivered). event_key is the idempotency key a receiver sees on every
-- attempt. AUTOINCREMENT: a removed webhook's or event's id is never reused.
CREATE TABLE webhooks (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	url TEXT NOT NULL,
	secret TEXT NOT NULL,
	created_at TEXT NOT NULL,
	active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1))
);
CREATE TABLE outbox (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	event_key TEXT NOT NULL UNIQUE,
	type TEXT NOT NULL CHECK (type IN ('new', 'fixed', 'status')),
	regression_id INTEGER NOT NULL REFERENCES regressions(id),
	series TEXT NOT NULL,
	revision INTEGER NOT NULL,
	commit_sha TEXT NOT NULL,
	metric TEXT NOT NULL,
	payload TEXT NOT NULL,
	created_at TEXT NOT NULL
);
CREATE INDEX outbox_by_regression ON outbox(regression_id, id);
CREATE TABLE webhook_deliveries (
	webhook_id INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
	outbox_id INTEGER NOT NULL REFERENCES outbox(id),
	attempts INTEGER NOT NULL DEFAULT 0,
	next_attempt_at REAL NOT NULL DEFAULT 0,  -- unix seconds; 0: due now
	delivered_at TEXT,
	last_status INTEGER,                       -- HTTP status of the last attempt, 0: no answer
	PRIMARY KEY (webhook_id, outbox_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE delivered_at IS NULL;
-- A regression as the outbox keeps it (the keys of fw_regressions_list).
-- The triggers' event keys: regression id, the event's number for it, and
-- random bits so two databases never hand a receiver one key for two events.
CREATE VIEW outbox_source AS
	SELECT g.id AS regression_id, s.name AS series, s.revision AS revision, c.sha AS commit_sha,
	       g.metric AS metric,
	       json_object('id', g.id, 'series', s.name, 'revision', s.revision,
			   'sha', c.sha, 'subject', c.subject, 'position', c.position,
			   'env_fingerprint', g.env_fingerprint, 'workload', g.workload,
			   'variant', g.variant, 'metric', g.metric, 'delta_pct', g.delta_pct,
			   'p_value', g.p_value, 'status', g.status, 'status_by', g.status_by,
			   'status_note', g.status_note, 'status_at', g.status_at,
			   'created_at', g.created_at) AS payload
	FROM regressions g JOIN series s ON s.id = g.series_id JOIN commits c ON c.id = g.commit_id;
CREATE TRIGGER outbox_regression_new AFTER INSERT ON regressions BEGIN
	INSERT INTO outbox(event_key, type, regression_id, series, revision, commit_sha, metric, payload, created_at)
		SELECT printf('r%d.%d.%s', NEW.id, 1 + (SELECT count(*) FROM outbox WHERE regression_id = NEW.id),
			      lower(hex(randomblob(6)))),
		       'new', regression_id, series, revision, commit_sha, metric, payload,
		       strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
		FROM outbox_source WHERE regression_id = NEW.id;
END;
CREATE TRIGGER outbox_regression_status AFTER UPDATE OF status ON regressions
WHEN OLD.status IS NOT NEW.status BEGIN
	INSERT INTO outbox(event_key, type, regression_id, series, revision, commit_sha, metric, payload, created_at)
		SELECT printf('r%d.%d.%s', NEW.id, 1 + (SELECT count(*) FROM outbox WHERE regression_id = NEW.id),
			      lower(hex(randomblob(6)))),
		       CASE NEW.status WHEN 'fixed' THEN 'fixed' ELSE 'status' END,
		       regression_id, series, revision, commit_sha, metric, payload,
		       strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
		FROM outbox_source WHERE regression_id = NEW.id;
END;
CREATE TRIGGER outbox_deliveries AFTER INSERT ON outbox BEGIN
	INSERT INTO webhook_deliveries(webhook_id, outbox_id) SELECT id, NEW.id FROM webhooks WHERE active = 1;
END;
