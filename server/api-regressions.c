/*
 * GET /api/v1/regressions[?series=NAME&status=new|acknowledged|fixed|invalid]:
 * stored regressions (the analysis code's list, refreshed first so that runs
 * posted since are included), as {"regressions": [...]}.
 * POST /api/v1/regressions/{id} with a Bearer token and {"status": S, "by": WHO}:
 * the lifecycle change (fw_regression_set_status); "by" defaults to the token's name.
 */
#include <stdlib.h>
#include <string.h>
#include "routes.h"
#include "analysis.h"
#include "token-db.h"

static int status_valid(const char *s)
{
	return !strcmp(s, "new") || !strcmp(s, "acknowledged") || !strcmp(s, "fixed") ||
	       !strcmp(s, "invalid");
}

enum MHD_Result api_regressions_list(struct fw_req *r)
{
	struct strbuf series = STRBUF_INIT, status = STRBUF_INIT, err = STRBUF_INIT;
	sqlite3 *db = req_db(r);
	cJSON *list = NULL, *root;
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
	cJSON_AddItemToObject(root, "regressions", list);
	list = NULL;
	ret = reply_json(r, 200, root);
cleanup:
	cJSON_Delete(list);
	strbuf_release(&series);
	strbuf_release(&status);
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
