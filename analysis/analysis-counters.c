/*
 * The counters that moved with a change: for a row of the series table, the
 * median of each counter on both commits (all rounds of all ok boots) and the
 * ones with the largest relative movement. They explain a change (e.g. a
 * regression with thp_split_page doubling), so only changed rows get them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-internal.h"
#include "run-doc.h"
#include "xalloc.h"
#include "stats.h"

#define TOP_COUNTERS 3

struct counter {
	char *name;
	double median;
};

/* Medians per counter name for one commit of the row, sorted by name. */
static int load_side(sqlite3 *db, const cJSON *row, const char *commit_key, struct counter **out,
		     size_t *n, struct strbuf *err)
{
	static const char sql[] =
		"SELECT ct.name, ct.value FROM counters ct JOIN results res ON res.id = ct.result_id "
		"JOIN runs r ON r.id = res.run_id JOIN environments e ON e.id = r.env_id "
		"WHERE r.commit_id = ? AND e.fingerprint = ? AND r.boot_status = 'ok' AND res.workload = ? "
		"AND res.variant = ? AND res.params = ? AND res.metric = ? ORDER BY ct.name, ct.value";
	static const char *keys[] = { "env_fingerprint", "workload", "variant", "params", "metric" };
	sqlite3_stmt *st = NULL;
	double *vals = NULL;
	size_t nv = 0, av = 0, alloc = 0;
	char *cur = NULL;
	int rc, ret = -1;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "loading counters: %s", sqlite3_errmsg(db));
		goto cleanup;
	}
	sqlite3_bind_int64(st, 1, (long long)fw_json_num(row, commit_key, NAN));
	for (int i = 0; i < 5; i++) {
		const cJSON *it = cJSON_GetObjectItemCaseSensitive(row, keys[i]);
		sqlite3_bind_text(st, i + 2, cJSON_IsString(it) ? it->valuestring : "", -1, SQLITE_STATIC);
	}
	for (;;) {
		const char *name;
		rc = sqlite3_step(st);
		name = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
		/* A name ends: its values are sorted, so the median is direct. */
		if (cur && (!name || strcmp(name, cur))) {
			FW_ALLOC_GROW(*out, *n + 1, alloc);
			(*out)[*n].name = cur;
			(*out)[(*n)++].median = nv % 2 ? vals[nv / 2] : (vals[nv / 2 - 1] + vals[nv / 2]) / 2;
			cur = NULL;
			nv = 0;
		}
		if (rc != SQLITE_ROW)
			break;
		if (!cur)
			cur = xstrdup(name);
		FW_ALLOC_GROW(vals, nv + 1, av);
		vals[nv++] = sqlite3_column_double(st, 1);
	}
	if (rc != SQLITE_DONE) {
		strbuf_addf(err, "loading counters: %s", sqlite3_errmsg(db));
		goto cleanup;
	}
	ret = 0;
cleanup:
	free(cur);
	free(vals);
	sqlite3_finalize(st);
	return ret;
}

static void free_side(struct counter *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(c[i].name);
	free(c);
}

/* How much a counter moved, for ranking: relative when it can be, huge when it appears from 0. */
static double movement(double a, double b)
{
	if (a == b)
		return 0;
	if (a == 0)
		return INFINITY;
	return fabs(100 * (b - a) / fabs(a));
}

int fw_analysis_counters(sqlite3 *db, cJSON *row, struct strbuf *err)
{
	struct counter *a = NULL, *b = NULL;
	size_t na = 0, nb = 0, ia = 0, ib = 0, top_n = 0;
	struct { size_t ia, ib; double move; } top[TOP_COUNTERS];
	cJSON *arr;
	int ret = -1;

	if (load_side(db, row, "ref_commit_id", &a, &na, err) ||
	    load_side(db, row, "commit_id", &b, &nb, err))
		goto cleanup;
	/* Both sides are sorted by name: merge, keeping the TOP_COUNTERS biggest movers. */
	while (ia < na && ib < nb) {
		int c = strcmp(a[ia].name, b[ib].name);
		double mv;
		size_t j;
		if (c) {
			c < 0 ? ia++ : ib++;
			continue;
		}
		mv = movement(a[ia].median, b[ib].median);
		if (mv > 0) {
			for (j = top_n; j > 0 && top[j - 1].move < mv; j--)
				if (j < TOP_COUNTERS)
					top[j] = top[j - 1];
			if (j < TOP_COUNTERS) {
				top[j].ia = ia;
				top[j].ib = ib;
				top[j].move = mv;
				if (top_n < TOP_COUNTERS)
					top_n++;
			}
		}
		ia++;
		ib++;
	}
	arr = cJSON_AddArrayToObject(row, "counters");
	for (size_t i = 0; i < top_n; i++) {
		cJSON *o = cJSON_CreateObject();
		double va = a[top[i].ia].median, vb = b[top[i].ib].median;
		cJSON_AddStringToObject(o, "name", a[top[i].ia].name);
		cJSON_AddNumberToObject(o, "a", va);
		cJSON_AddNumberToObject(o, "b", vb);
		fw_json_num_or_null(o, "delta_pct", va != 0 ? 100 * (vb - va) / fabs(va) : NAN);
		cJSON_AddItemToArray(arr, o);
	}
	ret = 0;
cleanup:
	free_side(a, na);
	free_side(b, nb);
	return ret;
}
