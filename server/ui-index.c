/* GET /: every series with its latest status, newest regressions, environments. */
#include <stdio.h>
#include <string.h>
#include "routes.h"
#include "analysis.h"
#include "html.h"
#include "ui.h"

static void environments(struct strbuf *sb, sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	struct ui_envs ev;

	ui_envs_load(&ev, db);
	/* A focusable region: the table scrolls sideways on a phone and has no link to take the focus. */
	strbuf_addstr(sb, "<h2>Environments</h2>\n<div class=\"scroll\" tabindex=\"0\" role=\"region\" "
		      "aria-label=\"environments\"><table class=\"grid\" id=\"environments\"><thead><tr><th>name</th>"
		      "<th>host</th><th>accel</th><th>vCPUs</th><th>memory</th><th>QEMU</th><th>host kernel</th>"
		      "<th>runs</th></tr></thead><tbody>\n");
	if (sqlite3_prepare_v2(db, "SELECT e.fingerprint, e.host, e.accel, e.vcpus, e.memory_mib, e.qemu_version,"
			       " e.host_kernel, (SELECT count(*) FROM runs r WHERE r.env_id = e.id)"
			       " FROM environments e ORDER BY e.host, e.fingerprint", -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			strbuf_addstr(sb, "<tr><td>");
			ui_env_html(sb, &ev, (const char *)sqlite3_column_text(st, 0));
			strbuf_addstr(sb, "</td><td>");
			html_txt(sb, (const char *)sqlite3_column_text(st, 1));
			strbuf_addstr(sb, "</td><td>");
			html_txt(sb, (const char *)sqlite3_column_text(st, 2));
			strbuf_addf(sb, "</td><td>%d</td><td>%d MiB</td><td>", sqlite3_column_int(st, 3),
				    sqlite3_column_int(st, 4));
			html_txt(sb, (const char *)sqlite3_column_text(st, 5));
			strbuf_addstr(sb, "</td><td>");
			html_txt(sb, (const char *)sqlite3_column_text(st, 6));
			strbuf_addf(sb, "</td><td>%d</td></tr>\n", sqlite3_column_int(st, 7));
		}
	}
	sqlite3_finalize(st);
	strbuf_addstr(sb, "</tbody></table></div>\n");
	ui_envs_free(&ev);
}

static void regressions(struct strbuf *sb, const struct fw_ui *ui, sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int n = 0;

	strbuf_addstr(sb, "<h2>Newest regressions</h2>\n<p><a id=\"all-regressions\" href=\"");
	ui_href_regressions(sb, ui);
	strbuf_addstr(sb, "\">all regressions, with filters</a></p>\n");
	if (sqlite3_prepare_v2(db, "SELECT s.name, g.workload, g.variant, g.metric, c.sha, g.delta_pct, g.status,"
			       " g.env_fingerprint = '" FW_ENV_COMBINED "'"
			       " FROM regressions g JOIN series s ON s.id = g.series_id"
			       " JOIN commits c ON c.id = g.commit_id WHERE g.status IN ('new', 'acknowledged')"
			       /* Newest revision only: commit links lead to the revision the pages show. */
			       " AND s.revision = (SELECT max(t.revision) FROM series t WHERE t.name = s.name)"
			       " ORDER BY g.created_at DESC, g.id DESC LIMIT 10", -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(st, 0);

			/* An export with --series has no pages for the others: no dead links to them. */
			if (!ui_has_series(ui, name))
				continue;
			if (!n++)
				strbuf_addstr(sb, "<ul>\n");
			strbuf_addstr(sb, "<li><a href=\"");
			ui_href_commit(sb, ui, name, (const char *)sqlite3_column_text(st, 4));
			strbuf_addstr(sb, "\">");
			html_txt(sb, (const char *)sqlite3_column_text(st, 0));
			strbuf_addstr(sb, " ");
			html_txt(sb, (const char *)sqlite3_column_text(st, 1));
			strbuf_addch(sb, '/');
			html_txt(sb, (const char *)sqlite3_column_text(st, 2));
			strbuf_addch(sb, '/');
			html_txt(sb, (const char *)sqlite3_column_text(st, 3));
			strbuf_addf(sb, "</a> <span class=\"worse\">%+.2f%%</span>%s (", sqlite3_column_double(st, 5),
				    sqlite3_column_int(st, 7) ? " all hosts" : "");
			html_txt(sb, (const char *)sqlite3_column_text(st, 6));
			strbuf_addstr(sb, ")</li>\n");
		}
	}
	sqlite3_finalize(st);
	strbuf_addstr(sb, n ? "</ul>\n" : "<p class=\"muted\">None recorded (regressions come from the analysis).</p>\n");
}

int ui_index_render(const struct fw_ui *ui, struct strbuf *sb)
{
	sqlite3 *db = ui->db;
	cJSON *list, *it;
	int n = 0;

	list = fw_series_list_json(db);
	if (!list)
		return -1;
	ui_page_begin(sb, ui, "Series");
	strbuf_addstr(sb, "<h1>Series</h1>\n");
	cJSON_ArrayForEach(it, list) {
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(it, "name"));
		const char *last = cJSON_GetStringValue(cJSON_GetObjectItem(it, "last_ingest"));
		int fb = cJSON_GetObjectItem(it, "failed_builds")->valueint;
		int bb = cJSON_GetObjectItem(it, "failed_boots")->valueint;

		if (!name || !ui_has_series(ui, name))
			continue;
		if (!n++)
			strbuf_addstr(sb, "<table class=\"grid\" id=\"series\"><thead><tr><th>series</th><th>rev</th>"
				      "<th>commits</th><th>runs</th><th>failed builds</th><th>bad boots</th>"
				      "<th>last ingest</th></tr></thead><tbody>\n");
		strbuf_addstr(sb, "<tr><td><a href=\"");
		ui_href_series(sb, ui, name);
		strbuf_addstr(sb, "\">");
		html_txt(sb, name);
		strbuf_addf(sb, "</a></td><td>%d</td><td>%d</td><td>%d</td><td class=\"%s\">%d</td>"
			    "<td class=\"%s\">%d</td><td>",
			    cJSON_GetObjectItem(it, "revision")->valueint,
			    cJSON_GetObjectItem(it, "commits")->valueint,
			    cJSON_GetObjectItem(it, "runs")->valueint, fb ? "bad" : "good", fb, bb ? "bad" : "good", bb);
		html_txt(sb, last ? last : "-");
		strbuf_addstr(sb, "</td></tr>\n");
	}
	if (n)
		strbuf_addstr(sb, "</tbody></table>\n");
	else
		strbuf_addstr(sb, "<p class=\"muted\">No runs yet: POST run documents to /api/v1/runs "
			      "or use <code>foliowatch-server import</code>.</p>\n");
	cJSON_Delete(list);
	regressions(sb, ui, db);
	environments(sb, db);
	html_page_end(sb);
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
