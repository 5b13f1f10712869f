#ifndef FW_SQL_PLANS_H
#define FW_SQL_PLANS_H
/*
 * FW_SQL_PLANS=FILE (schema/sql-plans.c): every statement a connection runs is
 * appended to FILE once per process with its query plan, for the test that no
 * query of the analysis or the pages scans a whole big table (issue 31:
 * t1108). Unset, nothing is traced.
 */
#include <sqlite3.h>

/* Traces db (opened on path) when FW_SQL_PLANS is set. */
void fw_sql_plans_attach(sqlite3 *db, const char *path);

#endif
