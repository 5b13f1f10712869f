#ifndef FW_ANALYSIS_H
#define FW_ANALYSIS_H
/*
 * The one implementation of comparisons, verdicts, regressions and the series
 * table. The server's pages and API, `report`, the CI gate and the collector's
 * end-of-run table all call this; none of them computes statistics itself.
 *
 * Results are JSON trees (cJSON) so that a cached result and a fresh one are
 * the same thing: analysis is derived data, cached in analysis_cache under a
 * key naming the question and a data_hash over the runs (run ids and document
 * hashes) it was computed from, so data arriving by POST or by the collector
 * writing the DB directly both invalidate it.
 *
 * Series JSON (fw_analysis_series):
 * { "series": S, "revision": N, "base": sha, "alpha": 0.05, "fdr": "benjamini-hochberg",
 *   "min_effect_pct": 2, "noise_floor_pct": 0.5, "data_hash": hex,
 *   "commits": [ { "id", "sha", "key", "subject", "position", "parent_sha", "is_base" } ],
 *   "rows": [ {
 *     "commit_id", "sha", "position", "against": "parent"|"base", "ref_sha",
 *     "env_fingerprint", "host", "accel", "workload", "variant", "params", "metric",
 *     "unit", "direction", "kind", "min_effect_pct",
 *     "unit_of_comparison": "boots"|"samples",   (>= 3 boots per side: per-boot medians)
 *     "a": { "boots", "samples", "median", "hmean"? }, "b": {...},
 *     "delta_pct", "shift", "ci_lo_pct", "ci_hi_pct", "ci_level", "p", "q", "exact",
 *     "mde_pct", "boots_for_5pct", "mode": "rank"|"deterministic", "noise_pct"?,
 *     "verdict": "improvement"|"regression"|"no change"|"unsure",
 *     "counters": [ { "name", "a", "b", "delta_pct" } ]  (the ones that moved most) } ],
 *   "combined": [ { commit_id, sha, position, against: "parent", workload, variant, params,
 *                   metric, direction, hosts, test, delta_pct (weighted), z, p, q, verdict } ]
 *               (a commit measured on >= 2 environments: each against its own parent
 *               there, combined by van Elteren's stratified test; its own BH family),
 *   "change_points": [ { workload, variant, metric, env_fingerprint, "position", "sha",
 *                        "before", "after", "delta_pct", "p" } ] }
 * q is BH-adjusted over every row of the series (one family per series).
 */
#include <sqlite3.h>
#include <cjson/cJSON.h>
#include "strbuf.h"

struct fw_analysis_opts {
	double alpha;            /* 0.05 */
	double min_effect_pct;   /* 2: used when a result declares none */
	double noise_floor_pct;  /* 0.5: deterministic (icount) mode */
	double ci_level;         /* 0.95 */
	int use_cache;           /* 1: read/write analysis_cache */
};
void fw_analysis_opts_init(struct fw_analysis_opts *o);

/*
 * Analyses one series revision (revision <= 0: the newest). *out: the series
 * JSON above (caller cJSON_Delete()s). Returns 0, or -1 with a message in err
 * (unknown series: "no such series"). Does not write regressions.
 */
int fw_analysis_series(sqlite3 *db, const char *series, int revision,
		       const struct fw_analysis_opts *o, cJSON **out, struct strbuf *err);

/*
 * Any two commits (ids from the commits table, also across revisions of a
 * series): the same row objects as above, against = "other". *out is
 * { "a": commit, "b": commit, "rows": [...] }.
 */
int fw_analysis_compare(sqlite3 *db, long long commit_a, long long commit_b,
			const struct fw_analysis_opts *o, cJSON **out, struct strbuf *err);

/*
 * Stores the regressions of an analysed series (per-environment rows against
 * the parent with verdict "regression", and combined rows of a series sharded
 * over hosts, with env FW_ENV_COMBINED; p_value holds the BH-adjusted q);
 * idempotent (one per series, env, metric, commit).
 * Marks `fixed` (status_by "analysis") a new/acknowledged regression whose
 * metric later returns to within min effect of the level before it.
 * Returns the number of regressions newly stored, or -1.
 */
int fw_regressions_update(sqlite3 *db, const cJSON *series_json, struct strbuf *err);
/* env_fingerprint of a regression found by combining the hosts of a sharded series. */
#define FW_ENV_COMBINED "combined"

/*
 * Lists stored regressions (series/status may be NULL = any) as a JSON array
 * of { id, series, revision, env_fingerprint, workload, variant, metric,
 * commit_id, sha, subject, delta_pct, p_value, status, status_by, status_at, created_at }.
 */
int fw_regressions_list(sqlite3 *db, const char *series, const char *status,
			cJSON **out, struct strbuf *err);
/*
 * Analyses the newest revision of `series` (NULL: of every series) and stores
 * its regressions (fw_regressions_update), so a list read next is current.
 * 0 or -1 (err). Used by `regressions` and the regressions API.
 */
int fw_regressions_refresh(sqlite3 *db, const char *series, struct strbuf *err);
/* Lifecycle: status one of new|acknowledged|fixed|invalid, who = token name. 0, -1 (err), 1 = no such id. */
int fw_regression_set_status(sqlite3 *db, long long id, const char *status,
			     const char *who, struct strbuf *err);

/* The one table writer (analysis/report.c): renders a series JSON. */
enum fw_report_format { FW_REPORT_TEXT, FW_REPORT_JSON, FW_REPORT_CSV };
int fw_report_format_parse(const char *s, enum fw_report_format *f);
void fw_report_write(const cJSON *series_json, enum fw_report_format f, struct strbuf *out);

/* Adds key: v, or key: null when v is NaN or infinite (the one writer of numbers that may be NaN). */
void fw_json_num_or_null(cJSON *obj, const char *key, double v);

#endif
