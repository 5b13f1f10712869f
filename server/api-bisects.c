/*
 * GET /api/v1/bisects[?series=NAME]: the stored bisects (issue 30), newest
 * first, as {"bisects": [...]}; GET /api/v1/bisects/{id}: one. A bisect is
 * written by `foliowatch-collect bisect` (and watch --bisect) as it goes:
 * range, steps, culprit or narrowest range or why it gave up, boots, time.
 * A regression a bisect moved to its culprit carries it as "bisect".
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include "bisect-db.h"
#include "fw-db.h"
#include "routes.h"
#include "store.h"

static void add_opt(cJSON *o, const char *key, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

static int record_json(const struct fw_bisect_record *r, void *ctx)
{
	cJSON *o = cJSON_CreateObject(), *steps = cJSON_Parse(r->steps);
	struct strbuf metric = STRBUF_INIT;

	cJSON_AddNumberToObject(o, "id", (double)r->id);
	cJSON_AddStringToObject(o, "series", r->series);
	strbuf_addf(&metric, "%s/%s/%s", r->workload, r->variant, r->metric);
	cJSON_AddStringToObject(o, "metric", metric.buf);
	cJSON_AddStringToObject(o, "direction", r->direction);
	cJSON_AddStringToObject(o, "good_sha", r->good_sha);
	cJSON_AddStringToObject(o, "bad_sha", r->bad_sha);
	cJSON_AddStringToObject(o, "state", r->state);
	add_opt(o, "culprit_sha", r->culprit_sha);
	add_opt(o, "range_lo_sha", r->range_lo_sha);
	add_opt(o, "range_hi_sha", r->range_hi_sha);
	add_opt(o, "why", r->why);
	cJSON_AddItemToObject(o, "steps", cJSON_IsArray(steps) ? steps : cJSON_CreateArray());
	if (!cJSON_IsArray(steps))
		cJSON_Delete(steps);
	cJSON_AddNumberToObject(o, "boots", (double)r->boots);
	cJSON_AddNumberToObject(o, "seconds", fw_round_fixed(r->seconds, 1));
	cJSON_AddStringToObject(o, "started_at", r->started_at);
	add_opt(o, "finished_at", r->finished_at);
	cJSON_AddItemToArray(ctx, o);
	strbuf_release(&metric);
	return 0;
}

cJSON *fw_bisect_json(sqlite3 *db, long long id)
{
	struct strbuf err = STRBUF_INIT;
	cJSON *arr = cJSON_CreateArray(), *one = NULL;

	if (fw_bisect_db_read(db, NULL, id, record_json, arr, &err) == 0 && cJSON_GetArraySize(arr) == 1)
		one = cJSON_DetachItemFromArray(arr, 0);
	cJSON_Delete(arr);
	strbuf_release(&err);
	return one;
}

enum MHD_Result api_bisects_list(struct fw_req *r)
{
	struct strbuf series = STRBUF_INIT, err = STRBUF_INIT;
	sqlite3 *db = req_db(r);
	cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "bisects");
	enum MHD_Result ret;
	int known, has_series = !req_query(r, "series", &series);

	/* an unknown series is an error, as for regressions: a typo must not look like "none" */
	if (has_series && (known = fw_store_series_exists(db, series.buf)) != 1)
		ret = known < 0 ? reply_error(r, 503, "db_error", NULL, fw_db_errmsg(db))
				: reply_error(r, 404, "not_found", "series", "no such series");
	else if (fw_bisect_db_read(db, has_series ? series.buf : NULL, 0, record_json, arr, &err))
		ret = reply_error(r, 503, "db_error", NULL, err.buf);
	else {
		ret = reply_json(r, 200, root);
		root = NULL;
	}
	cJSON_Delete(root);
	strbuf_release(&series);
	strbuf_release(&err);
	return ret;
}

enum MHD_Result api_bisect_get(struct fw_req *r)
{
	char *end = NULL;
	long long id;
	cJSON *one;

	errno = 0;
	id = strtoll(r->args[0], &end, 10);
	if (!isdigit((unsigned char)*r->args[0]) || *end || errno || id <= 0)
		return reply_error(r, 400, "bad_parameter", "id", "a bisect id is a positive number");
	if (!(one = fw_bisect_json(req_db(r), id)))
		return reply_error(r, 404, "not_found", "id", "no such bisect");
	return reply_json(r, 200, one);
}
