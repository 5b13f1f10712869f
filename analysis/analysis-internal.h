#ifndef FW_ANALYSIS_INTERNAL_H
#define FW_ANALYSIS_INTERNAL_H
/* Shared between analysis-row.c (numbers -> row, no SQL) and analysis-db.c / regressions.c. */
#include <stddef.h>
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include "strbuf.h"
#include "analysis-json.h"
#include "run-doc.h" /* fw_json_num, fw_json_str */
#include "stats.h"

/* Bumped when the analysis changes, so cached results computed by an older one are not reused. */
#define FW_ANALYSIS_VERSION "analysis/3"
/* A hash of the analysis' sources (Makefile: build/gen/analysis-code.c), not the build's version. */
extern const char fw_analysis_code[];

/* One side of a comparison: samples with the run (boot) each came from. */
struct fw_side {
	const double *v;
	const long *boot;
	size_t n;
};

struct fw_row_meta {
	int higher_is_better;
	int is_rate;
	enum fw_mode mode;          /* rank test, noise floor (deterministic) or exact count */
	const char *mode_source;    /* what decided the mode: "data", "default table", "table file", ... */
	int table_deterministic;    /* what the determinism table expects */
	const struct fw_noise *noise;   /* the environment's same-kernel evidence (NULL: none) */
	int looks;                  /* planned looks of the data (alpha spending), >= 1 */
	int look;                   /* the look of the row's newest boot (1..looks) */
	double min_effect_pct;
};

/*
 * Fills a row object with n, medians, delta, interval, p, MDE and (for the
 * floor and exact modes) the verdict and "decided". *p is the rank test's p
 * (NaN in the floor modes: not part of the BH family). Returns -1 when a side is empty.
 */
int fw_row_compute(cJSON *row, const struct fw_side *a, const struct fw_side *b,
		   const struct fw_row_meta *m, const struct fw_analysis_opts *o, double *p);
/* Sets "q" and, in the rank mode, "verdict" and "decided" once the family's BH adjustment is known. */
void fw_row_finish(cJSON *row, double q, const struct fw_analysis_opts *o);

/*
 * Adds "counters" to a row: the counters (vmstat deltas, checks) whose median
 * moved most between the row's two commits, same env and result. 0 or -1.
 */
int fw_analysis_counters(sqlite3 *db, cJSON *row, struct strbuf *err);

/* Adds "same_kernel": { cv_pct, cv_lo_pct, cv_hi_pct, df, boots, kernels, range_pct } (nothing without kernels). */
void fw_noise_json(cJSON *obj, const struct fw_noise *nz);

/* The determinism table (determinism.c): built-in lines after the user's file. */
struct fw_det_rule {
	char accel[16];
	char pattern[300];
	int deterministic;
	int from_file;
};
struct fw_det_table {
	struct fw_det_rule *rules;
	size_t n, alloc;
	char hash[65];   /* of the text read: part of the analysis cache key */
};
extern const char fw_det_builtin[];
/* path NULL or "": the built-in table only. 0, or -1 with a message naming the file and line. */
int fw_det_table_load(struct fw_det_table *t, const char *path, struct strbuf *err);
void fw_det_table_free(struct fw_det_table *t);
/* 1: expected deterministic; *source says which rule decided ("table file", "default table", "default for counts"|"default for times and rates"). */
int fw_det_table_lookup(const struct fw_det_table *t, const char *accel, const char *workload,
			const char *variant, const char *metric, const char *kind, const char **source);

/* ": MDE 3.1%, needs 8 boots" (or that no number of boots decides it): an unsure row's long form (report.c). */
void fw_report_needs(struct strbuf *sb, const struct fw_an_row *r);

/* The cover letter's pieces (report-cover.c), shared with the "what moved" text (report-moved.c). */
size_t fw_cover_width(const char *s, size_t n);  /* display width of s's first n bytes */
void fw_cover_cell(struct strbuf *sb, const char *s, size_t w, int right);  /* s in w columns, then a space */
int fw_cover_flagged(const struct fw_an_row *r);  /* decided better or worse */
/* "  metric  unit  Before  After  delta ": a table row's cells up to the delta (8 columns) */
void fw_cover_row_values(struct strbuf *sb, const struct fw_an_row *r, size_t metric_w, size_t unit_w, size_t value_w);
/* "why (kernel profile, self time): ...": the functions behind the first flagged row of from..to */
void fw_cover_why(struct strbuf *sb, const struct fw_an_row *from, const struct fw_an_row *to);
int fw_cover_same_table(const struct fw_an_row *a, const struct fw_an_row *b);       /* env, workload, variant */
int fw_cover_same_comparison(const struct fw_an_row *a, const struct fw_an_row *b);  /* commit, against */
int fw_cover_patches(const struct fw_an *s);
/* 1 when rows are on more than one environment; the fewest and most boots a side into lo, hi */
int fw_cover_scan(const struct fw_an *s, int *lo, int *hi);
/* "Combined over hosts": each sharded commit's rows combined, what the CI gate sees */
void fw_cover_combined(struct strbuf *sb, const struct fw_an *s);
/* "demo v1: 3 patches on e077d311390f, each against its parent" */
void fw_cover_title(struct strbuf *sb, const struct fw_an *s);
/* One comparison's tables from row i (patch: against the parent, else the whole series); the next row. */
typedef size_t (*fw_cover_tables_fn)(struct strbuf *sb, const struct fw_an *s, size_t i, int show_host, int patch);
/*
 * Each patch against its parent ("[k/n] subject (sha)" and its tables), the
 * whole series against the base when there are whole_from patches or more,
 * then the rows combined over hosts.
 */
void fw_cover_body(struct strbuf *sb, const struct fw_an *s, int show_host, int whole_from, fw_cover_tables_fn tables);

#endif
