/*
 * GET /api/v1/regressions[?series=NAME&status=new|acknowledged|fixed|invalid]:
 * stored regressions (the analysis code's list, refreshed first so that runs
 * posted since are included), as {"regressions": [...]}.
 * POST /api/v1/regressions/{id} with a Bearer token of the triage scope and
 * {"status": S, "by": WHO, "note": TEXT} (checked by server/status-body.c):
 * the lifecycle change (fw_regression_set_status), kept in the regression's
 * history; "by" defaults to the token's name.
 * GET /api/v1/regressions/{id}: one, with its status history and links
 * (server/regression-json.c: URLs, not internal ids), and the bisect that
 * moved it to its culprit ("bisect", api-bisects.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fw-db.h"
#include "routes.h"
#include "store.h"
#include "analysis.h"
#include "status-body.h"
#include "xalloc.h"
#include "run-doc.h"

enum MHD_Result api_regressions_list(struct fw_req *r)
{
	struct strbuf series = STRBUF_INIT, status = STRBUF_INIT, err = STRBUF_INIT;
	sqlite3 *db = req_db(r);
	struct fw_regs *list = NULL;
	cJSON *root, *arr;
	enum MHD_Result ret;
	int known, has_series = !req_query(r, "series", &series), has_status = !req_query(r, "status", &status);

	if (has_status && !fw_status_valid(status.buf)) {
		ret = reply_error(r, 400, "bad_parameter", "status",
				  "status must be one of new, acknowledged, fixed, invalid");
		goto cleanup;
	}
	/* An unknown series is an error, not an empty list: a CI gate on a typo must not pass. */
	if (has_series && (known = fw_store_series_exists(db, series.buf)) != 1) {
		ret = known < 0 ? reply_error(r, 503, "db_error", NULL, fw_db_errmsg(db))
				: reply_error(r, 404, "not_found", "series", "no such series");
		goto cleanup;
	}
	if (fw_regressions_refresh(db, has_series ? series.buf : NULL, NULL, &err) ||
	    fw_regressions_of(db, has_series ? series.buf : NULL, has_status ? status.buf : NULL, &list, &err)) {
		ret = reply_error(r, 503, "db_error", NULL, err.buf);
		goto cleanup;
	}
	root = cJSON_CreateObject();
	arr = cJSON_AddArrayToObject(root, "regressions");
	for (size_t i = 0; i < list->n; i++)
		cJSON_AddItemToArray(arr, fw_regression_json(&list->r[i]));
	ret = reply_json(r, 200, root);
cleanup:
	fw_regs_free(list);
	strbuf_release(&series);
	strbuf_release(&status);
	strbuf_release(&err);
	return ret;
}

/* The {id} of /api/v1/regressions/{id}: digits only, > 0; the same for GET and POST. */
static int regression_id(const struct fw_req *r, long long *id)
{
	char *end = NULL;

	errno = 0;
	*id = strtoll(r->args[0], &end, 10);
	return isdigit((unsigned char)*r->args[0]) && !*end && !errno && *id > 0;
}

enum MHD_Result api_regression_get(struct fw_req *r)
{
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db = req_db(r);
	struct fw_regs *one = NULL;
	cJSON *root;
	enum MHD_Result ret;
	long long id;
	int rc;

	if (!regression_id(r, &id)) {
		ret = reply_error(r, 400, "bad_parameter", "id", "a regression id is a positive number");
		goto cleanup;
	}
	/* Refresh its series first, as the list does, so that the status is current. */
	rc = fw_regression_of(db, id, &one, &err);
	if (!rc) {
		char *series = xstrdup(one->r[0].series);

		fw_regs_free(one);
		one = NULL;
		rc = fw_regressions_refresh(db, series, NULL, &err) ? -1 : fw_regression_of(db, id, &one, &err);
		free(series);
	}
	if (rc) {
		ret = rc > 0 ? reply_error(r, 404, "not_found", "id", "no such regression")
			     : reply_error(r, 503, "db_error", NULL, err.buf);
		goto cleanup;
	}
	root = fw_regression_json(&one->r[0]);
	fw_regression_profile(db, &one->r[0], root);
	if (one->r[0].bisect_id > 0) {
		cJSON *b = fw_bisect_json(db, one->r[0].bisect_id);
		if (b)
			cJSON_AddItemToObject(root, "bisect", b);
	}
	ret = reply_json(r, 200, root);
cleanup:
	fw_regs_free(one);
	strbuf_release(&err);
	return ret;
}

enum MHD_Result api_regression_post(struct fw_req *r)
{
	struct strbuf err = STRBUF_INIT, field = STRBUF_INIT;
	struct fw_status_body b;
	sqlite3 *db = req_db(r);  /* the route table checked the DB and the token's triage scope */
	const char *by;
	cJSON *root;
	enum MHD_Result ret;
	long long id;
	int rc;

	memset(&b, 0, sizeof(b));
	if (!regression_id(r, &id)) {
		ret = reply_error(r, 400, "bad_parameter", "id", "a regression id is a positive number");
		goto cleanup;
	}
	if (fw_status_body_parse(r->body.buf, r->body.len, &b, &field, &err)) {
		ret = reply_error(r, 400, "bad_value", field.buf, err.buf);
		goto cleanup;
	}
	by = b.by ? b.by : r->token;
	rc = fw_regression_set_status(db, id, b.status, by, b.note, &err);
	if (rc == 1) {
		ret = reply_error(r, 404, "not_found", "id", "no such regression");
		goto cleanup;
	}
	if (rc < 0) {
		ret = reply_error(r, 503, "db_error", NULL, err.buf);
		goto cleanup;
	}
	root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "id", (double)id);
	cJSON_AddStringToObject(root, "status", b.status);
	cJSON_AddStringToObject(root, "status_by", by);
	cJSON_AddStringToObject(root, "status_note", b.note ? b.note : "");
	cJSON_AddStringToObject(root, "token", r->token);
	ret = reply_json(r, 200, root);
cleanup:
	fw_status_body_free(&b);
	strbuf_release(&field);
	strbuf_release(&err);
	return ret;
}
