/* Stored regressions: reads and writes (see regressions-db.h). */
#include <math.h>
#include <stdlib.h>
#include "fw-db.h"
#include "regressions-db.h"
#include "xalloc.h"

int fw_regression_writer_open(struct fw_regression_writer *w, sqlite3 *db, struct strbuf *err)
{
	w->db = db;
	w->insert = w->fix = w->in_bisect = NULL;
	if (sqlite3_prepare_v2(db, "INSERT INTO regressions(series_id, env_fingerprint, workload, variant, metric,"
			       " commit_id, delta_pct, p_value, status, status_by, status_at, created_at) "
			       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'new', 'analysis', ?9, ?9) ON CONFLICT DO NOTHING",
			       -1, &w->insert, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "UPDATE regressions SET status = 'fixed', status_by = 'analysis', status_note = '',"
			       " status_at = ?7 WHERE series_id = ?1 AND env_fingerprint = ?2 AND workload = ?3"
			       " AND variant = ?4 AND metric = ?5 AND commit_id = ?6 AND status IN ('new', 'acknowledged')",
			       -1, &w->fix, NULL) != SQLITE_OK ||
	    /* ?1 series, ?2 workload, ?3 commit: inside (good, bad] of a bisect of that workload running (a day at most) */
	    sqlite3_prepare_v2(db, "SELECT 1 FROM bisects b JOIN commits g ON g.series_id = b.series_id AND g.sha = b.good_sha"
			       " JOIN commits h ON h.series_id = b.series_id AND h.sha = b.bad_sha JOIN commits c ON c.id = ?3"
			       " WHERE b.series_id = ?1 AND b.workload = ?2 AND b.state = 'running'"
			       " AND b.started_at > strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-1 day')"
			       " AND c.position > g.position AND c.position <= h.position LIMIT 1",
			       -1, &w->in_bisect, NULL) != SQLITE_OK) {
		strbuf_addf(err, "storing regressions: %s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

int fw_regression_in_bisect(struct fw_regression_writer *w, const struct fw_regression_key *k)
{
	int rc;

	sqlite3_reset(w->in_bisect);
	sqlite3_bind_int64(w->in_bisect, 1, k->series_id);
	sqlite3_bind_text(w->in_bisect, 2, k->workload, -1, SQLITE_STATIC);
	sqlite3_bind_int64(w->in_bisect, 3, k->commit_id);
	rc = sqlite3_step(w->in_bisect);
	sqlite3_reset(w->in_bisect);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

void fw_regression_writer_close(struct fw_regression_writer *w)
{
	sqlite3_finalize(w->insert);
	sqlite3_finalize(w->fix);
	sqlite3_finalize(w->in_bisect);
	w->insert = w->fix = w->in_bisect = NULL;
}

static void bind_key(sqlite3_stmt *st, const struct fw_regression_key *k)
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, k->series_id);
	sqlite3_bind_text(st, 2, k->env_fingerprint, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, k->workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, k->variant, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, k->metric, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, k->commit_id);
}

int fw_regression_insert(struct fw_regression_writer *w, const struct fw_regression_key *k, double delta_pct,
			 double q, const char *now)
{
	bind_key(w->insert, k);
	sqlite3_bind_double(w->insert, 7, delta_pct);
	if (isnan(q))
		sqlite3_bind_null(w->insert, 8);
	else
		sqlite3_bind_double(w->insert, 8, q);
	sqlite3_bind_text(w->insert, 9, now, -1, SQLITE_STATIC);
	if (sqlite3_step(w->insert) != SQLITE_DONE)
		return -1;
	return sqlite3_changes(w->db) ? 1 : 0;
}

int fw_regression_mark_fixed(struct fw_regression_writer *w, const struct fw_regression_key *k, const char *now)
{
	bind_key(w->fix, k);
	sqlite3_bind_text(w->fix, 7, now, -1, SQLITE_STATIC);
	return sqlite3_step(w->fix) == SQLITE_DONE ? 0 : -1;
}

/* Each status change of regression id to history(); 0, 1 stopped, -1 DB error. */
static int read_history(sqlite3 *db, sqlite3_stmt *st, long long id,
			int (*history)(const struct fw_regression_change *h, void *ctx), void *ctx)
{
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fw_regression_change h = { fw_db_text(st, 0), fw_db_text(st, 1), fw_db_text(st, 2), fw_db_text(st, 3) };

		if (history(&h, ctx))
			return 1;
	}
	(void)db;
	return rc == SQLITE_DONE ? 0 : -1;
}

int fw_regressions_read(sqlite3 *db, const char *series, const char *status, long long id,
			int (*each)(const struct fw_regression_row *g, void *ctx),
			int (*history)(const struct fw_regression_change *h, void *ctx), void *ctx, struct strbuf *err)
{
	sqlite3_stmt *st = NULL, *hs = NULL;
	int rc = SQLITE_ERROR, stop = 0;

	if (sqlite3_prepare_v2(db,
			       "SELECT g.id, s.name, s.revision, g.env_fingerprint, g.workload, g.variant, g.metric, "
			       "g.commit_id, c.sha, c.subject, g.delta_pct, g.p_value, g.status, g.status_by, g.status_at, "
			       "g.created_at, g.status_note, f.sha, g.bisect_id, c.position, "
			       "(SELECT min(position) FROM commits WHERE series_id = g.series_id), "
			       "(SELECT max(position) FROM commits WHERE series_id = g.series_id) FROM regressions g "
			       "JOIN series s ON s.id = g.series_id JOIN commits c ON c.id = g.commit_id "
			       "LEFT JOIN commits f ON f.id = g.found_commit_id "
			       "WHERE (?1 IS NULL OR s.name = ?1) AND (?2 IS NULL OR g.status = ?2) AND (?3 IS NULL OR g.id = ?3) "
			       "ORDER BY s.name, s.revision, c.position, g.workload, g.variant, g.metric, g.id",
			       -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT status, changed_by, note, changed_at FROM regression_history "
			       "WHERE regression_id = ?1 ORDER BY id", -1, &hs, NULL) != SQLITE_OK)
		goto cleanup;
	if (series)
		sqlite3_bind_text(st, 1, series, -1, SQLITE_STATIC);
	if (status)
		sqlite3_bind_text(st, 2, status, -1, SQLITE_STATIC);
	if (id > 0)
		sqlite3_bind_int64(st, 3, id);
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fw_regression_row g = {
			.id = sqlite3_column_int64(st, 0), .series = fw_db_text(st, 1), .revision = sqlite3_column_int(st, 2),
			.env_fingerprint = fw_db_text(st, 3), .workload = fw_db_text(st, 4), .variant = fw_db_text(st, 5),
			.metric = fw_db_text(st, 6), .commit_id = sqlite3_column_int64(st, 7), .sha = fw_db_text(st, 8),
			.subject = fw_db_text(st, 9), .delta_pct = sqlite3_column_double(st, 10),
			.p_value = sqlite3_column_type(st, 11) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 11),
			.status = fw_db_text(st, 12), .status_by = fw_db_text(st, 13), .status_at = fw_db_text(st, 14),
			.created_at = fw_db_text(st, 15), .status_note = fw_db_text(st, 16),
			.found_sha = sqlite3_column_type(st, 17) == SQLITE_NULL ? NULL : fw_db_text(st, 17),
			.bisect_id = sqlite3_column_int64(st, 18), .position = sqlite3_column_int(st, 19),
			.first_position = sqlite3_column_int(st, 20), .last_position = sqlite3_column_int(st, 21),
		};

		stop = each(&g, ctx);
		if (!stop)
			stop = read_history(db, hs, g.id, history, ctx);
		if (stop < 0)
			rc = SQLITE_ERROR;
	}
cleanup:
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		strbuf_addf(err, "listing regressions: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	sqlite3_finalize(hs);
	return rc == SQLITE_DONE ? 0 : rc == SQLITE_ROW ? 1 : -1;
}

int fw_regression_write_status(sqlite3 *db, long long id, const char *status, const char *who, const char *note,
			       const char *now, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(db, "UPDATE regressions SET status = ?1, status_by = ?2, status_note = ?3, "
			       "status_at = ?4 WHERE id = ?5", -1, &st, NULL) != SQLITE_OK)
		goto dberr;
	sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, who, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, note ? note : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		goto dberr;
	ret = sqlite3_changes(db) ? 0 : 1;
	goto cleanup;
dberr:
	strbuf_addf(err, "updating regression: %s", sqlite3_errmsg(db));
cleanup:
	sqlite3_finalize(st);
	return ret;
}

int fw_store_series_names(sqlite3 *db, const char *series, char ***names, int *n, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc, alloc = 0;

	*names = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT DISTINCT name FROM series WHERE ?1 IS NULL OR name = ?1 ORDER BY name",
			       -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "listing series: %s", sqlite3_errmsg(db));
		return -1;
	}
	if (series)
		sqlite3_bind_text(st, 1, series, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		FW_ALLOC_GROW(*names, *n + 1, alloc);
		(*names)[(*n)++] = xstrdup(fw_db_text(st, 0));
	}
	if (rc != SQLITE_DONE)
		strbuf_addf(err, "listing series: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}
