#ifndef FW_STMT_CACHE_H
#define FW_STMT_CACHE_H
/*
 * Prepared statements kept with their connection (schema/stmt-cache.c).
 * The SQL must be a literal written as FW_CACHED("SELECT ..."): the leading
 * comment marks the statement as the cache's, so a statement some other code
 * prepared with the same text is never taken from under it.
 */
#include <sqlite3.h>

#define FW_STMT_MARK "/*fw-cached*/ "
#define FW_CACHED(sql) FW_STMT_MARK sql

/*
 * A ready statement for sql on db: one already prepared on this connection
 * and not handed out, or a new one. NULL if the SQL is not FW_CACHED, if 32
 * are out on this thread, or if preparing failed (sqlite3_errmsg(db) says
 * why). Hand it back with fw_stmt_done(), on the thread that got it.
 */
sqlite3_stmt *fw_stmt_get(sqlite3 *db, const char *sql);
/* Resets the statement and clears its bindings; it stays with the connection. */
void fw_stmt_done(sqlite3_stmt *st);
/* Finalizes every statement still on db (the cache's; any other would be a leak), then closes it. */
int fw_db_close(sqlite3 *db);

#endif
