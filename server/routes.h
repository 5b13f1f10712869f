#ifndef FW_ROUTES_H
#define FW_ROUTES_H
/* Handlers named by the route table in server/routes.c, one resource or page per file. */
#include "http.h"

enum MHD_Result api_runs_post(struct fw_req *r);      /* api-runs.c */
enum MHD_Result api_series_list(struct fw_req *r);    /* api-series.c */
enum MHD_Result api_series_get(struct fw_req *r);
enum MHD_Result api_series_csv(struct fw_req *r);     /* api-series-csv.c */
enum MHD_Result api_series_report(struct fw_req *r);  /* api-report.c */
enum MHD_Result api_trend(struct fw_req *r);          /* api-trend.c */
enum MHD_Result api_compare(struct fw_req *r);        /* api-compare.c */
enum MHD_Result api_healthz(struct fw_req *r);        /* api-health.c */
enum MHD_Result api_metrics(struct fw_req *r);
enum MHD_Result ui_index(struct fw_req *r);           /* ui-index.c */
enum MHD_Result ui_series(struct fw_req *r);          /* ui-series.c */
enum MHD_Result ui_metric(struct fw_req *r);          /* ui-metric.c */
enum MHD_Result ui_commit(struct fw_req *r);          /* ui-commit.c */
enum MHD_Result ui_config(struct fw_req *r);
enum MHD_Result ui_plot(struct fw_req *r);            /* ui-plot.c */
enum MHD_Result ui_plot_png(struct fw_req *r);
enum MHD_Result api_regressions_list(struct fw_req *r); /* api-regressions.c */
enum MHD_Result api_regression_post(struct fw_req *r);
enum MHD_Result ui_static(struct fw_req *r);          /* ui-static.c */

/*
 * The route lookup alone (no reply), so the fuzz target can drive it: 0 with
 * *fn set and r->args captured, or 400 (bad escape), 404, 405 (allow filled:
 * "GET, HEAD"...), 414. r->path and r->nargs must be set.
 */
int fw_route_find(struct fw_req *r, const char *method, fw_handler *fn, struct strbuf *allow);


#include "series-db.h"
/*
 * Loads series `name` for a handler (server/req-series.c). Returns 0 with *s
 * filled, or -1 after replying (404 unknown series, 503 DB) with *ret set.
 */
int req_series(struct fw_req *r, const char *name, const char *field, struct fw_series *s,
	       enum MHD_Result *ret);
/* A number, or null when NAN/inf (JSON has no NaN). */
void json_num(cJSON *obj, const char *key, double v);
/* All series (latest revision) with status counts, as JSON (api-series.c). */
cJSON *fw_series_list_json(sqlite3 *db);
/* URL of a metric's page ("page") or plot ("small", "big"), encoded (ui-series.c). */
void ui_metric_link(struct strbuf *sb, const struct fw_series *s, const struct fw_metric *m, const char *kind);
/*
 * The analysis of a series (server/analysis.h, cached in analysis_cache), or
 * NULL when it cannot be computed: callers then show "not analysed".
 */
cJSON *req_analysis(struct fw_req *r, const char *series, int revision);
/* ?revision=N of the request: 0 absent (newest), -1 invalid. */
int req_revision(struct fw_req *r);
/* The analysis row of one commit/metric/environment (against its parent), or NULL. */
const cJSON *analysis_row(const cJSON *rows, const char *sha, const struct fw_metric *m);
/* Copies p, q, interval and verdict of a row (or nulls) into a JSON object. */
void analysis_fill(cJSON *o, const cJSON *row);

#endif
