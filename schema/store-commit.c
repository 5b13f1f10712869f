/*
 * Read-side: what the commit page shows of one commit (see store.h): its
 * builds, boots, every result with its samples and counters, and a stored
 * .config. Rows go to a callback as typed structs whose strings live until
 * it returns.
 */
#include <stdlib.h>
#include "fw-db.h"
#include "store.h"
#include "xalloc.h"

/* NaN when not measured (NULL): the page says "unknown", never a made-up 0. */
static double seconds_or_nan(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? FW_STORE_UNKNOWN : sqlite3_column_double(st, i);
}

static int done(sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int fw_store_commit_builds(sqlite3 *db, long long commit_id,
			   int (*each)(const struct fw_store_build *b, void *ctx), void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc;

	/* one per config: a build reused by other environments is reported again with 0 seconds */
	if (sqlite3_prepare_v2(db, "SELECT b.status, max(b.seconds), b.kernel_version, b.compiler,"
			       " b.config_hash, b.log_tail, group_concat(e.fingerprint, char(31)),"
			       " (SELECT count(*) FROM configs k WHERE k.hash = b.config_hash)"
			       " FROM builds b JOIN environments e ON e.id = b.env_id WHERE b.commit_id = ?1"
			       " GROUP BY b.config_hash ORDER BY min(b.id)", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, commit_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fw_store_build b = {
			.status = fw_db_text(st, 0), .seconds = seconds_or_nan(st, 1), .kernel_version = fw_db_text(st, 2),
			.compiler = fw_db_text(st, 3), .config_hash = fw_db_text(st, 4), .log_tail = fw_db_text(st, 5),
			.env_fingerprints = fw_db_text(st, 6), .config_stored = sqlite3_column_int(st, 7) > 0,
		};

		if (each(&b, ctx))
			break;
	}
	return done(st, rc);
}

int fw_store_commit_boots(sqlite3 *db, long long commit_id,
			  int (*each)(const struct fw_store_boot *b, void *ctx), void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT r.id, r.run_id, r.boot_status, r.taint, r.boot_seconds, r.qemu_cmdline,"
			       " r.kernel_cmdline, r.boot_log_tail, r.profile, r.boot_index, e.accel, e.host,"
			       " e.fingerprint FROM runs r JOIN environments e ON e.id = r.env_id"
			       " WHERE r.commit_id = ?1 ORDER BY r.boot_index, r.id", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, commit_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fw_store_boot b = {
			.id = sqlite3_column_int64(st, 0), .run_id = fw_db_text(st, 1), .status = fw_db_text(st, 2),
			.taint = sqlite3_column_int(st, 3), .seconds = seconds_or_nan(st, 4),
			.qemu_cmdline = fw_db_text(st, 5), .kernel_cmdline = fw_db_text(st, 6), .log_tail = fw_db_text(st, 7),
			.profile = fw_db_text(st, 8), .boot_index = sqlite3_column_int(st, 9), .accel = fw_db_text(st, 10),
			.host = fw_db_text(st, 11), .env_fingerprint = fw_db_text(st, 12),
		};

		if (each(&b, ctx))
			break;
	}
	return done(st, rc);
}

/* The samples of one result, in round order, into r->samples (grown as needed). */
static int load_samples(sqlite3_stmt *ss, long long result_id, double **buf, int *alloc, int *n)
{
	int rc;

	*n = 0;
	sqlite3_reset(ss);
	sqlite3_bind_int64(ss, 1, result_id);
	while ((rc = sqlite3_step(ss)) == SQLITE_ROW) {
		FW_ALLOC_GROW(*buf, *n + 1, *alloc);
		(*buf)[(*n)++] = sqlite3_column_double(ss, 0);
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

int fw_store_run_results(sqlite3 *db, long long run, int (*each)(const struct fw_store_result *r, void *ctx),
			 void *ctx)
{
	sqlite3_stmt *st = NULL, *ss = NULL;
	double *buf = NULL;
	int alloc = 0, rc = SQLITE_ERROR;

	if (sqlite3_prepare_v2(db, "SELECT id, workload, variant, metric, unit, params, error FROM results"
			       " WHERE run_id = ?1 ORDER BY workload, variant, metric", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT value FROM samples WHERE result_id = ?1 ORDER BY round",
			       -1, &ss, NULL) != SQLITE_OK)
		goto cleanup;
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fw_store_result r = {
			.id = sqlite3_column_int64(st, 0), .workload = fw_db_text(st, 1), .variant = fw_db_text(st, 2),
			.metric = fw_db_text(st, 3), .unit = fw_db_text(st, 4), .params = fw_db_text(st, 5),
			.error = sqlite3_column_type(st, 6) == SQLITE_NULL ? NULL : fw_db_text(st, 6),
		};

		if (!r.error && load_samples(ss, r.id, &buf, &alloc, &r.nsamples)) {
			rc = SQLITE_ERROR;
			break;
		}
		r.samples = buf;
		if (each(&r, ctx))
			break;
	}
cleanup:
	sqlite3_finalize(ss);
	free(buf);
	return done(st, rc);
}

int fw_store_result_counters(sqlite3 *db, long long result_id,
			     int (*each)(const struct fw_store_counter *c, void *ctx), void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT name, round, value FROM counters WHERE result_id = ?1"
			       " ORDER BY name, round", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, result_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fw_store_counter c = {
			.name = fw_db_text(st, 0), .round = sqlite3_column_int(st, 1), .value = sqlite3_column_double(st, 2),
		};

		if (each(&c, ctx))
			break;
	}
	return done(st, rc);
}

int fw_store_config(sqlite3 *db, const char *hash, struct strbuf *body)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT body FROM configs WHERE hash = ?1", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		strbuf_addstr(body, fw_db_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}
