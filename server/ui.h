#ifndef FW_UI_H
#define FW_UI_H
/*
 * Page rendering without an HTTP connection. The same renderers serve the
 * dashboard (absolute URLs under /series/...) and `export` (flat files in one
 * folder, relative links), so the two can never drift apart. Every link a
 * page makes goes through a ui_href_* function below; they write URL text
 * that is already safe inside a double-quoted attribute.
 */
#include <sqlite3.h>
#include <cjson/cJSON.h>
#include "series-levels.h"
#include "an-result.h"
#include "analysis-json.h"
#include "strbuf.h"

struct fw_ui {
	sqlite3 *db;
	int exported;             /* 1: static files written by cmd-export.c */
	int revision;             /* > 0: a revision asked for with ?revision=N (kept in links) */
	const char *only_series;  /* export --series: the only series that has pages */
	int vs_base;              /* the series page's matrix against the base (?vs=base) instead of the parent */
	int from, to;             /* the series page's window of positions (from >= 0), kept in its plots' links */
	int table_newest;         /* a metric page's table: only its newest N commits (0: all; from=/to= ask for all) */
};
/* A series page shows at most this many of the newest positions unless ?from=&to= ask otherwise. */
#define FW_SERIES_PAGE_COMMITS 50
/* A metric page's table without from/to: the newest this many commits (its plot has the page's window). */
#define FW_METRIC_TABLE_COMMITS 100
/*
 * A metric page of a longer history without from/to: its newest this many
 * positions, plot included (at 10,000 commits the whole took 6-7 s cold).
 */
#define FW_METRIC_PAGE_COMMITS 500
/* The series answer without from/to: the newest this many positions, with a "window" cursor (issue 31). */
#define FW_SERIES_ANSWER_COMMITS 100

/* A page at positions from..to (to < 0: to the newest) of s (and metric m, for a metric page). */
typedef void (*ui_window_href_fn)(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
				  const struct fw_metric *m, int from, int to);
/* "Commits at positions A-B of N" with older, newer and all links, when s is a window (not in an export). */
void ui_window_nav(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, const struct fw_metric *m,
		   ui_window_href_fn href);

/* Safe file-name part for any string: [A-Za-z0-9_] slug (<= 32) + '-' + 12 hex of its sha256. */
void ui_safe_name(struct strbuf *sb, const char *s);
/* 1 when the series has pages (always on the server; in an export, the exported ones). */
int ui_has_series(const struct fw_ui *ui, const char *name);

void ui_href_home(struct strbuf *sb, const struct fw_ui *ui);
/* file: a program constant, never text from the DB or a request. */
void ui_href_static(struct strbuf *sb, const struct fw_ui *ui, const char *file);
void ui_href_series(struct strbuf *sb, const struct fw_ui *ui, const char *name);
/* The series page with its matrix against the base (vs_base 1) or the parent (0). */
void ui_href_series_vs(struct strbuf *sb, const struct fw_ui *ui, const char *name, int vs_base);
void ui_href_commit(struct strbuf *sb, const struct fw_ui *ui, const char *series, const char *sha);
void ui_href_metric(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
		    const struct fw_metric *m);
/*
 * The positions from..to of a metric page (plot, trend) around a regression's
 * commit at position, in a revision of positions first..last: a bare one of
 * a long history shows its newest FW_METRIC_PAGE_COMMITS, which an older
 * regression is not among. 0 (no window) when the revision is no longer than
 * that or the position is not known (-1).
 */
int ui_reg_window(int position, int first, int last, int *from, int *to);
/* size: "small" or "big"; always SVG. */
void ui_href_plot(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
		  const struct fw_metric *m, const char *size);
void ui_href_config(struct strbuf *sb, const struct fw_ui *ui, const char *hash);
/* The compare page of two commits (an export has one: base against the last commit, shas ignored). */
void ui_href_compare(struct strbuf *sb, const struct fw_ui *ui, const char *series, const char *base,
		     const char *head);
void ui_href_regressions(struct strbuf *sb, const struct fw_ui *ui);
/* The regressions page filtered by one facet (series, status, metric, env) = value. */
void ui_href_regressions_filter(struct strbuf *sb, const struct fw_ui *ui, const char *facet, const char *value);
/* what: "report.txt", "csv" or "json" (the series' API resources; files in an export). */
void ui_href_data(struct strbuf *sb, const struct fw_ui *ui, const char *series, const char *what);
/* The profile page (plot 0) or its bar plot (1) of two commits' workload (ui-profile.c); base/variant/env NULL: defaults. */
void ui_href_profile(struct strbuf *sb, const struct fw_ui *ui, const char *series, int plot, const char *head,
		     const char *base, const char *workload, const char *variant, const char *env);
/* An analysis row's attribution as a list, with a link to the whole profile (nothing without one). */
void ui_attribution(struct strbuf *sb, const struct fw_ui *ui, const char *series, const struct fw_an_row *row);
/* The "Change points" section (ui-change-points.c): of metric only, or of every metric (NULL), on loaded commits. */
void ui_change_points(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, const struct fw_an *an,
		      const struct fw_metric *only);
/* The commit page's section: every row against the parent with an attribution, one bar plot per workload/variant. */
struct ui_envs;
void ui_commit_profiles(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
			const struct fw_commit *c, const struct fw_an *an, const struct ui_envs *ev);
/* The commit page's bisects: those whose culprit, good or bad end sha is (ui-commit-bisects.c). */
void ui_commit_bisects(struct strbuf *sb, sqlite3 *db, const char *series, const char *sha);
/* html_page_begin with the stylesheet and home links of this ui. */
void ui_page_begin(struct strbuf *sb, const struct fw_ui *ui, const char *title);
/* The page's end: on the live server, links to the regressions, the Atom feed, the API and its OpenAPI document. */
void ui_page_end(struct strbuf *sb, const struct fw_ui *ui);

/* Environments by name, "HOST ACCEL, N vCPUs" (ui-env.c), loaded once per page. */
struct ui_envs {
	struct { char *fp, *name; int dup; } *e;
	int n, alloc;
};
void ui_envs_load(struct ui_envs *ev, sqlite3 *db);   /* empty on a DB error: names fall back to fingerprints */
void ui_envs_free(struct ui_envs *ev);
const char *ui_env_name(const struct ui_envs *ev, const char *fp);
/* The name, then the fingerprint inside a <details> element. */
void ui_env_html(struct strbuf *sb, const struct ui_envs *ev, const char *fp);

/*
 * Before listed commit c, when positions between it and the one before were
 * not measured (a sparse watch, a bisect's range): a row saying which, its
 * text over the first head of ncols columns (ui-matrix.c; the series page's
 * matrix and commits table).
 */
void ui_unmeasured_row(struct strbuf *sb, const struct fw_series *s, int c, int head, int ncols);
/* The verdict matrix of a series against the parent or the base, and its legend (ui-matrix.c). */
struct fw_an_index;
void ui_matrix(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
	       const struct fw_an_index *ix, const struct ui_envs *ev, int vs_base);
void ui_matrix_legend(struct strbuf *sb);
/* CSS class suffix of a verdict (v-reg, v-imp, v-same, v-unsure; "none" for NULL or another). */
const char *ui_verdict_class(const char *verdict);

/* Page renderers (one per file, as the HTTP handlers). */
int ui_index_render(const struct fw_ui *ui, struct strbuf *out);           /* ui-index.c; -1 DB error */
void ui_series_render(const struct fw_ui *ui, const struct fw_series *s, const struct fw_an *an,
		      struct strbuf *out);                                   /* ui-series.c */
void ui_metric_render(const struct fw_ui *ui, const struct fw_series *s, int mi, const struct fw_an *an,
		      const struct fw_regs *regs, struct strbuf *out);       /* ui-metric.c */
int ui_commit_render(const struct fw_ui *ui, const struct fw_series *s, int ci, const struct fw_an *an,
		     struct strbuf *out);                                    /* ui-commit.c; -1 DB error */

/*
 * ui-compare.c: commit bi of bs (base) against hi of s (head); bs is s or
 * another revision of it; an from ui_compare_analysis (NULL: not analysed).
 */
void ui_compare_render(const struct fw_ui *ui, const struct fw_series *bs, const struct fw_series *s, int bi,
		       int hi, const struct fw_an *an, struct strbuf *out);
struct fw_an *ui_compare_analysis(sqlite3 *db, const struct fw_series *bs, const struct fw_series *s, int bi, int hi);
/* ui-regressions.c: all = fw_regressions_list of every series; NULL filter fields match anything. */
struct ui_reg_filter {
	const char *series, *status, *metric, *env;
};
void ui_regressions_render(const struct fw_ui *ui, const struct fw_regs *all, const struct ui_reg_filter *f,
			   struct strbuf *out);
/*
 * The filter values among the regressions a page shows, each once, as
 * [facet, value] pairs (facet: series, status, metric or env): the export
 * writes one page per pair (filtered by ui_reg_filter_of) and links them.
 */
cJSON *ui_reg_facets(const struct fw_ui *ui, const struct fw_regs *all);
void ui_reg_filter_of(const cJSON *facet, struct ui_reg_filter *f);

/*
 * Data behind the pages, shared by handlers and export (req-series.c):
 * the analysis of one revision (NULL: "not analysed"), the stored
 * regressions of one series revision (never NULL), the series JSON, CSV
 * and plain-text report.
 */
struct fw_an *fw_ui_analysis(sqlite3 *db, const char *series, int revision);
/* Only part's rows (analysis/analysis.h, fw_analysis_series_part). */
struct fw_store_cache_part;
/* The analysis options of pages: cached; a slow series' older analysis while the detection computes the new one. */
struct fw_analysis_opts;
void fw_ui_analysis_opts(struct fw_analysis_opts *o);
/* serve: the detection queue pages wake for a series they do not analyse themselves (NULL: none). */
struct fw_notify;
void fw_ui_set_notify(struct fw_notify *n);
struct fw_an *fw_ui_analysis_part(sqlite3 *db, const char *series, int revision, const struct fw_store_cache_part *part);
struct fw_regs *fw_ui_regressions(sqlite3 *db, const char *series, int revision);
cJSON *fw_series_json(sqlite3 *db, const struct fw_series *s, const struct fw_an *an); /* api-series.c */
/* The same with only the metrics msel[i] and commits csel[c] set (NULL: all). */
cJSON *fw_series_json_sel(sqlite3 *db, const struct fw_series *s, const struct fw_an *an, const char *msel,
			  const char *csel);
/* One commit of the answer, its cells' environments named keys[i] (fw_env_keys). */
struct fw_an_index;
cJSON *fw_series_commit_json(const struct fw_series *s, int c, char *const *keys, const char *msel,
			     const struct fw_an_index *ix);
/* Per metric of s, the key of its environment in the series answer (env-keys.c). */
char **fw_env_keys(const struct fw_series *s);
void fw_env_keys_free(const struct fw_series *s, char **keys);
cJSON *fw_env_json(sqlite3 *db, const char *fp);
/*
 * The commit page's first section: its verdicts against the parent and the
 * base, the decided rows with delta, interval, boots and profile (ui-commit-verdicts.c).
 */
void ui_commit_verdicts(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
			const struct fw_commit *c, const struct fw_an *an, const struct ui_envs *ev);
/* "workload/variant/metric" of an analysis row linking its metric page, then its environment's name. */
void ui_row_link(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, const struct fw_an_row *r,
		    const struct ui_envs *ev);
/*
 * The series page's summary (ui-series-moved.c): the verdicts of every commit
 * against its parent counted, then each decided one on a line, regressions
 * first, linking its commit and metric pages.
 */
void ui_series_moved(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, const struct fw_an *an,
		     const struct ui_envs *ev);
/* After a verdict: "at 3 boots" or "MDE 3.1%, needs 8 boots", and the floor with the boots it rests on (ui-series.c). */
void ui_decided(struct strbuf *sb, const struct fw_an_row *row);
/* A stored regression's status history as a <details> list (ui-history.c). */
void ui_regression_history(struct strbuf *sb, const struct fw_reg *reg);
void fw_series_csv(const struct fw_series *s, struct strbuf *out);           /* api-series-csv.c */
/* api-report.c: the cover-letter table (verbose: the long one), facts as fw_mail_facts gives them or NULL. */
void fw_series_report(const struct fw_series *s, const struct fw_an *an, const cJSON *facts, enum fw_report_view view,
		      struct strbuf *out);

#endif
