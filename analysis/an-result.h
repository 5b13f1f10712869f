#ifndef FW_AN_RESULT_H
#define FW_AN_RESULT_H
/*
 * An analysis result, typed (issue 28: one truth). Pages, text, mail and the
 * collector read these fields; none reads the analysis by string key, so a
 * mistyped field is a compile error, not a silent blank. The JSON the cache
 * and the API hold is the edge's business (analysis-json.h).
 *
 * Ownership: a struct fw_an owns everything it points to, strings included;
 * fw_an_free() releases it. Numbers the analysis left out or wrote as null
 * are NAN (doubles) or FW_AN_NA (ints).
 */
#include <stddef.h>
#include "stats.h"   /* enum fw_verdict */

#define FW_AN_NA (-1)

#include <math.h>
/* An int of the result as a double: NAN where the analysis had none. */
static inline double fw_an_whole(int v)
{
	return v == FW_AN_NA ? NAN : v;
}

enum fw_against { FW_AGAINST_PARENT, FW_AGAINST_BASE, FW_AGAINST_OTHER };

/* One side of a comparison. */
struct fw_an_side {
	int boots, samples;
	double median, hmean;
};

/* A counter that moved with a row's change. */
struct fw_an_counter {
	const char *name;
	double a, b, delta_pct;
	int moved;  /* its own test: the two commits' values do not overlap (analysis-counters.c) */
};

/* The same-kernel evidence of a row's environment and metric (present 0: none). */
struct fw_an_same_kernel {
	int present;
	double cv_pct, cv_lo_pct, cv_hi_pct, range_pct;
	int df, boots, kernels;
	double within_cv_pct, within_cv_lo_pct, within_cv_hi_pct;  /* the rounds inside a boot */
	int within_df;
};

/* A kernel function of a row's attribution (fw_profile_diff's entry). */
struct fw_an_prof_nums {
	double hits, time_us, self_us;   /* NAN: not measured */
};
struct fw_an_function {
	const char *function;
	struct fw_an_prof_nums before, after, delta, delta_pct;
	const char *only_in;             /* "before", "after" or NULL */
};

struct fw_an_row {
	long long commit_id, ref_commit_id;
	const char *sha, *subject, *ref_sha, *against_name;
	enum fw_against against;
	int position;
	const char *env, *host, *accel, *workload, *variant, *params, *metric, *unit, *direction, *kind;
	int higher_is_better;
	double min_effect_pct;
	const char *unit_of_comparison;  /* "boots" (>= 3 a side: per-boot medians) or "samples" */
	int per_boot;                  /* unit_of_comparison is "boots" */
	struct fw_an_side a, b;
	double delta_pct, shift, ci_lo_pct, ci_hi_pct, ci_level, p, q, mde_pct, noise_pct;
	double min_p;                  /* the rank test's smallest possible p with these units */
	int exact;
	int boots_for_5pct;
	const char *mode, *mode_source;  /* "rank"|"deterministic"|"exact"; what decided it */
	struct fw_an_same_kernel same_kernel;
	int has_floor;                 /* deterministic/exact rows: floor_pct (NAN: none could be had) */
	double floor_pct;
	int floor_boots;
	int looks, look;
	double alpha_used;
	int boots_for_min_effect;
	int beyond_bound;              /* decided by the distribution-free bound (bound_pct) */
	double bound_pct;
	const char *verdict;           /* "improvement", "regression", "no change", "unsure" */
	enum fw_verdict v;
	int decided, decided_at_boots;
	int has_boots_needed;          /* unsure rows: boots_needed says how many (FW_AN_NA: none does) */
	int boots_needed;
	struct fw_an_counter *counters;
	size_t ncounters;
	struct fw_an_function *attribution;  /* NULL: no profiles on a side */
	size_t nattribution;
};

/* A commit of the analysed series. */
struct fw_an_commit {
	long long id;
	const char *sha, *key, *subject, *parent_sha;
	int position, is_base;
};

/* A commit measured on >= 2 environments, combined (van Elteren). */
struct fw_an_combined {
	long long commit_id;
	const char *sha, *workload, *variant, *params, *metric, *direction, *test, *verdict;
	int position, hosts;
	double delta_pct, z, p, q, min_effect_pct;
};

/* How one metric is compared in one environment, and the evidence behind it. */
struct fw_an_determinism {
	const char *env, *host, *accel, *workload, *variant, *params, *metric, *kind, *mode, *mode_source;
	struct fw_an_same_kernel same_kernel;
};

/* A change along the series (E-divisive means over a metric's commit medians). */
struct fw_change_point {
	const char *workload, *variant, *metric, *env, *sha;
	int position;
	double before, after, delta_pct;  /* the segments' medians; NAN unknown */
};

struct fw_an {
	/* a series analysis; a comparison (fw_analysis_compare) has commits and rows only */
	const char *series, *base, *data_hash;
	long long series_id;
	int revision;
	double alpha, min_effect_pct, noise_floor_pct, floor_alpha, deterministic_cv_pct;
	int looks, look;
	double *alpha_at_looks;         /* the share of alpha of look 1..nalpha_at_looks */
	size_t nalpha_at_looks;
	int stale;                      /* an older analysis, shown while a new one is made */
	int watched;                    /* a history: each commit decided once (README "Deciding") */
	const struct fw_an_commit *analysed_up_to;   /* stale: the newest commit it saw */
	struct fw_an_commit *commits;
	size_t ncommits;
	struct fw_an_row *rows;
	size_t nrows;
	struct fw_an_combined *combined;
	size_t ncombined;
	struct fw_change_point *change_points;
	size_t nchange_points;
	struct fw_an_determinism *determinism;
	size_t ndeterminism;
	struct fw_an_store *store;      /* private: what the strings point into */
};

void fw_an_free(struct fw_an *an);

/* A stored regression (fw_regressions_of), with its lifecycle. */
struct fw_reg_change {
	const char *status, *by, *note, *at;
};
struct fw_reg {
	long long id, commit_id, bisect_id;
	const char *series, *env, *workload, *variant, *metric, *sha, *subject;
	const char *status, *status_by, *status_at, *created_at, *status_note;
	const char *found_sha;          /* moved by a bisect to its culprit: where it was found; else NULL */
	int revision;
	int position;                   /* its commit's position in the series (-1: not known) */
	int first_position, last_position;  /* the series revision's */
	double delta_pct, p_value;      /* p_value: the BH-adjusted q it was stored with (NAN: none) */
	struct fw_reg_change *history;  /* oldest first */
	size_t nhistory;
};
struct fw_regs {
	struct fw_reg *r;
	size_t n;
	struct fw_regs_store *store;    /* private: what the strings point into */
};
void fw_regs_free(struct fw_regs *regs);

/* The sequential design's answer (fw_analysis_undecided_of): what to boot next. */
struct fw_und_workload {
	const char *workload;
	int boots, boots_next;          /* it has, and should have after the next look */
};
struct fw_und_commit {
	long long commit_id;
	const char *sha, *env, *host, *accel;
	int position, boots_next;
	struct fw_und_workload *workloads;
	size_t nworkloads;
};
struct fw_undecided {
	int max_looks, max_boots;
	int look;                       /* the largest look recorded so far (0: none) */
	int final;                      /* no further look may be taken */
	size_t nrows;                   /* unsure rows against the parent */
	struct fw_und_commit *commits;
	size_t ncommits;
	struct fw_und_store *store;     /* private */
};
void fw_undecided_free(struct fw_undecided *u);

/* Two commits' kernel profiles side by side (fw_profile_diff), typed. */
struct fw_prof_variant {
	const char *variant;
	int boots_before, boots_after;
	struct fw_an_function *functions;
	size_t nfunctions;
};
struct fw_prof_diff {
	const char *env;                /* NULL: no environment where both were profiled */
	const char *workload;
	struct fw_prof_variant *variants;
	size_t nvariants;
	struct fw_prof_store *store;    /* private */
};
void fw_prof_diff_free(struct fw_prof_diff *d);
/* Keeps the regressions of revision (the list covers every revision of a name); how many are left. */
size_t fw_regs_keep_revision(struct fw_regs *regs, int revision);
/* Keeps the rows of sha compared with ref_sha (the others are dropped); how many are left. */
size_t fw_an_keep_comparison(struct fw_an *an, const char *sha, const char *ref_sha);

#endif
