/* Read-side lookups of series by name, and the count of runs (see store.h). */
#include <stddef.h>
#include "store.h"

int fw_store_series_exists(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM series WHERE name = ?1 LIMIT 1", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

long long fw_store_run_count(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	long long n = -1;

	if (db && sqlite3_prepare_v2(db, "SELECT count(*) FROM runs", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

int fw_store_run_exists(sqlite3 *db, const char *run_id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (!db || sqlite3_prepare_v2(db, "SELECT 1 FROM runs WHERE run_id = ?1", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}
