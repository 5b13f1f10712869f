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
/* Applies migrations up to `target` (for tests of old versions); -1 = all. */
sqlite3 *fw_db_open_at(const char *path, int target, struct strbuf *err);
int fw_db_user_version(sqlite3 *db);
int fw_db_latest_version(void);
/* Runs SQL text that is part of the program (never outside input). */
int fw_db_exec(sqlite3 *db, const char *sql, struct strbuf *err);
/* Current UTC time as ISO 8601 "YYYY-MM-DDTHH:MM:SSZ". */
void fw_now_iso(char out[32]);

#endif
