/*
 * GET /series/{name}/compare[?base=SHA&head=SHA&revision=N&base_revision=M]:
 * any two commits of a series, of one revision or two (v1 against v2), side
 * by side (LNT's run comparison, Perfherder's compare view): per metric and
 * environment the two medians, delta % and the analysis code's verdict
 * (fw_analysis_compare, as GET /api/v1/compare, which takes the same
 * parameters). The head is looked up in revision N (default newest), the base
 * in M (default N). Without base/head: in one revision its first commit
 * against its last; across two, tip against tip. Links pick the revision of
 * each side, a form the commits (no JavaScript).
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

/* One side: its commit (linked in its own revision when pinned) and which revision it is of. */
static void side(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, int c, const char *what,
		 int pin)
{
	struct fw_ui own = *ui;

	own.revision = pin ? s->revision : 0;
	strbuf_addf(sb, "<li>%s: <a class=\"mono\" href=\"", what);
	ui_href_commit(sb, &own, s->name, s->commits[c].sha);
	strbuf_addstr(sb, "\">");
	html_txt(sb, s->commits[c].sha);
	strbuf_addstr(sb, "</a> ");
	html_txt(sb, s->commits[c].subject);
	strbuf_addf(sb, " <span class=\"muted\">v%d</span></li>\n", s->revision);
}

/* Server only: links that set one side's revision (the commits go back to their defaults). */
static void revision_links(struct strbuf *sb, const struct fw_series *bs, const struct fw_series *s,
			   const int *revs, int nrev)
{
	strbuf_addstr(sb, "<nav aria-label=\"revisions\" id=\"revpick\">");
	for (int k = 0; k < 2; k++) {
		int cur = k ? s->revision : bs->revision;

		strbuf_addf(sb, "<ul class=\"selector\" id=\"%s-revisions\"><li>%s revision:</li>", k ? "head" : "base",
			    k ? "head" : "base");
		for (int i = 0; i < nrev; i++) {
			if (revs[i] == cur) {
				strbuf_addf(sb, "<li><strong aria-current=\"page\">v%d</strong></li>", cur);
				continue;
			}
			strbuf_addstr(sb, "<li><a href=\"/series/");
			html_url_arg(sb, s->name);
			strbuf_addf(sb, "/compare?revision=%d&amp;base_revision=%d\">v%d</a></li>", k ? revs[i] : s->revision,
				    k ? bs->revision : revs[i], revs[i]);
		}
		strbuf_addstr(sb, "</ul>");
	}
	strbuf_addstr(sb, "</nav>\n");
}

/* The base side's cell of head metric m: across revisions found by full names and environment. */
static const struct fw_cell *base_cell(const struct fw_series *bs, const struct fw_series *s,
				       const struct fw_metric *m, int bi)
{
	static const struct fw_cell none = { .median = NAN };
	struct strbuf wvm = STRBUF_INIT;
	int bm;

	if (bs == s)
		return &m->cells[bi];
	strbuf_addf(&wvm, "%s/%s/%s", m->workload, m->variant, m->metric);
	bm = fw_series_find_metric(bs, wvm.buf, m->env, 0);
	strbuf_release(&wvm);
	return bm >= 0 ? &bs->metrics[bm].cells[bi] : &none;
}

/*
 * Where the decision is made, its evidence (issue 29): the interval of the
 * shift, boots a side, and what decided it: the mode with its floor, or the
 * rank test's p and q.
 */
static void confidence(struct strbuf *sb, const struct fw_an_row *r)
{
	const char *mode = r ? r->mode : "";
	double lo = r ? r->ci_lo_pct : NAN, hi = r ? r->ci_hi_pct : NAN;

	strbuf_addstr(sb, "<td class=\"num\" data-label=\"interval\">");
	if (!isnan(lo) && !isnan(hi))
		strbuf_addf(sb, "[%+.2f%%,&nbsp;%+.2f%%]", lo, hi);
	strbuf_addstr(sb, "</td><td class=\"num\" data-label=\"boots\">");
	if (r)
		strbuf_addf(sb, "%.0f/%.0f", fw_an_whole(r->a.boots), fw_an_whole(r->b.boots));
	strbuf_addstr(sb, "</td><td data-label=\"decided by\">");
	if (r && strcmp(mode, "rank"))
		strbuf_addf(sb, "%s, floor %.2f%%", !strcmp(mode, "exact") ? "exact count" : mode, r->floor_pct);
	else if (r)
		strbuf_addf(sb, "rank test, p %.2g, q %.2g", r->p, r->q);
	strbuf_addstr(sb, "</td>");
}

static void row(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, const struct fw_metric *m,
		const struct fw_cell *b, int hi, const struct fw_an_row *r, const struct ui_envs *ev)
{
	const struct fw_cell *h = &m->cells[hi];
	const char *v = r ? r->verdict : NULL;
	/* the analysis' numbers of this comparison (one truth); own medians where it has no row */
	double d = r ? r->delta_pct : NAN;

	if (!b->n && !h->n)
		return;
	/* data-label: the column's name, shown before the value when a phone stacks the row (style.css) */
	strbuf_addstr(sb, "<tr><td class=\"card-title\"><a href=\"");
	ui_href_metric(sb, ui, s, m);
	strbuf_addstr(sb, "\">");
	html_name(sb, m->id);
	strbuf_addstr(sb, "</a></td><td data-label=\"environment\">");
	html_txt(sb, ui_env_name(ev, m->env));
	strbuf_addstr(sb, "</td><td data-label=\"unit\">");
	html_txt(sb, m->unit);
	strbuf_addstr(sb, "</td><td class=\"num\" data-label=\"base median\">");
	html_num(sb, r && !isnan(r->a.median) ? r->a.median : b->median);
	strbuf_addstr(sb, "</td><td class=\"num\" data-label=\"head median\">");
	html_num(sb, r && !isnan(r->b.median) ? r->b.median : h->median);
	strbuf_addstr(sb, "</td><td class=\"num\" data-label=\"delta\">");
	if (!isnan(d))
		strbuf_addf(sb, "%+.2f%%", d);
	strbuf_addstr(sb, "</td>");
	confidence(sb, r);
	strbuf_addf(sb, "<td class=\"v-%s\" data-label=\"verdict\">", ui_verdict_class(v));
	html_txt(sb, v ? v : "not analysed");
	ui_decided(sb, r);
	strbuf_addstr(sb, "</td></tr>\n");
}

static int verdict_rank(const struct fw_an_row *r)
{
	return !r ? 4 : r->v == FW_REGRESSION ? 0 : r->v == FW_IMPROVEMENT ? 1 : r->v == FW_UNSURE ? 2 : 3;
}

void ui_compare_render(const struct fw_ui *ui, const struct fw_series *bs, const struct fw_series *s, int bi,
		       int hi, const struct fw_an *an, struct strbuf *sb)
{
	struct fw_an_index *ix = an_index_new(an);
	struct ui_envs ev;
	int *revs = NULL, nrev = ui->exported || !ui->db ? 0 : fw_series_revisions(ui->db, s->name, &revs);

	ui_envs_load(&ev, ui->db);
	ui_page_begin(sb, ui, "compare");
	strbuf_addstr(sb, "<p><a href=\"");
	ui_href_series(sb, ui, s->name);
	strbuf_addstr(sb, "\">");
	html_txt(sb, s->name);
	strbuf_addf(sb, "</a> v%d</p>\n<h1>Compare two commits</h1>\n", s->revision);
	if (nrev > 1)
		revision_links(sb, bs, s, revs, nrev);
	strbuf_addstr(sb, "<ul id=\"sides\">\n");
	side(sb, ui, bs, bi, "base", ui->revision > 0 || bs != s);
	side(sb, ui, s, hi, "head", ui->revision > 0 || bs != s);
	strbuf_addstr(sb, "</ul>\n");
	if (!ui->exported) {
		strbuf_addstr(sb, "<form class=\"filters\" method=\"get\" action=\"\">");
		commit_select(sb, bs, "base", bi);
		commit_select(sb, s, "head", hi);
		if (ui->revision > 0 || bs != s)
			strbuf_addf(sb, "<input type=\"hidden\" name=\"revision\" value=\"%d\">", s->revision);
		if (bs != s)
			strbuf_addf(sb, "<input type=\"hidden\" name=\"base_revision\" value=\"%d\">", bs->revision);
		strbuf_addstr(sb, "<button type=\"submit\">compare</button></form>\n");
	}
	ui_matrix_legend(sb);
	strbuf_addstr(sb, "<table class=\"grid cards\" id=\"compare\"><thead><tr><th>metric</th><th>environment</th>"
		      "<th>unit</th><th>base median</th><th>head median</th><th>delta</th><th>interval</th>"
		      "<th>boots</th><th>decided by</th><th>verdict</th>"
		      "</tr></thead><tbody>\n");
	/* what moved first: regressions, improvements, unsure, no change, not analysed */
	for (int rank = 0; rank < 5; rank++)
		for (int i = 0; i < s->nmetrics; i++) {
			const struct fw_an_row *r = an_index_row(ix, s->commits[hi].sha, &s->metrics[i]);

			if (verdict_rank(r) == rank)
				row(sb, ui, s, &s->metrics[i], base_cell(bs, s, &s->metrics[i], bi), hi, r, &ev);
		}
	strbuf_addstr(sb, "</tbody></table>\n");
	ui_page_end(sb, ui);
	an_index_free(ix);
	ui_envs_free(&ev);
	free(revs);
}

/*
 * One truth (issue 28): when the series' own analysis compared head with
 * base (its parent, or the base of the series), its rows, so the compare page
 * and answer say what the series page says (MDE, boots needed, floor); the
 * rows of those two commits only. NULL when it has none.
 */
static struct fw_an *series_rows(sqlite3 *db, const struct fw_series *s, int bi, int hi)
{
	struct fw_store_cache_part part = { s->commits[hi].position, s->commits[hi].position, NULL, 0 };
	struct fw_an *an = fw_ui_analysis_part(db, s->name, s->revision, &part);

	if (an && !fw_an_keep_comparison(an, s->commits[hi].sha, s->commits[bi].sha)) {
		fw_an_free(an);
		an = NULL;
	}
	return an;
}

/* The analysis of base commit bi (of bs) against head hi (of s); NULL when none. */
struct fw_an *ui_compare_analysis(sqlite3 *db, const struct fw_series *bs, const struct fw_series *s, int bi,
				  int hi)
{
	struct fw_analysis_opts o;
	struct strbuf err = STRBUF_INIT;
	struct fw_an *an = NULL;

	if (bs->revision == s->revision && !strcmp(bs->name, s->name) && (an = series_rows(db, s, bi, hi)))
		return an;
	fw_analysis_opts_init(&o);
	o.use_cache = 1;
	if (bs->commits[bi].id == s->commits[hi].id ||
	    fw_analysis_compare(db, bs->commits[bi].id, s->commits[hi].id, &o, &an, &err))
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
		i = req_commit(r, s, field, sha.buf, ret);
	}
	strbuf_release(&sha);
	return i;
}

/* ?base_revision=M: *bs is s (none asked, or the same) or loaded into own (*owned set). */
static int base_series(struct fw_req *r, const struct fw_series *s, struct fw_series *own,
		       const struct fw_series **bs, int *owned, enum MHD_Result *ret)
{
	struct strbuf err = STRBUF_INIT;
	int rev = req_revision_arg(r, "base_revision"), rc;

	*bs = s;
	if (rev < 0) {
		*ret = reply_error(r, 400, "bad_parameter", "base_revision", "base_revision must be a positive number");
		return -1;
	}
	if (!rev || rev == s->revision)
		return 0;
	rc = fw_series_load_rev(req_db(r), s->name, rev, own, &err);
	if (!rc)
		fw_series_levels(own);
	if (rc == 1)
		*ret = reply_error(r, 404, "not_found", "base_revision", "base_revision names no revision of this series");
	else if (rc < 0)
		*ret = reply_error(r, 503, "db_error", NULL, err.buf);
	else if (!own->ncommits)
		*ret = reply_error(r, 404, "not_found", "base_revision", "the base_revision has no commits");
	strbuf_release(&err);
	if (rc == 0)
		*owned = 1, *bs = own;
	return rc || !own->ncommits ? -1 : 0;
}

int compare_samples(struct fw_req *r, const struct fw_series *bs, struct fw_series *s, int bi, int hi,
		    enum MHD_Result *ret)
{
	struct fw_series_only two = { NULL, 2, { s->commits[hi].position, s->commits[hi].position } };

	if (bs == s)
		two.pos[0] = s->commits[bi].position;
	return req_series_samples(r, s, &two, ret);
}

enum MHD_Result ui_compare(struct fw_req *r)
{
	struct fw_series_only none = { NULL, 0, { 0, 0 } };  /* the commits first, to find the two */
	struct strbuf sb = STRBUF_INIT;
	struct fw_series s, bs_own;
	const struct fw_series *bs;
	struct fw_ui ui = { 0 };
	enum MHD_Result ret;
	struct fw_an *an = NULL;
	int bi, hi, owned = 0;

	if (req_series_only(r, r->args[0], "name", &none, &s, &ret))
		return ret;
	if (!s.ncommits) {
		ret = reply_error(r, 404, "not_found", "name", "the series has no commits");
		goto cleanup;
	}
	if (base_series(r, &s, &bs_own, &bs, &owned, &ret))
		goto cleanup;
	/* Across revisions the default is tip against tip (what changed from v1 to v2). */
	if ((bi = side_arg(r, bs, "base", bs == &s ? 0 : bs->ncommits - 1, &ret)) < 0 ||
	    (hi = side_arg(r, &s, "head", s.ncommits - 1, &ret)) < 0 ||
	    compare_samples(r, bs, &s, bi, hi, &ret))
		goto cleanup;
	ui.db = req_db(r);
	ui.revision = req_revision(r);
	an = ui_compare_analysis(ui.db, bs, &s, bi, hi);
	ui_compare_render(&ui, bs, &s, bi, hi, an, &sb);
	ret = reply_buf(r, 200, "text/html; charset=utf-8", &sb, NULL);
cleanup:
	fw_an_free(an);
	if (owned)
		fw_series_free(&bs_own);
	fw_series_free(&s);
	return ret;
}
