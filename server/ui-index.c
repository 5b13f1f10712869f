/* GET /: every series with its latest status, newest regressions, environments. */
#include <stdio.h>
#include <string.h>
#include "routes.h"
#include "analysis.h"
#include "html.h"
#include "store.h"
#include "ui.h"

struct env_rows {
	struct strbuf *sb;
	struct ui_envs ev;
};

static int env_row(const struct fw_store_env_info *e, void *ctx)
{
	struct env_rows *t = ctx;
	struct strbuf *sb = t->sb;

	strbuf_addstr(sb, "<tr><td>");
	ui_env_html(sb, &t->ev, e->fingerprint);
	strbuf_addstr(sb, "</td><td>");
	html_txt(sb, e->host);
	strbuf_addstr(sb, "</td><td>");
	html_txt(sb, e->accel);
	strbuf_addf(sb, "</td><td>%d</td><td>%d MiB</td><td>", e->vcpus, e->memory_mib);
	html_txt(sb, e->qemu_version);
	strbuf_addstr(sb, "</td><td>");
	html_txt(sb, e->host_kernel);
	strbuf_addf(sb, "</td><td>%d</td></tr>\n", e->runs);
	return 0;
}

static void environments(struct strbuf *sb, sqlite3 *db)
{
	struct env_rows t = { .sb = sb };

	ui_envs_load(&t.ev, db);
	/* A focusable region: the table scrolls sideways on a phone and has no link to take the focus. */
	strbuf_addstr(sb, "<h2>Environments</h2>\n<div class=\"scroll\" tabindex=\"0\" role=\"region\" "
		      "aria-label=\"environments\"><table class=\"grid\" id=\"environments\"><thead><tr><th>name</th>"
		      "<th>host</th><th>accel</th><th>vCPUs</th><th>memory</th><th>QEMU</th><th>host kernel</th>"
		      "<th>runs</th></tr></thead><tbody>\n");
	fw_store_env_table(db, env_row, &t);
	strbuf_addstr(sb, "</tbody></table></div>\n");
	ui_envs_free(&t.ev);
}

struct regression_items {
	struct strbuf *sb;
	const struct fw_ui *ui;
	int n;
};

static int regression_item(const struct fw_store_regression_brief *g, void *ctx)
{
	struct regression_items *t = ctx;
	struct strbuf *sb = t->sb;

	/* An export with --series has no pages for the others: no dead links to them. */
	if (!ui_has_series(t->ui, g->series))
		return 0;
	if (!t->n++)
		strbuf_addstr(sb, "<ul>\n");
	strbuf_addstr(sb, "<li><a href=\"");
	ui_href_commit(sb, t->ui, g->series, g->sha);
	strbuf_addstr(sb, "\">");
	html_txt(sb, g->series);
	strbuf_addstr(sb, " ");
	html_wvm(sb, g->workload, g->variant, g->metric);
	strbuf_addf(sb, "</a> <span class=\"worse\">%+.2f%%</span>%s (", g->delta_pct,
		    strcmp(g->env_fingerprint, FW_ENV_COMBINED) ? "" : " all hosts");
	html_txt(sb, g->status);
	strbuf_addstr(sb, ")</li>\n");
	return 0;
}

static void regressions(struct strbuf *sb, const struct fw_ui *ui, sqlite3 *db)
{
	struct regression_items t = { .sb = sb, .ui = ui };

	strbuf_addstr(sb, "<h2>Newest regressions</h2>\n<p><a id=\"all-regressions\" href=\"");
	ui_href_regressions(sb, ui);
	strbuf_addstr(sb, "\">all regressions, with filters</a></p>\n");
	fw_store_open_regressions(db, 10, regression_item, &t);
	strbuf_addstr(sb, t.n ? "</ul>\n" : "<p class=\"muted\">None recorded (regressions come from the analysis).</p>\n");
}

struct series_rows {
	struct strbuf *sb;
	const struct fw_ui *ui;
	int n;
};

static int series_row(const struct fw_store_series_summary *s, void *ctx)
{
	struct series_rows *t = ctx;
	struct strbuf *sb = t->sb;

	if (!ui_has_series(t->ui, s->name))
		return 0;
	if (!t->n++)
		strbuf_addstr(sb, "<table class=\"grid\" id=\"series\"><thead><tr><th>series</th><th>rev</th>"
			      "<th>commits</th><th>runs</th><th>failed builds</th><th>bad boots</th>"
			      "<th>last ingest</th></tr></thead><tbody>\n");
	strbuf_addstr(sb, "<tr><td><a href=\"");
	ui_href_series(sb, t->ui, s->name);
	strbuf_addstr(sb, "\">");
	html_txt(sb, s->name);
	strbuf_addf(sb, "</a></td><td>%d</td><td>%d</td><td>%d</td><td class=\"%s\">%d</td>"
		    "<td class=\"%s\">%d</td><td>", s->revision, s->commits, s->runs,
		    s->failed_builds ? "bad" : "good", s->failed_builds, s->failed_boots ? "bad" : "good",
		    s->failed_boots);
	html_txt(sb, s->last_ingest ? s->last_ingest : "-");
	strbuf_addstr(sb, "</td></tr>\n");
	return 0;
}

int ui_index_render(const struct fw_ui *ui, struct strbuf *sb)
{
	struct series_rows t = { .sb = sb, .ui = ui };
	struct strbuf rows = STRBUF_INIT;

	/* the rows first: a DB error leaves sb as it was */
	t.sb = &rows;
	if (fw_store_series_list(ui->db, series_row, &t)) {
		strbuf_release(&rows);
		return -1;
	}
	ui_page_begin(sb, ui, "Series");
	strbuf_addstr(sb, "<h1>Series</h1>\n");
	strbuf_add(sb, rows.buf, rows.len);
	strbuf_release(&rows);
	if (t.n)
		strbuf_addstr(sb, "</tbody></table>\n");
	else
		strbuf_addstr(sb, "<p class=\"muted\">No runs yet: POST run documents to /api/v1/runs "
			      "or use <code>foliowatch-server import</code>.</p>\n");
	regressions(sb, ui, ui->db);
	environments(sb, ui->db);
	ui_page_end(sb, ui);
	return 0;
}

enum MHD_Result ui_index(struct fw_req *r)
{
	struct strbuf sb = STRBUF_INIT;
	struct fw_ui ui = { 0 };

	ui.db = req_db(r);
	if (ui_index_render(&ui, &sb)) {
		strbuf_release(&sb);
		return reply_error(r, 503, "db_error", NULL, "cannot read the series");
	}
	return reply_buf(r, 200, "text/html; charset=utf-8", &sb, NULL);
}
