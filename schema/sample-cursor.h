#ifndef FW_SAMPLE_CURSOR_H
#define FW_SAMPLE_CURSOR_H
/*
 * Every sample of a series revision, one row at a time, on a connection of
 * its own (schema/sample-cursor.c): the series CSV of a long history is
 * streamed with bounded memory (issue 31) instead of being built whole (1.7 GB
 * at 6,000 commits). Order: position, commit, run, then workload, variant,
 * metric, round (the order of fw_series_csv): a history's rows in the order
 * it grew, read off the indexes with no sort.
 */
#include "strbuf.h"

struct fw_sample_cursor;
/* One sample; its strings live until the next call. */
struct fw_sample_row {
	int position;
	const char *sha, *workload, *variant, *metric, *unit, *direction, *env;
	long long run;
	double value;
};
/* Samples of commits at positions from..to of series series_id; NULL with err. */
struct fw_sample_cursor *fw_sample_cursor_open(const char *dbpath, long long series_id, int from, int to,
					       struct strbuf *err);
/* 1 a row, 0 the end, -1 a DB error (said in err). */
int fw_sample_cursor_next(struct fw_sample_cursor *c, struct fw_sample_row *row, struct strbuf *err);
void fw_sample_cursor_close(struct fw_sample_cursor *c);

#endif
