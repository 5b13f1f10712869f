/* The step logic of a bisect: where the change lies, what to measure next. */
#include "bisect-step.h"
#include "analysis.h"
#include <stdio.h>
#include "run-doc.h"
#include <string.h>

/* The unmeasured point of (a, b) nearest to the middle (the older on a tie), or -1. */
static int midpoint(const struct fw_bisect_point *p, int a, int b)
{
	int mid = a + (b - a) / 2;

	for (int d = 0; d < b - a; d++) {
		if (mid - d > a && p[mid - d].state == FW_BP_UNMEASURED)
			return mid - d;
		if (d && mid + d < b && p[mid + d].state == FW_BP_UNMEASURED)
			return mid + d;
	}
	return -1;
}

void fw_bisect_next(const struct fw_bisect_point *p, int n, struct fw_bisect_next *out)
{
	int prev = -1;

	memset(out, 0, sizeof(*out));
	out->measure = out->unsure_lo = out->unsure_hi = -1;
	if (n < 2 || p[0].state != FW_BP_MEASURED || p[n - 1].state != FW_BP_MEASURED) {
		out->action = FW_BISECT_GAVE_UP;
		snprintf(out->why, sizeof(out->why), "the good and bad commits must both be measured");
		return;
	}
	for (int i = 0; i < n; i++) {
		if (p[i].state != FW_BP_MEASURED)
			continue;
		if (prev >= 0 && p[i].verdict == FW_BV_MOVED) {
			int m = midpoint(p, prev, i);
			if (m >= 0 && out->measure < 0)
				out->measure = m;
			if (m < 0 && out->nfound < FW_BISECT_MAX_FOUND)
				out->found[out->nfound++] = (struct fw_bisect_found){ prev, i, i == prev + 1 ? i : -1 };
		} else if (prev >= 0 && p[i].verdict != FW_BV_SAME && out->unsure_lo < 0) {
			/* unsure, or a measured point without the metric: the step is not decided */
			out->unsure_lo = prev;
			out->unsure_hi = i;
		}
		prev = i;
	}
	if (out->measure >= 0)
		out->action = FW_BISECT_MEASURE;
	else if (out->nfound)
		out->action = FW_BISECT_DONE;
	else if (out->unsure_lo >= 0) {
		out->action = FW_BISECT_GAVE_UP;
		snprintf(out->why, sizeof(out->why),
			 "the step from point %d to point %d is undecided within the boots spent, and no other step moved",
			 out->unsure_lo, out->unsure_hi);
	} else {
		out->action = FW_BISECT_GAVE_UP;
		snprintf(out->why, sizeof(out->why),
			 "no single step moved: the change between good and bad is below the floor at every step measured");
	}
}

int fw_bisect_planned_steps(int commits)
{
	int k = 0;

	while (k < 30 && (1 << k) < commits)
		k++; /* ceil(log2(commits)), in integers */
	return k + 2;
}

double fw_bisect_step_floor_alpha(double floor_alpha, int commits)
{
	return floor_alpha / fw_bisect_planned_steps(commits);
}

int fw_bisect_row_is(const struct fw_an_row *row, const char *metric)
{
	return metric && row->against == FW_AGAINST_PARENT && fw_row_is_metric(row, metric);
}

static int verdict_of(const struct fw_an_row *row, const char *want)
{
	if (!row->decided)
		return FW_BV_UNSURE;
	return !strcmp(row->verdict, want) ? FW_BV_MOVED : FW_BV_SAME;
}

void fw_bisect_points_from(const struct fw_an *analysis, const char *const *shas, int n, const char *metric,
			   const char *want, struct fw_bisect_point *p)
{
	for (int i = 0; i < n; i++) {
		if (p[i].state != FW_BP_SKIPPED)
			p[i].state = FW_BP_UNMEASURED;
		p[i].verdict = FW_BV_NONE;
	}
	for (size_t k = 0; analysis && k < analysis->nrows; k++) {
		const struct fw_an_row *row = &analysis->rows[k];
		const char *sha = row->sha, *ref = row->ref_sha;

		if (!fw_bisect_row_is(row, metric))
			continue;
		/* good has samples of the metric when a row of it starts or ends there: else the first
		 * point's row compares with a commit before the range */
		if (!strcmp(sha, shas[0]) || !strcmp(ref, shas[0]))
			p[0].state = FW_BP_MEASURED;
		for (int i = 1; i < n; i++)
			if (!strcmp(shas[i], sha)) {
				int v = verdict_of(row, want);
				p[i].state = FW_BP_MEASURED;
				/* several environments: moved anywhere is moved, unsure beats no change */
				if (p[i].verdict == FW_BV_NONE || v == FW_BV_MOVED ||
				    (v == FW_BV_UNSURE && p[i].verdict == FW_BV_SAME))
					p[i].verdict = v;
			}
	}
}

int fw_bisect_position_of(const struct fw_an *analysis, const char *sha)
{
	for (size_t i = 0; analysis && i < analysis->ncommits; i++)
		if (!strcmp(analysis->commits[i].sha, sha))
			return analysis->commits[i].position;
	return -1;
}
