/*
 * GET /regressions[?series=NAME&status=S&metric=W/V/M&env=FINGERPRINT]: every
 * stored regression (refreshed from the analysis first, as the API does),
 * filtered by server-side query parameters (a plain form, no JavaScript),
 * each linking to its commit and its metric page. A static export cannot
 * run a query: it has one page per filter value instead (ui_reg_facets), and
 * links to them where the server has its form, saying why they do not combine.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "routes.h"
#include "analysis.h"
#include "html.h"
#include "ui.h"
#include "store-analysis.h"
#include "xalloc.h"

static const char *const statuses[] = { "new", "acknowledged", "fixed", "invalid" };

static int keep(const struct fw_reg *it, const struct ui_reg_filter *f)
{
	struct strbuf wvm = STRBUF_INIT;
	int ok;

	strbuf_addf(&wvm, "%s/%s/%s", it->workload, it->variant, it->metric);
	ok = (!f->series || !strcmp(it->series, f->series)) && (!f->status || !strcmp(it->status, f->status)) &&
	     (!f->metric || !strcmp(wvm.buf, f->metric)) && (!f->env || !strcmp(it->env, f->env));
	strbuf_release(&wvm);
	return ok;
}

static void option(struct strbuf *sb, const char *value, const char *label, const char *sel)
{
	strbuf_addstr(sb, "<option value=\"");
	html_attr(sb, value);
	strbuf_addstr(sb, sel && !strcmp(sel, value) ? "\" selected>" : "\">");
	html_txt(sb, label);
	strbuf_addstr(sb, "</option>");
}

static void filters(struct strbuf *sb, const struct fw_regs *all, const struct ui_reg_filter *f,
		    const struct ui_envs *ev)
{
	strbuf_addstr(sb, "<form class=\"filters\" method=\"get\" action=\"\"><label>series <select name=\"series\">");
	option(sb, "", "any", f->series);
	for (size_t i = 0; all && i < all->n; i++) {
		size_t p = 0;

		while (p != i && strcmp(all->r[p].series, all->r[i].series))
			p++;
		if (p == i)  /* the first regression of its series */
			option(sb, all->r[i].series, all->r[i].series, f->series);
	}
	strbuf_addstr(sb, "</select></label><label>status <select name=\"status\">");
	option(sb, "", "any", f->status);
	for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
		option(sb, statuses[i], statuses[i], f->status);
	strbuf_addstr(sb, "</select></label><label>metric <input name=\"metric\" placeholder=\"workload/variant/metric\" value=\"");
	html_attr(sb, f->metric ? f->metric : "");
	strbuf_addstr(sb, "\"></label><label>environment <select name=\"env\">");
	option(sb, "", "any", f->env);
	for (int i = 0; i < ev->n; i++)
		option(sb, ev->e[i].fp, ev->e[i].name, f->env);
	option(sb, FW_ENV_COMBINED, "all hosts", f->env);
	strbuf_addstr(sb, "</select></label><button type=\"submit\">filter</button></form>\n");
}

static const char *const facets[] = { "series", "status", "metric", "env" };

/* A regression's value for facet k (the metric as workload/variant/metric, built in wvm). */
static const char *facet_value(const struct fw_reg *it, int k, struct strbuf *wvm)
{
	if (k != 2)
		return k == 0 ? it->series : k == 1 ? it->status : it->env;
	strbuf_reset(wvm);
	strbuf_addf(wvm, "%s/%s/%s", it->workload, it->variant, it->metric);
	return wvm->buf;
}

static const char **filter_field(struct ui_reg_filter *f, int k)
{
	return k == 0 ? &f->series : k == 1 ? &f->status : k == 2 ? &f->metric : &f->env;
}

cJSON *ui_reg_facets(const struct fw_ui *ui, const struct fw_regs *all)
{
	struct strbuf wvm = STRBUF_INIT;
	cJSON *out = cJSON_CreateArray(), *p;

	for (int k = 0; k < 4; k++)
		for (size_t i = 0; all && i < all->n; i++) {
			const struct fw_reg *it = &all->r[i];
			const char *v = facet_value(it, k, &wvm);
			int seen = 0;

			if (!ui_has_series(ui, it->series))
				continue;
			cJSON_ArrayForEach(p, out)
				seen |= !strcmp(facets[k], p->child->valuestring) && !strcmp(v, p->child->next->valuestring);
			if (!seen) {
				const char *pair[2] = { facets[k], v };

				cJSON_AddItemToArray(out, cJSON_CreateStringArray(pair, 2));
			}
		}
	strbuf_release(&wvm);
	return out;
}

void ui_reg_filter_of(const cJSON *facet, struct ui_reg_filter *f)
{
	memset(f, 0, sizeof(*f));
	for (int k = 0; k < 4; k++)
		if (!strcmp(facet->child->valuestring, facets[k]))
			*filter_field(f, k) = facet->child->next->valuestring;
}

/* The export's stand-in for the form: per facet, "any" and a link to each value's page. */
static void filter_links(struct strbuf *sb, const struct fw_ui *ui, const struct fw_regs *all, struct ui_reg_filter *f,
			 const struct ui_envs *ev)
{
	cJSON *fs = ui_reg_facets(ui, all), *p;

	strbuf_addstr(sb, "<nav aria-label=\"filters\" id=\"filter-links\"><p class=\"note\">A static export cannot "
		      "combine filters (no server runs the query): each link is a page of its own with one filter. "
		      "The live server's regressions page combines them.</p>\n");
	for (int k = 0; k < 4; k++) {
		const char *cur = *filter_field(f, k);

		strbuf_addf(sb, "<ul class=\"selector\" id=\"filter-%s\"><li>%s:</li><li>", facets[k],
			    k == 3 ? "environment" : facets[k]);
		strbuf_addstr(sb, cur ? "<a href=\"" : "<strong aria-current=\"page\">any</strong>");
		if (cur) {
			ui_href_regressions(sb, ui);
			strbuf_addstr(sb, "\">any</a>");
		}
		strbuf_addstr(sb, "</li>");
		cJSON_ArrayForEach(p, fs) {
			const char *v = p->child->next->valuestring;
			int here = cur && !strcmp(cur, v);

			if (strcmp(p->child->valuestring, facets[k]))
				continue;
			strbuf_addstr(sb, here ? "<li><strong aria-current=\"page\">" : "<li><a href=\"");
			if (!here) {
				ui_href_regressions_filter(sb, ui, facets[k], v);
				strbuf_addstr(sb, "\">");
			}
			html_txt(sb, k == 3 ? ui_env_name(ev, v) : v);
			strbuf_addstr(sb, here ? "</strong></li>" : "</a></li>");
		}
		strbuf_addstr(sb, "</ul>\n");
	}
	strbuf_addstr(sb, "</nav>\n");
	cJSON_Delete(fs);
}

/* The analyses of the series the list shows, each loaded once per page (cached by the analysis). */
struct an_cache {
	char **key;
	struct fw_an **an;
	int n;
};

static const struct fw_an *analysis_of(struct an_cache *c, sqlite3 *db, const struct fw_reg *it)
{
	/* a stored regression's row is a decided one: a long history's other rows are not read */
	static const struct fw_store_cache_part decided = { -1, -1, NULL, 1 };
	struct strbuf k = STRBUF_INIT;
	int i;

	strbuf_addf(&k, "%d\x1f%s", it->revision, it->series);
	for (i = 0; i < c->n && strcmp(c->key[i], k.buf); i++)
		;
	if (i == c->n) {
		c->key = xrealloc(c->key, sizeof(*c->key) * (size_t)(c->n + 1));
		c->an = xrealloc(c->an, sizeof(*c->an) * (size_t)(c->n + 1));
		c->key[c->n] = strbuf_detach(&k, NULL);
		c->an[c->n++] = db ? fw_ui_analysis_part(db, it->series, it->revision, &decided) : NULL;
	}
	strbuf_release(&k);
	return c->an[i];
}

static void an_cache_free(struct an_cache *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->key[i]);
		fw_an_free(c->an[i]);
	}
	free(c->key);
	free(c->an);
}

/*
 * How it was decided (issue 29): Before -> After with the unit, the mode
 * with its floor or the rank test's q, the boots it was decided at, and the
 * day it was found. Blank cells for a regression combined over hosts.
 */
static void reg_decision(struct strbuf *sb, const struct fw_reg *it, const struct fw_an_row *row)
{
	const char *mode = row ? row->mode : "";

	strbuf_addstr(sb, "<td class=\"num\" data-label=\"before &rarr; after\">");
	if (row) {
		html_num(sb, row->a.median);
		strbuf_addstr(sb, "&nbsp;&rarr; ");
		html_num(sb, row->b.median);
		strbuf_addch(sb, ' ');
		html_txt(sb, row->unit);
	}
	strbuf_addstr(sb, "</td><td data-label=\"decided by\">");
	if (row && strcmp(mode, "rank"))
		strbuf_addf(sb, "%s, floor %.2f%%", !strcmp(mode, "exact") ? "exact count" : mode, row->floor_pct);
	else if (row)
		strbuf_addf(sb, "rank test, q %.2g", row->q);
	strbuf_addstr(sb, "</td><td class=\"num\" data-label=\"decided at\">");
	if (row && row->decided && row->decided_at_boots != FW_AN_NA)
		strbuf_addf(sb, "%d boots", row->decided_at_boots);
	strbuf_addstr(sb, "</td><td class=\"num\" data-label=\"found\">");
	html_txt_short(sb, it->created_at, 10);
	strbuf_addstr(sb, "</td>");
}

static void reg_row(struct strbuf *sb, const struct fw_ui *ui, const struct fw_reg *it, const struct ui_envs *ev,
		    const struct fw_an_row *row)
{
	const char *series = it->series, *env = it->env;
	struct fw_series s = { 0 };
	struct fw_metric m = { 0 };
	int linked = ui_has_series(ui, series);

	/* data-label: the column's name before the value when a phone stacks the row (style.css);
	 * the first cell, the id, is the card's title */
	strbuf_addf(sb, "<tr><td class=\"card-title\">%.0f</td><td data-label=\"series\">",
		    (double)it->id);
	html_txt(sb, series);
	strbuf_addstr(sb, "</td><td data-label=\"commit\">");
	if (linked) {
		strbuf_addstr(sb, "<a class=\"mono\" href=\"");
		ui_href_commit(sb, ui, series, it->sha);
		strbuf_addstr(sb, "\">");
	}
	html_txt_short(sb, it->sha, 12);
	strbuf_addstr(sb, linked ? "</a> " : " ");
	html_txt(sb, it->subject);
	strbuf_addstr(sb, "</td><td data-label=\"metric\">");
	/* The metric page of that environment; an all-hosts regression links the series. */
	s.name = xstrdup(series);
	s.nenvs = 2;
	m.workload = xstrdup(it->workload);
	m.variant = xstrdup(it->variant);
	m.metric = xstrdup(it->metric);
	m.env = xstrdup(env);
	if (linked) {
		int from, to;

		strbuf_addstr(sb, "<a href=\"");
		if (strcmp(env, FW_ENV_COMBINED)) {
			ui_href_metric(sb, ui, &s, &m);  /* ?env=... always: s.nenvs is 2 */
			if (!ui->exported &&
			    ui_reg_window(it->position, it->first_position, it->last_position, &from, &to)) {
				if (ui->revision <= 0)  /* the regression's revision: the window is of its positions */
					strbuf_addf(sb, "&amp;revision=%d", it->revision);
				strbuf_addf(sb, "&amp;from=%d&amp;to=%d", from, to);
			}
		} else
			ui_href_series(sb, ui, series);
		strbuf_addstr(sb, "\">");
	}
	html_wvm(sb, m.workload, m.variant, m.metric);
	strbuf_addstr(sb, linked ? "</a></td><td data-label=\"environment\">" : "</td><td data-label=\"environment\">");
	html_txt(sb, ui_env_name(ev, env));
	strbuf_addstr(sb, "</td><td class=\"num v-reg\" data-label=\"delta\">");
	if (!isnan(it->delta_pct))
		strbuf_addf(sb, "%+.2f%%", it->delta_pct);
	strbuf_addstr(sb, "</td>");
	reg_decision(sb, it, row);
	strbuf_addstr(sb, "<td data-label=\"status\">");
	html_txt(sb, it->status);
	strbuf_addstr(sb, "</td></tr>\n");
	free(s.name);
	free(m.workload);
	free(m.variant);
	free(m.metric);
	free(m.env);
}

void ui_regressions_render(const struct fw_ui *ui, const struct fw_regs *all, const struct ui_reg_filter *f,
			   struct strbuf *sb)
{
	struct an_cache ac = { 0 };
	struct ui_envs ev;
	int n = 0;

	ui_envs_load(&ev, ui->db);
	ui_page_begin(sb, ui, "regressions");
	strbuf_addstr(sb, "<h1>Regressions</h1>\n");
	if (!ui->exported) {
		filters(sb, all, f, &ev);
	} else {
		struct ui_reg_filter cur = *f;

		filter_links(sb, ui, all, &cur, &ev);
	}
	for (size_t i = 0; all && i < all->n; i++) {
		const struct fw_reg *it = &all->r[i];

		if (!keep(it, f) || !ui_has_series(ui, it->series))
			continue;
		if (!n++)
			strbuf_addstr(sb, "<table class=\"grid cards\" id=\"regressions\"><thead><tr><th>id</th><th>series</th>"
				      "<th>commit</th><th>metric</th><th>environment</th><th>delta</th>"
				      "<th>before &rarr; after</th><th>decided by</th><th>decided at</th><th>found</th>"
				      "<th>status</th></tr></thead><tbody>\n");
		reg_row(sb, ui, it, &ev, fw_regression_row(analysis_of(&ac, ui->db, it), it));
	}
	strbuf_addstr(sb, n ? "</tbody></table>\n" : "<p class=\"muted\" id=\"none\">No regression matches.</p>\n");
	ui_page_end(sb, ui);
	ui_envs_free(&ev);
	an_cache_free(&ac);
}

/* An empty parameter means "any" (what the form sends for its first option). */
static const char *arg(struct fw_req *r, const char *key, struct strbuf *sb)
{
	return !req_query(r, key, sb) && sb->len ? sb->buf : NULL;
}

enum MHD_Result ui_regressions(struct fw_req *r)
{
	struct strbuf sb = STRBUF_INIT, a[4] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	struct strbuf err = STRBUF_INIT;
	struct ui_reg_filter f;
	struct fw_ui ui = { 0 };
	struct fw_analysis_opts o;
	enum MHD_Result ret;
	struct fw_regs *all = NULL;
	size_t i;

	f.series = arg(r, "series", &a[0]);
	f.status = arg(r, "status", &a[1]);
	f.metric = arg(r, "metric", &a[2]);
	f.env = arg(r, "env", &a[3]);
	for (i = 0; f.status && i < sizeof(statuses) / sizeof(statuses[0]); i++)
		if (!strcmp(f.status, statuses[i]))
			break;
	if (f.status && i == sizeof(statuses) / sizeof(statuses[0])) {
		ret = reply_error(r, 400, "bad_parameter", "status",
				  "status must be one of new, acknowledged, fixed, invalid");
		goto cleanup;
	}
	ui.db = req_db(r);
	fw_ui_analysis_opts(&o);  /* while a new analysis is computed, the list of the one shown */
	if (fw_regressions_refresh(ui.db, NULL, &o, &err) || fw_regressions_of(ui.db, NULL, NULL, &all, &err)) {
		ret = reply_error(r, 503, "db_error", NULL, err.buf);
		goto cleanup;
	}
	ui_regressions_render(&ui, all, &f, &sb);
	ret = reply_buf(r, 200, "text/html; charset=utf-8", &sb, NULL);
cleanup:
	fw_regs_free(all);
	for (i = 0; i < 4; i++)
		strbuf_release(&a[i]);
	strbuf_release(&err);
	return ret;
}
