/*
 * GET /api/v1/compare?series=NAME&base=SHA&head=SHA[&revision=N][&base_revision=M]:
 * per metric (and environment) the two medians and delta %. Interval,
 * p-value and verdict are the analysis code's (fw_analysis_compare, which
 * takes any two commit ids). The head commit is looked up in revision N
 * (default newest) and the base in revision M (default: the same), so a
 * commit of v2 can be compared with its counterpart in v1.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "routes.h"
#include "analysis.h"
#include "ui.h"

static int find(struct fw_req *r, const struct fw_series *s, const char *field,
		struct strbuf *sha, enum MHD_Result *ret)
{
	if (req_query(r, field, sha) || !sha->len) {
		*ret = reply_error(r, 400, "missing_parameter", field, "a commit sha is required");
		return -1;
	}
	return req_commit(r, s, field, sha->buf, ret);
}

enum MHD_Result api_compare(struct fw_req *r)
{
	struct strbuf name = STRBUF_INIT, base = STRBUF_INIT, head = STRBUF_INIT;
	struct strbuf brev = STRBUF_INIT;
	struct fw_series s, bs_own;
	const struct fw_series *bs = &s;  /* the base's revision: s unless base_revision= */
	enum MHD_Result ret;
	cJSON *root, *arr;
	struct fw_an *an = NULL;
	struct fw_an_index *ix = NULL;
	struct strbuf err = STRBUF_INIT;
	int bi, hi, loaded = 0, bloaded = 0;
	struct fw_series_only commits_only = { NULL, 0, { 0, 0 } };  /* the commits first, to find the two */

	if (req_query(r, "series", &name) || !name.len) {
		ret = reply_error(r, 400, "missing_parameter", "series", "series=NAME is required");
		goto cleanup;
	}
	if (req_series_only(r, name.buf, "series", &commits_only, &s, &ret))
		goto cleanup;
	loaded = 1;
	if (!req_query(r, "base_revision", &brev) || brev.len) {
		char *end = NULL;
		long rev = strtol(brev.buf, &end, 10);
		int rc;

		if (!brev.len || *end || rev <= 0 || rev > 1000000) {
			ret = reply_error(r, 400, "bad_parameter", "base_revision",
					  "base_revision must be a positive number");
			goto cleanup;
		}
		rc = fw_series_load_rev(req_db(r), s.name, (int)rev, &bs_own, &err);
		if (!rc)
			fw_series_levels(&bs_own);
		if (rc) {
			ret = rc == 1 ? reply_error(r, 404, "not_found", "base_revision", "no such revision of this series")
				      : reply_error(r, 503, "db_error", NULL, err.buf);
			goto cleanup;
		}
		bloaded = 1;
		bs = &bs_own;
	}
	if ((bi = find(r, bs, "base", &base, &ret)) < 0 || (hi = find(r, &s, "head", &head, &ret)) < 0 ||
	    compare_samples(r, bs, &s, bi, hi, &ret))
		goto cleanup;
	an = ui_compare_analysis(req_db(r), bs, &s, bi, hi);  /* the series' own rows when it compared them */
	ix = an_index_new(an);
	root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "series", s.name);
	cJSON_AddStringToObject(root, "base", bs->commits[bi].sha);
	cJSON_AddStringToObject(root, "head", s.commits[hi].sha);
	cJSON_AddNumberToObject(root, "base_revision", bs->revision);
	cJSON_AddNumberToObject(root, "head_revision", s.revision);
	cJSON_AddBoolToObject(root, "analysed", an != NULL);
	arr = cJSON_AddArrayToObject(root, "metrics");
	for (int i = 0; i < s.nmetrics; i++) {
		const struct fw_metric *m = &s.metrics[i];
		const struct fw_cell *h = &m->cells[hi], *b;
		static const struct fw_cell none = { .median = NAN };
		struct strbuf wvm = STRBUF_INIT;
		const struct fw_an_row *row = an_index_row(ix, s.commits[hi].sha, m);
		cJSON *jo;
		int bm = i;

		if (bs != &s) {  /* m->id may be truncated for display: match the full names */
			strbuf_addf(&wvm, "%s/%s/%s", m->workload, m->variant, m->metric);
			bm = fw_series_find_metric(bs, wvm.buf, m->env, 0);
			strbuf_release(&wvm);
		}

		/* Across revisions the base's metric is found by name and environment. */
		b = bm >= 0 ? &bs->metrics[bm].cells[bi] : &none;
		if (!b->n && !h->n)
			continue;
		jo = cJSON_CreateObject();
		cJSON_AddStringToObject(jo, "metric", m->id);
		cJSON_AddStringToObject(jo, "unit", m->unit);
		cJSON_AddStringToObject(jo, "direction", m->direction);
		cJSON_AddStringToObject(jo, "env", m->env);
		/* the analysis' medians and delta of this comparison (one truth), own medians without a row */
		fw_json_num_or_null(jo, "base_median", row && !isnan(row->a.median) ? row->a.median : b->median);
		fw_json_num_or_null(jo, "head_median", row && !isnan(row->b.median) ? row->b.median : h->median);
		cJSON_AddNumberToObject(jo, "base_n", b->n);
		cJSON_AddNumberToObject(jo, "head_n", h->n);
		json_pct(jo, "delta_pct", row ? row->delta_pct : NAN);
		analysis_fill(jo, row);
		cJSON_AddItemToArray(arr, jo);
	}
	ret = reply_json(r, 200, root);
cleanup:
	an_index_free(ix);
	fw_an_free(an);
	strbuf_release(&err);
	if (loaded)
		fw_series_free(&s);
	if (bloaded)
		fw_series_free(&bs_own);
	strbuf_release(&brev);
	strbuf_release(&name);
	strbuf_release(&base);
	strbuf_release(&head);
	return ret;
}
