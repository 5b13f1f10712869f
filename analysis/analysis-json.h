#ifndef FW_ANALYSIS_JSON_H
#define FW_ANALYSIS_JSON_H
/*
 * The JSON edge of the analysis (issue 28). The cache stores, and the API
 * answers, the analysis as JSON; this header hands out that tree and the
 * results that are JSON still. tests/check-layers.sh lists the files that may
 * include it: the edge (answers, the report's JSON/CSV writer, the cache) and,
 * as a debt that only shrinks, the readers not yet typed. Everyone else reads
 * struct fw_an (analysis.h).
 */
#include <cjson/cJSON.h>
#include "analysis.h"

/* The typed result of tree, which it takes (NULL: out of memory or tree NULL; tree freed). */
struct fw_an *fw_an_from_json(cJSON *tree);
/* The tree of an (the series JSON of analysis.h's comment); valid while an lives. */
const cJSON *fw_an_json(const struct fw_an *an);
/* Row r's object in that tree. */
const cJSON *fw_an_row_json(const struct fw_an *an, const struct fw_an_row *r);
/* A profile entry (fw_profile_diff's functions[]) typed; strings point into o. */
void fw_an_function_read(const cJSON *o, struct fw_an_function *f);
/* Stored regressions typed from their list (which they take; NULL: out of memory, list freed). */
struct fw_regs *fw_regs_from_json(cJSON *list);
/* One regression of the list's shape typed (history not read); strings point into o. */
void fw_reg_read(const cJSON *o, struct fw_reg *g);
/* The sequential answer typed (it takes u; NULL: out of memory, u freed). */
struct fw_undecided *fw_undecided_from_json(cJSON *u);
/* A profile diff (fw_profile_diff's, or an answer built on it) typed; it takes diff (NULL: out of memory). */
struct fw_prof_diff *fw_prof_diff_from_json(cJSON *diff);
/* The list, and one entry's object in it; valid while regs lives. */
const cJSON *fw_regs_json(const struct fw_regs *regs);
const cJSON *fw_reg_json(const struct fw_regs *regs, const struct fw_reg *g);

/*
 * Lists stored regressions (series/status may be NULL = any) as a JSON array
 * of { id, series, revision, env_fingerprint, workload, variant, metric,
 * commit_id, sha, subject, delta_pct, p_value, status, status_by, status_at, created_at }.
 */
int fw_regressions_list(sqlite3 *db, const char *series, const char *status,
			cJSON **out, struct strbuf *err);
/* One stored regression (an object as in the list) by id: 0, 1 when there is none, -1 (err). */
int fw_regression_get(sqlite3 *db, long long id, cJSON **out, struct strbuf *err);

/*
 * The sequential design's question (the collector asks it between rounds of
 * boots): which rows of `series` (revision <= 0: newest) are still unsure
 * while an effect of the metric's minimum size is still possible, and how many
 * boots would decide them. Analyses with K = s->max_looks looks (alpha spent
 * over them as the report will when the boots record `sequential.max_looks` K).
 * The collector must write look k (1..K) and max_looks K into each document it
 * boots for look k, and ask again after each look; at most K looks.
 *
 * *out (caller cJSON_Delete()s):
 * { "series", "revision", "max_looks": K, "alpha_at_looks": [...], "max_boots",
 *   "look": the largest look recorded so far (0: none recorded),
 *   "final": true when look >= K: no further look may be taken (commits is empty),
 *   "rows": [ { commit_id, sha, position, ref_commit_id, ref_sha, env_fingerprint, host, accel,
 *               workload, variant, params, metric, mode, boots_a, boots_b, delta_pct, mde_pct,
 *               min_effect_pct, boots_needed (per side; null: no number of boots decides it),
 *               reachable (boots_needed <= max_boots) } ]   (unsure rows against the parent),
 *   "commits": [ { commit_id, sha, position, env_fingerprint, host, accel, boots_next,
 *                  "workloads": [ { workload, boots, boots_next } ] } ] }
 * Every commit (in each environment) on either side of an unsure row is listed
 * with, per workload of its unsure rows, the boots that workload has there
 * and boots_next, the total to have after the next look: the largest
 * boots_needed of its rows (sized for the last look's share of alpha), at most
 * twice what it has (so early looks can stop early), at least one more, at
 * most max_boots; at the last look (look + 1 == K) the largest boots_needed up
 * to max_boots. A boot may run only the
 * workloads listed (one boot runs every workload it is asked for; a decided
 * workload needs no more). The commit's boots_next is the largest of its
 * workloads'. Rows that cannot be decided within max_boots still get boots up
 * to it (a large effect can still show) but are flagged reachable: false.
 * Only rows against the parent count (rows against the base follow from them);
 * combined (multi-host) rows are not considered. 0, or -1 with err.
 */
int fw_analysis_undecided(sqlite3 *db, const char *series, int revision,
			  const struct fw_analysis_opts *o, const struct fw_seq_opts *s,
			  cJSON **out, struct strbuf *err);

int fw_profile_diff(sqlite3 *db, const struct fw_prof_query *q, cJSON **out, struct strbuf *err);
/*
 * Adds "attribution" to an analysis row: the top 5 functions by self time
 * between its ref_commit_id and commit_id (same environment, workload,
 * variant), entries as in fw_profile_diff; nothing when a side has no profile.
 */
int fw_profile_attribution(sqlite3 *db, cJSON *row, struct strbuf *err);

/*
 * The text people paste (analysis/report-cover.c): per patch, Before / After
 * tables at most 72 columns wide, the series against its base, how it was
 * measured. facts: fw_mail_facts' (schema/store.h), or NULL.
 */
void fw_report_cover(const struct fw_an *an, const cJSON *facts, struct strbuf *out);
/*
 * What moved (analysis/report-moved.c): report's default text. Per patch only
 * the rows decided better or worse, a line for the unsure ones and what they
 * need, one for the tables that did not move; fw_report_cover is every row.
 */
void fw_report_moved(const struct fw_an *an, const cJSON *facts, struct strbuf *out);
/*
 * What moved as Markdown (analysis/report-markdown.c), for a merge-request
 * comment: a count of what moved, the what-moved text in a fenced block,
 * every row folded in <details>.
 */
void fw_report_markdown(const struct fw_an *an, const cJSON *facts, struct strbuf *out);
/* Which text: what moved (the default), every row (--all, ?all=1), the long table (--verbose). */
enum fw_report_view { FW_VIEW_MOVED, FW_VIEW_ALL, FW_VIEW_VERBOSE };
/* The collector command that measures series s the same way in environment env (facts' envs[i]). */
void fw_report_command(struct strbuf *b, const struct fw_an *s, const cJSON *env, size_t width);
/*
 * The same for one commit against the commit it was compared with (a
 * bisect's culprit and its parent): run --range parent..culprit, one
 * workload; only (NULL: none) measures just these commits of the range.
 */
void fw_report_command_range(struct strbuf *b, const char *series, const char *parent, const char *culprit,
			     const char *only, const char *workload, const cJSON *env, size_t width);

#endif
