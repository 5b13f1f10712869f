#ifndef FW_REGRESSIONS_DB_H
#define FW_REGRESSIONS_DB_H
/*
 * Stored regressions (schema/regressions-db.c): the analysis decides what is
 * a regression (analysis/regressions.c); this reads and writes the rows.
 */
#include <sqlite3.h>
#include "strbuf.h"

/* What makes a regression one: one per series, environment, metric and commit. */
struct fw_regression_key {
	long long series_id, commit_id;
	const char *env_fingerprint, *workload, *variant, *metric;
};

/* Two prepared statements for one pass of storing (inside the caller's transaction). */
struct fw_regression_writer {
	sqlite3 *db;
	sqlite3_stmt *insert, *fix, *in_bisect;
};
/* 0, or -1 with err. Close it whatever happened. */
int fw_regression_writer_open(struct fw_regression_writer *w, sqlite3 *db, struct strbuf *err);
void fw_regression_writer_close(struct fw_regression_writer *w);
/* Stores a new regression ("new", by the analysis) unless known: 1 stored, 0 known, -1 DB error. q NaN: none. */
int fw_regression_insert(struct fw_regression_writer *w, const struct fw_regression_key *k, double delta_pct,
			 double q, const char *now);
/*
 * Is k's commit inside the range of a bisect of its workload still running
 * (started less than a day ago)? 1, 0, or -1 DB error. Its verdict there
 * waits: the bisect moves the regression found at the bad end to the
 * culprit, and a midpoint's own verdict must not open a second one.
 */
int fw_regression_in_bisect(struct fw_regression_writer *w, const struct fw_regression_key *k);
/* Marks it fixed by the analysis when it is new or acknowledged: 0, or -1 DB error. */
int fw_regression_mark_fixed(struct fw_regression_writer *w, const struct fw_regression_key *k, const char *now);

/* One stored regression with its commit and series; strings live until the callback returns. */
struct fw_regression_row {
	long long id, commit_id;
	const char *series, *env_fingerprint, *workload, *variant, *metric, *sha, *subject, *status, *status_by,
		*status_at, *created_at, *status_note;
	int revision;
	double delta_pct, p_value;  /* p_value NaN: none stored */
	const char *found_sha;      /* moved to a bisect's culprit: the commit it was found at; else NULL */
	long long bisect_id;        /* the bisect that moved it, 0 none */
	int position;               /* its commit's position in the series */
	int first_position, last_position;  /* the series revision's */
};
/* One status change of a regression, oldest first. */
struct fw_regression_change {
	const char *status, *by, *note, *at;
};
/*
 * The regressions (series and status NULL: any; id > 0: only that one), by
 * series, revision, position, metric: each() gets the row, then history()
 * each of its status changes. 0, 1 stopped by a callback, -1 with err.
 */
int fw_regressions_read(sqlite3 *db, const char *series, const char *status, long long id,
			int (*each)(const struct fw_regression_row *g, void *ctx),
			int (*history)(const struct fw_regression_change *h, void *ctx), void *ctx, struct strbuf *err);
/* Sets a regression's status (checked by the caller): 0, 1 no such regression, -1 with err. */
int fw_regression_write_status(sqlite3 *db, long long id, const char *status, const char *who, const char *note,
			       const char *now, struct strbuf *err);
/* The distinct series names (only `series` when not NULL), by name; each one a malloc'd string in *names. */
int fw_store_series_names(sqlite3 *db, const char *series, char ***names, int *n, struct strbuf *err);

#endif
