/*
 * The bisect's step logic (issue 30): midpoints, skips, an undecided step, a
 * change spread over two commits, merges, midpoints already measured; and
 * the points read from an analysis' rows.
 */
#include <math.h>
#include <stdlib.h>
#include "tap.h"
#include "bisect-step.h"
#include "analysis-json.h"

#define M(v) { FW_BP_MEASURED, FW_BV_##v, 0 }
#define U { FW_BP_UNMEASURED, FW_BV_NONE, 0 }
#define S { FW_BP_SKIPPED, FW_BV_NONE, 0 }

/* Plays a bisect on 9 points (good 0, bad 8) whose change is at culprit: the steps it measures. */
static int play(int culprit, int skip, int *steps)
{
	struct fw_bisect_point p[9] = { M(NONE), U, U, U, U, U, U, U, M(MOVED) };
	struct fw_bisect_next nx;
	int n = 0;

	for (fw_bisect_next(p, 9, &nx); nx.action == FW_BISECT_MEASURE && n < 9; fw_bisect_next(p, 9, &nx)) {
		steps[n++] = nx.measure;
		if (nx.measure == skip) {
			p[nx.measure].state = FW_BP_SKIPPED;
			continue;
		}
		p[nx.measure].state = FW_BP_MEASURED;
		/* the verdicts the analysis gives: each measured point against the previous measured one */
		for (int i = 1, prev = 0; i < 9; i++)
			if (p[i].state == FW_BP_MEASURED) {
				p[i].verdict = prev < culprit && i >= culprit ? FW_BV_MOVED : FW_BV_SAME;
				prev = i;
			}
	}
	return nx.action == FW_BISECT_DONE && nx.nfound == 1 ? (nx.found[0].culprit >= 0 ? nx.found[0].culprit
											     : -100 - nx.found[0].lo)
							   : -1;
}

static void bisects(void)
{
	int steps[9];
	int all = 1;

	for (int c = 1; c <= 8; c++) {
		int got = play(c, -1, steps);
		all &= got == c;
	}
	ok(all, "every culprit of 8 commits found");
	is_int(play(5, -1, steps), 5, "culprit at point 5");
	ok(steps[0] == 4 && steps[1] == 6 && steps[2] == 5, "3 steps: 4, 6, 5");
	/* point 4 does not build: the nearest other point is taken, culprit still found */
	is_int(play(7, 4, steps), 7, "a skipped midpoint: culprit still found");
	ok(steps[0] == 4 && steps[1] == 3, "the skipped point is not measured again, its neighbour is");
	/* next to the culprit: 4 or 5 could be it, the range (3, 5] is named */
	is_int(play(5, 4, steps), -103, "a skip beside the culprit: the narrowest range named");
	/* the culprit itself does not build: the narrowest range (4, 6] is named */
	is_int(play(5, 5, steps), -104, "the culprit skipped: range from point 4 named");
}

static void special_steps(void)
{
	struct fw_bisect_next nx;

	struct fw_bisect_point two[9] = { M(NONE), U, U, M(MOVED), M(SAME), U, M(MOVED), M(SAME), M(SAME) };
	two[2] = (struct fw_bisect_point)M(SAME);
	two[5] = (struct fw_bisect_point)M(SAME);
	fw_bisect_next(two, 9, &nx);
	ok(nx.action == FW_BISECT_DONE && nx.nfound == 2, "a change spread over two commits: two steps");
	ok(nx.found[0].culprit == 3 && nx.found[1].culprit == 6, "at points 3 and 6");

	struct fw_bisect_point un[5] = { M(NONE), M(SAME), U, M(UNSURE), M(SAME) };
	fw_bisect_next(un, 5, &nx);
	ok(nx.action == FW_BISECT_GAVE_UP && nx.unsure_lo == 1 && nx.unsure_hi == 3, "an undecided step gives up");
	ok(strstr(nx.why, "undecided") != NULL, "and says the step is undecided");

	struct fw_bisect_point none[4] = { M(NONE), M(SAME), M(SAME), M(SAME) };
	fw_bisect_next(none, 4, &nx);
	ok(nx.action == FW_BISECT_GAVE_UP && strstr(nx.why, "no single step"), "no step moved: gives up");

	/* midpoints measured before (a sparse watch): reused, only the rest measured */
	struct fw_bisect_point re[9] = { M(NONE), U, M(SAME), U, M(SAME), U, M(MOVED), U, M(SAME) };
	fw_bisect_next(re, 9, &nx);
	ok(nx.action == FW_BISECT_MEASURE && nx.measure == 5, "already measured points reused: only 5 measured");

	struct fw_bisect_point mg[3] = { M(NONE), M(SAME), M(MOVED) };
	mg[2].merge = 1;
	fw_bisect_next(mg, 3, &nx);
	ok(nx.action == FW_BISECT_DONE && nx.found[0].culprit == 2 && mg[nx.found[0].culprit].merge,
	   "a merge on the first-parent line is the culprit (no descent)");

	struct fw_bisect_point ends[3] = { U, U, M(MOVED) };
	fw_bisect_next(ends, 3, &nx);
	ok(nx.action == FW_BISECT_GAVE_UP, "good not measured: gives up");
}

static void from_analysis(void)
{
	const char *shas[] = { "aa", "bb", "cc", "dd" };
	struct fw_bisect_point p[4] = { U, S, U, U };
	struct fw_an *a = fw_an_from_json(cJSON_Parse(
		"{\"commits\":[{\"sha\":\"aa\"},{\"sha\":\"bb\"},{\"sha\":\"cc\"},{\"sha\":\"dd\"}],\"rows\":["
		"{\"sha\":\"cc\",\"against\":\"parent\",\"ref_sha\":\"aa\",\"workload\":\"split\",\"variant\":\"pmd\","
		"\"metric\":\"ms\",\"verdict\":\"regression\",\"decided\":true},"
		"{\"sha\":\"cc\",\"against\":\"base\",\"workload\":\"split\",\"variant\":\"pmd\",\"metric\":\"ms\","
		"\"verdict\":\"no change\",\"decided\":true},"
		"{\"sha\":\"dd\",\"against\":\"parent\",\"workload\":\"split\",\"variant\":\"pmd\",\"metric\":\"ms\","
		"\"verdict\":\"unsure\",\"decided\":false},"
		"{\"sha\":\"dd\",\"against\":\"parent\",\"workload\":\"split\",\"variant\":\"pmdx\",\"metric\":\"ms\","
		"\"verdict\":\"regression\",\"decided\":true}]}"));

	ok(a && a->nrows == 4 && a->ncommits == 4, "the analysis read, typed");
	fw_bisect_points_from(a, shas, 4, "split/pmd/ms", "regression", p);
	ok(p[0].state == FW_BP_MEASURED, "good: a row of the metric starts there");
	ok(p[1].state == FW_BP_SKIPPED, "a skipped point stays skipped");
	ok(p[2].state == FW_BP_MEASURED && p[2].verdict == FW_BV_MOVED, "regression against parent: moved");
	ok(p[3].verdict == FW_BV_UNSURE, "another variant's row is not taken");
	fw_bisect_points_from(a, shas, 4, "split/pmd/ms", "improvement", p);
	ok(p[2].verdict == FW_BV_SAME, "a regression is not an improvement");
	fw_an_free(a);
	/* good measured, but not this metric: cc's row compares with a commit before the range */
	a = fw_an_from_json(cJSON_Parse("{\"commits\":[{\"sha\":\"zz\"},{\"sha\":\"aa\"},{\"sha\":\"cc\"}],\"rows\":["
			"{\"sha\":\"cc\",\"against\":\"parent\",\"ref_sha\":\"zz\",\"workload\":\"split\","
			"\"variant\":\"pmd\",\"metric\":\"ms\",\"verdict\":\"regression\",\"decided\":true}]}"));
	fw_bisect_points_from(a, shas, 4, "split/pmd/ms", "regression", p);
	ok(p[0].state == FW_BP_UNMEASURED, "good without samples of the metric: not a measured end");
	fw_an_free(a);
}

/* The floors' alpha spread over the planned steps (issue 30's error spend). */
static void alpha_spend(void)
{
	is_int(fw_bisect_planned_steps(1), 2, "one commit in the range: 2 planned steps");
	is_int(fw_bisect_planned_steps(2), 3, "two: 3");
	is_int(fw_bisect_planned_steps(8), 5, "eight: ceil(log2 8) + 2 = 5");
	is_int(fw_bisect_planned_steps(9), 6, "nine: 6");
	is_int(fw_bisect_planned_steps(1000), 12, "a thousand: 12");
	ok(fabs(fw_bisect_step_floor_alpha(0.001, 8) - 0.0002) < 1e-15, "0.001 over 8 commits: 0.0002 a step");
}

int main(void)
{
	bisects();
	alpha_spend();
	special_steps();
	from_analysis();
	return done_testing();
}
