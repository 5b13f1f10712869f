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

#endif
