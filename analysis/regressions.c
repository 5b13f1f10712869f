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
#include "inflight.h"
#include "regressions-db.h"

/* Same workload/variant/params/metric, and environment unless any_env. */
static int same_metric_env(const struct fw_an_row *x, const char *env, const char *workload, const char *variant,
			   const char *params, const char *metric)
{
	return (!env || !strcmp(x->env, env)) && !strcmp(x->workload, workload) && !strcmp(x->variant, variant) &&
	       !strcmp(x->params, params) && !strcmp(x->metric, metric);
}

/*
 * Has a later commit returned to the level before the regression? "Returned"
 * means its median is within min effect of the old level, or better.
 */
static int undone_later(const struct fw_an *an, const struct fw_an_row *reg)
{
	double old = reg->a.median, tol = reg->min_effect_pct / 100;

	if (isnan(old) || isnan(tol))
		return 0;
	for (size_t i = 0; i < an->nrows; i++) {
		const struct fw_an_row *r = &an->rows[i];
		double m = r->b.median;

		if (r->position <= reg->position || r->against != FW_AGAINST_PARENT ||
		    !same_metric_env(r, reg->env, reg->workload, reg->variant, reg->params, reg->metric) || isnan(m))
			continue;
		if (reg->higher_is_better ? m >= old - tol * fabs(old) : m <= old + tol * fabs(old))
			return 1;
	}
	return 0;
}

/*
 * A combined regression (no medians of its own) is undone when, on every host
 * that measured the commit against its parent, a later commit returned to
 * the level before it.
 */
static int combined_undone_later(const struct fw_an *an, const struct fw_an_combined *reg)
{
	int hosts = 0;

	for (size_t i = 0; i < an->nrows; i++) {
		const struct fw_an_row *r = &an->rows[i];

		if (r->position != reg->position || r->against != FW_AGAINST_PARENT ||
		    !same_metric_env(r, NULL, reg->workload, reg->variant, reg->params, reg->metric))
			continue;
		if (!undone_later(an, r))
			return 0;
		hosts++;
	}
	return hosts > 0;
}

/* Inserts (a no-op when known) one regression, then marks it fixed if the history undid it. */
static int store_row(struct fw_regression_writer *w, const char *now, const struct fw_regression_key *k,
		     double delta_pct, double q, int undone)
{
	int busy = fw_regression_in_bisect(w, k), stored;

	if (busy)  /* a bisect's midpoint: the bisect decides where the regression is (or a DB error) */
		return busy < 0 ? -1 : 0;
	stored = fw_regression_insert(w, k, delta_pct, q, now);
	if (stored < 0)
		return -1;
	if (undone && fw_regression_mark_fixed(w, k, now))
		return -1;
	return stored;
}

/* The regressions of an: per host, then combined over hosts. Newly stored, or -1. */
static int store_all(struct fw_regression_writer *w, const struct fw_an *an, const char *now)
{
	int stored = 0, n;

	for (size_t i = 0; i < an->nrows; i++) {
		const struct fw_an_row *r = &an->rows[i];
		struct fw_regression_key k = { an->series_id, r->commit_id, r->env, r->workload, r->variant, r->metric };

		if (r->against != FW_AGAINST_PARENT || strcmp(r->verdict, "regression"))
			continue;
		if ((n = store_row(w, now, &k, r->delta_pct, r->q, undone_later(an, r))) < 0)
			return -1;
		stored += n;
	}
	for (size_t i = 0; i < an->ncombined; i++) {
		const struct fw_an_combined *c = &an->combined[i];
		struct fw_regression_key k = { an->series_id, c->commit_id, FW_ENV_COMBINED, c->workload, c->variant,
					       c->metric };

		if (strcmp(c->verdict, "regression"))
			continue;
		if ((n = store_row(w, now, &k, c->delta_pct, c->q, combined_undone_later(an, c))) < 0)
			return -1;
		stored += n;
	}
	return stored;
}

int fw_regressions_update(sqlite3 *db, const struct fw_an *an, struct strbuf *err)
{
	struct fw_regression_writer w;
	char now[32];
	int stored = 0, ret = -1;

	fw_now_iso(now);
	if (fw_regression_writer_open(&w, db, err))
		goto cleanup;
	if (fw_db_begin(db, NULL)) {
		strbuf_addf(err, "storing regressions: %s", fw_db_errmsg(db));
		goto cleanup;
	}
	if ((stored = store_all(&w, an, now)) < 0) {
		strbuf_addf(err, "storing regressions: %s", fw_db_errmsg(db));
		fw_db_end(db, 0, NULL);
		goto cleanup;
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
	fw_regression_writer_close(&w);
	return ret;
}

/* The JSON of the list (the API's shape): every column, then "history". */
struct list_json {
	cJSON *arr, *history;
};

static int row_json(const struct fw_regression_row *g, void *ctx)
{
	struct list_json *l = ctx;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "id", (double)g->id);
	cJSON_AddStringToObject(o, "series", g->series);
	cJSON_AddNumberToObject(o, "revision", g->revision);
	cJSON_AddStringToObject(o, "env_fingerprint", g->env_fingerprint);
	cJSON_AddStringToObject(o, "workload", g->workload);
	cJSON_AddStringToObject(o, "variant", g->variant);
	cJSON_AddStringToObject(o, "metric", g->metric);
	cJSON_AddNumberToObject(o, "commit_id", (double)g->commit_id);
	cJSON_AddStringToObject(o, "sha", g->sha);
	cJSON_AddStringToObject(o, "subject", g->subject);
	cJSON_AddNumberToObject(o, "delta_pct", g->delta_pct);
	if (isnan(g->p_value))
		cJSON_AddNullToObject(o, "p_value");
	else
		cJSON_AddNumberToObject(o, "p_value", g->p_value);
	cJSON_AddStringToObject(o, "status", g->status);
	cJSON_AddStringToObject(o, "status_by", g->status_by);
	cJSON_AddStringToObject(o, "status_at", g->status_at);
	cJSON_AddStringToObject(o, "created_at", g->created_at);
	cJSON_AddStringToObject(o, "status_note", g->status_note);
	if (g->found_sha) { /* moved by a bisect to its culprit: where the change was found */
		cJSON_AddStringToObject(o, "found_sha", g->found_sha);
		cJSON_AddNumberToObject(o, "bisect_id", (double)g->bisect_id);
	}
	l->history = cJSON_AddArrayToObject(o, "history");
	cJSON_AddItemToArray(l->arr, o);
	return 0;
}

static int change_json(const struct fw_regression_change *h, void *ctx)
{
	struct list_json *l = ctx;
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "status", h->status);
	cJSON_AddStringToObject(e, "by", h->by);
	cJSON_AddStringToObject(e, "note", h->note);
	cJSON_AddStringToObject(e, "at", h->at);
	cJSON_AddItemToArray(l->history, e);
	return 0;
}

/* The list, or with id > 0 the one regression of that id (an empty list when none). */
static int list_query(sqlite3 *db, const char *series, const char *status, long long id,
		      cJSON **out, struct strbuf *err)
{
	struct list_json l = { .arr = cJSON_CreateArray() };

	*out = NULL;
	if (fw_regressions_read(db, series, status, id, row_json, change_json, &l, err)) {
		cJSON_Delete(l.arr);
		return -1;
	}
	*out = l.arr;
	return 0;
}

int fw_regressions_list(sqlite3 *db, const char *series, const char *status,
			cJSON **out, struct strbuf *err)
{
	return list_query(db, series, status, 0, out, err);
}

int fw_regressions_of(sqlite3 *db, const char *series, const char *status, struct fw_regs **out,
		      struct strbuf *err)
{
	cJSON *list = NULL;

	*out = NULL;
	if (list_query(db, series, status, 0, &list, err))
		return -1;
	if (!(*out = fw_regs_from_json(list))) {
		strbuf_addstr(err, "out of memory reading the regressions");
		return -1;
	}
	return 0;
}

int fw_regression_of(sqlite3 *db, long long id, struct fw_regs **out, struct strbuf *err)
{
	cJSON *list = NULL;

	*out = NULL;
	if (list_query(db, NULL, NULL, id, &list, err))
		return -1;
	if (!(*out = fw_regs_from_json(list))) {
		strbuf_addstr(err, "out of memory reading the regressions");
		return -1;
	}
	if ((*out)->n == 1)
		return 0;
	fw_regs_free(*out);
	*out = NULL;
	return 1;
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
	const char *bad_by, *bad_note;
	char now[32];
	int ok = 0;

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
	return fw_regression_write_status(db, id, status, who, note, now, err);
}

/*
 * The names first, their statement finalized, then each series: a statement
 * left open would pin this connection's read snapshot, and in WAL mode the
 * BEGIN IMMEDIATE of fw_regressions_update() on a snapshot that another
 * connection has since committed past fails at once with SQLITE_BUSY (no busy
 * wait helps): the server's detection thread and a GET refresh concurrently.
 */
/*
 * Analyses the named series, or every series (newest revision), storing
 * regressions. The names first, their statement finalized, then each series:
 * a statement left open would pin this connection's read snapshot, and in WAL
 * mode the BEGIN IMMEDIATE of fw_regressions_update() on a snapshot that
 * another connection has since committed past fails at once with SQLITE_BUSY
 * (no busy wait helps): the server's detection thread and a GET refresh concurrently.
 */
int fw_regressions_refresh(sqlite3 *db, const char *series, const struct fw_analysis_opts *o,
			   struct strbuf *err)
{
	char **names;
	int n, ret = fw_store_series_names(db, series, &names, &n, err);

	for (int i = 0; i < n; i++) {
		struct fw_an *res = NULL;
		char flight[FW_REGS_FLIGHT_MAX];
		struct fw_series_key *k = NULL;
		int owned = 0;

		/* a GET after a GET: stored from this very result already; one refresh at a time */
		while (!owned && !ret) {
			fw_series_key_free(k);
			if (fw_series_key_get(db, names[i], o, &k, err))
				ret = -1;
			else if (fw_analysis_regressions_current(db, k, o, flight))
				break;
			else
				owned = !*flight || fw_inflight_begin(flight);
		}
		if (owned) {
			if (fw_analysis_series_at(db, names[i], k, o, &res, err))
				ret = -1;
			/* an older analysis (a page's, while the newest is computed): its regressions are stored */
			else if (!res->stale &&
				 fw_regressions_update(db, res, err) < 0)
				ret = -1;
			else
				fw_analysis_regressions_stored(db, res);
			if (*flight)
				fw_inflight_end(flight);
		}
		fw_an_free(res);
		fw_series_key_free(k);
		free(names[i]);
	}
	free(names);
	return ret;
}
