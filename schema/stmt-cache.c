/*
 * The statement cache is the connection's own list of statements
 * (sqlite3_next_stmt), so there is no side table to keep in step with the
 * server's handle pool, and fw_db_close() finalizes what is left. Ingest runs
 * about 15 statements per document; preparing them anew was a quarter of its
 * time (perf, tests/bench/README.md).
 */
#include <string.h>
#include "stmt-cache.h"

sqlite3_stmt *fw_stmt_get(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (strncmp(sql, FW_STMT_MARK, sizeof(FW_STMT_MARK) - 1))
		return NULL;  /* unmarked: it could match a statement the cache does not own */
	while ((st = sqlite3_next_stmt(db, st))) {
		const char *text = sqlite3_sql(st);

		/* Idle means reset and handed back: fw_stmt_done() clears the bindings. */
		if (text && !sqlite3_stmt_busy(st) && !strcmp(text, sql))
			return st;
	}
	if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

void fw_stmt_done(sqlite3_stmt *st)
{
	if (!st)
		return;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

int fw_db_close(sqlite3 *db)
{
	sqlite3_stmt *st;

	if (!db)
		return SQLITE_OK;
	while ((st = sqlite3_next_stmt(db, NULL)))
		sqlite3_finalize(st);
	return sqlite3_close(db);
}
