-- The current schema: the migrations in order (tests check that they agree).
-- Generated reference; the source of truth is schema/migrations/.
-- 0001: the core model. One run = one boot of one kernel (a run document).
CREATE TABLE trees (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,
	url TEXT NOT NULL DEFAULT ''
);
CREATE TABLE series (
	id INTEGER PRIMARY KEY,
	tree_id INTEGER NOT NULL REFERENCES trees(id),
	name TEXT NOT NULL,
	revision INTEGER NOT NULL DEFAULT 1,
	base TEXT NOT NULL,
	created_at TEXT NOT NULL,
	UNIQUE (name, revision)
);
-- commit_key: the sha for a range, patch-id + base sha for an mbox (stable across re-applying).
CREATE TABLE commits (
	id INTEGER PRIMARY KEY,
	series_id INTEGER NOT NULL REFERENCES series(id),
	sha TEXT NOT NULL,
	commit_key TEXT NOT NULL,
	subject TEXT NOT NULL,
	author TEXT NOT NULL,
	position INTEGER NOT NULL,
	parent_sha TEXT,
	UNIQUE (series_id, commit_key)
);
CREATE INDEX commits_by_position ON commits(series_id, position);
-- The full .config, stored once per hash.
CREATE TABLE configs (
	hash TEXT PRIMARY KEY,
	body TEXT NOT NULL
);
CREATE TABLE environments (
	id INTEGER PRIMARY KEY,
	fingerprint TEXT NOT NULL UNIQUE,
	host TEXT NOT NULL,
	accel TEXT NOT NULL CHECK (accel IN ('kvm', 'tcg', 'icount')),
	qemu_version TEXT NOT NULL,
	vcpus INTEGER NOT NULL,
	memory_mib INTEGER NOT NULL,
	host_kernel TEXT NOT NULL,
	cpu_model TEXT NOT NULL,
	foliowatch_version TEXT NOT NULL,
	fio_version TEXT NOT NULL
);
-- One build of a commit with one config on one host; the first document to report it wins.
CREATE TABLE builds (
	id INTEGER PRIMARY KEY,
	commit_id INTEGER NOT NULL REFERENCES commits(id),
	env_id INTEGER NOT NULL REFERENCES environments(id),
	config_hash TEXT NOT NULL,
	status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
	seconds REAL,
	kernel_version TEXT NOT NULL,
	compiler TEXT NOT NULL,
	log_tail TEXT NOT NULL DEFAULT '',
	UNIQUE (commit_id, env_id, config_hash)
);
CREATE TABLE runs (
	id INTEGER PRIMARY KEY,
	run_id TEXT NOT NULL UNIQUE,
	doc_hash TEXT NOT NULL,
	origin TEXT NOT NULL,
	commit_id INTEGER NOT NULL REFERENCES commits(id),
	build_id INTEGER NOT NULL REFERENCES builds(id),
	env_id INTEGER NOT NULL REFERENCES environments(id),
	profile TEXT NOT NULL,
	workloads TEXT NOT NULL,
	boot_index INTEGER NOT NULL,
	created_at TEXT NOT NULL,
	ingested_at TEXT NOT NULL,
	boot_status TEXT NOT NULL CHECK (boot_status IN
		('ok', 'panic', 'oops', 'warn', 'timeout', 'error', 'not_run')),
	taint INTEGER NOT NULL DEFAULT 0,
	boot_seconds REAL,
	qemu_cmdline TEXT NOT NULL DEFAULT '',
	kernel_cmdline TEXT NOT NULL DEFAULT '',
	boot_log_tail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX runs_by_commit ON runs(commit_id);
-- params: canonical JSON (keys sorted), part of what makes results comparable.
CREATE TABLE results (
	id INTEGER PRIMARY KEY,
	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	workload TEXT NOT NULL,
	variant TEXT NOT NULL,
	metric TEXT NOT NULL,
	params TEXT NOT NULL,
	unit TEXT NOT NULL,
	direction TEXT NOT NULL CHECK (direction IN ('lower_is_better', 'higher_is_better')),
	kind TEXT NOT NULL CHECK (kind IN ('time', 'rate', 'count')),
	min_effect_pct REAL,
	error TEXT,
	UNIQUE (run_id, workload, variant, metric)
);
CREATE INDEX results_by_metric ON results(workload, variant, metric);
CREATE TABLE samples (
	result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
	round INTEGER NOT NULL,
	value REAL NOT NULL,
	PRIMARY KEY (result_id, round)
) WITHOUT ROWID;
CREATE TABLE counters (
	result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
	round INTEGER NOT NULL,
	name TEXT NOT NULL,
	value REAL NOT NULL,
	PRIMARY KEY (result_id, round, name)
) WITHOUT ROWID;
-- Only a sha256 of each token is kept.
CREATE TABLE api_tokens (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,
	hash TEXT NOT NULL,
	created_at TEXT NOT NULL,
	revoked_at TEXT
);
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
-- 0003: sequential boots (issue 12). A boot added between rounds of analysis
-- records which look (round) it belongs to and how many looks its design
-- planned, from the run document's optional `sequential`; NULL for a fixed
-- design (one look). The analysis spends alpha over max_looks looks.
ALTER TABLE runs ADD COLUMN look INTEGER CHECK (look IS NULL OR look >= 1);
ALTER TABLE runs ADD COLUMN max_looks INTEGER CHECK (max_looks IS NULL OR max_looks >= 1);
-- The analysis pools same-kernel boots of an environment (the newest kernels
-- first): boots by environment and build.
CREATE INDEX runs_by_env_build ON runs(env_id, build_id);
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
-- 0006 (issue 16): the mail a series was measured from (run --mbox), for
-- report --format email. (0005, s16hook's outbox and webhooks, goes before it.)
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
-- 0007 (issue 13): kernel function profiles of a boot (ftrace function
-- profiler): time_us with children, self_us without (NULL: not measured).
CREATE TABLE profiles (
	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	workload TEXT NOT NULL,
	variant TEXT NOT NULL,
	function TEXT NOT NULL,
	hits INTEGER NOT NULL,
	time_us REAL NOT NULL,
	self_us REAL,
	PRIMARY KEY (run_id, workload, variant, function)
) WITHOUT ROWID;
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

-- 0009 (issue 28): foliowatch-run/2 refuses unknown fields, so a CI's own
-- data (a job URL, a runner pool, a build id) has one documented place, the
-- document's "extensions" object. It is kept with the run as canonical JSON
-- (keys sorted), NULL when the document has none.
ALTER TABLE runs ADD COLUMN extensions TEXT;

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

-- 0012 (issue 31): a watched series (the history `watch` measures, commit by
-- commit) is decided commit by commit under a bounded window: a commit's
-- verdicts depend only on the commits up to it, so they never move when the
-- history grows (README "Deciding"). Set by a run document's
-- `series.watched`, never cleared by one that lacks it.
ALTER TABLE series ADD COLUMN watched INTEGER NOT NULL DEFAULT 0 CHECK (watched IN (0, 1));

-- 0013 (issue 31): the decided rows of a cached analysis (what the regressions
-- page, the feeds and a regression's profile read) through an index of their
-- own. Read as a filter on the key's range they cost a scan of every row of
-- the analysis with its body: 3.6 GB at 10,000 commits for about a thousand
-- rows (the regressions page and the feeds 3.2-3.8 s on a cold server).
CREATE INDEX analysis_rows_decided ON analysis_rows(key, position, seq) WHERE decided = 1;

-- 0014 (issue 31): a generation that moves with every change to what a
-- series' data hash reads (its runs, their commits' series, their
-- environments' fingerprints), whichever process writes, so the hash of a
-- series' runs is remembered until it moves (schema/runs-digest.c): reading
-- every run of the series cost 0.3 s, half of each cold page at 10,000
-- commits. db_id tells two database files with equal generations apart. A
-- random generation, not a count: a backup restored over the file or a rolled
-- back write would count through numbers already seen with other data.
CREATE TABLE runs_stamp (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	db_id TEXT NOT NULL,
	generation INTEGER NOT NULL
);
INSERT INTO runs_stamp VALUES (1, lower(hex(randomblob(16))), 0);
CREATE TRIGGER runs_stamp_insert AFTER INSERT ON runs BEGIN
	UPDATE runs_stamp SET generation = random();
END;
CREATE TRIGGER runs_stamp_update AFTER UPDATE ON runs BEGIN
	UPDATE runs_stamp SET generation = random();
END;
CREATE TRIGGER runs_stamp_delete AFTER DELETE ON runs BEGIN
	UPDATE runs_stamp SET generation = random();
END;
CREATE TRIGGER runs_stamp_commit_moved AFTER UPDATE OF series_id ON commits BEGIN
	UPDATE runs_stamp SET generation = random();
END;
CREATE TRIGGER runs_stamp_commit_deleted AFTER DELETE ON commits BEGIN
	UPDATE runs_stamp SET generation = random();
END;
CREATE TRIGGER runs_stamp_env_changed AFTER UPDATE OF fingerprint ON environments BEGIN
	UPDATE runs_stamp SET generation = random();
END;
CREATE TRIGGER runs_stamp_env_deleted AFTER DELETE ON environments BEGIN
	UPDATE runs_stamp SET generation = random();
END;
