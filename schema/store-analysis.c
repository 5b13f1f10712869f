/*
 * Read-side queries of the analysis (see store-analysis.h): the analysis
 * computes, the store reads. Rows go to a callback; its strings live until
 * it returns.
 */
#include <stddef.h>
#include "store-analysis.h"

int fw_store_counter_values(sqlite3 *db, const struct fw_store_result_key *k,
			    int (*each)(const char *name, double value, void *ctx), void *ctx, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT ct.name, ct.value FROM counters ct JOIN results res ON res.id = ct.result_id "
			       "JOIN runs r ON r.id = res.run_id JOIN environments e ON e.id = r.env_id "
			       "WHERE r.commit_id = ?1 AND e.fingerprint = ?2 AND r.boot_status = 'ok' AND res.workload = ?3 "
			       "AND res.variant = ?4 AND res.params = ?5 AND res.metric = ?6 ORDER BY ct.name, ct.value",
			       -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "loading counters: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_int64(st, 1, k->commit_id);
	sqlite3_bind_text(st, 2, k->env_fingerprint, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, k->workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, k->variant, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, k->params, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, k->metric, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *name = sqlite3_column_text(st, 0);

		if (each(name ? (const char *)name : "", sqlite3_column_double(st, 1), ctx))
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		strbuf_addf(err, "loading counters: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}
