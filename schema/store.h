#ifndef FW_STORE_H
#define FW_STORE_H
/*
 * The read side of the database, for callers that must tell "unknown name"
 * from "nothing there" (a gate on a mistyped series must fail, not pass).
 */
#include <sqlite3.h>

/* 1 when a series of that name is stored, 0 when not, -1 on a database error. */
int fw_store_series_exists(sqlite3 *db, const char *name);

#endif
