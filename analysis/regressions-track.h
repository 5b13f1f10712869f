#ifndef FW_REGRESSIONS_TRACK_H
#define FW_REGRESSIONS_TRACK_H
/*
 * Which rows of an analysis are regressions to store, and which of them a
 * later commit undid (analysis/regressions-track.c), from the rows fed one at
 * a time in position order: memory by the regressions, not the rows, so the
 * detection can stream a history's stored rows instead of holding them all.
 */
#include <sqlite3.h>
#include "strbuf.h"

/* What deciding a regression needs of one row against its parent. Strings are copied when kept. */
struct fw_reg_row {
	long long commit_id;
	int position;
	const char *env, *workload, *variant, *params, *metric;
	int higher_is_better, regression;
	double a_median, b_median, min_effect_pct, delta_pct, q;
};

struct fw_reg_track;
/*
 * Rows at positions >= from are stored (new ones inserted, undone ones marked
 * fixed); rows below it only mark their stored regression fixed when undone
 * (they were stored by an earlier refresh). from < 0: every row is stored.
 */
struct fw_reg_track *fw_reg_track_new(long long series_id, int from);
void fw_reg_track_free(struct fw_reg_track *t);
/* A combined regression (over hosts) at a position: before any row of that position is fed. */
void fw_reg_track_combined(struct fw_reg_track *t, long long commit_id, int position, const char *workload,
			   const char *variant, const char *params, const char *metric, double delta_pct, double q);
/* The next row against its parent, positions never decreasing. */
void fw_reg_track_row(struct fw_reg_track *t, const struct fw_reg_row *r);
/* Writes what was found in one transaction: the number newly stored, or -1 with err. */
int fw_reg_track_store(struct fw_reg_track *t, sqlite3 *db, struct strbuf *err);

#endif
