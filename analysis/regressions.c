/*
 * Stored regressions and their lifecycle (new | acknowledged | fixed | invalid).
 * A regression is a row of an analysed series compared with its parent whose
 * verdict is "regression". Storing is idempotent (the table's UNIQUE key);
 * one that a later commit undoes is marked fixed by "analysis".
 * A series sharded over hosts also has combined rows (van Elteren over the
 * hosts); a combined regression is stored with env_fingerprint
 * FW_ENV_COMBINED, since with a share of the boots each host alone is often
 * unsure where the combination is not.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-internal.h"
#include "run-doc.h"
#include "fw-db.h"

/* Same workload/variant/params/metric, and environment unless any_env. */
static int same_metric_env(const cJSON *x, const cJSON *y, int any_env)
{
	static const char *keys[] = { "env_fingerprint", "workload", "variant", "params", "metric" };

	for (int i = any_env; i < 5; i++)
		if (strcmp(fw_json_str(x, keys[i], ""), fw_json_str(y, keys[i], "")))
			return 0;
	return 1;
}

static int same_metric(const cJSON *x, const cJSON *y)
{
	return same_metric_env(x, y, 0);
}

/*
 * Has a later commit returned to the level before the regression? "Returned"
 * means its median is within min effect of the old level, or better.
 */
static int undone_later(const cJSON *rows, const cJSON *reg)
{
	double old = fw_json_num(cJSON_GetObjectItemCaseSensitive(reg, "a"), "median", NAN);
	double pos = fw_json_num(reg, "position", NAN), tol = fw_json_num(reg, "min_effect_pct", NAN) / 100;
	int hib = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(reg, "higher_is_better"));
	const cJSON *r;

	if (isnan(old) || isnan(tol))
		return 0;
	cJSON_ArrayForEach(r, rows) {
		double m;
		if (fw_json_num(r, "position", NAN) <= pos || strcmp(fw_json_str(r, "against", ""), "parent") ||
		    !same_metric(r, reg))
			continue;
		m = fw_json_num(cJSON_GetObjectItemCaseSensitive(r, "b"), "median", NAN);
		if (isnan(m))
			continue;
		if (hib ? m >= old - tol * fabs(old) : m <= old + tol * fabs(old))
			return 1;
	}
	return 0;
}

/*
 * A combined regression (no medians of its own) is undone when, on every host
 * that measured the commit against its parent, a later commit returned to
 * the level before it.
 */
static int combined_undone_later(const cJSON *rows, const cJSON *reg)
{
	double pos = fw_json_num(reg, "position", NAN);
	const cJSON *r;
	int hosts = 0;

	cJSON_ArrayForEach(r, rows) {
		if (fw_json_num(r, "position", NAN) != pos || strcmp(fw_json_str(r, "against", ""), "parent") ||
		    !same_metric_env(r, reg, 1))
			continue;
		if (!undone_later(rows, r))
			return 0;
		hosts++;
	}
	return hosts > 0;
}

/* Inserts (a no-op when known) one regression row, then marks it fixed if the history undid it. */
static int store_row(sqlite3 *db, sqlite3_stmt *si, sqlite3_stmt *sf, long long sid, const char *now,
		     const cJSON *rows, const cJSON *r, int combined)
{
	const char *env = combined ? FW_ENV_COMBINED : fw_json_str(r, "env_fingerprint", "");
	sqlite3_stmt *st = si;
	int stored = 0;

	for (int pass = 0; pass < 2; pass++, st = sf) {
		int col = 1;

		if (pass == 1 && !(combined ? combined_undone_later(rows, r) : undone_later(rows, r)))
			break;
		sqlite3_reset(st);
		if (pass == 1)
			sqlite3_bind_text(st, col++, now, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, col++, sid);
		sqlite3_bind_text(st, col++, env, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, col++, fw_json_str(r, "workload", ""), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, col++, fw_json_str(r, "variant", ""), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, col++, fw_json_str(r, "metric", ""), -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, col++, (long long)fw_json_num(r, "commit_id", NAN));
		if (pass == 0) {
			double q = fw_json_num(r, "q", NAN);

			sqlite3_bind_double(st, col++, fw_json_num(r, "delta_pct", NAN));
			if (isnan(q))
				sqlite3_bind_null(st, col++);
			else
				sqlite3_bind_double(st, col++, q);
			sqlite3_bind_text(st, col++, now, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, col++, now, -1, SQLITE_STATIC);
		}
		if (sqlite3_step(st) != SQLITE_DONE)
			return -1;
		if (pass == 0)
			stored = sqlite3_changes(db);
	}
	return stored;
}

int fw_regressions_update(sqlite3 *db, const cJSON *series_json, struct strbuf *err)
{
	static const char ins[] =
		"INSERT INTO regressions(series_id, env_fingerprint, workload, variant, metric, commit_id, "
		"delta_pct, p_value, status, status_by, status_at, created_at) "
		"VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'new', 'analysis', ?, ?) ON CONFLICT DO NOTHING";
	static const char fix[] =
		"UPDATE regressions SET status = 'fixed', status_by = 'analysis', status_note = '', status_at = ? "
		"WHERE series_id = ? AND env_fingerprint = ? AND workload = ? AND variant = ? AND metric = ? "
		"AND commit_id = ? AND status IN ('new', 'acknowledged')";
	static const char *const families[] = { "rows", "combined" };  /* per host, then all hosts */
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(series_json, "rows");
	sqlite3_stmt *si = NULL, *sf = NULL;
	long long sid = (long long)fw_json_num(series_json, "series_id", NAN);
	char now[32];
	int stored = 0, ret = -1;

	fw_now_iso(now);
	if (sqlite3_prepare_v2(db, ins, -1, &si, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, fix, -1, &sf, NULL) != SQLITE_OK) {
		strbuf_addf(err, "storing regressions: %s", sqlite3_errmsg(db));
		goto cleanup;
	}
	if (fw_db_begin(db, NULL)) {
		strbuf_addf(err, "storing regressions: %s", sqlite3_errmsg(db));
		goto cleanup;
	}
	for (int f = 0; f < 2; f++) {
		const cJSON *family = cJSON_GetObjectItemCaseSensitive(series_json, families[f]), *r;

		cJSON_ArrayForEach(r, family) {
			int n;

			if (strcmp(fw_json_str(r, "against", ""), "parent") ||
			    strcmp(fw_json_str(r, "verdict", ""), "regression"))
				continue;
			n = store_row(db, si, sf, sid, now, rows, r, f == 1);
			if (n < 0) {
				strbuf_addf(err, "storing regressions: %s", sqlite3_errmsg(db));
				fw_db_end(db, 0, NULL);
				goto cleanup;
			}
			stored += n;
		}
	}
	{
		struct strbuf e = STRBUF_INIT;  /* COMMIT's message: read before the rollback */
		int failed = fw_db_end(db, 1, &e);

		if (failed)
			strbuf_addf(err, "storing regressions: %s", e.buf);
		strbuf_release(&e);
		if (failed)
			goto cleanup;
	}
	ret = stored;
cleanup:
	sqlite3_finalize(si);
	sqlite3_finalize(sf);
	return ret;
}

/* o.history: the regression's status changes, oldest first. 0 ok, -1 DB error. */
static int add_history(sqlite3 *db, cJSON *o, long long id)
{
	sqlite3_stmt *st = NULL;
	cJSON *h = cJSON_AddArrayToObject(o, "history");
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT status, changed_by, note, changed_at FROM regression_history "
			       "WHERE regression_id = ? ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		cJSON *e = cJSON_CreateObject();

		cJSON_AddStringToObject(e, "status", (const char *)sqlite3_column_text(st, 0));
		cJSON_AddStringToObject(e, "by", (const char *)sqlite3_column_text(st, 1));
		cJSON_AddStringToObject(e, "note", (const char *)sqlite3_column_text(st, 2));
		cJSON_AddStringToObject(e, "at", (const char *)sqlite3_column_text(st, 3));
		cJSON_AddItemToArray(h, e);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The list, or with id > 0 the one regression of that id (an empty list when none). */
static int list_query(sqlite3 *db, const char *series, const char *status, long long id,
		      cJSON **out, struct strbuf *err)
{
	static const char sql[] =
		"SELECT g.id, s.name, s.revision, g.env_fingerprint, g.workload, g.variant, g.metric, "
		"g.commit_id, c.sha, c.subject, g.delta_pct, g.p_value, g.status, g.status_by, g.status_at, "
		"g.created_at, g.status_note FROM regressions g JOIN series s ON s.id = g.series_id "
		"JOIN commits c ON c.id = g.commit_id "
		"WHERE (?1 IS NULL OR s.name = ?1) AND (?2 IS NULL OR g.status = ?2) AND (?3 IS NULL OR g.id = ?3) "
		"ORDER BY s.name, s.revision, c.position, g.workload, g.variant, g.metric, g.id";
	static const char *names[] = { "id", "series", "revision", "env_fingerprint", "workload",
		"variant", "metric", "commit_id", "sha", "subject", "delta_pct", "p_value", "status",
		"status_by", "status_at", "created_at", "status_note" };
	sqlite3_stmt *st = NULL;
	cJSON *arr = cJSON_CreateArray();
	int rc, ret = -1;

	*out = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "listing regressions: %s", sqlite3_errmsg(db));
		goto cleanup;
	}
	if (series)
		sqlite3_bind_text(st, 1, series, -1, SQLITE_STATIC);
	if (status)
		sqlite3_bind_text(st, 2, status, -1, SQLITE_STATIC);
	if (id > 0)
		sqlite3_bind_int64(st, 3, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		cJSON *o = cJSON_CreateObject();
		for (int i = 0; i < 17; i++) {
			switch (sqlite3_column_type(st, i)) {
			case SQLITE_NULL:
				cJSON_AddNullToObject(o, names[i]);
				break;
			case SQLITE_INTEGER:
			case SQLITE_FLOAT:
				cJSON_AddNumberToObject(o, names[i], sqlite3_column_double(st, i));
				break;
			default:
				cJSON_AddStringToObject(o, names[i], (const char *)sqlite3_column_text(st, i));
			}
		}
		cJSON_AddItemToArray(arr, o);
		if (add_history(db, o, sqlite3_column_int64(st, 0)))
			goto dberr;
	}
	if (rc != SQLITE_DONE) {
dberr:
		strbuf_addf(err, "listing regressions: %s", sqlite3_errmsg(db));
		goto cleanup;
	}
	*out = arr;
	arr = NULL;
	ret = 0;
cleanup:
	cJSON_Delete(arr);
	sqlite3_finalize(st);
	return ret;
}

int fw_regressions_list(sqlite3 *db, const char *series, const char *status,
			cJSON **out, struct strbuf *err)
{
	return list_query(db, series, status, 0, out, err);
}

int fw_regression_get(sqlite3 *db, long long id, cJSON **out, struct strbuf *err)
{
	cJSON *list = NULL;

	*out = NULL;
	if (list_query(db, NULL, NULL, id, &list, err))
		return -1;
	if (cJSON_GetArraySize(list) == 1)
		*out = cJSON_DetachItemFromArray(list, 0);
	cJSON_Delete(list);
	return *out ? 0 : 1;
}

int fw_regression_set_status(sqlite3 *db, long long id, const char *status,
			     const char *who, const char *note, struct strbuf *err)
{
	static const char *valid[] = { "new", "acknowledged", "fixed", "invalid" };
	sqlite3_stmt *st = NULL;
	const char *bad_by, *bad_note;
	char now[32];
	int ok = 0, ret = -1;

	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++)
		ok |= status && !strcmp(status, valid[i]);
	if (!ok || !who || !*who) {
		strbuf_addstr(err, !ok ? "status: must be one of new, acknowledged, fixed, invalid"
				       : "who: must name who changes the status");
		return -1;
	}
	bad_by = fw_text_problem(who, 1, FW_BY_MAX, 0);
	bad_note = note ? fw_text_problem(note, 0, FW_NOTE_MAX, 1) : NULL;
	if (bad_by || bad_note) {
		strbuf_addf(err, "%s: %s", bad_by ? "by" : "note", bad_by ? bad_by : bad_note);
		return -1;
	}
	fw_now_iso(now);
	if (sqlite3_prepare_v2(db, "UPDATE regressions SET status = ?, status_by = ?, status_note = ?, "
			       "status_at = ? WHERE id = ?", -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "updating regression: %s", sqlite3_errmsg(db));
		goto cleanup;
	}
	sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, who, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, note ? note : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, id);
	if (sqlite3_step(st) != SQLITE_DONE) {
		strbuf_addf(err, "updating regression: %s", sqlite3_errmsg(db));
		goto cleanup;
	}
	ret = sqlite3_changes(db) ? 0 : 1;
cleanup:
	sqlite3_finalize(st);
	return ret;
}

/*
 * The names first, their statement finalized, then each series: a statement
 * left open would pin this connection's read snapshot, and in WAL mode the
 * BEGIN IMMEDIATE of fw_regressions_update() on a snapshot that another
 * connection has since committed past fails at once with SQLITE_BUSY (no busy
 * wait helps): the server's detection thread and a GET refresh concurrently.
 */
static cJSON *series_names(sqlite3 *db, const char *series, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	cJSON *names = cJSON_CreateArray();
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT DISTINCT name FROM series WHERE ?1 IS NULL OR name = ?1 ORDER BY name",
			       -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "listing series: %s", sqlite3_errmsg(db));
		cJSON_Delete(names);
		return NULL;
	}
	if (series)
		sqlite3_bind_text(st, 1, series, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		cJSON_AddItemToArray(names, cJSON_CreateString((const char *)sqlite3_column_text(st, 0)));
	if (rc != SQLITE_DONE) {
		strbuf_addf(err, "listing series: %s", sqlite3_errmsg(db));
		cJSON_Delete(names);
		names = NULL;
	}
	sqlite3_finalize(st);
	return names;
}

/* Analyses the named series, or every series (newest revision), storing regressions. */
int fw_regressions_refresh(sqlite3 *db, const char *series, const struct fw_analysis_opts *o,
			   struct strbuf *err)
{
	cJSON *names = series_names(db, series, err);
	const cJSON *name;
	int ret = names ? 0 : -1;

	cJSON_ArrayForEach(name, names) {
		cJSON *res = NULL;
		int bad = fw_analysis_series(db, name->valuestring, 0, o, &res, err) ||
			  fw_regressions_update(db, res, err) < 0;

		cJSON_Delete(res);
		if (bad) {
			ret = -1;
			break;
		}
	}
	cJSON_Delete(names);
	return ret;
}
