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
