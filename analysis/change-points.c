/*
 * The analysis' change points of one metric and environment: pages, plots
 * and the API take them from here.
 */
#include <stdlib.h>
#include <string.h>
#include "analysis.h"

int fw_analysis_change_points(const struct fw_an *an, const char *metric, const char *env,
			      struct fw_change_point **out)
{
	int n = 0;

	*out = NULL;
	if (!an || !an->nchange_points)
		return 0;
	*out = calloc(an->nchange_points, sizeof(**out));
	if (!*out)
		abort();
	for (size_t i = 0; i < an->nchange_points; i++) {
		const struct fw_change_point *c = &an->change_points[i];

		if ((env && strcmp(env, c->env)) || !fw_metric_is(c->workload, c->variant, c->metric, metric))
			continue;
		(*out)[n++] = *c;
	}
	if (!n) {
		free(*out);
		*out = NULL;
	}
	return n;
}
