/*
 * GET /series/{name}/profile?head=&base=&workload=[&variant=&env=&sort=&match=&limit=]:
 * two commits' kernel function profiles side by side, ranked by delta
 * (the same answer as GET /api/v1/profile). Filtering and sorting are query
 * parameters handled here (a GET form, no JavaScript).
 */
#include <math.h>
#include <string.h>
#include "routes.h"
#include "html.h"
#include "req-profile.h"
#include "ui.h"

void ui_href_profile(struct strbuf *sb, const struct fw_ui *ui, const char *series, const char *head,
		     const char *base, const char *workload, const char *variant)
{
	strbuf_addstr(sb, "/series/");
	html_url_arg(sb, series);
	strbuf_addstr(sb, "/profile?head=");
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
	if (ui->revision > 0)
		strbuf_addf(sb, "&amp;revision=%d", ui->revision);
}

static double val(const cJSON *e, const char *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, obj), key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
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

static void function_row(struct strbuf *sb, const cJSON *e)
{
	static const char *const keys[] = { "hits", "time_us", "self_us" };
	const char *k = fw_attribution_key(e);
	double pct = val(e, "delta_pct", k);

	strbuf_addstr(sb, "<tr><td class=\"mono\">");
	html_txt(sb, fw_json_str(e, "function", ""));
	strbuf_addstr(sb, "</td>");
	for (int side = 0; side < 2; side++)
		for (int i = 0; i < 3; i++)
			cell(sb, val(e, side ? "after" : "before", keys[i]), 0);
	cell(sb, val(e, "delta", "hits"), 1);
	cell(sb, val(e, "delta", "time_us"), 1);
	cell(sb, val(e, "delta", "self_us"), 1);
	strbuf_addstr(sb, "<td class=\"num\">");
	if (!isnan(pct))
		strbuf_addf(sb, "%+.1f%% %s", pct, k[0] == 's' ? "self" : "total");
	strbuf_addstr(sb, "</td></tr>\n");
}

static void variant_table(struct strbuf *sb, const cJSON *v)
{
	const cJSON *e;

	strbuf_addstr(sb, "<h2>variant ");
	html_txt(sb, fw_json_str(v, "variant", ""));
	strbuf_addf(sb, "</h2>\n<p class=\"muted\">profiled boots: base %.0f, head %.0f (medians over boots; "
		    "a function missing from a boot counts 0)</p>\n",
		    fw_json_num(v, "boots_before", 0), fw_json_num(v, "boots_after", 0));
	if (!cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(v, "functions"))) {
		strbuf_addstr(sb, "<p>No function matches.</p>\n");
		return;
	}
	strbuf_addstr(sb, "<table class=\"profile\"><thead><tr><th rowspan=\"2\">function</th>"
		      "<th colspan=\"3\">base</th><th colspan=\"3\">head</th><th colspan=\"4\">delta</th></tr>"
		      "<tr><th>hits</th><th>total us</th><th>self us</th><th>hits</th><th>total us</th>"
		      "<th>self us</th><th>hits</th><th>total us</th><th>self us</th><th>%</th></tr></thead><tbody>\n");
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(v, "functions"))
		function_row(sb, e);
	strbuf_addstr(sb, "</tbody></table>\n");
}

/* The filter form: the commits and workload stay, sort/match/limit/variant change. */
static void filter_form(struct strbuf *sb, const struct fw_prof_req *p, const cJSON *res)
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
	(void)res;
}

static void ui_profile_render(const struct fw_ui *ui, const struct fw_prof_req *p, const cJSON *res, struct strbuf *sb)
{
	const struct fw_commit *h = &p->s.commits[p->head], *b = &p->s.commits[p->base];
	const cJSON *v, *env = cJSON_GetObjectItemCaseSensitive(res, "env_fingerprint");
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
	filter_form(sb, p, res);
	if (!cJSON_IsString(env))
		strbuf_addstr(sb, "<p>No profiles: the two commits were not both profiled in one environment.</p>\n");
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(res, "variants"))
		variant_table(sb, v);
	html_page_end(sb);
	strbuf_release(&title);
}

enum MHD_Result ui_profile(struct fw_req *r)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct fw_ui ui = { 0 };
	struct fw_prof_req p;
	enum MHD_Result ret;
	cJSON *res;

	if (req_profile(r, r->args[0], &p, &ret))
		return ret;
	ui.db = req_db(r);
	ui.revision = req_revision(r);
	res = fw_profile_answer(r, &p, &err);
	if (res) {
		ui_profile_render(&ui, &p, res, &sb);
		ret = reply_buf(r, 200, "text/html; charset=utf-8", &sb, NULL);
	} else {
		ret = reply_error(r, 503, "db_error", NULL, err.buf);
	}
	cJSON_Delete(res);
	req_profile_free(&p);
	strbuf_release(&err);
	return ret;
}
