/*
 * GET /series/{name}/profile?head=&base=&workload=[&variant=&env=&sort=&match=&limit=]:
 * two commits' kernel function profiles side by side, ranked by delta
 * (the same answer as GET /api/v1/profile). Filtering and sorting are query
 * parameters handled here (a GET form, no JavaScript).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "routes.h"
#include "html.h"
#include "plot.h"
#include "req-profile.h"
#include "ui.h"
#include "run-doc.h"

void ui_href_profile(struct strbuf *sb, const struct fw_ui *ui, const char *series, int plot, const char *head,
		     const char *base, const char *workload, const char *variant, const char *env)
{
	strbuf_addstr(sb, "/series/");
	html_url_arg(sb, series);
	strbuf_addstr(sb, plot ? "/profile.svg?head=" : "/profile?head=");
	html_url_arg(sb, head);
	if (base) {
		strbuf_addstr(sb, "&amp;base=");
		html_url_arg(sb, base);
	}
	strbuf_addstr(sb, "&amp;workload=");
	html_url_arg(sb, workload);
	if (variant) {
		strbuf_addstr(sb, "&amp;variant=");
		html_url_arg(sb, variant);
	}
	if (env) {
		strbuf_addstr(sb, "&amp;env=");
		html_url_arg(sb, env);
	}
	if (ui->revision > 0)
		strbuf_addf(sb, "&amp;revision=%d", ui->revision);
}

static void cell(struct strbuf *sb, double v, int signed_)
{
	strbuf_addstr(sb, "<td class=\"num\">");
	if (isnan(v))
		strbuf_addstr(sb, "&ndash;");
	else if (signed_)
		strbuf_addf(sb, "%+.6g", v);
	else
		html_num(sb, v);
	strbuf_addstr(sb, "</td>");
}

static void function_row(struct strbuf *sb, const struct fw_an_function *f)
{
	int self = fw_attribution_uses_self(f);
	double pct = self ? f->delta_pct.self_us : f->delta_pct.time_us;

	strbuf_addstr(sb, "<tr><td class=\"mono\">");
	html_txt(sb, f->function);
	strbuf_addstr(sb, "</td>");
	for (int side = 0; side < 2; side++) {
		const struct fw_an_prof_nums *x = side ? &f->after : &f->before;

		cell(sb, x->hits, 0);
		cell(sb, x->time_us, 0);
		cell(sb, x->self_us, 0);
	}
	cell(sb, f->delta.hits, 1);
	cell(sb, f->delta.time_us, 1);
	cell(sb, f->delta.self_us, 1);
	strbuf_addstr(sb, "<td class=\"num\">");
	if (!isnan(pct))
		strbuf_addf(sb, "%+.1f%% %s", pct, self ? "self" : "total");
	strbuf_addstr(sb, "</td></tr>\n");
}

static void variant_table(struct strbuf *sb, const struct fw_prof_variant *v)
{
	strbuf_addstr(sb, "<h2>variant ");
	html_txt(sb, v->variant);
	strbuf_addf(sb, "</h2>\n<p class=\"muted\">profiled boots: base %d, head %d (medians over boots; "
		    "a function missing from a boot counts 0)</p>\n", v->boots_before, v->boots_after);
	if (!v->nfunctions) {
		strbuf_addstr(sb, "<p>No function matches.</p>\n");
		return;
	}
	strbuf_addstr(sb, "<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"functions\">"
		      "<table class=\"grid profile\"><thead><tr><th rowspan=\"2\">function</th>"
		      "<th colspan=\"3\">base</th><th colspan=\"3\">head</th><th colspan=\"4\">delta</th></tr>"
		      "<tr><th>hits</th><th>total us</th><th>self us</th><th>hits</th><th>total us</th>"
		      "<th>self us</th><th>hits</th><th>total us</th><th>self us</th><th>%</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < v->nfunctions; i++)
		function_row(sb, &v->functions[i]);
	strbuf_addstr(sb, "</tbody></table></div>\n");
}

/* The filter form: the commits and workload stay, sort/match/limit/variant change. */
static void filter_form(struct strbuf *sb, const struct fw_prof_req *p)
{
	static const char *const sorts[] = { "self", "total", "hits" };

	strbuf_addstr(sb, "<form method=\"get\" class=\"filters\">");
	strbuf_addstr(sb, "<input type=\"hidden\" name=\"head\" value=\"");
	html_attr(sb, p->s.commits[p->head].sha);
	strbuf_addstr(sb, "\"><input type=\"hidden\" name=\"base\" value=\"");
	html_attr(sb, p->s.commits[p->base].sha);
	strbuf_addstr(sb, "\"><label>workload <input name=\"workload\" value=\"");
	html_attr(sb, p->workload.buf);
	strbuf_addstr(sb, "\"></label> <label>variant <input name=\"variant\" value=\"");
	html_attr(sb, p->q.variant ? p->q.variant : "");
	strbuf_addstr(sb, "\"></label> <label>function contains <input name=\"match\" value=\"");
	html_attr(sb, p->q.match ? p->q.match : "");
	strbuf_addstr(sb, "\"></label> <label>sort <select name=\"sort\">");
	for (int i = 0; i < 3; i++)
		strbuf_addf(sb, "<option%s>%s</option>", (int)p->q.sort == i ? " selected" : "", sorts[i]);
	strbuf_addf(sb, "</select></label> <label>top <input name=\"limit\" size=\"4\" value=\"%d\"></label> "
		    "<button type=\"submit\">show</button></form>\n", p->q.limit);
}

static void ui_profile_render(const struct fw_ui *ui, const struct fw_prof_req *p, const struct fw_prof_diff *res,
			      struct strbuf *sb)
{
	const struct fw_commit *h = &p->s.commits[p->head], *b = &p->s.commits[p->base];
	struct strbuf title = STRBUF_INIT;

	strbuf_addf(&title, "Profile %s: %.12s vs %.12s", p->workload.buf, h->sha, b->sha);
	ui_page_begin(sb, ui, title.buf);
	strbuf_addstr(sb, "<h1>Kernel profile of ");
	html_txt(sb, p->workload.buf);
	strbuf_addstr(sb, "</h1>\n<ul>\n<li>head: <a class=\"mono\" href=\"");
	ui_href_commit(sb, ui, p->s.name, h->sha);
	strbuf_addstr(sb, "\">");
	html_txt_short(sb, h->sha, 12);
	strbuf_addstr(sb, "</a> ");
	html_txt(sb, h->subject);
	strbuf_addstr(sb, "</li>\n<li>base: <a class=\"mono\" href=\"");
	ui_href_commit(sb, ui, p->s.name, b->sha);
	strbuf_addstr(sb, "\">");
	html_txt_short(sb, b->sha, 12);
	strbuf_addstr(sb, "</a> ");
	html_txt(sb, b->subject);
	strbuf_addstr(sb, "</li>\n<li>series: <a href=\"");
	ui_href_series(sb, ui, p->s.name);
	strbuf_addstr(sb, "\">");
	html_txt(sb, p->s.name);
	strbuf_addstr(sb, "</a></li>\n</ul>\n");
	filter_form(sb, p);
	if (!res->env)
		strbuf_addstr(sb, "<p>No profiles: the two commits were not both profiled in one environment.</p>\n");
	for (size_t i = 0; i < res->nvariants; i++)
		variant_table(sb, &res->variants[i]);
	ui_page_end(sb, ui);
	strbuf_release(&title);
}

enum MHD_Result ui_profile(struct fw_req *r)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct fw_ui ui = { 0 };
	struct fw_prof_req p;
	enum MHD_Result ret;
	struct fw_prof_diff *res;

	if (req_profile(r, r->args[0], &p, &ret))
		return ret;
	ui.db = req_db(r);
	ui.revision = req_revision(r);
	res = fw_profile_typed(r, &p, &err);
	if (res) {
		ui_profile_render(&ui, &p, res, &sb);
		ret = reply_buf(r, 200, "text/html; charset=utf-8", &sb, NULL);
	} else {
		ret = reply_error(r, 503, "db_error", NULL, err.buf);
	}
	fw_prof_diff_free(res);
	req_profile_free(&p);
	strbuf_release(&err);
	return ret;
}

/* GET /series/{name}/profile.svg?(the page's parameters): the bar plot of the top deltas. */
enum MHD_Result ui_profile_plot(struct fw_req *r)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct fw_prof_req p;
	enum MHD_Result ret;
	struct fw_prof_diff *res;
	char etag[72];
	int rc = -1, rendered = 0;

	if (req_profile(r, r->args[0], &p, &ret))
		return ret;
	res = fw_profile_typed(r, &p, &err);
	if (res)
		rc = fw_plot_profile(r->srv->cache_dir, res, &path, etag, &rendered, &err);
	if (rc == 0) {
		atomic_fetch_add(rendered ? &r->srv->plots_rendered : &r->srv->plots_cached, 1);
		ret = reply_file(r, path.buf, "image/svg+xml", etag);
	} else if (rc == 1) {
		ret = reply_error(r, 404, "no_data", "workload", "no function changed between the two profiles");
	} else {
		fprintf(stderr, "serve: profile plot: %s\n", err.buf);
		ret = reply_error(r, 500, "plot_failed", NULL, "could not render the plot");
	}
	fw_prof_diff_free(res);
	req_profile_free(&p);
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}

/* The profile page (plot 0) or bar plot (1) of an analysis row's two commits. */
static void href_row(struct strbuf *sb, const struct fw_ui *ui, const char *series, int plot,
		     const struct fw_an_row *row)
{
	ui_href_profile(sb, ui, series, plot, row->sha, row->ref_sha, row->workload, row->variant, row->env);
}

void ui_attribution(struct strbuf *sb, const struct fw_ui *ui, const char *series, const struct fw_an_row *row)
{
	struct strbuf line = STRBUF_INIT;

	if (!row || !row->nattribution)
		return;
	strbuf_addstr(sb, "<ul class=\"attribution\">");
	for (size_t i = 0; i < row->nattribution; i++) {
		strbuf_reset(&line);
		fw_attribution_line(&row->attribution[i], &line);
		strbuf_addstr(sb, "<li class=\"mono\">");
		html_txt(sb, line.buf);
		strbuf_addstr(sb, "</li>");
	}
	if (!ui->exported) {  /* an export has no profile pages */
		strbuf_addstr(sb, "<li><a href=\"");
		href_row(sb, ui, series, 0, row);
		strbuf_addstr(sb, "\">whole profile</a></li>");
	}
	strbuf_addstr(sb, "</ul>");
	strbuf_release(&line);
}

/* 1 when an earlier row of the list has the same environment, workload and variant (one plot each). */
static int seen_before(const struct fw_an *an, const struct fw_an_row *row)
{
	for (const struct fw_an_row *o = an->rows; o != row; o++)
		if (o->nattribution && !strcmp(o->env, row->env) && !strcmp(o->workload, row->workload) &&
		    !strcmp(o->variant, row->variant) && !strcmp(o->against_name, row->against_name) &&
		    !strcmp(o->sha, row->sha))
			return 1;
	return 0;
}

static void commit_row(struct strbuf *sb, const struct fw_ui *ui, const char *series, const struct fw_an *an,
		       const struct fw_an_row *row, const struct ui_envs *ev)
{
	strbuf_addstr(sb, "<li>");
	html_wvm(sb, row->workload, row->variant, row->metric);
	strbuf_addstr(sb, " on ");
	html_txt(sb, ui_env_name(ev, row->env));
	strbuf_addf(sb, ": <span class=\"%s\">", row->v == FW_REGRESSION ? "worse" : "better");
	html_txt(sb, row->verdict);
	strbuf_addf(sb, " %+.2f%%</span>", row->delta_pct);
	/* One profile per workload/variant: its functions are listed once, under its first row. */
	if (seen_before(an, row)) {
		strbuf_addstr(sb, " <span class=\"muted\">(the same profile: the functions above)</span></li>\n");
		return;
	}
	ui_attribution(sb, ui, series, row);
	if (!ui->exported) {
		strbuf_addf(sb, "<div class=\"plotbox\" tabindex=\"0\" role=\"region\" aria-label=\"profile plot\">"
			    "<img class=\"plot profile\" data-font=\"%d\" alt=\"change in time per kernel function, ",
			    FW_PLOT_FONT_PROFILE);
		html_attr(sb, row->workload);
		strbuf_addch(sb, '/');
		html_attr(sb, row->variant);
		strbuf_addstr(sb, "\" src=\"");
		href_row(sb, ui, series, 1, row);
		strbuf_addstr(sb, "\"></div>");
	}
	strbuf_addstr(sb, "</li>\n");
}

void ui_commit_profiles(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
			const struct fw_commit *c, const struct fw_an *an, const struct ui_envs *ev)
{
	int n = 0, changed = 0, own = 0;

	for (size_t i = 0; an && i < an->nrows; i++) {
		const struct fw_an_row *row = &an->rows[i];

		if (strcmp(row->sha, c->sha) || row->against != FW_AGAINST_PARENT)
			continue;
		own++;
		changed += row->v == FW_REGRESSION || row->v == FW_IMPROVEMENT;
		if (!row->nattribution)
			continue;
		if (!n++)
			strbuf_addstr(sb, "<h2>Kernel functions that changed most against the parent</h2>\n"
				      "<p class=\"note\">From the ftrace function profiler of an untimed round of each "
				      "boot (medians over the profiled boots; exact in icount mode): the change in self "
				      "time, or total time where self time was not measured.</p>\n<ul id=\"profiles\">\n");
		commit_row(sb, ui, s->name, an, row, ev);
	}
	if (n)
		strbuf_addstr(sb, "</ul>\n");
	/* profiles are taken where a row is decided a change (issue 27): say why there are none */
	else if (own && !changed)
		strbuf_addstr(sb, "<p class=\"note\" id=\"profiles\">Kernel functions: not profiled: no change "
				  "against the parent.</p>\n");
	else if (changed)
		strbuf_addstr(sb, "<p class=\"note\" id=\"profiles\">Kernel functions: not profiled (no kernel "
				  "profile of both sides of the decided change).</p>\n");
}
