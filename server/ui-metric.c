/*
 * GET /series/{name}/metric/{workload}/{variant}/{metric}[?env=PREFIX]:
 * the big trend plot (every sample, per-boot medians, median line) and the
 * numbers behind it.
 */
#include <stdio.h>
#include <math.h>
#include <string.h>
#include "routes.h"
#include "html.h"

enum MHD_Result ui_metric(struct fw_req *r)
{
	struct strbuf sb = STRBUF_INIT, wvm = STRBUF_INIT, env = STRBUF_INIT;
	struct fw_series s;
	const struct fw_metric *m;
	enum MHD_Result ret;
	int mi;

	if (req_series(r, r->args[0], "name", &s, &ret))
		goto cleanup;
	strbuf_addf(&wvm, "%s/%s/%s", r->args[1], r->args[2], r->args[3]);
	req_query(r, "env", &env);
	mi = fw_series_find_metric(&s, wvm.buf, env.buf, 0);
	if (mi < 0) {
		fw_series_free(&s);
		ret = reply_error(r, 404, "not_found", "metric", "no such metric in this series");
		goto cleanup;
	}
	m = &s.metrics[mi];
	html_page_begin(&sb, m->id);
	strbuf_addstr(&sb, "<p><a href=\"/series/");
	html_url_arg(&sb, s.name);
	strbuf_addstr(&sb, "\">");
	html_txt(&sb, s.name);
	strbuf_addstr(&sb, "</a></p>\n<h1>");
	html_txt(&sb, m->id);
	strbuf_addstr(&sb, "</h1>\n<p class=\"muted\">unit ");
	html_txt(&sb, m->unit);
	strbuf_addstr(&sb, !strcmp(m->direction, "higher_is_better") ? ", higher is better" : ", lower is better");
	strbuf_addstr(&sb, "; environment <span class=\"mono\">");
	html_txt(&sb, m->env);
	strbuf_addstr(&sb, "</span></p>\n");
	if (fw_metric_nsamples(&s, m)) {
		strbuf_addstr(&sb, "<img class=\"plot big\" width=\"900\" height=\"480\" alt=\"trend of ");
		html_attr(&sb, m->id);
		strbuf_addstr(&sb, "\" src=\"");
		ui_metric_link(&sb, &s, m, "big");
		strbuf_addstr(&sb, "\">\n");
	} else {
		strbuf_addstr(&sb, "<p class=\"muted noplot\">no samples to plot</p>\n");
	}
	strbuf_addstr(&sb, "<table class=\"grid\" id=\"points\"><thead><tr><th>#</th><th>commit</th>"
		      "<th>subject</th><th>median</th><th>delta</th><th>samples</th></tr></thead><tbody>\n");
	for (int c = 0; c < s.ncommits; c++) {
		const struct fw_cell *cell = &m->cells[c];
		int sign = fw_delta_sign(m, cell->delta_pct);
		char sha[13];

		snprintf(sha, sizeof(sha), "%s", s.commits[c].sha);
		strbuf_addf(&sb, "<tr><td>%d</td><td><a class=\"mono\" href=\"/series/", s.commits[c].position);
		html_url_arg(&sb, s.name);
		strbuf_addstr(&sb, "/commit/");
		html_url_arg(&sb, s.commits[c].sha);
		strbuf_addstr(&sb, "\">");
		html_txt(&sb, sha);
		strbuf_addstr(&sb, "</a></td><td>");
		html_txt(&sb, s.commits[c].subject);
		strbuf_addstr(&sb, "</td><td class=\"num\">");
		html_num(&sb, cell->median);
		strbuf_addf(&sb, "</td><td class=\"num %s\">", sign > 0 ? "better" : sign < 0 ? "worse" : "");
		if (!isnan(cell->delta_pct))
			strbuf_addf(&sb, "%+.2f%%", cell->delta_pct);
		strbuf_addstr(&sb, "</td><td class=\"samples\">");
		for (int k = 0; k < cell->n; k++) {
			if (k)
				strbuf_addch(&sb, ' ');
			html_num(&sb, cell->vals[k].v);
		}
		if (cell->errors)
			strbuf_addf(&sb, " <span class=\"bad\">%d error(s)</span>", cell->errors);
		strbuf_addstr(&sb, "</td></tr>\n");
	}
	strbuf_addstr(&sb, "</tbody></table>\n");
	html_page_end(&sb);
	fw_series_free(&s);
	ret = reply_buf(r, 200, "text/html; charset=utf-8", &sb, NULL);
cleanup:
	strbuf_release(&wvm);
	strbuf_release(&env);
	return ret;
}
