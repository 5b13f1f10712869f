/*
 * Environment keys of the series answer (api-series.c): each environment is
 * listed once, under the first 12 characters of its fingerprint (more when
 * another environment of the series starts the same way), and metrics and
 * cells name it by that key. Why: the 64-hex fingerprint in every cell was
 * a quarter of the answer. A key is a fingerprint prefix, so it works
 * wherever env= takes a fingerprint or its start; it is computed over all
 * the series' environments, so a selection (?metrics=) gets the same keys.
 */
#include <stdlib.h>
#include <string.h>
#include "store.h"
#include "ui.h"
#include "xalloc.h"

#define ENV_KEY_MIN 12

/* Shortest prefix of fp, at least ENV_KEY_MIN long, that starts no other environment of s. */
static char *key_of(const struct fw_series *s, const char *fp)
{
	size_t len = strlen(fp), l = len < ENV_KEY_MIN ? len : ENV_KEY_MIN;

	for (int j = 0; j < s->nmetrics; j++) {
		const char *o = s->metrics[j].env;

		while (l < len && strcmp(o, fp) && !strncmp(o, fp, l))
			l++;
	}
	return xstrndup(fp, l);
}

char **fw_env_keys(const struct fw_series *s)
{
	char **keys = xcalloc((size_t)s->nmetrics + 1, sizeof(*keys));

	for (int i = 0; i < s->nmetrics; i++) {
		int k = 0;

		while (k < i && strcmp(s->metrics[k].env, s->metrics[i].env))
			k++;
		keys[i] = k < i ? xstrdup(keys[k]) : key_of(s, s->metrics[i].env);
	}
	return keys;
}

void fw_env_keys_free(const struct fw_series *s, char **keys)
{
	for (int i = 0; keys && i < s->nmetrics; i++)
		free(keys[i]);
	free(keys);
}

/* {"fingerprint", "host", "accel", "vcpus"}; the last three null for an unknown fingerprint. */
cJSON *fw_env_json(sqlite3 *db, const char *fp)
{
	struct fw_store_env e;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "fingerprint", fp);
	if (fw_store_env_get(db, fp, &e) == 1) {
		cJSON_AddStringToObject(o, "host", e.host);
		cJSON_AddStringToObject(o, "accel", e.accel);
		cJSON_AddNumberToObject(o, "vcpus", e.vcpus);
	} else {
		cJSON_AddNullToObject(o, "host");
		cJSON_AddNullToObject(o, "accel");
		cJSON_AddNullToObject(o, "vcpus");
	}
	fw_store_env_release(&e);
	return o;
}
