/* Small glue shared by the handlers that show one series. */
#include <math.h>
#include "routes.h"

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
