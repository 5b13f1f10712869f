#ifndef FW_ROUTES_H
#define FW_ROUTES_H
/* Handlers named by the route table in server/routes.c, one resource or page per file. */
#include "http.h"

enum MHD_Result api_runs_post(struct fw_req *r);      /* api-runs.c */
enum MHD_Result api_series_list(struct fw_req *r);    /* api-series.c */
enum MHD_Result api_series_get(struct fw_req *r);
enum MHD_Result api_series_csv(struct fw_req *r);     /* api-series-csv.c */
/*
 * The answer of api_series_get for a window of more than
 * FW_SERIES_ANSWER_COMMITS commits, streamed window by window
 * (api-series-stream.c). s: the window loaded without samples; taken over.
 */
struct fw_series;
enum MHD_Result api_series_stream(struct fw_req *r, struct fw_series *s);
enum MHD_Result api_series_report(struct fw_req *r);  /* api-report.c */
enum MHD_Result api_series_report_md(struct fw_req *r);  /* api-report.c */
enum MHD_Result api_series_complete(struct fw_req *r); /* api-series-complete.c */
enum MHD_Result api_trend(struct fw_req *r);          /* api-trend.c */
enum MHD_Result api_compare(struct fw_req *r);        /* api-compare.c */
enum MHD_Result api_feed(struct fw_req *r);           /* api-feed.c: Atom */
enum MHD_Result api_series_feed(struct fw_req *r);
enum MHD_Result api_healthz(struct fw_req *r);        /* api-health.c */
enum MHD_Result api_metrics(struct fw_req *r);
enum MHD_Result ui_index(struct fw_req *r);           /* ui-index.c */
enum MHD_Result ui_series(struct fw_req *r);          /* ui-series.c */
enum MHD_Result ui_metric(struct fw_req *r);          /* ui-metric.c */
enum MHD_Result ui_commit(struct fw_req *r);          /* ui-commit.c */
enum MHD_Result ui_config(struct fw_req *r);
enum MHD_Result ui_compare(struct fw_req *r);         /* ui-compare.c */
enum MHD_Result ui_regressions(struct fw_req *r);     /* ui-regressions.c */
enum MHD_Result ui_plot(struct fw_req *r);            /* ui-plot.c */
enum MHD_Result ui_plot_png(struct fw_req *r);
enum MHD_Result api_regressions_list(struct fw_req *r); /* api-regressions.c */
enum MHD_Result api_regression_get(struct fw_req *r);
enum MHD_Result api_regression_post(struct fw_req *r);
enum MHD_Result api_bisects_list(struct fw_req *r);   /* api-bisects.c */
enum MHD_Result api_bisect_get(struct fw_req *r);
enum MHD_Result api_openapi(struct fw_req *r);        /* api-openapi.c */
enum MHD_Result ui_static(struct fw_req *r);          /* ui-static.c */
enum MHD_Result ui_api(struct fw_req *r);             /* ui-api.c: the OpenAPI document as a page */
/* issue 13: kernel function profiles of two commits side by side */
enum MHD_Result api_profile(struct fw_req *r);        /* api-profile.c */
enum MHD_Result ui_profile(struct fw_req *r);         /* ui-profile.c */
enum MHD_Result ui_profile_plot(struct fw_req *r);

/* What a route answers (server/routes.c's table): its errors are HTML pages or JSON. */
enum fw_route_kind { FW_ROUTE_HTML, FW_ROUTE_JSON, FW_ROUTE_PLOT /* plots, static files */ };

/*
 * The route lookup alone (no reply), so the fuzz target can drive it: 0 with
 * *fn set and r->args captured, or 400 (bad escape), 404, 405 (allow filled:
 * "GET, HEAD"...), 414. r->path and r->nargs must be set.
 */
int fw_route_find(struct fw_req *r, const char *method, fw_handler *fn, struct strbuf *allow);
/*
 * Route i of the table (method, pattern as above, kind): 0, or -1 past the
 * end. tests/unit/test-openapi-routes.c checks the table against the
 * OpenAPI document with it.
 */
int fw_route_info(size_t i, const char **method, const char **pattern, enum fw_route_kind *kind);
/* server/openapi.json, compiled in (build/gen/openapi.c). */
/*
 * 1 (and the 400 in *ret) when an API route's request has a query parameter
 * its OpenAPI operation does not list (server/query-params.c); 0 otherwise.
 */
int fw_query_unknown(struct fw_req *r, size_t route, enum MHD_Result *ret);
/* An OpenAPI path in the route table's form: each {param} a star ("{name}.csv": "*.csv"). */
void fw_openapi_pattern(const char *path, struct strbuf *out);
extern const char fw_openapi_json[];
extern const size_t fw_openapi_json_len;
/* Bearer token with scope `need` (server/auth.c): 0, or -1 after replying 401/403/503 (*ret). */
int fw_auth_check(struct fw_req *r, unsigned need, enum MHD_Result *ret);


#include "series-db.h"
#include "series-levels.h"
#include "an-result.h"
/*
 * Loads series `name` for a handler (server/req-series.c). Returns 0 with *s
 * filled, or -1 after replying (404 unknown series, 503 DB) with *ret set.
 */
int req_series(struct fw_req *r, const char *name, const char *field, struct fw_series *s,
	       enum MHD_Result *ret);
/*
 * The same with ?from=P&to=Q (commit positions, inclusive; 400 when bad):
 * only those commits are loaded. last_n > 0: without from/to, a revision of
 * more than last_n commits loads its newest last_n positions (a page).
 */
int req_series_window(struct fw_req *r, const char *name, const char *field, int last_n, struct fw_series *s,
		      enum MHD_Result *ret);
/*
 * The same with only some samples (schema/series-db.h fw_series_only: one
 * metric, some commits, none), so a page of a long history reads what it
 * shows; req_series_samples then loads another part (e.g. the commits a
 * request named), 0 or -1 with the 503 sent.
 */
struct fw_series_only;
int req_series_part(struct fw_req *r, const char *name, const char *field, int last_n,
		    const struct fw_series_only *only, struct fw_series *s, enum MHD_Result *ret);
int req_series_only(struct fw_req *r, const char *name, const char *field, const struct fw_series_only *only,
		    struct fw_series *s, enum MHD_Result *ret);
int req_series_samples(struct fw_req *r, struct fw_series *s, const struct fw_series_only *only,
		       enum MHD_Result *ret);
/* The compare page and answer: the samples of the two commits compared (s was loaded with none). */
int compare_samples(struct fw_req *r, const struct fw_series *bs, struct fw_series *s, int bi, int hi,
		    enum MHD_Result *ret);
/*
 * Commit of s by sha or prefix for a handler (server/req-series.c): its
 * index, or -1 after replying 404 (none; field named) or 409 listing the
 * commits an ambiguous prefix matches.
 */
int req_commit(struct fw_req *r, const struct fw_series *s, const char *field, const char *sha,
	       enum MHD_Result *ret);
/*
 * Metric "workload/variant/metric" of s in environment env (a fingerprint or
 * its start; NULL or "": the first), or -1 after replying 404 naming "env"
 * when only the environment is wrong, else "metric" (server/req-series.c).
 */
int req_metric(struct fw_req *r, const struct fw_series *s, const char *wvm, const char *env,
	       enum MHD_Result *ret);
/*
 * Derived statistics at the precision they carry: percentages to 0.001, p and
 * q values to 3 significant digits. Seventeen digits of noise made the series
 * answer 4x larger gzipped and meant nothing.
 */
void json_pct(cJSON *obj, const char *key, double v);
/* v to `digits` decimals (the nearest double; no "-0"): the precision the answers promise. */
double fw_round_fixed(double v, int digits);
void json_prob(cJSON *obj, const char *key, double v);
/*
 * The "window" object of an answer holding positions s->from..s->to of a
 * revision, its older/newer URLs made of prefix (the answer's URL, its query
 * up to "&" before from=) and their positions (server/api-window.c).
 */
void api_window_json(cJSON *root, const struct fw_series *s, const char *prefix);
/* A regression of fw_regressions_list as the API gives it: links, rounded numbers (regression-json.c). */
cJSON *fw_regression_json(const struct fw_reg *g);
/* The same from an entry in the list's JSON shape (a stored event's payload, a feed's improvement). */
cJSON *fw_regression_json_of(const cJSON *g);
/* A stored bisect as the API gives it (api-bisects.c), or NULL when there is no such bisect. */
cJSON *fw_bisect_json(sqlite3 *db, long long id);
/* Adds "profile" (the regression's kernel function attribution) to its API answer (regression-profile.c). */
void fw_regression_profile(sqlite3 *db, const struct fw_reg *g, cJSON *root);
/* The analysis row (against the parent) a stored regression g came from, in series analysis an, or NULL. */
const struct fw_an_row *fw_regression_row(const struct fw_an *an, const struct fw_reg *g);
/*
 * server/feed-improvements.c: the improvements (verdict against the parent) of
 * the newest revision of series (NULL: of the series with the newest runs),
 * shaped like fw_regressions_list entries, appended to the array out (at most
 * max in it); how many, or -1 (DB error).
 */
int fw_feed_improvements(sqlite3 *db, const char *series, int max, cJSON *out);
/* URL of a metric's page ("page") or plot ("small", "big"), encoded (ui-series.c). */
void ui_metric_link(struct strbuf *sb, const struct fw_series *s, const struct fw_metric *m, const char *kind);
/*
 * The analysis of a series (analysis/analysis.h, cached in analysis_cache), or
 * NULL when it cannot be computed: callers then show "not analysed".
 */
struct fw_an *req_analysis(struct fw_req *r, const char *series, int revision);
/* The same with only the rows s shows: its window of positions (all when it
 * is not a window) and, when metric_key ("workload/variant/metric") is not
 * NULL, that metric's: a page of a long history reads its part, not all. */
struct fw_series;
struct fw_an *req_analysis_for(struct fw_req *r, const struct fw_series *s, const char *metric_key);
/* ?revision=N of the request: 0 absent (newest), -1 invalid. */
int req_revision(struct fw_req *r);
int req_revision_arg(struct fw_req *r, const char *key);  /* the same for another key */
/*
 * server/analysis-index.c: the rows of an analysis result (fw_ui_analysis; NULL
 * gives an empty index) by commit/metric/environment; an_index_row() returns
 * the row against the parent, else the one against the base, or NULL.
 */
struct fw_an_index;
struct fw_an_index *an_index_new(const struct fw_an *an);
const struct fw_an_row *an_index_row(const struct fw_an_index *ix, const char *sha, const struct fw_metric *m);
/* The row with this "against" ("parent", "base"), or NULL. */
const struct fw_an_row *an_index_row_against(const struct fw_an_index *ix, const char *sha, const struct fw_metric *m,
				  const char *against);
void an_index_free(struct fw_an_index *ix);
/* Each cell's delta_pct and median from the analysis' row against the parent (NAN without one). */
void an_apply(struct fw_series *s, const struct fw_an *an);
/* Copies p, q, interval and verdict of a row (or nulls) into a JSON object. */
void analysis_fill(cJSON *o, const struct fw_an_row *row);

#endif
