/*
 * Held events (migration 0007, holds.h): while a series revision is
 * still being measured its events wait; a hold is released once detection
 * has seen every run stored under it and the run is complete (the collector
 * said so after its last run) or quiet for the settle time. The release sends
 * the net change per regression: nothing when it is back where the receivers
 * last heard (or a regression nobody heard of ended fixed or invalid), else
 * one event, the last written (its key is kept), with the type and numbers
 * of now (bisected: only moved to another commit since they heard of it).
 * One transaction: a crash leaves the hold as it was or released.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "holds.h"
#include "fw-db.h"
#include "stmt-cache.h"

#define DUE_BATCH 16

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);  /* the clock of the triggers' julianday('now') */
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Runs one cached statement binding ?1 = text (NULL allowed); 0 or -1. */
static int exec_text(sqlite3 *db, const char *sql, const char *text)
{
	sqlite3_stmt *st = fw_stmt_get(db, sql);
	int rc;

	if (!st)
		return -1;
	if (text)
		sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	fw_stmt_done(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int fw_holds_detect_begin(sqlite3 *db, const char *series)
{
	return exec_text(db, FW_CACHED("UPDATE series_holds SET seen_seq = seq WHERE ?1 IS NULL OR series_id IN "
				       "(SELECT id FROM series WHERE name = ?1)"), series);
}

int fw_holds_detect_end(sqlite3 *db, const char *series)
{
	return exec_text(db, FW_CACHED("UPDATE series_holds SET detected_seq = max(detected_seq, seen_seq) "
				       "WHERE ?1 IS NULL OR series_id IN (SELECT id FROM series WHERE name = ?1)"),
			 series);
}

/*
 * Status and commit of the last event a receiver got for regression rid into
 * prior and prior_sha (empty: none); 0 or -1.
 */
static int prior_status(sqlite3 *db, long long rid, char prior[16], char prior_sha[41])
{
	sqlite3_stmt *st = fw_stmt_get(db, FW_CACHED(
		"SELECT json_extract(payload, '$.status'), commit_sha FROM outbox WHERE regression_id = ? "
		"AND state = 'released' ORDER BY id DESC LIMIT 1"));
	int rc;

	if (!st)
		return -1;
	prior[0] = prior_sha[0] = '\0';
	sqlite3_bind_int64(st, 1, rid);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(prior, 16, "%s", (const char *)sqlite3_column_text(st, 0));
	if (rc == SQLITE_ROW && sqlite3_column_text(st, 1))
		snprintf(prior_sha, 41, "%s", (const char *)sqlite3_column_text(st, 1));
	fw_stmt_done(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* The net event of one regression: event id keeps its key, gets the type and payload of now (or is merged). */
static int settle_event(sqlite3 *db, long long id, long long rid)
{
	sqlite3_stmt *cur = fw_stmt_get(db, FW_CACHED(
		"SELECT json_extract(payload, '$.status'), payload, commit_sha FROM outbox_source WHERE regression_id = ?"));
	sqlite3_stmt *up = fw_stmt_get(db, FW_CACHED(
		"UPDATE outbox SET state = ?2, type = coalesce(?3, type), payload = coalesce(?4, payload) WHERE id = ?1"));
	sqlite3_stmt *dl = fw_stmt_get(db, FW_CACHED(
		"INSERT INTO webhook_deliveries(webhook_id, outbox_id) SELECT id, ?1 FROM webhooks "
		"WHERE active = 1 AND ?2"));
	char prior[16], prior_sha[41];
	const char *now, *now_sha, *type = NULL;
	int ret = -1, send, moved;

	if (!cur || !up || !dl || prior_status(db, rid, prior, prior_sha))
		goto cleanup;
	sqlite3_bind_int64(cur, 1, rid);
	if (sqlite3_step(cur) != SQLITE_ROW)
		goto cleanup;
	now = (const char *)sqlite3_column_text(cur, 0);
	now = now ? now : "";
	now_sha = (const char *)sqlite3_column_text(cur, 2);
	/* heard of at another commit: a bisect moved it to its culprit */
	moved = prior[0] && now_sha && strcmp(prior_sha, now_sha);
	/* unheard of and gone (fixed) or dismissed (invalid): no news; back where it was heard: no news */
	send = prior[0] ? strcmp(prior, now) != 0 || moved : strcmp(now, "fixed") && strcmp(now, "invalid");
	if (send)
		type = !prior[0] ? "new" : !strcmp(now, "fixed") ? "fixed" : strcmp(prior, now) ? "status" : "bisected";
	sqlite3_bind_int64(up, 1, id);
	sqlite3_bind_text(up, 2, send ? "released" : "merged", -1, SQLITE_STATIC);
	if (type) {
		sqlite3_bind_text(up, 3, type, -1, SQLITE_STATIC);
		sqlite3_bind_value(up, 4, sqlite3_column_value(cur, 1));
	}
	if (sqlite3_step(up) != SQLITE_DONE)
		goto cleanup;
	sqlite3_bind_int64(dl, 1, id);
	sqlite3_bind_int(dl, 2, send);
	ret = sqlite3_step(dl) == SQLITE_DONE ? 0 : -1;
cleanup:
	if (cur)
		fw_stmt_done(cur);
	if (up)
		fw_stmt_done(up);
	if (dl)
		fw_stmt_done(dl);
	return ret;
}

/* Inside the release transaction: every held event of series sid merged or released; 0 or -1. */
static int settle_series(sqlite3 *db, long long sid)
{
	sqlite3_stmt *merge = fw_stmt_get(db, FW_CACHED(
		"UPDATE outbox SET state = 'merged' WHERE state = 'held' AND id IN (SELECT o.id FROM outbox o "
		"JOIN series s ON s.name = o.series AND s.revision = o.revision WHERE s.id = ?1 AND o.state = 'held' "
		"AND o.id < (SELECT max(id) FROM outbox l WHERE l.regression_id = o.regression_id AND l.state = 'held'))"));
	sqlite3_stmt *last = fw_stmt_get(db, FW_CACHED(
		"SELECT o.id, o.regression_id FROM outbox o JOIN series s ON s.name = o.series AND s.revision = o.revision "
		"WHERE s.id = ?1 AND o.state = 'held' ORDER BY o.id"));
	long long ids[DUE_BATCH][2];
	int n, ret = -1;

	if (!merge || !last)
		goto cleanup;
	sqlite3_bind_int64(merge, 1, sid);
	if (sqlite3_step(merge) != SQLITE_DONE)
		goto cleanup;
	sqlite3_bind_int64(last, 1, sid);
	do {  /* a batch at a time: settle_event takes each one out of the held set */
		for (n = 0; n < DUE_BATCH && sqlite3_step(last) == SQLITE_ROW; n++) {
			ids[n][0] = sqlite3_column_int64(last, 0);
			ids[n][1] = sqlite3_column_int64(last, 1);
		}
		sqlite3_reset(last);
		for (int i = 0; i < n; i++)
			if (settle_event(db, ids[i][0], ids[i][1]))
				goto cleanup;
	} while (n == DUE_BATCH);
	ret = 0;
cleanup:
	if (merge)
		fw_stmt_done(merge);
	if (last)
		fw_stmt_done(last);
	return ret;
}

/* Releases hold sid if it is still due; 1 released, 0 not due any more, -1 error. */
static int release_one(sqlite3 *db, long long sid, double settle_s, struct strbuf *err)
{
	sqlite3_stmt *del;
	int gone, ok;

	if (fw_db_begin(db, err))
		return -1;
	del = fw_stmt_get(db, FW_CACHED(
		"DELETE FROM series_holds WHERE series_id = ?1 AND detected_seq >= seq "
		"AND (complete_seq >= seq OR last_ingest_at + ?2 <= ?3)"));
	if (!del) {
		strbuf_addstr(err, sqlite3_errmsg(db));
		return fw_db_end(db, 0, NULL);
	}
	sqlite3_bind_int64(del, 1, sid);
	sqlite3_bind_double(del, 2, settle_s);
	sqlite3_bind_double(del, 3, now_s());
	ok = sqlite3_step(del) == SQLITE_DONE;
	gone = sqlite3_changes(db);
	fw_stmt_done(del);
	if (ok && gone)
		ok = !settle_series(db, sid);
	if (!ok) {
		strbuf_addstr(err, sqlite3_errmsg(db));
		return fw_db_end(db, 0, NULL);
	}
	return fw_db_end(db, 1, err) ? -1 : gone > 0;
}

int fw_holds_release_due(sqlite3 *db, double settle_s, double *next_s)
{
	sqlite3_stmt *st = fw_stmt_get(db, FW_CACHED(
		"SELECT series_id, CASE WHEN complete_seq >= seq THEN 0 ELSE last_ingest_at + ?1 END AS due "
		"FROM series_holds WHERE detected_seq >= seq ORDER BY due LIMIT 16"));  /* DUE_BATCH */
	struct strbuf err = STRBUF_INIT;
	long long due[DUE_BATCH];
	double t = now_s();
	int n = 0, released = 0;

	*next_s = -1;
	if (!st)
		return -1;
	sqlite3_bind_double(st, 1, settle_s);
	while (n < DUE_BATCH && sqlite3_step(st) == SQLITE_ROW) {
		double at = sqlite3_column_double(st, 1);

		if (at > t) {  /* ordered by due: the rest are later */
			*next_s = at - t;
			break;
		}
		due[n++] = sqlite3_column_int64(st, 0);
	}
	fw_stmt_done(st);
	for (int i = 0; i < n; i++) {
		int rc = release_one(db, due[i], settle_s, &err);

		if (rc < 0)
			fprintf(stderr, "serve: releasing held events: %s\n", err.buf);
		released += rc > 0;
		strbuf_reset(&err);
	}
	if (n == DUE_BATCH)
		*next_s = 0;  /* more may be due */
	strbuf_release(&err);
	return released;
}

int fw_hold_complete(sqlite3 *db, const char *series, int revision, struct fw_hold_info *out)
{
	sqlite3_stmt *find = fw_stmt_get(db, FW_CACHED(
		"SELECT s.id, s.revision, h.seq, (SELECT count(*) FROM outbox o WHERE o.series = s.name "
		"AND o.revision = s.revision AND o.state = 'held') FROM series s "
		"LEFT JOIN series_holds h ON h.series_id = s.id WHERE s.name = ?1 "
		"AND (s.revision = ?2 OR (?2 = 0 AND s.revision = (SELECT max(revision) FROM series WHERE name = ?1)))"));
	sqlite3_stmt *mark = fw_stmt_get(db, FW_CACHED("UPDATE series_holds SET complete_seq = seq WHERE series_id = ?"));
	int rc, ret = -1;

	memset(out, 0, sizeof(*out));
	if (!find || !mark)
		goto cleanup;
	sqlite3_bind_text(find, 1, series, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(find, 2, revision);
	rc = sqlite3_step(find);
	if (rc == SQLITE_DONE)
		ret = 1;
	if (rc != SQLITE_ROW)
		goto cleanup;
	out->revision = sqlite3_column_int(find, 1);
	out->open = sqlite3_column_type(find, 2) != SQLITE_NULL;
	out->runs = sqlite3_column_int(find, 2);
	out->held_events = sqlite3_column_int(find, 3);
	sqlite3_bind_int64(mark, 1, sqlite3_column_int64(find, 0));
	/* end the read first: an UPDATE under a still-open read whose snapshot
	 * another connection has since written past fails at once with
	 * SQLITE_BUSY_SNAPSHOT, without waiting in the busy handler */
	fw_stmt_done(find);
	find = NULL;
	ret = sqlite3_step(mark) == SQLITE_DONE ? 0 : -1;
cleanup:
	if (find)
		fw_stmt_done(find);
	if (mark)
		fw_stmt_done(mark);
	return ret;
}

int fw_holds_undetected(sqlite3 *db, double quiet_s, char **names, int max)
{
	sqlite3_stmt *st = fw_stmt_get(db, FW_CACHED(
		"SELECT DISTINCT s.name FROM series_holds h JOIN series s ON s.id = h.series_id "
		"WHERE h.detected_seq < h.seq AND h.last_ingest_at + ?1 <= ?2 LIMIT ?3"));
	int n = 0;

	if (!st)
		return 0;
	sqlite3_bind_double(st, 1, quiet_s);
	sqlite3_bind_double(st, 2, now_s());
	sqlite3_bind_int(st, 3, max);
	while (n < max && sqlite3_step(st) == SQLITE_ROW)
		names[n++] = strdup((const char *)sqlite3_column_text(st, 0));
	fw_stmt_done(st);
	return n;
}
