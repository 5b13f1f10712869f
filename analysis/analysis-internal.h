#ifndef FW_ANALYSIS_INTERNAL_H
#define FW_ANALYSIS_INTERNAL_H
/* Shared between analysis-row.c (numbers -> row, no SQL) and analysis-db.c / regressions.c. */
#include <stddef.h>
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include "strbuf.h"
#include "analysis.h"

/* Bumped when the analysis changes, so cached results computed by an older one are not reused. */
#define FW_ANALYSIS_VERSION "analysis/1"

/* One side of a comparison: samples with the run (boot) each came from. */
struct fw_side {
	const double *v;
	const long *boot;
	size_t n;
};

struct fw_row_meta {
	int higher_is_better;
	int is_rate;
	int deterministic;      /* icount: noise floor instead of a rank test */
	double min_effect_pct;
};

/*
 * Fills a row object with n, medians, delta, interval, p, MDE and (for the
 * deterministic mode) the verdict. *p is the rank test's p (NaN in the
 * deterministic mode: not part of the BH family). Returns -1 when a side is empty.
 */
int fw_row_compute(cJSON *row, const struct fw_side *a, const struct fw_side *b,
		   const struct fw_row_meta *m, const struct fw_analysis_opts *o, double *p);
/* Sets "q" and, in the rank mode, "verdict" once the family's BH adjustment is known. */
void fw_row_finish(cJSON *row, double q, const struct fw_analysis_opts *o);

/*
 * Adds "counters" to a row: the counters (vmstat deltas, checks) whose median
 * moved most between the row's two commits, same env and result. 0 or -1.
 */
int fw_analysis_counters(sqlite3 *db, cJSON *row, struct strbuf *err);

/*
 * Old name of fw_json_num(obj, key, NAN) (schema/run-doc.h), kept for
 * analysis-row.c, analysis-db.c and report.c until they move over.
 */
double fw_json_get_num(const cJSON *obj, const char *key);

#endif
