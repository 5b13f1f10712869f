#ifndef FW_BISECT_DB_H
#define FW_BISECT_DB_H
/*
 * Stored bisects (migration 0011; schema/bisect-db.c): the collector's bisect
 * writes its record as it goes, the server reads it for the regression and
 * commit pages and the API.
 */
#include <sqlite3.h>
#include "strbuf.h"

struct fw_bisect_record {
	long long id;
	const char *series, *workload, *variant, *metric, *direction, *good_sha, *bad_sha, *state;
	const char *culprit_sha, *range_lo_sha, *range_hi_sha, *why;  /* NULL: none */
	const char *steps;          /* a JSON array: { sha, position, boots, verdict } per step */
	const char *started_at, *finished_at;
	long long boots;
	double seconds;
};

/* A running bisect of series' newest revision: its id, or -1 with err (no such series, DB error). */
long long fw_bisect_db_begin(sqlite3 *db, const struct fw_bisect_record *r, struct strbuf *err);
/* Writes state, culprit, range, why, steps, boots, seconds and finished_at of r->id: 0, or -1 with err. */
int fw_bisect_db_update(sqlite3 *db, const struct fw_bisect_record *r, struct strbuf *err);
/*
 * A bisect that found its culprit explains a metric moved at the culprit
 * (the bisected one, or another the same range moved): the stored
 * regressions of that metric at bad move to the culprit (keeping id, status
 * and history; found_commit_id remembers bad, bisect_id the bisect), unless
 * the culprit has one of that key already. The number moved, or -1 with err.
 */
int fw_bisect_db_move_regressions(sqlite3 *db, long long id, const char *workload, const char *variant,
				  const char *metric, struct strbuf *err);
/*
 * The bisects of series (NULL: all) or the one of id (> 0), newest first:
 * 0, 1 stopped by each, -1 with err.
 */
int fw_bisect_db_read(sqlite3 *db, const char *series, long long id,
		      int (*each)(const struct fw_bisect_record *r, void *ctx), void *ctx, struct strbuf *err);
/* Has commit sha of series a run that did not boot (its build failed, it panicked, hung...)? 1, 0, or -1. */
int fw_bisect_db_commit_failed(sqlite3 *db, const char *series, const char *sha);
/* Boots of series (every revision) that measured: what a bisect spends. -1 on error. */
long long fw_bisect_db_boots(sqlite3 *db, const char *series);
/*
 * Bisects of r's series, range and workload still "running" are ones a kill
 * interrupted (the caller holds the range's lock): they become "gave up"
 * with why, finished at r->started_at. How many, or -1 with err.
 */
int fw_bisect_db_abandon(sqlite3 *db, const struct fw_bisect_record *r, struct strbuf *err);

#endif
