/*
 * GET /series/{name}/commit/{sha}: everything about one commit: builds
 * (kernel version, config link, log tail), boots (command lines, status,
 * taint, log tail), every result's samples and counters, and the counters
 * that changed most against the parent (from the analysis rows).
 * GET /config/{hash}: a stored .config as text.
 */
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "routes.h"
#include "html.h"
#include "ui.h"

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

/* A console or build log: its CR of CR LF line ends dropped (they showed as U+FFFD). */
static void pre(struct strbuf *sb, const char *title, const char *text)
{
	struct strbuf t = STRBUF_INIT;

	for (const char *p = text; *p; p++)
		if (*p != '\r')
			strbuf_addch(&t, *p);
	strbuf_addstr(sb, "<details><summary>");
	html_txt(sb, title);
	strbuf_addstr(sb, "</summary><pre>");
	html_txt(sb, t.buf);
	strbuf_addstr(sb, "</pre></details>\n");
	strbuf_release(&t);
}

/* Seconds, or "unknown" when not measured (NULL): never a made-up 0.0. */
static void seconds(struct strbuf *sb, sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		strbuf_addstr(sb, "<span class=\"muted\">unknown</span>");
	else
		strbuf_addf(sb, "%.1f", sqlite3_column_double(st, i));
}

/*
 * One block per kernel config: a build is made once and reused by every
 * environment that boots it (those report it again, with seconds 0), so the
 * longest report is the build and the environments are listed by name.
 */
static int builds(struct strbuf *sb, const struct fw_ui *ui, sqlite3 *db, long long cid,
		  const struct ui_envs *ev)
{
	sqlite3_stmt *st = NULL;
	int rc;

	strbuf_addstr(sb, "<h2>Build</h2>\n");
	if (sqlite3_prepare_v2(db, "SELECT b.status, max(b.seconds), b.kernel_version, b.compiler,"
			       " b.config_hash, b.log_tail, group_concat(e.fingerprint, char(31)),"
			       " (SELECT count(*) FROM configs k WHERE k.hash = b.config_hash)"
			       " FROM builds b JOIN environments e ON e.id = b.env_id WHERE b.commit_id = ?1"
			       " GROUP BY b.config_hash ORDER BY min(b.id)", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, cid);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		strbuf_addf(sb, "<table class=\"kv build\"><tr><th>status</th><td class=\"%s\">",
			    strcmp(col(st, 0), "ok") ? "bad" : "good");
		html_txt(sb, col(st, 0));
		strbuf_addstr(sb, "</td></tr><tr><th>kernel</th><td>");
		html_txt(sb, col(st, 2));
		strbuf_addstr(sb, "</td></tr><tr><th>used by</th><td>");
		for (const char *p = col(st, 6); *p;) {
			size_t n = strcspn(p, "\x1f");
			struct strbuf fp = STRBUF_INIT;

			strbuf_add(&fp, p, n);
			html_txt(sb, ui_env_name(ev, fp.buf));
			strbuf_release(&fp);
			p += n;
			if (*p) {
				strbuf_addstr(sb, "; ");
				p++;
			}
		}
		strbuf_addstr(sb, "</td></tr><tr><th>seconds</th><td>");
		seconds(sb, st, 1);
		strbuf_addstr(sb, "</td></tr><tr><th>compiler</th><td>");
		html_txt(sb, col(st, 3));
		strbuf_addstr(sb, "</td></tr><tr><th>config</th><td class=\"mono\">");
		if (sqlite3_column_int(st, 7)) {
			strbuf_addstr(sb, "<a href=\"");
			ui_href_config(sb, ui, col(st, 4));
			strbuf_addstr(sb, "\">");
			html_txt(sb, col(st, 4));
			strbuf_addstr(sb, "</a>");
		} else {
			html_txt(sb, col(st, 4));
		}
		strbuf_addstr(sb, "</td></tr></table>\n");
		pre(sb, "build log tail", col(st, 5));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static void counters(struct strbuf *sb, sqlite3 *db, long long result_id)
{
	sqlite3_stmt *st = NULL;
	const char *last = NULL;
	struct strbuf prev = STRBUF_INIT;
	int any = 0;

	if (sqlite3_prepare_v2(db, "SELECT name, round, value FROM counters WHERE result_id = ?1"
			       " ORDER BY name, round", -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, result_id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (!any++)
			strbuf_addstr(sb, "<table class=\"grid counters\"><thead><tr><th>counter</th>"
				      "<th>per round</th></tr></thead><tbody>\n");
		last = col(st, 0);
		if (strcmp(prev.buf, last)) {
			if (prev.len)
				strbuf_addstr(sb, "</td></tr>\n");
			strbuf_addstr(sb, "<tr><td class=\"mono\">");
			html_txt(sb, last);
			strbuf_addstr(sb, "</td><td class=\"samples\">");
			strbuf_reset(&prev);
			strbuf_addstr(&prev, last);
		} else {
			strbuf_addch(sb, ' ');
		}
		html_num(sb, sqlite3_column_double(st, 2));
	}
	if (any)
		strbuf_addstr(sb, "</td></tr>\n</tbody></table>\n");
	sqlite3_finalize(st);
	strbuf_release(&prev);
}

static void results(struct strbuf *sb, sqlite3 *db, long long run)
{
	sqlite3_stmt *st = NULL, *ss = NULL;

	if (sqlite3_prepare_v2(db, "SELECT id, workload, variant, metric, unit, params, error FROM results"
			       " WHERE run_id = ?1 ORDER BY workload, variant, metric", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT value FROM samples WHERE result_id = ?1 ORDER BY round",
			       -1, &ss, NULL) != SQLITE_OK)
		goto cleanup;
	sqlite3_bind_int64(st, 1, run);
	while (sqlite3_step(st) == SQLITE_ROW) {
		strbuf_addstr(sb, "<h4>");
		html_txt(sb, col(st, 1));
		strbuf_addch(sb, '/');
		html_txt(sb, col(st, 2));
		strbuf_addch(sb, '/');
		html_txt(sb, col(st, 3));
		strbuf_addstr(sb, " <span class=\"muted\">(");
		html_txt(sb, col(st, 4));
		strbuf_addstr(sb, ") params <code>");
		html_txt(sb, col(st, 5));
		strbuf_addstr(sb, "</code></span></h4>\n");
		if (sqlite3_column_type(st, 6) != SQLITE_NULL) {
			strbuf_addstr(sb, "<p class=\"bad\">error: ");
			html_txt(sb, col(st, 6));
			strbuf_addstr(sb, "</p>\n");
			continue;
		}
		strbuf_addstr(sb, "<p class=\"samples\">samples: ");
		sqlite3_reset(ss);
		sqlite3_bind_int64(ss, 1, sqlite3_column_int64(st, 0));
		while (sqlite3_step(ss) == SQLITE_ROW) {
			html_num(sb, sqlite3_column_double(ss, 0));
			strbuf_addch(sb, ' ');
		}
		strbuf_addstr(sb, "</p>\n");
		counters(sb, db, sqlite3_column_int64(st, 0));
	}
cleanup:
	sqlite3_finalize(st);
	sqlite3_finalize(ss);
}

static int runs(struct strbuf *sb, sqlite3 *db, long long cid, const struct ui_envs *ev)
{
	sqlite3_stmt *st = NULL;
	int rc;

	strbuf_addstr(sb, "<h2>Boots</h2>\n");
	if (sqlite3_prepare_v2(db, "SELECT r.id, r.run_id, r.boot_status, r.taint, r.boot_seconds, r.qemu_cmdline,"
			       " r.kernel_cmdline, r.boot_log_tail, r.profile, r.boot_index, e.accel, e.host,"
			       " e.fingerprint FROM runs r JOIN environments e ON e.id = r.env_id"
			       " WHERE r.commit_id = ?1 ORDER BY r.boot_index, r.id", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, cid);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		strbuf_addstr(sb, "<section class=\"run\"><h3>boot ");
		strbuf_addf(sb, "%d <span class=\"mono muted\">", sqlite3_column_int(st, 9));
		html_txt(sb, col(st, 1));
		strbuf_addf(sb, "</span></h3>\n<table class=\"kv\"><tr><th>status</th><td class=\"%s\">",
			    strcmp(col(st, 2), "ok") ? "bad" : "good");
		html_txt(sb, col(st, 2));
		strbuf_addf(sb, "</td></tr><tr><th>taint</th><td class=\"%s\">%d</td></tr>",
			    sqlite3_column_int(st, 3) ? "bad" : "good", sqlite3_column_int(st, 3));
		strbuf_addstr(sb, "<tr><th>seconds</th><td>");
		seconds(sb, st, 4);
		strbuf_addstr(sb, "</td></tr><tr><th>profile</th><td>");
		html_txt(sb, col(st, 8));
		strbuf_addstr(sb, "</td></tr><tr><th>environment</th><td>");
		ui_env_html(sb, ev, col(st, 12));
		strbuf_addstr(sb, "</td></tr><tr><th>QEMU</th><td><code>");
		html_txt(sb, col(st, 5));
		strbuf_addstr(sb, "</code></td></tr><tr><th>kernel cmdline</th><td><code>");
		html_txt(sb, col(st, 6));
		strbuf_addstr(sb, "</code></td></tr></table>\n");
		pre(sb, "console log tail", col(st, 7));
		results(sb, db, sqlite3_column_int64(st, 0));
		strbuf_addstr(sb, "</section>\n");
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * The analysis rows of this commit against its parent carry the counters that
 * moved most (analysis-counters.c): one table, largest change first per metric.
 */
static void counters_changed(struct strbuf *sb, const struct fw_commit *c, const cJSON *an,
			     const struct ui_envs *ev)
{
	const cJSON *rows = an ? cJSON_GetObjectItemCaseSensitive(an, "rows") : NULL, *row, *k;
	int n = 0, icount_locks = 0;

	strbuf_addstr(sb, "<h2>Counters that changed most against the parent</h2>\n");
	cJSON_ArrayForEach(row, rows) {
		const char *sha = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "sha"));
		const char *against = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "against"));

		if (!sha || strcmp(sha, c->sha) || !against || strcmp(against, "parent"))
			continue;
		cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(row, "counters")) {
			const cJSON *a = cJSON_GetObjectItemCaseSensitive(k, "a");
			const cJSON *b = cJSON_GetObjectItemCaseSensitive(k, "b");
			const cJSON *d = cJSON_GetObjectItemCaseSensitive(k, "delta_pct");
			const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(k, "name"));

			icount_locks |= name && !strncmp(name, "lock_", 5) && !strcmp(fw_json_str(row, "accel", ""), "icount");

			if (!n++)
				strbuf_addstr(sb, "<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"counters\">"
					      "<table class=\"grid\" id=\"counters-changed\"><thead><tr>"
					      "<th>result</th><th>environment</th><th>counter</th><th>parent</th><th>this commit</th>"
					      "<th>delta</th></tr></thead><tbody>\n");
			strbuf_addstr(sb, "<tr><td>");
			html_txt(sb, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "workload")));
			strbuf_addch(sb, '/');
			html_txt(sb, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "variant")));
			strbuf_addch(sb, '/');
			html_txt(sb, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "metric")));
			strbuf_addstr(sb, "</td><td>");
			html_txt(sb, ui_env_name(ev, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "env_fingerprint"))));
			strbuf_addstr(sb, "</td><td class=\"mono\">");
			html_txt(sb, name ? name : "");
			strbuf_addstr(sb, "</td><td class=\"num\">");
			html_num(sb, cJSON_IsNumber(a) ? a->valuedouble : NAN);
			strbuf_addstr(sb, "</td><td class=\"num\">");
			html_num(sb, cJSON_IsNumber(b) ? b->valuedouble : NAN);
			strbuf_addstr(sb, "</td><td class=\"num\">");
			if (cJSON_IsNumber(d))
				strbuf_addf(sb, "%+.2f%%", d->valuedouble);
			strbuf_addstr(sb, "</td></tr>\n");
		}
	}
	if (n)
		strbuf_addstr(sb, "</tbody></table></div>\n");
	if (icount_locks)  /* README "Measuring a series": what icount can and cannot show */
		strbuf_addstr(sb, "<p class=\"note\" id=\"icount-locks\">Lock waits and contention measured under icount: "
			      "one vCPU runs at a time there, so icount cannot show lock contention; read these "
			      "counters as a count of lock round trips, and measure contention under TCG or KVM with "
			      "several vCPUs.</p>\n");
	if (!n)
		strbuf_addstr(sb, an ? "<p class=\"muted\">No counters compared (no parent measured, "
			      "or no counters recorded).</p>\n" : "<p class=\"muted\">not analysed</p>\n");
}

int ui_commit_render(const struct fw_ui *ui, const struct fw_series *s, int ci, const cJSON *an,
		     struct strbuf *sb)
{
	const struct fw_commit *c = &s->commits[ci];
	struct ui_envs ev;
	int ret = -1;

	ui_page_begin(sb, ui, c->subject);
	strbuf_addstr(sb, "<p><a href=\"");
	ui_href_series(sb, ui, s->name);
	strbuf_addstr(sb, "\">");
	html_txt(sb, s->name);
	strbuf_addf(sb, "</a> v%d &middot; commit %d of %d</p>\n<h1>", s->revision, c->position, s->ncommits);
	html_txt(sb, c->subject);
	strbuf_addstr(sb, "</h1>\n<table class=\"kv\"><tr><th>sha</th><td class=\"mono\">");
	html_txt(sb, c->sha);
	strbuf_addstr(sb, "</td></tr><tr><th>parent</th><td class=\"mono\">");
	if (c->parent && *c->parent && fw_series_find_commit(s, c->parent) >= 0) {  /* measured: its page */
		strbuf_addstr(sb, "<a href=\"");
		ui_href_commit(sb, ui, s->name, c->parent);
		strbuf_addstr(sb, "\">");
		html_txt(sb, c->parent);
		strbuf_addstr(sb, "</a>");
	} else {
		html_txt(sb, c->parent);
	}
	strbuf_addstr(sb, "</td></tr><tr><th>author</th><td>");
	html_txt(sb, c->author);
	strbuf_addstr(sb, "</td></tr></table>\n");
	ui_envs_load(&ev, ui->db);
	if (builds(sb, ui, ui->db, c->id, &ev))
		goto cleanup;
	counters_changed(sb, c, an, &ev);
	ui_commit_profiles(sb, ui, s, c, an, &ev);
	if (runs(sb, ui->db, c->id, &ev))
		goto cleanup;
	html_page_end(sb);
	ret = 0;
cleanup:
	ui_envs_free(&ev);
	return ret;
}

enum MHD_Result ui_commit(struct fw_req *r)
{
	struct strbuf sb = STRBUF_INIT;
	struct fw_series s;
	struct fw_ui ui = { 0 };
	enum MHD_Result ret;
	cJSON *an;
	int ci;

	if (req_series(r, r->args[0], "name", &s, &ret))
		return ret;
	ci = req_commit(r, &s, "sha", r->args[1], &ret);
	if (ci < 0) {
		fw_series_free(&s);
		return ret;
	}
	ui.db = req_db(r);
	ui.revision = req_revision(r);
	an = req_analysis(r, s.name, s.revision);
	if (ui_commit_render(&ui, &s, ci, an, &sb)) {
		strbuf_release(&sb);
		ret = reply_error(r, 503, "db_error", NULL, "cannot read the commit");
	} else {
		ret = reply_buf(r, 200, "text/html; charset=utf-8", &sb, NULL);
	}
	cJSON_Delete(an);
	fw_series_free(&s);
	return ret;
}

enum MHD_Result ui_config(struct fw_req *r)
{
	sqlite3 *db = req_db(r);
	sqlite3_stmt *st = NULL;
	struct strbuf sb = STRBUF_INIT;
	char etag[80];

	if (sqlite3_prepare_v2(db, "SELECT body FROM configs WHERE hash = ?1", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return reply_error(r, 503, "db_error", NULL, sqlite3_errmsg(db));
	}
	sqlite3_bind_text(st, 1, r->args[0], -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return reply_error(r, 404, "not_found", "hash", "no such config");
	}
	strbuf_addstr(&sb, col(st, 0));
	sqlite3_finalize(st);
	/* The hash is the content's sha256: a perfect ETag (validated hex, so safe in a header). */
	snprintf(etag, sizeof(etag), "\"%.64s\"", strspn(r->args[0], "0123456789abcdef") == strlen(r->args[0])
		 ? r->args[0] : "x");
	return reply_buf(r, 200, "text/plain; charset=utf-8", &sb, etag);
}
