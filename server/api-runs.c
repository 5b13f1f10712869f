/*
 * POST /api/v1/runs: a run document into the one ingest (schema/ingest.c).
 * 201 stored, 200 identical re-send, 409 conflict, 400 invalid (field path),
 * 401 token, 413 (route table). fw_ingest returns after COMMIT, so a 2xx is
 * never sent for data that is not on disk.
 */
#include <string.h>
#include "routes.h"
#include "ingest.h"
#include "token-db.h"

enum MHD_Result api_runs_post(struct fw_req *r)
{
	const char *auth = req_header(r, MHD_HTTP_HEADER_AUTHORIZATION);
	struct fw_ingest_info info;
	char who[128];
	sqlite3 *db;
	cJSON *root;
	unsigned status;
	int ok;

	if (!auth || strncmp(auth, "Bearer ", 7) || !auth[7])
		return reply_error(r, 401, "unauthorized", "Authorization",
				   "a Bearer token is required (foliowatch-server token add NAME)");
	db = req_db(r);
	if (!db)
		return reply_error(r, 503, "db_unavailable", NULL, "cannot open the database");
	ok = fw_token_check(db, auth + 7, who);
	if (ok < 0)
		return reply_error(r, 503, "db_error", NULL, "token lookup failed");
	if (!ok)
		return reply_error(r, 401, "unauthorized", "Authorization", "unknown or revoked token");
	memset(&info, 0, sizeof(info));
	fw_ingest(db, r->body.buf, r->body.len, &info);
	atomic_fetch_add(&r->srv->ingests[info.status], 1);
	switch (info.status) {
	case FW_INGEST_STORED:
		status = 201;
		break;
	case FW_INGEST_DUPLICATE:
		status = 200;
		break;
	case FW_INGEST_CONFLICT:
		return reply_error(r, 409, "conflict", info.err.field[0] ? info.err.field : "run_id",
				   info.err.detail[0] ? info.err.detail
				   : "a different document with this run_id is stored");
	case FW_INGEST_INVALID:
		return reply_error(r, 400, "invalid_document", info.err.field, info.err.detail);
	default:
		return reply_error(r, 503, "db_error", NULL,
				   info.err.detail[0] ? info.err.detail : "the database refused the write");
	}
	root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "run_id", info.run_id);
	cJSON_AddStringToObject(root, "status", fw_ingest_status_name(info.status));
	cJSON_AddNumberToObject(root, "results", info.results);
	cJSON_AddNumberToObject(root, "samples", info.samples);
	cJSON_AddStringToObject(root, "token", who);
	return reply_json(r, status, root);
}
