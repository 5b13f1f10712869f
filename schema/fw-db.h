#ifndef FW_DB_H
#define FW_DB_H
#include <sqlite3.h>
#include "stmt-cache.h"
#include "strbuf.h"

/* Default DB path when no --db is given (relative to the working directory). */
#define FW_DB_DEFAULT "foliowatch.db"

/*
 * Opens (creating if needed) and migrates the DB: WAL, synchronous=NORMAL,
 * foreign keys on, busy timeout. Returns NULL with a message in err on failure.
 * A DB newer than this program (user_version > known migrations) is refused.
 */
sqlite3 *fw_db_open(const char *path, struct strbuf *err);
/*
 * The same for commands that only read (report, regressions, export, token
 * list): a missing file is an error naming it, and is not created (a mistyped
 * --db must not look like an empty database).
 */
sqlite3 *fw_db_open_existing(const char *path, struct strbuf *err);
/*
 * A second connection to db's file, to read on another thread while db
 * writes (WAL: neither waits). NULL for an in-memory or temporary database
 * (err untouched) or when it cannot be opened (said in err).
 */
sqlite3 *fw_db_open_reader(sqlite3 *db, struct strbuf *err);
/* Applies migrations up to `target` (for tests of old versions); -1 = all. */
sqlite3 *fw_db_open_at(const char *path, int target, struct strbuf *err);
int fw_db_user_version(sqlite3 *db);
int fw_db_latest_version(void);
/* Runs SQL text that is part of the program (never outside input). */
int fw_db_exec(sqlite3 *db, const char *sql, struct strbuf *err);
/*
 * Write transactions: fw_db_begin starts one (BEGIN IMMEDIATE: the write lock
 * now, not at the first write); fw_db_end(db, ok, err) commits when ok, else
 * (or when COMMIT fails) rolls back. Both 0 or -1 (message in err when not
 * NULL; nothing is added for a rollback asked for with ok = 0).
 *	if (fw_db_begin(db, err)) return -1;
 *	... on error: return fw_db_end(db, 0, NULL);
 *	return fw_db_end(db, 1, err);
 */
int fw_db_begin(sqlite3 *db, struct strbuf *err);
/*
 * ANALYZE when the results table has more than doubled since the statistics
 * were taken (or never had them, past 1,000 rows): without sqlite_stat1 the
 * planner read every result of a metric per analysed row. 1 analysed, 0 not
 * needed, -1 error (err).
 */
int fw_db_analyze_if_grown(sqlite3 *db, struct strbuf *err);
int fw_db_end(sqlite3 *db, int ok, struct strbuf *err);
/*
 * PRAGMA data_version of this connection: it changes when another connection
 * commits, not with this one's own writes; -1 when it cannot be read.
 */
long long fw_db_data_version(sqlite3 *db);
/* Column i of the current row as text, "" for NULL (valid until the next step). */
const char *fw_db_text(sqlite3_stmt *st, int i);
/* The last error of this handle, for messages (never NULL). */
const char *fw_db_errmsg(sqlite3 *db);
/* 1 when the handle is inside a transaction (an error path left it open). */
int fw_db_in_transaction(sqlite3 *db);
/* Current UTC time as ISO 8601 "YYYY-MM-DDTHH:MM:SSZ". */
void fw_now_iso(char out[32]);

#endif
