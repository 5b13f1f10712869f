#ifndef FW_ANALYSIS_H
#define FW_ANALYSIS_H
/*
 * The one implementation of comparisons, verdicts, regressions and the series
 * table. The server's pages and API, `report`, the CI gate and the collector's
 * end-of-run table all call this; none of them computes statistics itself.
 *
 * Results are typed (an-result.h: struct fw_an); underneath they are JSON
 * trees, so that a cached result and a fresh one are the same thing and the
 * API answers the same fields (analysis-json.h, the edge's header, hands out
 * the tree and what else is JSON): analysis is derived data, cached in analysis_cache under a
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
 *     "mde_pct", "boots_for_5pct", "noise_pct",
 *     "mode": "rank"|"deterministic"|"exact", "mode_source": "data"|"default table"|"table file"|"default for counts"|"default for times and rates",
 *     "same_kernel": { "cv_pct", "cv_lo_pct", "cv_hi_pct", "df", "boots", "kernels", "range_pct" }?,
 *     "floor_pct"?, "floor_boots"? (deterministic/exact: the floor and how many boots its noise rests on),
 *     "looks" (K), "look" (of its newest boot), "alpha_used" (rank: that look's share of alpha,
 *     fw_alpha_at_look; floors: floor_alpha / K), "boots_for_min_effect" (per side, null: unreachable),
 *     "verdict": "improvement"|"regression"|"no change"|"unsure",
 *     "decided": bool, "decided_at_boots"? (decided: boots per side it rests on),
 *     "boots_needed"? (unsure: boots per side to reach mde <= min effect; null: no number does),
 *     "counters": [ { "name", "a", "b", "delta_pct" } ]  (the ones that moved most),
 *     "attribution"?: [ top 5 functions of fw_profile_diff ] (regression/improvement rows when
 *                     both commits have profiles of the row's workload/variant) } ],
 *   "combined": [ { commit_id, sha, position, against: "parent", workload, variant, params,
 *                   metric, direction, hosts, test, delta_pct (weighted), z, p, q, verdict } ]
 *               (a commit measured on >= 2 environments: each against its own parent
 *               there, combined by van Elteren's stratified test; its own BH family),
 *   "change_points": [ { workload, variant, metric, env_fingerprint, "position", "sha",
 *                        "before", "after", "delta_pct", "p" } ],
 *   "determinism": [ { env_fingerprint, host, accel, workload, variant, params, metric, kind,
 *                      mode, mode_source, same_kernel } ]  (one per metric and environment),
 *   "looks": K (the most planned looks of any boot), "look": the newest boot's look (0: none recorded),
 *   "alpha_at_looks": [ the share of alpha of look 1..K ] }
 * q is BH-adjusted over every rank row of the series (one family per series).
 *
 * Deciding (issue 12; README "Deciding"):
 * - Determinism is measured. For each metric and environment (fingerprint) the
 *   same-kernel noise is the CV of per-boot medians between boots of the same
 *   kernel (build), pooled over every kernel measured there up to this series'
 *   newest boot (its own commits and earlier series; the newest kernels holding
 *   512 boots, at most 128 kernels), and beside it the CV of the rounds
 *   inside each boot, pooled the same way.
 *   With a 95% upper bound of both CVs <= FW_DETERMINISTIC_CV_PCT (0.5%) the
 *   metric is deterministic; with a 95% lower bound of either above it, it is
 *   not (rounds that disagree make a boot's median land anywhere); in
 *   between, or with no repeated boots, the determinism table decides
 *   (determinism.c; --determinism FILE / FOLIOWATCH_DETERMINISM first).
 * - Deterministic rows ("deterministic"): fw_verdict_floor with the pooled CV;
 *   floor = max(noise_floor_pct, t(1 - floor_alpha/2/K, df) * se), where se is
 *   the standard error of the difference of the two sides' medians.
 * - Counts shown (or declared) deterministic ("exact"): floor = the largest
 *   same-kernel spread ever seen (0 for a count that always agreed), no
 *   minimum: any difference beyond it is a change.
 * - Everything else ("rank"): Mann-Whitney U, BH over the series, q <= the
 *   look's share of alpha and |delta| >= min effect.
 * - Looks: boots added between rounds of analysis (fw_analysis_undecided) are
 *   paid for by spending alpha over the K planned looks, each look tested at
 *   its share alone (a union bound: the chance of a false alarm at any of the
 *   K looks stays below alpha whatever the collector boots between them).
 *   Rank rows: O'Brien-Fleming-type shares (fw_alpha_at_look; K = 4: 0.00009,
 *   0.0055, 0.018, 0.026), at the look of the row's newest boot, so rows run to
 *   the budget keep most of alpha; floors (decided at the first look): an equal
 *   split, floor_alpha / K. K is the largest `sequential.max_looks` of the boots
 *   of a row (1 when none: a fixed design spends nothing); opts max_looks
 *   raises it. A row's data at look k are what look k saw, so the report and
 *   the look agree.
 */
#include <sqlite3.h>
#include "strbuf.h"
#include "an-result.h"

struct fw_analysis_opts {
	double alpha;            /* 0.05 */
	double min_effect_pct;   /* 2: used when a result declares none */
	double noise_floor_pct;  /* 0.5: the smallest floor of a deterministic (non-count) row */
	double floor_alpha;      /* 0.001: two-sided level of the floor rule per row (before spending) */
	double ci_level;         /* 0.95 */
	int max_looks;           /* 0: as the boots record; K > 0: at least K looks */
	const char *determinism_file;  /* user table read before the built-in one; NULL/"" none
					* (init: $FOLIOWATCH_DETERMINISM) */
	int use_cache;           /* 1: read/write analysis_cache */
	/*
	 * 1: a page (0 init). A page does not analyse a series whose last
	 * analysis took over a second: it gets that analysis, marked "stale" with
	 * "analysed_up_to", and wake(series) asks whoever computes (the server's
	 * detection thread) to analyse the new data (NULL: nobody). Faster
	 * series are analysed as before, so a page is never behind on them.
	 */
	int page;
	void (*wake)(const char *series);
};
void fw_analysis_opts_init(struct fw_analysis_opts *o);

/*
 * Analyses one series revision (revision <= 0: the newest). *out: the series
 * result above, typed (caller fw_an_free()s). Returns 0, or -1 with a message in err
 * (unknown series: "no such series"). Does not write regressions.
 */
int fw_analysis_series(sqlite3 *db, const char *series, int revision,
		       const struct fw_analysis_opts *o, struct fw_an **out, struct strbuf *err);

/*
 * Part of it: only the rows of part (store-analysis.h: a window of positions,
 * one metric, decided rows), read through the cache's indexes when cached;
 * the rest of the result whole. fw_analysis_series is part NULL.
 */
struct fw_store_cache_part;
int fw_analysis_series_part(sqlite3 *db, const char *series, int revision, const struct fw_analysis_opts *o,
			    const struct fw_store_cache_part *part, struct fw_an **out, struct strbuf *err);
/*
 * One series' cache identity (id, revision, base, data hash) of its newest
 * revision, looked up once: the data hash reads the series' runs. 0, or -1
 * with err. fw_series_key_free() it.
 */
struct fw_series_key;
int fw_series_key_get(sqlite3 *db, const char *series, const struct fw_analysis_opts *o,
		      struct fw_series_key **out, struct strbuf *err);
void fw_series_key_free(struct fw_series_key *k);
/*
 * The head of the series' analysis under k (computed when not cached): no
 * rows; read them with fw_analysis_rows_each() from the same data hash.
 */
int fw_analysis_series_head(sqlite3 *db, const char *series, struct fw_series_key *k,
			    const struct fw_analysis_opts *o, struct fw_an **out, struct strbuf *err);
/*
 * The rows of part of head's analysis, each body (JSON) to each() in position
 * order (it returns nonzero to stop): 1 read, 0 not (that analysis is no
 * longer the stored one, or a callback stopped).
 */
int fw_analysis_rows_each(sqlite3 *db, const struct fw_an *head, const struct fw_store_cache_part *part,
			  int (*each)(const char *body, void *ctx), void *ctx);
/* Below which position head's rows are those a stored refresh already saw (-1: none, read every row). */
int fw_analysis_regressions_from(const struct fw_an *head);
/* fw_analysis_series() of the series and revision k names. */
int fw_analysis_series_at(sqlite3 *db, const char *series, struct fw_series_key *k,
			  const struct fw_analysis_opts *o, struct fw_an **out, struct strbuf *err);
/*
 * regs_flight: the single-flight key (analysis/inflight.h) a refresh of them
 * holds from the analysis to the stored mark ("" when unknown).
 * 1 when the stored regressions of the series k names were refreshed from its
 * current cached analysis (so a refresh can skip it), or, for a page
 * (o->page), when the series is one it does not analyse (slow);
 * fw_analysis_regressions_stored records that after fw_regressions_update.
 */
#define FW_REGS_FLIGHT_MAX 160
int fw_analysis_regressions_current(sqlite3 *db, const struct fw_series_key *k, const struct fw_analysis_opts *o,
				    char regs_flight[FW_REGS_FLIGHT_MAX]);
void fw_analysis_regressions_stored(sqlite3 *db, const struct fw_an *an);

/*
 * Any two commits (ids from the commits table, also across revisions of a
 * series): the same row objects as above, against = "other". *out is
 * { "a": commit, "b": commit, "rows": [...] }.
 */
int fw_analysis_compare(sqlite3 *db, long long commit_a, long long commit_b,
			const struct fw_analysis_opts *o, struct fw_an **out, struct strbuf *err);

/*
 * Stores the regressions of an analysed series (per-environment rows against
 * the parent with verdict "regression", and combined rows of a series sharded
 * over hosts, with env FW_ENV_COMBINED; p_value holds the BH-adjusted q);
 * idempotent (one per series, env, metric, commit).
 * Marks `fixed` (status_by "analysis") a new/acknowledged regression whose
 * metric later returns to within min effect of the level before it.
 * Returns the number of regressions newly stored, or -1.
 */
int fw_regressions_update(sqlite3 *db, const struct fw_an *an, struct strbuf *err);
/* env_fingerprint of a regression found by combining the hosts of a sharded series. */
#define FW_ENV_COMBINED "combined"

/*
 * Stored regressions (series/status may be NULL = any), typed, by series,
 * revision, position, metric: 0, or -1 with err. fw_regs_free() them. Their
 * JSON (the API's shape): fw_regressions_list, fw_regression_get (analysis-json.h).
 */
int fw_regressions_of(sqlite3 *db, const char *series, const char *status, struct fw_regs **out,
		      struct strbuf *err);
/* The one of that id: 0 (*out holds it, n == 1), 1 when there is none, -1 (err). */
int fw_regression_of(sqlite3 *db, long long id, struct fw_regs **out, struct strbuf *err);
/*
 * Analyses the newest revision of `series` (NULL: of every series) and stores
 * its regressions (fw_regressions_update), so a list read next is current.
 * o: NULL for the defaults. 0 or -1 (err). Used by `regressions` and the regressions API.
 */
int fw_regressions_refresh(sqlite3 *db, const char *series, const struct fw_analysis_opts *o,
			   struct strbuf *err);
/*
 * Lifecycle: status one of new|acknowledged|fixed|invalid, who (1..FW_BY_MAX
 * bytes) and an optional note (FW_NOTE_MAX, lines allowed) as text by the run
 * document's rules. Every change lands in regression_history (a trigger).
 * 0, -1 (err), 1 = no such id.
 */
#define FW_BY_MAX   200
#define FW_NOTE_MAX 2000
int fw_regression_set_status(sqlite3 *db, long long id, const char *status,
			     const char *who, const char *note, struct strbuf *err);

/*
 * The analysis' change points, typed (struct fw_change_point, an-result.h:
 * E-divisive means over each metric's commit medians in one environment; they
 * open no regression: only decided rows do).
 */
/*
 * Those of metric ("workload/variant/metric", NULL: every metric) in env
 * (NULL: every environment), in the analysis' order (by metric, then
 * position). Returns how many; *out is malloc'd (free() it; NULL when 0), its strings the analysis'.
 */
int fw_analysis_change_points(const struct fw_an *an, const char *metric, const char *env, struct fw_change_point **out);
/* Is row (of an analysis) of metric "workload/variant/metric"? NULL metric: any row. */
int fw_row_is_metric(const struct fw_an_row *row, const char *metric);
/* The same for a workload, variant and metric (NULL ones: never). */
int fw_metric_is(const char *workload, const char *variant, const char *metric_name, const char *metric);

/*
 * The sequential design's question, typed (struct fw_undecided; its JSON,
 * documented with fw_analysis_undecided in analysis-json.h, is what
 * `foliowatch-server undecided` prints). 0, or -1 with err.
 */
struct fw_seq_opts;
int fw_analysis_undecided_of(sqlite3 *db, const char *series, int revision, const struct fw_analysis_opts *o,
			     const struct fw_seq_opts *s, struct fw_undecided **out, struct strbuf *err);
struct fw_seq_opts {
	int max_looks;   /* K >= 1: planned looks including the first (4) */
	int max_boots;   /* budget: boots per commit, environment and workload (24) */
	const char *metric; /* NULL: every unsure row; else only this workload/variant/metric's (a bisect's step) */
};

/*
 * Kernel function profiles (issue 13, analysis/profile-diff.c): two commits'
 * profiles of a workload side by side. Per function the median over each
 * commit's profiled (ok) boots of hits, time_us (children included) and
 * self_us (null when a boot did not measure it); a function missing from a
 * boot counts 0. Ranked by |delta| of self time (total time where self is
 * missing), total time or hits; ties by name.
 * *out: { base_commit_id, head_commit_id, env_fingerprint (null: no
 * environment where both were profiled), workload, sort, match?,
 * "variants": [ { variant, boots_before, boots_after, shown, "functions": [
 *   { function, before: {hits, time_us, self_us}, after: {...}, delta: {...},
 *     delta_pct: {...} (null where before is 0), only_in?: "before"|"after" } ] } ] }
 */
enum fw_prof_sort { FW_PROF_SORT_SELF, FW_PROF_SORT_TOTAL, FW_PROF_SORT_HITS };
struct fw_prof_query {
	long long base_commit, head_commit;  /* commits.id */
	const char *env_fingerprint;         /* NULL: the first where both have this workload's profile */
	const char *workload;
	const char *variant;                 /* NULL: every variant profiled */
	enum fw_prof_sort sort;
	const char *match;                   /* substring of function names; NULL or "": all */
	int limit;                           /* functions per variant; <= 0: all */
};
/* fw_profile_diff (its JSON): analysis-json.h. */
/* "self", "total", "hits": 0, else -1. */
int fw_profile_sort_parse(const char *s, enum fw_prof_sort *out);
/* An entry as "FUNCTION  self +2100 us (+35%)  hits 512 -> 512" (analysis/profile-text.c). */
void fw_attribution_line(const struct fw_an_function *f, struct strbuf *out);
/* 1: the line and the ranking use self time; 0: total time (a side lacks self time). */
int fw_attribution_uses_self(const struct fw_an_function *f);

/* The one table writer (analysis/report.c): renders a series JSON. */
enum fw_report_format { FW_REPORT_TEXT, FW_REPORT_JSON, FW_REPORT_CSV };
/* FW_REPORT_TEXT is the long table (report --verbose); the cover letter's is fw_report_cover. */
int fw_report_format_parse(const char *s, enum fw_report_format *f);
void fw_report_write(const struct fw_an *an, enum fw_report_format f, struct strbuf *out);
/* The text people paste, the collector commands: fw_report_cover, fw_report_command (analysis-json.h: facts are JSON). */
/*
 * The tables of one comparison (the rows of an from i on with its commit and
 * against), one per workload/variant, as the cover letter prints them;
 * mail: 78 columns, with a %stddev column and the counters that moved.
 * Returns the index of the first row after them.
 */
size_t fw_report_tables(struct strbuf *sb, const struct fw_an *an, size_t i, int show_host, int mail);
/* "better", "worse", "same", "unsure" for the analysis' verdicts (others as they are). */
const char *fw_verdict_short(const char *verdict);
/* text wrapped at spaces under 72 columns, the first line indented by indent, the others by indent + more. */
void fw_report_wrap(struct strbuf *sb, const char *text, int indent, int more);
/* The same under width columns (the mail: 78). */
void fw_report_wrap_to(struct strbuf *sb, const char *text, int indent, int more, int width);

#endif
