/*
 * A profile diff, typed: the one reader of fw_profile_diff's JSON by key
 * besides the answer that adds to it; the profile page and plot read these.
 */
#include <stdlib.h>
#include "analysis-json.h"
#include "run-doc.h" /* fw_json_num, fw_json_str */

struct fw_prof_store {
	cJSON *tree;
};

static int variant(const cJSON *o, struct fw_prof_variant *v)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(o, "functions"), *e;
	size_t i = 0;

	v->variant = fw_json_str(o, "variant", "");
	v->boots_before = fw_json_int(o, "boots_before", 0);
	v->boots_after = fw_json_int(o, "boots_after", 0);
	v->nfunctions = (size_t)cJSON_GetArraySize(arr);
	if (v->nfunctions && !(v->functions = calloc(v->nfunctions, sizeof(*v->functions))))
		return -1;
	cJSON_ArrayForEach(e, arr)
		fw_an_function_read(e, &v->functions[i++]);
	return 0;
}

struct fw_prof_diff *fw_prof_diff_from_json(cJSON *t)
{
	struct fw_prof_diff *d = calloc(1, sizeof(*d));
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(t, "variants"), *o;
	size_t i = 0;

	if (!d || !(d->store = calloc(1, sizeof(*d->store)))) {
		free(d);
		cJSON_Delete(t);
		return NULL;
	}
	d->store->tree = t;
	d->env = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "env_fingerprint"));
	d->workload = fw_json_str(t, "workload", "");
	d->nvariants = (size_t)cJSON_GetArraySize(arr);
	if (d->nvariants && !(d->variants = calloc(d->nvariants, sizeof(*d->variants)))) {
		fw_prof_diff_free(d);
		return NULL;
	}
	cJSON_ArrayForEach(o, arr)
		if (variant(o, &d->variants[i++])) {
			fw_prof_diff_free(d);
			return NULL;
		}
	return d;
}

void fw_prof_diff_free(struct fw_prof_diff *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nvariants; i++)
		free(d->variants[i].functions);
	free(d->variants);
	if (d->store) {
		cJSON_Delete(d->store->tree);
		free(d->store);
	}
	free(d);
}
