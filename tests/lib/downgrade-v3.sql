-- Makes a current DB look like one of schema version 3 (before migration
-- 0004) for the tests of upgrading an old DB (t1065, t1068): drops what
-- 0014, 0013 (with analysis_rows), 0012, 0011, 0010, 0009, 0008, 0007, 0006, 0005 and 0004 added, newest first. A new migration adds its own drops here.
DROP TRIGGER runs_stamp_insert;
DROP TRIGGER runs_stamp_update;
DROP TRIGGER runs_stamp_delete;
DROP TRIGGER runs_stamp_commit_moved;
DROP TRIGGER runs_stamp_commit_deleted;
DROP TRIGGER runs_stamp_env_changed;
DROP TRIGGER runs_stamp_env_deleted;
DROP TABLE runs_stamp;
ALTER TABLE series DROP COLUMN watched;
DROP TRIGGER outbox_regression_bisected;
DROP TABLE analysis_rows;
ALTER TABLE analysis_cache DROP COLUMN regressions_stored;
ALTER TABLE analysis_cache DROP COLUMN compute_ms;
ALTER TABLE runs DROP COLUMN extensions;
DROP TRIGGER series_hold_open;
DROP TABLE series_holds;
DROP TABLE profiles;
DROP TABLE series_cover;
DROP TABLE commit_mail;
DROP TRIGGER outbox_regression_new;
DROP TRIGGER outbox_regression_status;
DROP TRIGGER outbox_deliveries;
DROP VIEW outbox_source;
ALTER TABLE regressions DROP COLUMN bisect_id;
ALTER TABLE regressions DROP COLUMN found_commit_id;
DROP TABLE bisects;
DROP TABLE webhook_deliveries;
DROP TABLE outbox;
DROP TABLE webhooks;
DROP TRIGGER regression_history_insert;
DROP TRIGGER regression_history_update;
DROP TABLE regression_history;
ALTER TABLE regressions DROP COLUMN status_note;
ALTER TABLE api_tokens DROP COLUMN scopes;
PRAGMA user_version = 3;
