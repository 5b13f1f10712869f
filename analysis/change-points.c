/*
 * The analysis' change points read into structs once: pages, plots and the
 * API take them from here, not by string key.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "run-doc.h"

int fw_analysis_change_points(const cJSON *an, const char *metric, const char *env, struct fw_change_point **out)
{
	const cJSON *cps = cJSON_GetObjectItemCaseSensitive(an, "change_points"), *cp;
	int n = 0, size = cJSON_GetArraySize(cps);

	*out = NULL;
	if (size <= 0)
		return 0;
	*out = calloc((size_t)size, sizeof(**out));
	if (!*out)
		abort();
	cJSON_ArrayForEach(cp, cps) {
		struct fw_change_point *c = &(*out)[n];

		c->workload = fw_json_str(cp, "workload", NULL);
		c->variant = fw_json_str(cp, "variant", NULL);
		c->metric = fw_json_str(cp, "metric", NULL);
		c->env = fw_json_str(cp, "env_fingerprint", NULL);
		c->sha = fw_json_str(cp, "sha", NULL);
		if (!c->workload || !c->variant || !c->metric || !c->env || !c->sha ||
		    (env && strcmp(env, c->env)) || (metric && !fw_row_is_metric(cp, metric)))
			continue;
		c->position = fw_json_int(cp, "position", -1);
		c->before = fw_json_num(cp, "before", NAN);
		c->after = fw_json_num(cp, "after", NAN);
		c->delta_pct = fw_json_num(cp, "delta_pct", NAN);
		n++;
	}
	if (!n) {
		free(*out);
		*out = NULL;
	}
	return n;
}
