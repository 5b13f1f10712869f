/*
 * GET /api/v1/regressions[?series=NAME&status=new|acknowledged|fixed|invalid]:
 * stored regressions (the analysis code's list, refreshed first so that runs
 * posted since are included), as {"regressions": [...]}.
 * POST /api/v1/regressions/{id} with a Bearer token of the triage scope and {"status": S, "by": WHO,
 * "note": TEXT}: the lifecycle change (fw_regression_set_status), kept in the
 * regression's history; "by" defaults to the token's name. "by" and "note"
 * follow the run document's rules for text (FW_BY_MAX, FW_NOTE_MAX bytes).
 */
#include <stdlib.h>
#include <string.h>
#include "routes.h"
#include "analysis.h"
#include "run-doc.h"

/* 0 ok, else the 400 answer naming the field (*ret). */
static int body_check(struct fw_req *r, const cJSON *body, enum MHD_Result *ret)
{
	static const char *const known[] = { "status", "by", "note", NULL };
	struct strbuf path = STRBUF_INIT;
	const cJSON *it;
	long nul = fw_json_nul_escape_at(r->body.buf, r->body.len);
	int rc = -1;

	if (nul >= 0) {
		fw_json_string_path(body, nul, &path);
		*ret = reply_error(r, 400, "bad_value", path.buf, "\\u0000 (NUL) is not allowed in a string");
		goto cleanup;
	}
	cJSON_ArrayForEach(it, body) {
		const char *problem = NULL;
		size_t k = 0;

		while (known[k] && strcmp(known[k], it->string))
			k++;
		if (!known[k]) {
			strbuf_reset(&path);
			fw_path_key(&path, it->string);
			*ret = reply_error(r, 400, "bad_value", path.buf, "unknown field (status, by and note are)");
			goto cleanup;
		}
		if (k && !cJSON_IsString(it))
			problem = "must be a string";
		else if (k == 1)
			problem = fw_text_problem(it->valuestring, 1, FW_BY_MAX, 0);
		else if (k == 2)
			problem = fw_text_problem(it->valuestring, 0, FW_NOTE_MAX, 1);
		if (problem) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s %s (%d..%d bytes of text%s)", it->string, problem, !!(k == 1),
				    k == 1 ? FW_BY_MAX : FW_NOTE_MAX, k == 1 ? " on one line" : "");
			*ret = reply_error(r, 400, "bad_value", it->string, path.buf);
			goto cleanup;
		}
	}
	rc = 0;
cleanup:
	strbuf_release(&path);
	return rc;
}

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
	struct strbuf err = STRBUF_INIT;
	cJSON *body = NULL, *root;
	const cJSON *st, *by;
	const char *note;
	enum MHD_Result ret;
	sqlite3 *db;
	const char *who = r->token;
	char *end = NULL;
	long long id;
	int rc;

	db = req_db(r);  /* the route table checked the DB and the token's triage scope */
	id = strtoll(r->args[0], &end, 10);
	if (!*r->args[0] || *end || id <= 0) {
		ret = reply_error(r, 404, "not_found", "id", "no such regression");
		goto cleanup;
	}
	body = cJSON_ParseWithLength(r->body.buf, r->body.len);
	if (!cJSON_IsObject(body) || memchr(r->body.buf, '\0', r->body.len)) {
		ret = reply_error(r, 400, "invalid_json", "body", "the body must be a JSON object");
		goto cleanup;
	}
	if (body_check(r, body, &ret))
		goto cleanup;
	st = cJSON_GetObjectItemCaseSensitive(body, "status");
	by = cJSON_GetObjectItemCaseSensitive(body, "by");
	note = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(body, "note"));
	if (!cJSON_IsString(st) || !status_valid(st->valuestring)) {
		ret = reply_error(r, 400, "bad_value", "status",
				  "status must be one of new, acknowledged, fixed, invalid");
		goto cleanup;
	}
	rc = fw_regression_set_status(db, id, st->valuestring, by ? by->valuestring : who, note, &err);
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
	cJSON_AddStringToObject(root, "status_note", note ? note : "");
	cJSON_AddStringToObject(root, "token", who);
	ret = reply_json(r, 200, root);
cleanup:
	cJSON_Delete(body);
	strbuf_release(&err);
	return ret;
}
