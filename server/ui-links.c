/*
 * Every link of every page. On the server: absolute, percent-encoded URLs
 * (html_url_arg keeps '/', '.' and '%' of names as data). In an export: flat
 * file names in one folder built from ui_safe_name, so a hostile series name
 * can neither leave the folder nor collide with another (the hash part), and
 * the page that links a file and the code that writes it use one function.
 */
#include <stdio.h>
#include <string.h>
#include "ui.h"
#include "html.h"
#include "sha256.h"

void ui_safe_name(struct strbuf *sb, const char *s)
{
	char h[65];
	size_t n = 0;

	for (const char *p = s; *p && n < 32; p++, n++) {
		unsigned char c = (unsigned char)*p;

		strbuf_addch(sb, ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				  (c >= '0' && c <= '9')) ? c : '_');
	}
	sha256_hex(s, strlen(s), h);
	strbuf_addf(sb, "-%.12s", h);
}

int ui_has_series(const struct fw_ui *ui, const char *name)
{
	return !ui->exported || !ui->only_series || !strcmp(ui->only_series, name);
}

/* Keeps an explicitly asked revision in server links ("?revision=N"); sep is '?' or '&amp;'. */
static void rev_arg(struct strbuf *sb, const struct fw_ui *ui, const char *sep)
{
	if (!ui->exported && ui->revision > 0)
		strbuf_addf(sb, "%srevision=%d", sep, ui->revision);
}

/* The metric's key in an export: its names and environment, hashed. */
static void metric_key(struct strbuf *sb, const struct fw_metric *m)
{
	struct sha256_ctx c;
	char h[65];

	sha256_init(&c);
	sha256_update(&c, m->workload, strlen(m->workload) + 1);
	sha256_update(&c, m->variant, strlen(m->variant) + 1);
	sha256_update(&c, m->metric, strlen(m->metric) + 1);
	sha256_update(&c, m->env, strlen(m->env) + 1);
	sha256_final_hex(&c, h);
	strbuf_addf(sb, "%.16s", h);
}

static void export_series_prefix(struct strbuf *sb, const char *name)
{
	strbuf_addstr(sb, "s-");
	ui_safe_name(sb, name);
}

void ui_href_home(struct strbuf *sb, const struct fw_ui *ui)
{
	strbuf_addstr(sb, ui->exported ? "index.html" : "/");
}

void ui_href_static(struct strbuf *sb, const struct fw_ui *ui, const char *file)
{
	/* file is a program constant (style.css, favicon.svg): no encoding needed. */
	strbuf_addstr(sb, ui->exported ? "static/" : "/static/");
	strbuf_addstr(sb, file);
}

void ui_href_series(struct strbuf *sb, const struct fw_ui *ui, const char *name)
{
	if (ui->exported) {
		export_series_prefix(sb, name);
		strbuf_addstr(sb, ".html");
		return;
	}
	strbuf_addstr(sb, "/series/");
	html_url_arg(sb, name);
	rev_arg(sb, ui, "?");
}

void ui_href_series_vs(struct strbuf *sb, const struct fw_ui *ui, const char *name, int vs_base)
{
	if (!vs_base) {
		ui_href_series(sb, ui, name);
		return;
	}
	if (ui->exported) {
		export_series_prefix(sb, name);
		strbuf_addstr(sb, "-vs-base.html");
		return;
	}
	strbuf_addstr(sb, "/series/");
	html_url_arg(sb, name);
	strbuf_addstr(sb, "?vs=base");
	rev_arg(sb, ui, "&amp;");
}

void ui_href_commit(struct strbuf *sb, const struct fw_ui *ui, const char *series, const char *sha)
{
	if (ui->exported) {
		export_series_prefix(sb, series);
		strbuf_addstr(sb, "-c-");
		ui_safe_name(sb, sha);
		strbuf_addstr(sb, ".html");
		return;
	}
	strbuf_addstr(sb, "/series/");
	html_url_arg(sb, series);
	strbuf_addstr(sb, "/commit/");
	html_url_arg(sb, sha);
	rev_arg(sb, ui, "?");
}

void ui_href_metric(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
		    const struct fw_metric *m)
{
	if (ui->exported) {
		export_series_prefix(sb, s->name);
		strbuf_addstr(sb, "-m-");
		metric_key(sb, m);
		strbuf_addstr(sb, ".html");
		return;
	}
	strbuf_addstr(sb, "/series/");
	html_url_arg(sb, s->name);
	strbuf_addstr(sb, "/metric/");
	html_url_arg(sb, m->workload);
	strbuf_addch(sb, '/');
	html_url_arg(sb, m->variant);
	strbuf_addch(sb, '/');
	html_url_arg(sb, m->metric);
	if (s->nenvs > 1) {
		strbuf_addstr(sb, "?env=");
		html_url_arg(sb, m->env);
	}
	rev_arg(sb, ui, s->nenvs > 1 ? "&amp;" : "?");
}

int ui_reg_window(int position, int first, int last, int *from, int *to)
{
	if (position < 0 || last - first < FW_METRIC_PAGE_COMMITS)
		return 0;
	*from = position - FW_METRIC_PAGE_COMMITS / 2 > first ? position - FW_METRIC_PAGE_COMMITS / 2 : first;
	*to = *from + FW_METRIC_PAGE_COMMITS - 1;
	if (*to > last) {  /* near the newest: the newest positions, as many */
		*to = last;
		*from = last - FW_METRIC_PAGE_COMMITS + 1;
	}
	return 1;
}

void ui_href_plot(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
		  const struct fw_metric *m, const char *size)
{
	if (ui->exported) {
		export_series_prefix(sb, s->name);
		strbuf_addstr(sb, "-m-");
		metric_key(sb, m);
		strbuf_addf(sb, "-%s.svg", !strcmp(size, "big") ? "big" : "small");
		return;
	}
	strbuf_addstr(sb, "/plot/");
	html_url_arg(sb, s->name);
	strbuf_addch(sb, '/');
	html_url_arg(sb, m->workload);
	strbuf_addch(sb, '/');
	html_url_arg(sb, m->variant);
	strbuf_addch(sb, '/');
	html_url_arg(sb, m->metric);
	strbuf_addf(sb, "/%s.svg", !strcmp(size, "big") ? "big" : "small");
	if (s->nenvs > 1) {
		strbuf_addstr(sb, "?env=");
		html_url_arg(sb, m->env);
	}
	rev_arg(sb, ui, s->nenvs > 1 ? "&amp;" : "?");
	if (s->window)  /* the page's window: its small plots show the same commits */
		strbuf_addf(sb, "%sfrom=%d&amp;to=%d", s->nenvs > 1 || ui->revision > 0 ? "&amp;" : "?",
			    s->from, s->to);
	else if (s->total_commits > FW_METRIC_PAGE_COMMITS)  /* all of it: a bare plot is the newest window */
		strbuf_addf(sb, "%sfrom=%d", s->nenvs > 1 || ui->revision > 0 ? "&amp;" : "?", s->first_position);
}

void ui_href_compare(struct strbuf *sb, const struct fw_ui *ui, const char *series, const char *base,
		     const char *head)
{
	if (ui->exported) {
		export_series_prefix(sb, series);
		strbuf_addstr(sb, "-compare.html");
		return;
	}
	strbuf_addstr(sb, "/series/");
	html_url_arg(sb, series);
	strbuf_addstr(sb, "/compare");
	if (base && head) {
		strbuf_addstr(sb, "?base=");
		html_url_arg(sb, base);
		strbuf_addstr(sb, "&amp;head=");
		html_url_arg(sb, head);
	}
	rev_arg(sb, ui, base && head ? "&amp;" : "?");
}

void ui_href_regressions(struct strbuf *sb, const struct fw_ui *ui)
{
	strbuf_addstr(sb, ui->exported ? "regressions.html" : "/regressions");
}

void ui_href_regressions_filter(struct strbuf *sb, const struct fw_ui *ui, const char *facet, const char *value)
{
	/* facet is a program constant; the value is data: hashed in a file name, encoded in a URL. */
	if (ui->exported) {
		strbuf_addf(sb, "regressions-%s-", facet);
		ui_safe_name(sb, value);
		strbuf_addstr(sb, ".html");
		return;
	}
	strbuf_addf(sb, "/regressions?%s=", facet);
	html_url_arg(sb, value);
}

void ui_href_config(struct strbuf *sb, const struct fw_ui *ui, const char *hash)
{
	if (ui->exported) {
		strbuf_addstr(sb, "config-");
		ui_safe_name(sb, hash);
		strbuf_addstr(sb, ".txt");
		return;
	}
	strbuf_addstr(sb, "/config/");
	html_url_arg(sb, hash);
}

void ui_href_data(struct strbuf *sb, const struct fw_ui *ui, const char *series, const char *what)
{
	if (ui->exported) {
		export_series_prefix(sb, series);
		strbuf_addstr(sb, !strcmp(what, "report.txt") ? "-report.txt" : !strcmp(what, "csv") ? ".csv" : ".json");
		return;
	}
	strbuf_addstr(sb, "/api/v1/series/");
	html_url_arg(sb, series);
	if (!strcmp(what, "report.txt"))
		strbuf_addstr(sb, "/report.txt");
	else if (!strcmp(what, "csv"))
		strbuf_addstr(sb, ".csv");
	rev_arg(sb, ui, "?");
}

void ui_page_begin(struct strbuf *sb, const struct fw_ui *ui, const char *title)
{
	struct strbuf home = STRBUF_INIT, css = STRBUF_INIT, icon = STRBUF_INIT;

	ui_href_home(&home, ui);
	ui_href_static(&css, ui, "style.css");
	ui_href_static(&icon, ui, "favicon.svg");
	html_page_begin_at(sb, title, home.buf, css.buf, icon.buf);
	strbuf_release(&home);
	strbuf_release(&css);
	strbuf_release(&icon);
}

void ui_page_end(struct strbuf *sb, const struct fw_ui *ui)
{
	/* what a reader subscribes to or scripts against, from every page of the live server */
	if (!ui->exported)
		strbuf_addstr(sb, "<nav class=\"links\" aria-label=\"feeds and API\"><a href=\"/regressions\">"
			      "regressions</a> &middot; <a href=\"/feed.atom\">Atom feed</a> &middot; "
			      "<a href=\"/api\">API</a> (<a href=\"/api/v1/openapi.json\">OpenAPI document</a>)</nav>\n");
	html_page_end(sb);
}
