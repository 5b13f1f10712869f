/*
 * POST /api/v1/series/{name}/complete[?revision=N]: the collector's "this run
 * is over" (ingest scope). The series revision's held events (schema/holds.c)
 * go out once detection has seen its last run, without waiting for the settle
 * time. A run stored after this call opens the hold again. 200 with what was
 * held, 404 unknown series or revision, 400 a bad revision.
 */
#include "fw-db.h"
#include "routes.h"

enum MHD_Result api_series_complete(struct fw_req *r)
{
	struct fw_hold_info h;
	int rev = req_revision(r), rc;
	cJSON *root;

	if (rev < 0)
		return reply_error(r, 400, "bad_parameter", "revision", "revision must be a positive number");
	rc = fw_hold_complete(req_db(r), r->args[0], rev, &h);
	if (rc == 1 && rev > 0)
		return reply_error(r, 404, "not_found", "revision", "no such revision of this series");
	if (rc == 1)
		return reply_error(r, 404, "not_found", "name", "no such series");
	if (rc < 0)
		return reply_error(r, 503, "db_error", NULL, fw_db_errmsg(req_db(r)));
	fw_notify_kick(&r->srv->notify);  /* the delivery thread releases it when due */
	root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "series", r->args[0]);
	cJSON_AddNumberToObject(root, "revision", h.revision);
	cJSON_AddBoolToObject(root, "held", h.open);
	cJSON_AddNumberToObject(root, "runs", h.runs);
	cJSON_AddNumberToObject(root, "held_events", h.held_events);
	cJSON_AddStringToObject(root, "token", r->token);
	return reply_json(r, 200, root);
}
