#ifndef FW_BISECT_STEP_H
#define FW_BISECT_STEP_H
#include "an-result.h"

/*
 * The step logic of a bisect (issue 30), apart from building and booting so
 * that it can be tested on its own. The commits of the range good..bad in
 * first-parent order are points 0..n-1: 0 is good, n-1 is bad. A measured
 * point carries the analysis' verdict of the bisected metric against the
 * previous measured point (the row "against parent", which falls back to the
 * previous measured commit when the parent was not measured).
 */
enum fw_bisect_state { FW_BP_UNMEASURED, FW_BP_MEASURED, FW_BP_SKIPPED };
enum fw_bisect_verdict {
	FW_BV_NONE,    /* no row (point 0, or a measured point without the metric) */
	FW_BV_MOVED,   /* decided a change in the bisected direction */
	FW_BV_SAME,    /* decided no change, or a change the other way */
	FW_BV_UNSURE,  /* not decided within the boots the run could spend */
};

struct fw_bisect_point {
	int state;     /* enum fw_bisect_state; SKIPPED: did not build or boot */
	int verdict;   /* enum fw_bisect_verdict, against the previous measured point */
	int merge;     /* a merge on the first-parent line: named with its first-parent range */
};

#define FW_BISECT_MAX_FOUND 8

enum fw_bisect_action { FW_BISECT_MEASURE, FW_BISECT_DONE, FW_BISECT_GAVE_UP };

/* A step that moved: the change lies in (lo, hi]; culprit is hi when nothing but skipped points lie between. */
struct fw_bisect_found {
	int lo, hi;
	int culprit;   /* hi when hi == lo + 1, else -1 (the narrowest range the skips leave) */
};

struct fw_bisect_next {
	int action;                /* enum fw_bisect_action */
	int measure;               /* FW_BISECT_MEASURE: the point to measure next */
	int nfound;                /* DONE: every step that moved, oldest first (two: a change spread over two) */
	struct fw_bisect_found found[FW_BISECT_MAX_FOUND];
	int unsure_lo, unsure_hi;  /* the first undecided step, -1 none */
	char why[240];             /* GAVE_UP: why, in a sentence */
};

/*
 * What to do next. Every step that moved and still has unmeasured points
 * inside gets its midpoint measured (the nearest point to the middle that did
 * not fail), oldest step first; when none is left, the steps that moved are
 * the answer. Gives up when no step moved: an undecided step (named), or a
 * change that no single step shows.
 */
void fw_bisect_next(const struct fw_bisect_point *p, int n, struct fw_bisect_next *out);

/*
 * Fills the verdicts of points from a series analysis (analysis.h's JSON):
 * shas[i] is point i's commit; a point is measured when the analysis has a
 * row of metric ("workload/variant/metric") against its parent for it (point
 * 0: when it is a commit of the analysis). want is "regression" or
 * "improvement". The states of points already SKIPPED are kept.
 */
void fw_bisect_points_from(const struct fw_an *analysis, const char *const *shas, int n, const char *metric,
			   const char *want, struct fw_bisect_point *p);
/*
 * Error spend over a bisect: its decisions are the ceil(log2(commits)) + 2
 * steps it plans (the midpoints, and both ends' own rows), so each step's
 * floor rule gets floor_alpha / that many, and a bisect as a whole calls a
 * move that is not there at most floor_alpha of the time (union bound).
 * commits: the first-parent commits after good up to bad (>= 1).
 */
int fw_bisect_planned_steps(int commits);
double fw_bisect_step_floor_alpha(double floor_alpha, int commits);
/* Is row (of an analysis) the metric ("workload/variant/metric") against its parent? */
int fw_bisect_row_is(const struct fw_an_row *row, const char *metric);
/* The position of commit sha in an analysis, or -1 when it is not one of its commits. */
int fw_bisect_position_of(const struct fw_an *analysis, const char *sha);

#endif
