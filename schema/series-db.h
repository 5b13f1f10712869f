#ifndef FW_SERIES_DB_H
#define FW_SERIES_DB_H
/*
 * Read side of the DB for pages and the API: a series loaded into memory with
 * its commits in order and, per metric and environment, the samples of every
 * commit. Deltas, and the median of a compared commit, are the analysis'
 * (an_apply, server/analysis-index.c); a commit's own median here is that of
 * its per-boot medians, the level the analysis compares, filled in by the
 * analysis' fw_series_levels() after loading (NAN until then).
 */
#include <sqlite3.h>
#include "strbuf.h"
#include "run-doc.h"

struct fw_commit {
	long long id;
	char *sha, *subject, *author, *parent;
	int position;
	char *build_status;   /* ok | failed | none */
	char *boot_status;    /* worst of its runs, or "none" */
	char *kernel_version;
	int taint;            /* max over runs */
	int nruns;
};

struct fw_val {
	double v;
	long long run;        /* runs.id: per-boot medians */
};

struct fw_cell {          /* one metric at one commit */
	struct fw_val *vals;
	int n, alloc;
	int errors;           /* results with an error instead of samples */
	double median;        /* of the per-boot medians, or the analysis' After (an_apply); NAN when no samples */
	double delta_pct;     /* the analysis' against the parent (an_apply); NAN without a row */
};

struct fw_metric {
	char *workload, *variant, *metric, *unit, *direction;
	char id[3 * FW_DOC_MAX_NAME + 3];  /* "workload/variant/metric", never truncated */
	char *env;            /* environment fingerprint */
	double min_effect_pct;/* NAN when not declared */
	struct fw_cell *cells;/* ncommits */
};

struct fw_series {
	long long id;
	char *name, *base;
	int revision;
	int watched;          /* a history: each commit decided once (README "Deciding") */
	struct fw_commit *commits;
	int ncommits, acommits;
	struct fw_metric *metrics;
	int nmetrics, ametrics;
	int nenvs;            /* distinct environments among metrics */
	/* The revision as a whole, and the window of positions loaded (all unless window). */
	int total_commits, first_position, last_position;
	int window, from, to; /* window: only commits at positions from..to are loaded */
};

/* 0 loaded, 1 no such series, -1 DB error (message in err). Latest revision. */
int fw_series_load(sqlite3 *db, const char *name, struct fw_series *s, struct strbuf *err);
/* The same for one revision (revision <= 0: the newest); 1 also when that revision does not exist. */
int fw_series_load_rev(sqlite3 *db, const char *name, int revision, struct fw_series *s,
		       struct strbuf *err);
/*
 * The same, with only the commits at positions from..to (to < 0: the last)
 * and their samples: a page of a long history (issue 31). total_commits,
 * first_position and last_position still describe the whole revision.
 */
/* Commits of a revision and their first and last positions: 0, 1 no such series/revision, -1 DB error. */
int fw_series_span(sqlite3 *db, const char *name, int revision, int *count, int *first, int *last);
int fw_series_load_window(sqlite3 *db, const char *name, int revision, int from, int to, struct fw_series *s,
			  struct strbuf *err);
/*
 * Which samples a page needs: of one metric ("workload/variant/metric", NULL:
 * every metric) and of the commits at npos positions pos[] (npos < 0: every
 * commit of the window; 0: none, the commits only). A metric page of a long
 * history reads that metric, a commit page that commit, not every sample.
 */
struct fw_series_only {
	const char *metric_key;
	int npos, pos[2];
};
int fw_series_load_only(sqlite3 *db, const char *name, int revision, int from, int to,
			const struct fw_series_only *only, struct fw_series *s, struct strbuf *err);
/*
 * Replaces a loaded series' metrics with the list of those of its window,
 * without samples (a streamed answer's head): 0, or -1 with err.
 */
int fw_series_load_metric_list(sqlite3 *db, struct fw_series *s, struct strbuf *err);
/* Replaces a loaded series' samples with those of only: 0, or -1 with err. */
int fw_series_load_samples(sqlite3 *db, struct fw_series *s, const struct fw_series_only *only, struct strbuf *err);
void fw_series_free(struct fw_series *s);
/* The revision numbers of a series, ascending, in *revs (free it); count, or -1 on a DB error. */
int fw_series_revisions(sqlite3 *db, const char *name, int **revs);
/* Commit index by exact sha or unique prefix (>= 4 chars), -1 none, -2 ambiguous (any length). */
int fw_series_find_commit(const struct fw_series *s, const char *sha);
/* Metric by "w/v/m"; with several environments the first one (see env arg: prefix or NULL). */
int fw_series_find_metric(const struct fw_series *s, const char *wvm, const char *env, int from);
/* Samples of a metric over all commits (0: nothing to plot). */
int fw_metric_nsamples(const struct fw_series *s, const struct fw_metric *m);

#endif
