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

#endif
