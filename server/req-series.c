/* Small glue shared by the handlers that show one series. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "routes.h"
#include "analysis.h"

int req_series(struct fw_req *r, const char *name, const char *field, struct fw_series *s,
	       enum MHD_Result *ret)
{
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db = req_db(r);
	int rc;

	if (!db) {
		*ret = reply_error(r, 503, "db_unavailable", NULL, "cannot open the database");
		return -1;
	}
	rc = fw_series_load(db, name, s, &err);
	if (rc == 1)
		*ret = reply_error(r, 404, "not_found", field, "no such series");
	else if (rc < 0)
		*ret = reply_error(r, 503, "db_error", NULL, err.buf);
	strbuf_release(&err);
	return rc ? -1 : 0;
}

void json_num(cJSON *obj, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(obj, key, v);
	else
		cJSON_AddNullToObject(obj, key);
}

cJSON *req_analysis(struct fw_req *r, const char *series)
{
	struct fw_analysis_opts o;
	struct strbuf err = STRBUF_INIT;
	cJSON *out = NULL;
	sqlite3 *db = req_db(r);

	fw_analysis_opts_init(&o);
	o.use_cache = 1;
	if (db && fw_analysis_series(db, series, 0, &o, &out, &err)) {
		fprintf(stderr, "serve: analysis of a series failed: %s\n", err.buf);
		out = NULL;
	}
	strbuf_release(&err);
	return out;
}

static int str_is(const cJSON *o, const char *k, const char *v)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));

	return s && v && !strcmp(s, v);
}

const cJSON *analysis_row(const cJSON *rows, const char *sha, const struct fw_metric *m)
{
	const cJSON *row, *found = NULL;

	cJSON_ArrayForEach(row, rows) {
		if (!str_is(row, "sha", sha) || !str_is(row, "env_fingerprint", m->env) ||
		    !str_is(row, "workload", m->workload) || !str_is(row, "variant", m->variant) ||
		    !str_is(row, "metric", m->metric))
			continue;
		/* Against the parent is what the cover-letter table shows; base otherwise. */
		if (str_is(row, "against", "parent"))
			return row;
		found = row;
	}
	return found;
}

static void copy_num(cJSON *o, const char *to, const cJSON *row, const char *from)
{
	const cJSON *v = row ? cJSON_GetObjectItemCaseSensitive(row, from) : NULL;

	json_num(o, to, cJSON_IsNumber(v) ? v->valuedouble : NAN);
}

void analysis_fill(cJSON *o, const cJSON *row)
{
	const char *verdict = row ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "verdict")) : NULL;

	copy_num(o, "p_value", row, "p");
	copy_num(o, "q_value", row, "q");
	copy_num(o, "ci_low_pct", row, "ci_lo_pct");
	copy_num(o, "ci_high_pct", row, "ci_hi_pct");
	if (verdict)
		cJSON_AddStringToObject(o, "verdict", verdict);
	else
		cJSON_AddNullToObject(o, "verdict");
}
