/*
 * GET /api/v1/regressions[?series=NAME&status=new|acknowledged|fixed|invalid]:
 * stored regressions (the analysis code's list, refreshed first so that runs
 * posted since are included), as {"regressions": [...]}.
 * POST /api/v1/regressions/{id} with a Bearer token and {"status": S, "by": WHO}:
 * the lifecycle change (fw_regression_set_status); "by" defaults to the token's name.
 * GET /api/v1/regressions/{id}: one, with its status history and links
 * (server/regression-json.c: URLs, not internal ids).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "routes.h"
#include "analysis.h"
#include "token-db.h"
#include "run-doc.h"
#include "xalloc.h"

static int status_valid(const char *s)
{
	return !strcmp(s, "new") || !strcmp(s, "acknowledged") || !strcmp(s, "fixed") ||
	       !strcmp(s, "invalid");
}

static const char *str_of(const cJSON *o, const char *k)
{
	const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));

	return v ? v : "";
}

enum MHD_Result api_regressions_list(struct fw_req *r)
{
	struct strbuf series = STRBUF_INIT, status = STRBUF_INIT, err = STRBUF_INIT;
	sqlite3 *db = req_db(r);
	cJSON *list = NULL, *root, *arr;
	const cJSON *g;
	enum MHD_Result ret;
	int has_series = !req_query(r, "series", &series), has_status = !req_query(r, "status", &status);

	if (has_status && !status_valid(status.buf)) {
		ret = reply_error(r, 400, "bad_parameter", "status",
				  "status must be one of new, acknowledged, fixed, invalid");
		goto cleanup;
	}
	/* An unknown series is not an error for a filter: it simply has no regressions. */
	if (fw_regressions_refresh(db, has_series ? series.buf : NULL, NULL, &err) ||
	    fw_regressions_list(db, has_series ? series.buf : NULL, has_status ? status.buf : NULL,
				&list, &err)) {
		ret = reply_error(r, 503, "db_error", NULL, err.buf);
		goto cleanup;
	}
	root = cJSON_CreateObject();
	arr = cJSON_AddArrayToObject(root, "regressions");
	cJSON_ArrayForEach(g, list)
		cJSON_AddItemToArray(arr, fw_regression_json(g));
	ret = reply_json(r, 200, root);
cleanup:
	cJSON_Delete(list);
	strbuf_release(&series);
	strbuf_release(&status);
	strbuf_release(&err);
	return ret;
}

/*
 * The status history as stored: found (new, by the analysis) and the latest
 * change, if any. A table of every change (issue 17's migration) would give
 * the whole history here.
 */
static void add_history(cJSON *o)
{
	cJSON *h = cJSON_AddArrayToObject(o, "history"), *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "status", "new");
	cJSON_AddStringToObject(e, "by", "analysis");
	cJSON_AddStringToObject(e, "at", str_of(o, "created_at"));
	cJSON_AddItemToArray(h, e);
	if (!strcmp(str_of(o, "status"), "new") && !strcmp(str_of(o, "status_by"), "analysis"))
		return;
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "status", str_of(o, "status"));
	cJSON_AddStringToObject(e, "by", str_of(o, "status_by"));
	cJSON_AddStringToObject(e, "at", str_of(o, "status_at"));
	cJSON_AddItemToArray(h, e);
}

enum MHD_Result api_regression_get(struct fw_req *r)
{
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db = req_db(r);
	cJSON *g = NULL, *root;
	enum MHD_Result ret;
	char *end = NULL;
	long long id = strtoll(r->args[0], &end, 10);
	int rc;

	if (!*r->args[0] || *end || id <= 0 || !isdigit((unsigned char)*r->args[0])) {
		ret = reply_error(r, 400, "bad_parameter", "id", "a regression id is a positive number");
		goto cleanup;
	}
	/* Refresh its series first, as the list does, so that the status is current. */
	rc = fw_regression_get(db, id, &g, &err);
	if (!rc) {
		char *series = xstrdup(str_of(g, "series"));

		cJSON_Delete(g);
		g = NULL;
		rc = fw_regressions_refresh(db, series, NULL, &err) ? -1 : fw_regression_get(db, id, &g, &err);
		free(series);
	}
	if (rc) {
		ret = rc > 0 ? reply_error(r, 404, "not_found", "id", "no such regression")
			     : reply_error(r, 503, "db_error", NULL, err.buf);
		goto cleanup;
	}
	root = fw_regression_json(g);
	add_history(root);
	ret = reply_json(r, 200, root);
cleanup:
	cJSON_Delete(g);
	strbuf_release(&err);
	return ret;
}

enum MHD_Result api_regression_post(struct fw_req *r)
{
	const char *auth = req_header(r, MHD_HTTP_HEADER_AUTHORIZATION);
	struct strbuf err = STRBUF_INIT;
	cJSON *body = NULL, *root;
	const cJSON *st, *by;
	enum MHD_Result ret;
	sqlite3 *db;
	char who[128], *end = NULL;
	long long id;
	int ok, rc;

	if (!auth || strncmp(auth, "Bearer ", 7) || !auth[7]) {
		ret = reply_error(r, 401, "unauthorized", "Authorization",
				  "a Bearer token is required (foliowatch-server token add NAME)");
		goto cleanup;
	}
	db = req_db(r);
	if (!db) {
		ret = reply_error(r, 503, "db_unavailable", NULL, "cannot open the database");
		goto cleanup;
	}
	ok = fw_token_check(db, auth + 7, who);
	if (ok <= 0) {
		ret = ok < 0 ? reply_error(r, 503, "db_error", NULL, "token lookup failed")
			     : reply_error(r, 401, "unauthorized", "Authorization", "unknown or revoked token");
		goto cleanup;
	}
	id = strtoll(r->args[0], &end, 10);
	if (!*r->args[0] || *end || id <= 0) {
		ret = reply_error(r, 404, "not_found", "id", "no such regression");
		goto cleanup;
	}
	body = cJSON_ParseWithLength(r->body.buf, r->body.len);
	if (!cJSON_IsObject(body)) {
		ret = reply_error(r, 400, "invalid_json", "body", "the body must be a JSON object");
		goto cleanup;
	}
	st = cJSON_GetObjectItemCaseSensitive(body, "status");
	by = cJSON_GetObjectItemCaseSensitive(body, "by");
	if (!cJSON_IsString(st) || !status_valid(st->valuestring)) {
		ret = reply_error(r, 400, "bad_value", "status",
				  "status must be one of new, acknowledged, fixed, invalid");
		goto cleanup;
	}
	if (by && (!cJSON_IsString(by) || !*by->valuestring || strlen(by->valuestring) > 200)) {
		ret = reply_error(r, 400, "bad_value", "by", "by must be a non-empty string (at most 200 bytes)");
		goto cleanup;
	}
	rc = fw_regression_set_status(db, id, st->valuestring, by ? by->valuestring : who, &err);
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
	cJSON_AddStringToObject(root, "status", st->valuestring);
	cJSON_AddStringToObject(root, "status_by", by ? by->valuestring : who);
	cJSON_AddStringToObject(root, "token", who);
	ret = reply_json(r, 200, root);
cleanup:
	cJSON_Delete(body);
	strbuf_release(&err);
	return ret;
}
