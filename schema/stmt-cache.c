/*
 * The statement cache is the connection's own list of statements
 * (sqlite3_next_stmt), so there is no side table to keep in step with the
 * server's handle pool, and fw_db_close() finalizes what is left. Ingest runs
 * about 15 statements per document; preparing them anew was a quarter of its
 * time (perf, tests/bench/README.md).
 *
 * sqlite3_stmt_busy() is false for a statement handed out but not stepped
 * yet, or stepped to SQLITE_DONE: so the statements between fw_stmt_get()
 * and fw_stmt_done() are remembered per thread (a connection is used by one
 * thread at a time) and never handed out twice.
 */
#include <string.h>
#include "stmt-cache.h"

#define OUT_MAX 32
static __thread sqlite3_stmt *out[OUT_MAX];
static __thread int nout;

static int is_out(const sqlite3_stmt *st)
{
	for (int i = 0; i < nout; i++)
		if (out[i] == st)
			return 1;
	return 0;
}

sqlite3_stmt *fw_stmt_get(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (strncmp(sql, FW_STMT_MARK, sizeof(FW_STMT_MARK) - 1) || nout == OUT_MAX)
		return NULL;  /* unmarked: it could match a statement the cache does not own */
	while ((st = sqlite3_next_stmt(db, st))) {
		const char *text = sqlite3_sql(st);

		if (text && !is_out(st) && !sqlite3_stmt_busy(st) && !strcmp(text, sql))
			break;
	}
	if (!st && sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return NULL;
	}
	out[nout++] = st;
	return st;
}

void fw_stmt_done(sqlite3_stmt *st)
{
	if (!st)
		return;
	for (int i = 0; i < nout; i++)
		if (out[i] == st) {
			out[i] = out[--nout];
			break;
		}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

int fw_db_close(sqlite3 *db)
{
	sqlite3_stmt *st;

	if (!db)
		return SQLITE_OK;
	/* The cache's statements; any other still here would be a leak (and now is not). */
	while ((st = sqlite3_next_stmt(db, NULL))) {
		for (int i = 0; i < nout; i++)
			if (out[i] == st)
				out[i] = out[--nout];
		sqlite3_finalize(st);
	}
	return sqlite3_close(db);
}
