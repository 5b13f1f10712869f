#ifndef FW_STORE_ANALYSIS_H
#define FW_STORE_ANALYSIS_H
/*
 * What the analysis reads besides the series' samples (schema/store-analysis.c):
 * typed rows to a callback whose strings live until it returns; a callback
 * returning non-zero stops the list. 0, or -1 with err.
 */
#include <sqlite3.h>
#include "strbuf.h"

/* One result of one commit: a row of the series table names one on each side. */
struct fw_store_result_key {
	long long commit_id;
	const char *env_fingerprint, *workload, *variant, *params, *metric;
};
/* Every counter value of the ok boots' results of k, by name then value (so a median is direct). */
int fw_store_counter_values(sqlite3 *db, const struct fw_store_result_key *k,
			    int (*each)(const char *name, double value, void *ctx), void *ctx, struct strbuf *err);

/* One commit's kernel profile of a workload/variant in one environment (ok boots). */
struct fw_store_profile_key {
	long long commit_id;
	const char *env_fingerprint, *workload, *variant;  /* env NULL: "" */
};
/* How many boots have that profile, or -1 with err. */
int fw_store_profile_boots(sqlite3 *db, const struct fw_store_profile_key *k, struct strbuf *err);
/* One function of one boot's profile; self_us NaN when that boot did not measure it. */
struct fw_store_profile_row {
	const char *function;
	double hits, time_us, self_us;
};
/* Every function of every boot, by function then boot. 0, 1 stopped by each(), -1 with err. */
int fw_store_profile_rows(sqlite3 *db, const struct fw_store_profile_key *k,
			  int (*each)(const struct fw_store_profile_row *p, void *ctx), void *ctx, struct strbuf *err);
/* The first environment (by fingerprint) where both commits have a profile of workload, into env:
 * 1 found, 0 none, -1 with err. */
int fw_store_profile_env(sqlite3 *db, long long base_commit, long long head_commit, const char *workload,
			 struct strbuf *env, struct strbuf *err);
/* The variants of workload profiled on either commit in env, by name. 0, 1 stopped by each(), -1 with err. */
int fw_store_profile_variants(sqlite3 *db, long long base_commit, long long head_commit, const char *env,
			      const char *workload, int (*each)(const char *variant, void *ctx), void *ctx,
			      struct strbuf *err);

/* A series revision (revision <= 0: the newest): 1 found (base malloc'd; watched: decided commit by commit), 0 none, -1 with err. */
int fw_store_series_ref(sqlite3 *db, const char *name, int revision, long long *id, int *revision_out,
			char **base, int *watched, struct strbuf *err);

/* What an analysis reads: a series' commits (series_id > 0), or the two commits a and b (a first). */
struct fw_store_scope {
	long long series_id, commit_a, commit_b;
	/* span: the series' samples of positions from..to and of commit also only (a history's part) */
	int span, from, to;
	long long also;
};
/* One commit: by position (a series) or a, b (a pair); parent_sha NULL when none was declared. */
struct fw_store_commit_row {
	long long id;
	const char *sha, *key, *subject, *parent_sha;
	int position;
};
int fw_store_scope_commits(sqlite3 *db, const struct fw_store_scope *sc,
			   int (*each)(const struct fw_store_commit_row *c, void *ctx), void *ctx, struct strbuf *err);
/*
 * One sample of an ok boot's result without error, in no particular order
 * (the analysis sorts them). run_id: the run's row; run_key: its document's
 * run_id. min_effect_pct NaN: not declared; max_looks, look 0: not recorded.
 */
struct fw_store_obs {
	long long commit_id, run_id;
	const char *run_key;
	int round;
	const char *env_fingerprint, *host, *accel, *workload, *variant, *params, *metric, *unit, *direction, *kind;
	double min_effect_pct, value;
	int max_looks, look;
};
int fw_store_scope_samples(sqlite3 *db, const struct fw_store_scope *sc,
			   int (*each)(const struct fw_store_obs *o, void *ctx), void *ctx, struct strbuf *err);

/* The same-kernel evidence of an environment, read many times per analysis: statements kept open. */
struct fw_store_evidence {
	sqlite3 *db;
	sqlite3_stmt *samples, *kernels;
};
int fw_store_evidence_open(struct fw_store_evidence *ev, sqlite3 *db, struct strbuf *err);
void fw_store_evidence_close(struct fw_store_evidence *ev);
/* The kernels (builds) of env up to run max_run, newest first, with their ok boots. 0, 1 stopped, -1 with err. */
int fw_store_evidence_kernels(struct fw_store_evidence *ev, const char *env_fingerprint, long long max_run,
			      int (*each)(long long build_id, long long boots, void *ctx), void *ctx, struct strbuf *err);
/* The samples of one metric (workload, variant, params, metric) in env, of ok boots of builds >= min_build up
 * to run max_run, by build, run, round. 0, -1 with err. */
int fw_store_evidence_samples(struct fw_store_evidence *ev, const struct fw_store_result_key *k, long long max_run,
			      long long min_build,
			      int (*each)(long long build_id, long long run_id, double value, void *ctx), void *ctx,
			      struct strbuf *err);

/*
 * The sha256 (hex) of what the analysis of a series rests on: each run (id,
 * content hash, boot status), then each environment's run count and newest
 * run up to the series' newest run. Remembered per database and runs
 * generation (schema/runs-digest.c). 0, or -1 with err.
 */
int fw_store_series_runs_digest(sqlite3 *db, long long series_id, char out[65], struct strbuf *err);

/*
 * The cached analysis of a series (schema/store-analysis-rows.c): a head (the
 * result without its rows) and the rows, each stored with what a page selects
 * it by, so that a page reads its window or its metric through an index.
 */
struct fw_store_cache_row {
	int position;            /* the row's commit */
	const char *metric_key;  /* workload/variant/metric */
	int decided;             /* a regression or an improvement against the parent */
	const char *body;
};
/* Which rows: positions from..to (either < 0: open), one metric_key (NULL: all), decided ones (against the parent) only. */
struct fw_store_cache_part {
	int from, to;
	const char *metric_key;
	int decided_only;
};
/*
 * Replaces key's cache with head and the rows next() gives (it returns 1 for
 * a row, 0 at the end), in one transaction (or the caller's). 0, or -1 not
 * written (most callers ignore it: a cache that cannot be written only costs time).
 */
int fw_store_cache_put(sqlite3 *db, const char *key, const char *hash, const char *head, const char *now,
			long long compute_ms, int (*next)(struct fw_store_cache_row *row, void *ctx), void *ctx);
/*
 * Replaces the rows of key at positions ranges[2i]..ranges[2i+1] (n ranges)
 * with the rows next() gives and the head with head, only when the cache is
 * still at data old_hash; new_hash is the data it is at then. 0 done, -1 not
 * (changed meanwhile, or an error: the caller computes the whole instead).
 */
int fw_store_cache_patch(sqlite3 *db, const char *key, const char *old_hash, const char *new_hash,
			 const char *head, const char *now, long long compute_ms, const int *ranges, size_t n,
			 int (*next)(struct fw_store_cache_row *row, void *ctx), void *ctx);
/*
 * A series' runs as a history's analysis tracks them: *count and *max_id of
 * all its runs, *count_upto of those with id <= upto, and each() gets the
 * position of every commit with a run newer than upto. 0, or -1 with err.
 */
int fw_store_series_runs_since(sqlite3 *db, long long series_id, long long upto, long long *count,
			       long long *max_id, long long *count_upto, int (*each)(int position, void *ctx),
			       void *ctx, struct strbuf *err);
/* How long key's cached analysis took to compute (whatever its data), -1 when none is cached. */
long long fw_store_cache_compute_ms(sqlite3 *db, const char *key);
/*
 * When key's cache was computed from data hash (NULL: whatever data): 1, its head appended to head
 * (unless head is NULL) and the rows of part (all when part is NULL) given to each() in table order,
 * all read in one snapshot; 0 when not cached (or each() stopped).
 */
int fw_store_cache_get(sqlite3 *db, const char *key, const char *hash, const struct fw_store_cache_part *part,
		       struct strbuf *head, int (*each)(const char *body, void *ctx), void *ctx);
/* 1 when the stored regressions were refreshed from key's cache at data hash, else 0. */
int fw_store_cache_regressions_stored(sqlite3 *db, const char *key, const char *hash);
/* Records that they were (errors ignored: the next refresh redoes it). */
void fw_store_cache_mark_regressions(sqlite3 *db, const char *key, const char *hash);

#endif
