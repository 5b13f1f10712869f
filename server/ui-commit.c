/*
 * GET /series/{name}/commit/{sha}: everything about one commit: builds
 * (kernel version, config link, log tail), boots (command lines, status,
 * taint, log tail), every result's samples and counters.
 * GET /config/{hash}: a stored .config as text.
 */
#include <stdio.h>
#include <string.h>
#include "routes.h"
#include "html.h"

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

static void pre(struct strbuf *sb, const char *title, const char *text)
{
	strbuf_addstr(sb, "<details><summary>");
	html_txt(sb, title);
	strbuf_addstr(sb, "</summary><pre>");
	html_txt(sb, text);
	strbuf_addstr(sb, "</pre></details>\n");
}

static int builds(struct strbuf *sb, sqlite3 *db, long long cid)
{
	sqlite3_stmt *st = NULL;
	int rc;

	strbuf_addstr(sb, "<h2>Build</h2>\n");
	if (sqlite3_prepare_v2(db, "SELECT b.status, b.seconds, b.kernel_version, b.compiler, b.config_hash,"
			       " b.log_tail, e.host, (SELECT count(*) FROM configs k WHERE k.hash = b.config_hash)"
			       " FROM builds b JOIN environments e ON e.id = b.env_id WHERE b.commit_id = ?1"
			       " ORDER BY b.id", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, cid);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		strbuf_addf(sb, "<table class=\"kv\"><tr><th>status</th><td class=\"%s\">",
			    strcmp(col(st, 0), "ok") ? "bad" : "good");
		html_txt(sb, col(st, 0));
		strbuf_addstr(sb, "</td></tr><tr><th>kernel</th><td>");
		html_txt(sb, col(st, 2));
		strbuf_addstr(sb, "</td></tr><tr><th>host</th><td>");
		html_txt(sb, col(st, 6));
		strbuf_addf(sb, "</td></tr><tr><th>seconds</th><td>%.1f</td></tr><tr><th>compiler</th><td>",
			    sqlite3_column_double(st, 1));
		html_txt(sb, col(st, 3));
		strbuf_addstr(sb, "</td></tr><tr><th>config</th><td class=\"mono\">");
		if (sqlite3_column_int(st, 7)) {
			strbuf_addstr(sb, "<a href=\"/config/");
			html_url_arg(sb, col(st, 4));
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

static int runs(struct strbuf *sb, sqlite3 *db, long long cid)
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
		strbuf_addf(sb, "<tr><th>seconds</th><td>%.1f</td></tr><tr><th>profile</th><td>",
			    sqlite3_column_double(st, 4));
		html_txt(sb, col(st, 8));
		strbuf_addstr(sb, "</td></tr><tr><th>environment</th><td>");
		html_txt(sb, col(st, 11));
		strbuf_addstr(sb, " ");
		html_txt(sb, col(st, 10));
		strbuf_addstr(sb, " <span class=\"mono\">");
		html_txt(sb, col(st, 12));
		strbuf_addstr(sb, "</span></td></tr><tr><th>QEMU</th><td><code>");
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

enum MHD_Result ui_commit(struct fw_req *r)
{
	struct strbuf sb = STRBUF_INIT;
	struct fw_series s;
	const struct fw_commit *c;
	enum MHD_Result ret;
	int ci;

	if (req_series(r, r->args[0], "name", &s, &ret))
		return ret;
	ci = fw_series_find_commit(&s, r->args[1]);
	if (ci < 0) {
		fw_series_free(&s);
		return reply_error(r, 404, "not_found", "sha", "no such commit in this series");
	}
	c = &s.commits[ci];
	html_page_begin(&sb, c->subject);
	strbuf_addstr(&sb, "<p><a href=\"/series/");
	html_url_arg(&sb, s.name);
	strbuf_addstr(&sb, "\">");
	html_txt(&sb, s.name);
	strbuf_addf(&sb, "</a> &middot; commit %d of %d</p>\n<h1>", c->position, s.ncommits);
	html_txt(&sb, c->subject);
	strbuf_addstr(&sb, "</h1>\n<table class=\"kv\"><tr><th>sha</th><td class=\"mono\">");
	html_txt(&sb, c->sha);
	strbuf_addstr(&sb, "</td></tr><tr><th>parent</th><td class=\"mono\">");
	html_txt(&sb, c->parent);
	strbuf_addstr(&sb, "</td></tr><tr><th>author</th><td>");
	html_txt(&sb, c->author);
	strbuf_addstr(&sb, "</td></tr></table>\n");
	if (builds(&sb, req_db(r), c->id) || runs(&sb, req_db(r), c->id)) {
		strbuf_release(&sb);
		fw_series_free(&s);
		return reply_error(r, 503, "db_error", NULL, "cannot read the commit");
	}
	html_page_end(&sb);
	fw_series_free(&s);
	return reply_buf(r, 200, "text/html; charset=utf-8", &sb, NULL);
}

enum MHD_Result ui_config(struct fw_req *r)
{
	sqlite3 *db = req_db(r);
	sqlite3_stmt *st = NULL;
	struct strbuf sb = STRBUF_INIT;
	char etag[80];

	if (!db)
		return reply_error(r, 503, "db_unavailable", NULL, "cannot open the database");
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
