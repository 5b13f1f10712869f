/*
 * GET /series/{name}/compare[?base=SHA&head=SHA&revision=N]: any two commits
 * of a series side by side (LNT's run comparison, Perfherder's compare view):
 * per metric and environment the two medians, delta % and the analysis
 * code's verdict (fw_analysis_compare, as GET /api/v1/compare). Without
 * base/head: the series' base against its last commit. A form picks others.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "routes.h"
#include "analysis.h"
#include "html.h"
#include "ui.h"

static void commit_select(struct strbuf *sb, const struct fw_series *s, const char *field, int sel)
{
	strbuf_addf(sb, "<label>%s <select name=\"%s\">", field, field);
	for (int c = 0; c < s->ncommits; c++) {
		strbuf_addstr(sb, "<option value=\"");
		html_attr(sb, s->commits[c].sha);
		strbuf_addf(sb, "\"%s>%d ", c == sel ? " selected" : "", s->commits[c].position);
		html_txt_short(sb, s->commits[c].sha, 12);
		strbuf_addch(sb, ' ');
		html_txt(sb, s->commits[c].subject);
		strbuf_addstr(sb, "</option>");
	}
	strbuf_addstr(sb, "</select></label>");
}

static void side(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, int c, const char *what)
{
	strbuf_addf(sb, "<li>%s: <a class=\"mono\" href=\"", what);
	ui_href_commit(sb, ui, s->name, s->commits[c].sha);
	strbuf_addstr(sb, "\">");
	html_txt(sb, s->commits[c].sha);
	strbuf_addstr(sb, "</a> ");
	html_txt(sb, s->commits[c].subject);
	strbuf_addstr(sb, "</li>\n");
}

static void row(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, const struct fw_metric *m,
		int bi, int hi, const cJSON *r, const struct ui_envs *ev)
{
	const struct fw_cell *b = &m->cells[bi], *h = &m->cells[hi];
	const char *v = r ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "verdict")) : NULL;
	double d = NAN;

	if (!b->n && !h->n)
		return;
	if (!isnan(b->median) && !isnan(h->median) && b->median != 0)
		d = (h->median - b->median) / fabs(b->median) * 100.0;
	strbuf_addstr(sb, "<tr><td><a href=\"");
	ui_href_metric(sb, ui, s, m);
	strbuf_addstr(sb, "\">");
	html_txt(sb, m->id);
	strbuf_addstr(sb, "</a></td><td>");
	html_txt(sb, ui_env_name(ev, m->env));
	strbuf_addstr(sb, "</td><td>");
	html_txt(sb, m->unit);
	strbuf_addstr(sb, "</td><td class=\"num\">");
	html_num(sb, b->median);
	strbuf_addstr(sb, "</td><td class=\"num\">");
	html_num(sb, h->median);
	strbuf_addstr(sb, "</td><td class=\"num\">");
	if (!isnan(d))
		strbuf_addf(sb, "%+.2f%%", d);
	strbuf_addf(sb, "</td><td class=\"v-%s\">", ui_verdict_class(v));
	html_txt(sb, v ? v : "not analysed");
	strbuf_addstr(sb, "</td></tr>\n");
}

void ui_compare_render(const struct fw_ui *ui, const struct fw_series *s, int bi, int hi, const cJSON *an,
		       struct strbuf *sb)
{
	struct fw_an_index *ix = an_index_new(an);
	struct ui_envs ev;

	ui_envs_load(&ev, ui->db);
	ui_page_begin(sb, ui, "compare");
	strbuf_addstr(sb, "<p><a href=\"");
	ui_href_series(sb, ui, s->name);
	strbuf_addstr(sb, "\">");
	html_txt(sb, s->name);
	strbuf_addf(sb, "</a> v%d</p>\n<h1>Compare two commits</h1>\n<ul id=\"sides\">\n", s->revision);
	side(sb, ui, s, bi, "base");
	side(sb, ui, s, hi, "head");
	strbuf_addstr(sb, "</ul>\n");
	if (!ui->exported) {
		strbuf_addstr(sb, "<form class=\"filters\" method=\"get\" action=\"\">");
		commit_select(sb, s, "base", bi);
		commit_select(sb, s, "head", hi);
		if (ui->revision > 0)
			strbuf_addf(sb, "<input type=\"hidden\" name=\"revision\" value=\"%d\">", ui->revision);
		strbuf_addstr(sb, "<button type=\"submit\">compare</button></form>\n");
	}
	ui_matrix_legend(sb);
	strbuf_addstr(sb, "<table class=\"grid\" id=\"compare\"><thead><tr><th>metric</th><th>environment</th>"
		      "<th>unit</th><th>base median</th><th>head median</th><th>delta</th><th>verdict</th>"
		      "</tr></thead><tbody>\n");
	for (int i = 0; i < s->nmetrics; i++)
		row(sb, ui, s, &s->metrics[i], bi, hi, an_index_row(ix, s->commits[hi].sha, &s->metrics[i]), &ev);
	strbuf_addstr(sb, "</tbody></table>\n");
	html_page_end(sb);
	an_index_free(ix);
	ui_envs_free(&ev);
}

/* Default sides: the first and the last commit. */
cJSON *ui_compare_analysis(sqlite3 *db, const struct fw_series *s, int bi, int hi)
{
	struct fw_analysis_opts o;
	struct strbuf err = STRBUF_INIT;
	cJSON *an = NULL;

	fw_analysis_opts_init(&o);
	o.use_cache = 1;
	if (bi == hi || fw_analysis_compare(db, s->commits[bi].id, s->commits[hi].id, &o, &an, &err))
		an = NULL;
	strbuf_release(&err);
	return an;
}

static int side_arg(struct fw_req *r, const struct fw_series *s, const char *field, int dflt,
		    enum MHD_Result *ret)
{
	struct strbuf sha = STRBUF_INIT;
	int i = dflt;

	if (!req_query(r, field, &sha) && sha.len) {
		i = fw_series_find_commit(s, sha.buf);
		if (i == -2)
			*ret = reply_error(r, 400, "ambiguous", field, "sha prefix matches several commits");
		else if (i < 0)
			*ret = reply_error(r, 404, "not_found", field, "no such commit in this series");
	}
	strbuf_release(&sha);
	return i;
}

enum MHD_Result ui_compare(struct fw_req *r)
{
	struct strbuf sb = STRBUF_INIT;
	struct fw_series s;
	struct fw_ui ui = { 0 };
	enum MHD_Result ret;
	cJSON *an = NULL;
	int bi, hi;

	if (req_series(r, r->args[0], "name", &s, &ret))
		return ret;
	if (!s.ncommits) {
		ret = reply_error(r, 404, "not_found", "name", "the series has no commits");
		goto cleanup;
	}
	if ((bi = side_arg(r, &s, "base", 0, &ret)) < 0 || (hi = side_arg(r, &s, "head", s.ncommits - 1, &ret)) < 0)
		goto cleanup;
	ui.db = req_db(r);
	ui.revision = req_revision(r);
	an = ui_compare_analysis(ui.db, &s, bi, hi);
	ui_compare_render(&ui, &s, bi, hi, an, &sb);
	ret = reply_buf(r, 200, "text/html; charset=utf-8", &sb, NULL);
cleanup:
	cJSON_Delete(an);
	fw_series_free(&s);
	return ret;
}
