/*
 * Stored regressions and their lifecycle (new | acknowledged | fixed |
 * invalid): the list and its status changes. What is stored comes from the
 * analysis (regressions-refresh.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-internal.h"
#include "run-doc.h"
#include "fw-db.h"
#include "inflight.h"
#include "regressions-db.h"

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
	cJSON_AddNumberToObject(o, "position", g->position);
	cJSON_AddNumberToObject(o, "first_position", g->first_position);
	cJSON_AddNumberToObject(o, "last_position", g->last_position);
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
