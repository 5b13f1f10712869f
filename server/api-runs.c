/*
 * POST /api/v1/runs: a run document into the one ingest (schema/ingest.c).
 * 201 stored, 200 identical re-send, 409 conflict, 400 invalid (field path),
 * 401/403 token (route table: the ingest scope), 413 (route table). fw_ingest returns after COMMIT, so a 2xx is
 * never sent for data that is not on disk.
 */
#include <string.h>
#include "routes.h"
#include "ingest.h"

enum MHD_Result api_runs_post(struct fw_req *r)
{
	struct fw_ingest_info info;
	sqlite3 *db = req_db(r);  /* the route table checked the DB and the token's ingest scope */
	cJSON *root;
	unsigned status;

	memset(&info, 0, sizeof(info));
	fw_ingest(db, r->body.buf, r->body.len, &info);
	atomic_fetch_add(&r->srv->ingests[info.status], 1);
	switch (info.status) {
	case FW_INGEST_STORED:
		status = 201;
		fw_notify_series(&r->srv->notify, info.series);  /* detection runs after, off this request */
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
	cJSON_AddStringToObject(root, "token", r->token);
	if (info.err.warning[0])  /* a foliowatch-run/1 document: stored, and told to upgrade */
		cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "warnings"),
				     cJSON_CreateString(info.err.warning));
	return reply_json(r, status, root);
}
