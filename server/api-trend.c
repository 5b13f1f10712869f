/*
 * GET /api/v1/trend?series=NAME&metric=workload/variant/metric[&env=PREFIX]:
 * one point per commit in series order with its samples and per-boot medians.
 * A long history answers with its newest FW_METRIC_PAGE_COMMITS positions and
 * a window cursor, as the metric page shows them (issue 31: 12.6 MB and 5-6 s
 * a request at 10,000 commits); from=/to= choose, from=0 is all of it.
 */
#include <math.h>
#include "analysis.h"
#include "html.h"
#include "routes.h"
#include "ui.h"

/* The trend's window: its URL before from= names the series, metric and environment. */
static void trend_window(cJSON *root, const struct fw_series *s, const struct fw_metric *m)
{
	struct strbuf u = STRBUF_INIT;

	strbuf_addstr(&u, "/api/v1/trend?series=");
	html_url_arg(&u, s->name);
	strbuf_addstr(&u, "&metric=");
	html_url_arg(&u, m->id);
	strbuf_addstr(&u, "&env=");
	html_url_arg(&u, m->env);
	strbuf_addf(&u, "&revision=%d&", s->revision);
	api_window_json(root, s, u.buf);
	strbuf_release(&u);
}

enum MHD_Result api_trend(struct fw_req *r)
{
	struct strbuf name = STRBUF_INIT, metric = STRBUF_INIT, env = STRBUF_INIT;
	struct fw_series s;
	enum MHD_Result ret;
	cJSON *root, *pts;
	struct fw_an *an;
	const struct fw_metric *m;
	int mi;

	if (req_query(r, "series", &name) || !name.len) {
		ret = reply_error(r, 400, "missing_parameter", "series", "series=NAME is required");
		goto cleanup;
	}
	if (req_query(r, "metric", &metric) || !metric.len) {
		ret = reply_error(r, 400, "missing_parameter", "metric",
				  "metric=workload/variant/metric is required");
		goto cleanup;
	}
	req_query(r, "env", &env);
	{
		struct fw_series_only only = { metric.buf, -1, { 0, 0 } };  /* this metric's samples only */
		if (req_series_part(r, name.buf, "series", FW_METRIC_PAGE_COMMITS, &only, &s, &ret))
			goto cleanup;
	}
	mi = req_metric(r, &s, metric.buf, env.buf, &ret);
	if (mi < 0) {
		fw_series_free(&s);
		goto cleanup;
	}
	m = &s.metrics[mi];
	an = req_analysis_for(r, &s, m->id);
	an_apply(&s, an);  /* each point's delta is the analysis' against its parent */
	fw_an_free(an);
	root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "series", s.name);
	cJSON_AddNumberToObject(root, "revision", s.revision);
	cJSON_AddStringToObject(root, "metric", m->id);
	cJSON_AddStringToObject(root, "unit", m->unit);
	cJSON_AddStringToObject(root, "direction", m->direction);
	cJSON_AddStringToObject(root, "env", m->env);
	if (s.window)
		trend_window(root, &s, m);
	pts = cJSON_AddArrayToObject(root, "points");
	for (int c = 0; c < s.ncommits; c++) {
		const struct fw_cell *cell = &m->cells[c];
		cJSON *p = cJSON_CreateObject(), *sa, *runs;
		long long last = -1;

		cJSON_AddNumberToObject(p, "position", s.commits[c].position);
		cJSON_AddStringToObject(p, "sha", s.commits[c].sha);
		cJSON_AddStringToObject(p, "subject", s.commits[c].subject);
		fw_json_num_or_null(p, "median", cell->median);
		json_pct(p, "delta_pct", cell->delta_pct);
		cJSON_AddNumberToObject(p, "errors", cell->errors);
		sa = cJSON_AddArrayToObject(p, "samples");
		runs = cJSON_AddArrayToObject(p, "boots");
		for (int k = 0; k < cell->n; k++) {
			cJSON_AddItemToArray(sa, cJSON_CreateNumber(cell->vals[k].v));
			if (cell->vals[k].run != last) {
				cJSON *b = cJSON_CreateObject();

				last = cell->vals[k].run;
				cJSON_AddNumberToObject(b, "run", (double)last);
				fw_json_num_or_null(b, "median", fw_cell_run_median(cell, last));
				cJSON_AddItemToArray(runs, b);
			}
		}
		cJSON_AddItemToArray(pts, p);
	}
	fw_series_free(&s);
	ret = reply_json(r, 200, root);
cleanup:
	strbuf_release(&name);
	strbuf_release(&metric);
	strbuf_release(&env);
	return ret;
}
