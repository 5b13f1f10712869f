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
#include "fw-db.h"
#include "html.h"
#include "store.h"
#include "ui.h"
#include "store-analysis.h"

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

/* Seconds, or "unknown" when not measured: never a made-up 0.0. */
static void seconds(struct strbuf *sb, double v)
{
	if (isnan(v))
		strbuf_addstr(sb, "<span class=\"muted\">unknown</span>");
	else
		strbuf_addf(sb, "%.1f", v);
}

struct commit_page {
	struct strbuf *sb;
	const struct fw_ui *ui;
	const struct ui_envs *ev;
	sqlite3 *db;
	struct strbuf prev;  /* counters: the name of the row being written */
	int any;
};

/* The environments (char 31 between fingerprints) by name, "; " between. */
static void env_names(struct strbuf *sb, const struct ui_envs *ev, const char *list)
{
	for (const char *p = list; *p;) {
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
}

/*
 * One block per kernel config: a build is made once and reused by every
 * environment that boots it (those report it again, with seconds 0), so the
 * longest report is the build and the environments are listed by name.
 */
static int build_block(const struct fw_store_build *b, void *ctx)
{
	struct commit_page *pg = ctx;
	struct strbuf *sb = pg->sb;

	strbuf_addf(sb, "<table class=\"kv build\"><tr><th>status</th><td class=\"%s\">",
		    strcmp(b->status, "ok") ? "bad" : "good");
	html_txt(sb, b->status);
	strbuf_addstr(sb, "</td></tr><tr><th>kernel</th><td>");
	html_txt(sb, b->kernel_version);
	strbuf_addstr(sb, "</td></tr><tr><th>used by</th><td>");
	env_names(sb, pg->ev, b->env_fingerprints);
	strbuf_addstr(sb, "</td></tr><tr><th>seconds</th><td>");
	seconds(sb, b->seconds);
	strbuf_addstr(sb, "</td></tr><tr><th>compiler</th><td>");
	html_txt(sb, b->compiler);
	strbuf_addstr(sb, "</td></tr><tr><th>config</th><td class=\"mono\">");
	if (b->config_stored) {
		strbuf_addstr(sb, "<a href=\"");
		ui_href_config(sb, pg->ui, b->config_hash);
		strbuf_addstr(sb, "\">");
		html_txt(sb, b->config_hash);
		strbuf_addstr(sb, "</a>");
	} else {
		html_txt(sb, b->config_hash);
	}
	strbuf_addstr(sb, "</td></tr></table>\n");
	pre(sb, "build log tail", b->log_tail);
	return 0;
}

static int builds(struct commit_page *pg, long long cid)
{
	strbuf_addstr(pg->sb, "<h2>Build</h2>\n");
	return fw_store_commit_builds(pg->db, cid, build_block, pg);
}

/* One counter value: a new row for a new name, else the next round beside the last. */
static int counter_cell(const struct fw_store_counter *c, void *ctx)
{
	struct commit_page *pg = ctx;
	struct strbuf *sb = pg->sb;

	if (!pg->any++)
		strbuf_addstr(sb, "<table class=\"grid counters\"><thead><tr><th>counter</th>"
			      "<th>per round</th></tr></thead><tbody>\n");
	if (strcmp(pg->prev.buf, c->name)) {
		if (pg->prev.len)
			strbuf_addstr(sb, "</td></tr>\n");
		strbuf_addstr(sb, "<tr><td class=\"mono\">");
		html_txt(sb, c->name);
		strbuf_addstr(sb, "</td><td class=\"samples\">");
		strbuf_reset(&pg->prev);
		strbuf_addstr(&pg->prev, c->name);
	} else {
		strbuf_addch(sb, ' ');
	}
	html_num(sb, c->value);
	return 0;
}

static void counters(struct commit_page *pg, long long result_id)
{
	pg->any = 0;
	strbuf_reset(&pg->prev);
	fw_store_result_counters(pg->db, result_id, counter_cell, pg);
	if (pg->any)
		strbuf_addstr(pg->sb, "</td></tr>\n</tbody></table>\n");
}

static int result_block(const struct fw_store_result *r, void *ctx)
{
	struct commit_page *pg = ctx;
	struct strbuf *sb = pg->sb;

	strbuf_addstr(sb, "<h4>");
	html_wvm(sb, r->workload, r->variant, r->metric);
	strbuf_addstr(sb, " <span class=\"muted\">(");
	html_txt(sb, r->unit);
	strbuf_addstr(sb, ") params <code>");
	html_txt(sb, r->params);
	strbuf_addstr(sb, "</code></span></h4>\n");
	if (r->error) {
		strbuf_addstr(sb, "<p class=\"bad\">error: ");
		html_txt(sb, r->error);
		strbuf_addstr(sb, "</p>\n");
		return 0;
	}
	strbuf_addstr(sb, "<p class=\"samples\">samples: ");
	for (int i = 0; i < r->nsamples; i++) {
		html_num(sb, r->samples[i]);
		strbuf_addch(sb, ' ');
	}
	strbuf_addstr(sb, "</p>\n");
	counters(pg, r->id);
	return 0;
}

static int boot_block(const struct fw_store_boot *b, void *ctx)
{
	struct commit_page *pg = ctx;
	struct strbuf *sb = pg->sb;

	strbuf_addstr(sb, "<section class=\"run\"><h3>boot ");
	strbuf_addf(sb, "%d <span class=\"mono muted\">", b->boot_index);
	html_txt(sb, b->run_id);
	strbuf_addf(sb, "</span></h3>\n<table class=\"kv\"><tr><th>status</th><td class=\"%s\">",
		    strcmp(b->status, "ok") ? "bad" : "good");
	html_txt(sb, b->status);
	strbuf_addf(sb, "</td></tr><tr><th>taint</th><td class=\"%s\">%d</td></tr>",
		    b->taint ? "bad" : "good", b->taint);
	strbuf_addstr(sb, "<tr><th>seconds</th><td>");
	seconds(sb, b->seconds);
	strbuf_addstr(sb, "</td></tr><tr><th>profile</th><td>");
	html_txt(sb, b->profile);
	strbuf_addstr(sb, "</td></tr><tr><th>environment</th><td>");
	ui_env_html(sb, pg->ev, b->env_fingerprint);
	strbuf_addstr(sb, "</td></tr><tr><th>QEMU</th><td><code>");
	html_txt(sb, b->qemu_cmdline);
	strbuf_addstr(sb, "</code></td></tr><tr><th>kernel cmdline</th><td><code>");
	html_txt(sb, b->kernel_cmdline);
	strbuf_addstr(sb, "</code></td></tr></table>\n");
	pre(sb, "console log tail", b->log_tail);
	fw_store_run_results(pg->db, b->id, result_block, pg);
	strbuf_addstr(sb, "</section>\n");
	return 0;
}

/* Every boot's samples: the raw data under the verdicts, folded (about 13,000 px open on the demo). */
static int runs(struct commit_page *pg, long long cid)
{
	int ret;

	strbuf_addstr(pg->sb, "<h2>Boots</h2>\n<details id=\"boots\"><summary>every boot of this commit, "
		      "its samples and counters</summary>\n");
	ret = fw_store_commit_boots(pg->db, cid, boot_block, pg);
	strbuf_addstr(pg->sb, "</details>\n");
	return ret;
}

/*
 * The analysis rows of this commit against its parent carry the counters that
 * moved most (analysis-counters.c): one table, largest change first per metric.
 */
static void counters_changed(struct strbuf *sb, const struct fw_commit *c, const struct fw_an *an,
			     const struct ui_envs *ev)
{
	int n = 0, icount_locks = 0, parent = 0;

	strbuf_addstr(sb, "<h2>Counters that changed most against the parent</h2>\n");
	for (size_t i = 0; an && i < an->nrows; i++) {
		const struct fw_an_row *row = &an->rows[i];

		if (strcmp(row->sha, c->sha) || row->against != FW_AGAINST_PARENT)
			continue;
		parent = 1;
		for (size_t j = 0; j < row->ncounters; j++) {
			const struct fw_an_counter *k = &row->counters[j];
			const char *name = k->name;

			icount_locks |= !strncmp(name, "lock_", 5) && !strcmp(row->accel, "icount");

			if (!n++)
				strbuf_addstr(sb, "<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"counters\">"
					      "<table class=\"grid\" id=\"counters-changed\"><thead><tr>"
					      "<th>result</th><th>environment</th><th>counter</th><th>parent</th><th>this commit</th>"
					      "<th>delta</th><th>its own test</th></tr></thead><tbody>\n");
			strbuf_addstr(sb, "<tr><td>");
			html_wvm(sb, row->workload, row->variant, row->metric);
			strbuf_addstr(sb, "</td><td>");
			html_txt(sb, ui_env_name(ev, row->env));
			strbuf_addstr(sb, "</td><td class=\"mono\">");
			html_txt(sb, name);
			strbuf_addstr(sb, "</td><td class=\"num\">");
			html_num(sb, k->a);
			strbuf_addstr(sb, "</td><td class=\"num\">");
			html_num(sb, k->b);
			strbuf_addstr(sb, "</td><td class=\"num\">");
			if (!isnan(k->delta_pct))
				strbuf_addf(sb, "%+.2f%%", k->delta_pct);
			/* moved: every value of one commit beyond the other's (analysis-counters.c) */
			strbuf_addstr(sb, k->moved ? "</td><td>moved</td></tr>\n"
				      : "</td><td class=\"muted\">not shown to move (values overlap, or under 3 a side)"
					"</td></tr>\n");
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
		strbuf_addstr(sb, !an ? "<p class=\"muted\">not analysed</p>\n" :
			      !parent ? "<p class=\"muted\">No parent measured: nothing to compare.</p>\n" :
			      "<p class=\"muted\">No counter moved against the parent (or none was recorded).</p>\n");
}

int ui_commit_render(const struct fw_ui *ui, const struct fw_series *s, int ci, const struct fw_an *an,
		     struct strbuf *sb)
{
	const struct fw_commit *c = &s->commits[ci];
	struct ui_envs ev;
	struct commit_page pg = { .sb = sb, .ui = ui, .ev = &ev, .db = ui->db, .prev = STRBUF_INIT };
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
	ui_commit_verdicts(sb, ui, s, c, an, &ev);
	if (builds(&pg, c->id))
		goto cleanup;
	counters_changed(sb, c, an, &ev);
	ui_commit_bisects(sb, ui->db, s->name, c->sha);
	ui_commit_profiles(sb, ui, s, c, an, &ev);
	if (runs(&pg, c->id))
		goto cleanup;
	ui_page_end(sb, ui);
	ret = 0;
cleanup:
	strbuf_release(&pg.prev);
	ui_envs_free(&ev);
	return ret;
}

enum MHD_Result ui_commit(struct fw_req *r)
{
	struct strbuf sb = STRBUF_INIT;
	struct fw_series s;
	struct fw_ui ui = { 0 };
	struct fw_series_only none = { NULL, 0, { 0, 0 } };  /* the commits first, to find the sha */
	enum MHD_Result ret;
	struct fw_an *an;
	int ci;

	if (req_series_only(r, r->args[0], "name", &none, &s, &ret))
		return ret;
	ci = req_commit(r, &s, "sha", r->args[1], &ret);
	if (ci >= 0) {
		/* the samples of this commit and the one before it */
		struct fw_series_only two = { NULL, 2, { s.commits[ci ? ci - 1 : ci].position, s.commits[ci].position } };
		if (req_series_samples(r, &s, &two, &ret))
			ci = -1;
	}
	if (ci < 0) {
		fw_series_free(&s);
		return ret;
	}
	ui.db = req_db(r);
	ui.revision = req_revision(r);
	{
		/* the rows of this commit (against its parent and the base) only */
		struct fw_store_cache_part part = { s.commits[ci].position, s.commits[ci].position, NULL, 0 };
		an = fw_ui_analysis_part(ui.db, s.name, s.revision, &part);
	}
	if (ui_commit_render(&ui, &s, ci, an, &sb)) {
		strbuf_release(&sb);
		ret = reply_error(r, 503, "db_error", NULL, "cannot read the commit");
	} else {
		ret = reply_buf(r, 200, "text/html; charset=utf-8", &sb, NULL);
	}
	fw_an_free(an);
	fw_series_free(&s);
	return ret;
}

enum MHD_Result ui_config(struct fw_req *r)
{
	sqlite3 *db = req_db(r);
	struct strbuf sb = STRBUF_INIT;
	char etag[80];
	int found = fw_store_config(db, r->args[0], &sb);

	if (found != 1) {
		strbuf_release(&sb);
		return found ? reply_error(r, 503, "db_error", NULL, fw_db_errmsg(db))
			     : reply_error(r, 404, "not_found", "hash", "no such config");
	}
	/* The hash is the content's sha256: a perfect ETag (validated hex, so safe in a header). */
	snprintf(etag, sizeof(etag), "\"%.64s\"", strspn(r->args[0], "0123456789abcdef") == strlen(r->args[0])
		 ? r->args[0] : "x");
	return reply_buf(r, 200, "text/plain; charset=utf-8", &sb, etag);
}
