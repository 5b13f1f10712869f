-- 0008 (issue 16): a series revision whose run is still being measured holds
-- its events. The collector posts boot by boot and adds boots in later looks,
-- so a verdict can flip (new, then fixed) before the run is over; a chat
-- channel should hear the net change once, not the flapping. A stored run
-- opens (or extends) the hold of its series revision, in the ingest's own
-- transaction, whoever stores it (serve, import, run --db). Events written
-- while a hold is open are kept with state 'held' and get no delivery rows;
-- `serve` releases a hold (server/hold.c) once detection has seen every run
-- stored under it and either the collector said the run is complete after
-- its last run (complete_seq = seq) or no run came for --settle-seconds. The
-- release keeps one event per regression (the net change; its key was made
-- when the event was written, so a crash never changes it) or none, marks the
-- rest 'merged', and deletes the hold, all in one transaction.
CREATE TABLE series_holds (
	series_id INTEGER PRIMARY KEY REFERENCES series(id),
	seq INTEGER NOT NULL,                       -- runs stored since the hold opened
	seen_seq INTEGER NOT NULL DEFAULT 0,        -- seq when the running detection began
	detected_seq INTEGER NOT NULL DEFAULT 0,    -- seq the last finished detection had seen
	complete_seq INTEGER NOT NULL DEFAULT -1,   -- seq when the collector said "complete"
	last_ingest_at REAL NOT NULL,               -- unix seconds of the last stored run
	opened_at TEXT NOT NULL
);
ALTER TABLE outbox ADD COLUMN state TEXT NOT NULL DEFAULT 'released'
	CHECK (state IN ('held', 'released', 'merged'));
CREATE INDEX outbox_held ON outbox(series, revision) WHERE state = 'held';
CREATE TRIGGER series_hold_open AFTER INSERT ON runs BEGIN
	INSERT INTO series_holds(series_id, seq, last_ingest_at, opened_at)
		SELECT series_id, 1, (julianday('now') - 2440587.5) * 86400.0, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
		FROM commits WHERE id = NEW.commit_id
	ON CONFLICT(series_id) DO UPDATE SET seq = seq + 1, last_ingest_at = excluded.last_ingest_at;
END;
-- Replaces 0005's: an event of a held series revision waits (no delivery rows yet).
DROP TRIGGER outbox_deliveries;
CREATE TRIGGER outbox_deliveries AFTER INSERT ON outbox BEGIN
	UPDATE outbox SET state = 'held' WHERE id = NEW.id AND EXISTS (
		SELECT 1 FROM series_holds h JOIN series s ON s.id = h.series_id
		WHERE s.name = NEW.series AND s.revision = NEW.revision);
	INSERT INTO webhook_deliveries(webhook_id, outbox_id)
		SELECT id, NEW.id FROM webhooks WHERE active = 1 AND NOT EXISTS (
			SELECT 1 FROM series_holds h JOIN series s ON s.id = h.series_id
			WHERE s.name = NEW.series AND s.revision = NEW.revision);
END;
