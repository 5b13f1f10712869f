/* Stored bisects: one record per bisect, written as it goes (migration 0011). */
#include "bisect-db.h"
#include "fw-db.h"
#include <string.h>

static void bind_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

long long fw_bisect_db_begin(sqlite3 *db, const struct fw_bisect_record *r, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	long long id = -1;

	if (sqlite3_prepare_v2(db,
			       "INSERT INTO bisects(series_id, workload, variant, metric, direction, good_sha, bad_sha, "
			       "state, started_at) SELECT id, ?2, ?3, ?4, ?5, ?6, ?7, 'running', ?8 FROM series "
			       "WHERE name = ?1 ORDER BY revision DESC LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "storing the bisect: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_text(st, 1, r->series, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, r->workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, r->variant, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, r->metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, r->direction, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, r->good_sha, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, r->bad_sha, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, r->started_at, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		strbuf_addf(err, "storing the bisect: %s", sqlite3_errmsg(db));
	else if (sqlite3_changes(db) != 1)
		strbuf_addf(err, "storing the bisect: no series %s", r->series);
	else
		id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	return id;
}

int fw_bisect_db_update(sqlite3 *db, const struct fw_bisect_record *r, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(db,
			       "UPDATE bisects SET state = ?2, culprit_sha = ?3, range_lo_sha = ?4, range_hi_sha = ?5, "
			       "why = ?6, steps = ?7, boots = ?8, seconds = ?9, finished_at = ?10 WHERE id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		goto cleanup;
	sqlite3_bind_int64(st, 1, r->id);
	sqlite3_bind_text(st, 2, r->state, -1, SQLITE_STATIC);
	bind_or_null(st, 3, r->culprit_sha);
	bind_or_null(st, 4, r->range_lo_sha);
	bind_or_null(st, 5, r->range_hi_sha);
	bind_or_null(st, 6, r->why);
	sqlite3_bind_text(st, 7, r->steps ? r->steps : "[]", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, r->boots);
	sqlite3_bind_double(st, 9, r->seconds);
	bind_or_null(st, 10, r->finished_at);
	if (sqlite3_step(st) == SQLITE_DONE)
		ret = 0;
	/*
	 * Over: the verdicts inside its range waited while it ran
	 * (fw_regression_in_bisect), so the next refresh stores regressions
	 * again even where the data did not change since.
	 */
	if (!ret && strcmp(r->state, "running") &&
	    fw_db_exec(db, "UPDATE analysis_cache SET regressions_stored = 0 WHERE regressions_stored = 1", NULL))
		ret = -1;
cleanup:
	if (ret)
		strbuf_addf(err, "storing the bisect: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return ret;
}

int fw_bisect_db_move_regressions(sqlite3 *db, long long id, const char *workload, const char *variant,
				  const char *metric, struct strbuf *err)
{
	/* the culprit's and bad's commit rows are of the bisect's series */
	static const char sql[] =
		"UPDATE regressions SET found_commit_id = coalesce(found_commit_id, commit_id), bisect_id = b.id, "
		"commit_id = (SELECT c.id FROM commits c WHERE c.series_id = b.series_id AND c.sha = b.culprit_sha) "
		"FROM (SELECT * FROM bisects WHERE id = ?1 AND culprit_sha IS NOT NULL AND direction = 'regression') AS b "
		"WHERE regressions.series_id = b.series_id AND regressions.workload = ?2 "
		"AND regressions.variant = ?3 AND regressions.metric = ?4 "
		"AND regressions.commit_id = (SELECT c.id FROM commits c WHERE c.series_id = b.series_id AND c.sha = b.bad_sha) "
		"AND EXISTS (SELECT 1 FROM commits c WHERE c.series_id = b.series_id AND c.sha = b.culprit_sha) "
		"AND NOT EXISTS (SELECT 1 FROM regressions r2 JOIN commits c ON c.id = r2.commit_id "
		"WHERE r2.series_id = b.series_id AND c.sha = b.culprit_sha "
		"AND r2.env_fingerprint = regressions.env_fingerprint AND r2.workload = ?2 "
		"AND r2.variant = ?3 AND r2.metric = ?4)";
	sqlite3_stmt *st = NULL;
	int n = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, workload, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, variant, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, metric, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_DONE)
			n = sqlite3_changes(db);
	}
	if (n < 0)
		strbuf_addf(err, "moving the regression to the culprit: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return n;
}

int fw_bisect_db_read(sqlite3 *db, const char *series, long long id,
		      int (*each)(const struct fw_bisect_record *r, void *ctx), void *ctx, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc, stop = 0;

	if (sqlite3_prepare_v2(db,
			       "SELECT b.id, s.name, b.workload, b.variant, b.metric, b.direction, b.good_sha, b.bad_sha, "
			       "b.state, b.culprit_sha, b.range_lo_sha, b.range_hi_sha, b.why, b.steps, b.started_at, "
			       "b.finished_at, b.boots, b.seconds FROM bisects b JOIN series s ON s.id = b.series_id "
			       "WHERE (?1 IS NULL OR s.name = ?1) AND (?2 IS NULL OR b.id = ?2) ORDER BY b.id DESC",
			       -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "reading bisects: %s", sqlite3_errmsg(db));
		return -1;
	}
	bind_or_null(st, 1, series);
	if (id > 0)
		sqlite3_bind_int64(st, 2, id);
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
#define OPT(i) (sqlite3_column_type(st, i) == SQLITE_NULL ? NULL : fw_db_text(st, i))
		struct fw_bisect_record r = {
			.id = sqlite3_column_int64(st, 0), .series = fw_db_text(st, 1), .workload = fw_db_text(st, 2),
			.variant = fw_db_text(st, 3), .metric = fw_db_text(st, 4), .direction = fw_db_text(st, 5),
			.good_sha = fw_db_text(st, 6), .bad_sha = fw_db_text(st, 7), .state = fw_db_text(st, 8),
			.culprit_sha = OPT(9), .range_lo_sha = OPT(10), .range_hi_sha = OPT(11), .why = OPT(12),
			.steps = fw_db_text(st, 13), .started_at = fw_db_text(st, 14), .finished_at = OPT(15),
			.boots = sqlite3_column_int64(st, 16), .seconds = sqlite3_column_double(st, 17),
		};
#undef OPT
		stop = each(&r, ctx);
	}
	if (!stop && rc != SQLITE_DONE) {
		strbuf_addf(err, "reading bisects: %s", sqlite3_errmsg(db));
		stop = -1;
	}
	sqlite3_finalize(st);
	return stop < 0 ? -1 : stop ? 1 : 0;
}

/* One number from sql with ?1 and ?2 bound to a and b (NULL: unbound), or -1. */
static long long number_of(sqlite3 *db, const char *sql, const char *a, const char *b)
{
	sqlite3_stmt *st = NULL;
	long long n = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		bind_or_null(st, 1, a);
		bind_or_null(st, 2, b);
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return n;
}

int fw_bisect_db_commit_failed(sqlite3 *db, const char *series, const char *sha)
{
	return (int)number_of(db, "SELECT count(*) > 0 FROM runs r JOIN commits c ON c.id = r.commit_id "
				  "JOIN series s ON s.id = c.series_id WHERE s.name = ?1 AND c.sha = ?2 "
				  "AND r.boot_status != 'ok'", series, sha);
}

long long fw_bisect_db_boots(sqlite3 *db, const char *series)
{
	return number_of(db, "SELECT count(*) FROM runs r JOIN commits c ON c.id = r.commit_id "
			     "JOIN series s ON s.id = c.series_id WHERE s.name = ?1 AND r.boot_status = 'ok'", series, NULL);
}

int fw_bisect_db_abandon(sqlite3 *db, const struct fw_bisect_record *r, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int n = -1;

	if (sqlite3_prepare_v2(db,
			       "UPDATE bisects SET state = 'gave up', finished_at = ?5, why = 'interrupted: a later bisect "
			       "of the range found it still running' WHERE state = 'running' AND good_sha = ?2 AND "
			       "bad_sha = ?3 AND workload = ?4 AND series_id IN (SELECT id FROM series WHERE name = ?1)",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, r->series, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, r->good_sha, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, r->bad_sha, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, r->workload, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, r->started_at, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_DONE)
			n = sqlite3_changes(db);
	}
	if (n < 0)
		strbuf_addf(err, "closing an interrupted bisect: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return n;
}
