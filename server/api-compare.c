/*
 * GET /api/v1/compare?series=NAME&base=SHA&head=SHA: per metric (and
 * environment) the two medians and delta %. Interval, p-value and verdict
 * are the analysis code's and are null until it is linked in.
 */
#include <math.h>
#include "routes.h"

static int find(struct fw_req *r, const struct fw_series *s, const char *field,
		struct strbuf *sha, enum MHD_Result *ret)
{
	int i;

	if (req_query(r, field, sha) || !sha->len) {
		*ret = reply_error(r, 400, "missing_parameter", field, "a commit sha is required");
		return -1;
	}
	i = fw_series_find_commit(s, sha->buf);
	if (i == -2)
		*ret = reply_error(r, 400, "ambiguous", field, "sha prefix matches several commits");
	else if (i < 0)
		*ret = reply_error(r, 404, "not_found", field, "no such commit in this series");
	return i;
}

enum MHD_Result api_compare(struct fw_req *r)
{
	struct strbuf name = STRBUF_INIT, base = STRBUF_INIT, head = STRBUF_INIT;
	struct fw_series s;
	enum MHD_Result ret;
	cJSON *root, *arr;
	int bi, hi, loaded = 0;

	if (req_query(r, "series", &name) || !name.len) {
		ret = reply_error(r, 400, "missing_parameter", "series", "series=NAME is required");
		goto cleanup;
	}
	if (req_series(r, name.buf, "series", &s, &ret))
		goto cleanup;
	loaded = 1;
	if ((bi = find(r, &s, "base", &base, &ret)) < 0 || (hi = find(r, &s, "head", &head, &ret)) < 0)
		goto cleanup;
	root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "series", s.name);
	cJSON_AddStringToObject(root, "base", s.commits[bi].sha);
	cJSON_AddStringToObject(root, "head", s.commits[hi].sha);
	cJSON_AddBoolToObject(root, "analysed", 0);
	arr = cJSON_AddArrayToObject(root, "metrics");
	for (int i = 0; i < s.nmetrics; i++) {
		const struct fw_metric *m = &s.metrics[i];
		const struct fw_cell *b = &m->cells[bi], *h = &m->cells[hi];
		cJSON *o;
		double d = NAN;

		if (!b->n && !h->n)
			continue;
		if (!isnan(b->median) && !isnan(h->median) && b->median != 0)
			d = (h->median - b->median) / fabs(b->median) * 100.0;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "metric", m->id);
		cJSON_AddStringToObject(o, "unit", m->unit);
		cJSON_AddStringToObject(o, "direction", m->direction);
		cJSON_AddStringToObject(o, "env", m->env);
		json_num(o, "base_median", b->median);
		json_num(o, "head_median", h->median);
		cJSON_AddNumberToObject(o, "base_n", b->n);
		cJSON_AddNumberToObject(o, "head_n", h->n);
		json_num(o, "delta_pct", d);
		cJSON_AddNullToObject(o, "ci_low_pct");
		cJSON_AddNullToObject(o, "ci_high_pct");
		cJSON_AddNullToObject(o, "p_value");
		cJSON_AddNullToObject(o, "verdict");
		cJSON_AddItemToArray(arr, o);
	}
	ret = reply_json(r, 200, root);
cleanup:
	if (loaded)
		fw_series_free(&s);
	strbuf_release(&name);
	strbuf_release(&base);
	strbuf_release(&head);
	return ret;
}
