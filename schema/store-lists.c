/*
 * Read-side lists for the front page and the feeds (see store.h): each row is
 * handed to a callback as a typed struct whose strings live until it returns.
 */
#include <stddef.h>
#include "fw-db.h"
#include "store.h"

int fw_store_env_table(sqlite3 *db, int (*each)(const struct fw_store_env_info *e, void *ctx), void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (!db || sqlite3_prepare_v2(db, "SELECT e.fingerprint, e.host, e.accel, e.vcpus, e.memory_mib, e.qemu_version,"
				      " e.host_kernel, (SELECT count(*) FROM runs r WHERE r.env_id = e.id)"
				      " FROM environments e ORDER BY e.host, e.fingerprint", -1, &st, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fw_store_env_info e = {
			.fingerprint = fw_db_text(st, 0), .host = fw_db_text(st, 1), .accel = fw_db_text(st, 2),
			.vcpus = sqlite3_column_int(st, 3), .memory_mib = sqlite3_column_int(st, 4),
			.qemu_version = fw_db_text(st, 5), .host_kernel = fw_db_text(st, 6), .runs = sqlite3_column_int(st, 7),
		};

		if (each(&e, ctx))
			break;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int fw_store_open_regressions(sqlite3 *db, int limit,
			      int (*each)(const struct fw_store_regression_brief *g, void *ctx), void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (!db || sqlite3_prepare_v2(db, "SELECT s.name, g.workload, g.variant, g.metric, c.sha, g.delta_pct, g.status,"
				      " g.env_fingerprint"
				      " FROM regressions g JOIN series s ON s.id = g.series_id"
				      " JOIN commits c ON c.id = g.commit_id WHERE g.status IN ('new', 'acknowledged')"
				      /* Newest revision only: commit links lead to the revision the pages show. */
				      " AND s.revision = (SELECT max(t.revision) FROM series t WHERE t.name = s.name)"
				      " ORDER BY g.created_at DESC, g.id DESC LIMIT ?1", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int(st, 1, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fw_store_regression_brief g = {
			.series = fw_db_text(st, 0), .workload = fw_db_text(st, 1), .variant = fw_db_text(st, 2), .metric = fw_db_text(st, 3),
			.sha = fw_db_text(st, 4), .delta_pct = sqlite3_column_double(st, 5), .status = fw_db_text(st, 6),
			.env_fingerprint = fw_db_text(st, 7),
		};

		if (each(&g, ctx))
			break;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int fw_store_newest_series(sqlite3 *db, const char *name, int limit,
			   int (*each)(const struct fw_store_series_brief *s, void *ctx), void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (!db || sqlite3_prepare_v2(db,
				      "SELECT s.name, s.revision, (SELECT max(r.ingested_at) FROM runs r JOIN commits c "
				      "ON c.id = r.commit_id WHERE c.series_id = s.id) AS t FROM series s "
				      "WHERE (?1 IS NULL OR s.name = ?1) AND s.revision = "
				      "(SELECT max(revision) FROM series x WHERE x.name = s.name) ORDER BY t DESC LIMIT ?2",
				      -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (name)
		sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 2, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(st, 2);
		struct fw_store_series_brief s = {
			.name = fw_db_text(st, 0), .revision = sqlite3_column_int(st, 1),
			.last_ingest = t ? (const char *)t : NULL,
		};

		if (each(&s, ctx))
			break;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int fw_store_series_list(sqlite3 *db, int (*each)(const struct fw_store_series_summary *s, void *ctx), void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (!db || sqlite3_prepare_v2(db, "SELECT s.name, s.revision, s.base, s.created_at,"
				      " (SELECT count(*) FROM commits c WHERE c.series_id = s.id),"
				      " (SELECT count(*) FROM runs r JOIN commits c ON c.id = r.commit_id WHERE c.series_id = s.id),"
				      " (SELECT max(r.ingested_at) FROM runs r JOIN commits c ON c.id = r.commit_id"
				      "   WHERE c.series_id = s.id),"
				      " (SELECT count(*) FROM runs r JOIN commits c ON c.id = r.commit_id"
				      "   WHERE c.series_id = s.id AND (r.boot_status <> 'ok' OR r.taint <> 0)),"
				      " (SELECT count(*) FROM builds b JOIN commits c ON c.id = b.commit_id"
				      "   WHERE c.series_id = s.id AND b.status = 'failed')"
				      " FROM series s WHERE s.revision = (SELECT max(revision) FROM series t WHERE t.name = s.name)"
				      " ORDER BY s.name", -1, &st, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *last = sqlite3_column_text(st, 6);
		struct fw_store_series_summary s = {
			.name = fw_db_text(st, 0), .revision = sqlite3_column_int(st, 1), .base = fw_db_text(st, 2),
			.created_at = fw_db_text(st, 3), .commits = sqlite3_column_int(st, 4), .runs = sqlite3_column_int(st, 5),
			.last_ingest = last ? (const char *)last : NULL, .failed_boots = sqlite3_column_int(st, 7),
			.failed_builds = sqlite3_column_int(st, 8),
		};

		if (each(&s, ctx))
			break;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int fw_store_series_configs(sqlite3 *db, long long series_id,
			    int (*each)(const char *hash, const char *body, void *ctx), void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (!db || sqlite3_prepare_v2(db, "SELECT DISTINCT k.hash, k.body FROM configs k"
				      " JOIN builds b ON b.config_hash = k.hash JOIN commits c ON c.id = b.commit_id"
				      " WHERE c.series_id = ?1", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, series_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (each(fw_db_text(st, 0), fw_db_text(st, 1), ctx))
			break;
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : rc == SQLITE_ROW ? 1 : -1;
}
