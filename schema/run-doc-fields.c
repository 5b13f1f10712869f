/*
 * The run document's known fields: a key no object of the format has is an
 * error in foliowatch-run/2 ("results[0].colour: unknown field") and a
 * warning in foliowatch-run/1. params, counters and extensions are open by
 * design; the JSON Schema in server/openapi.json lists the same keys
 * (tests/unit/test-doc-fields.c compares the two).
 */
#include "run-doc.h"
#include <stdio.h>
#include <string.h>

#define KEYS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static const struct fw_doc_object objects[] = {
	{ "", KEYS("format", "run_id", "origin", "created_at", "tree", "series", "commit", "build",
		   "environment", "boot", "profile", "boot_index", "workloads", "workload_content", "sequential",
		   "results", "profiles", "extensions") },
	{ "tree", KEYS("name", "url") },
	{ "series", KEYS("name", "revision", "base", "cover", "watched") },
	{ "series.cover", KEYS("message_id", "subject") },
	{ "commit", KEYS("sha", "key", "subject", "author", "position", "parent", "mail") },
	{ "commit.mail", KEYS("message_id", "from", "to", "cc", "subject") },
	{ "build", KEYS("status", "seconds", "kernel_version", "config", "config_hash", "compiler",
			"log_tail") },
	{ "environment", KEYS("host", "accel", "qemu_version", "host_kernel", "cpu_model",
			      "foliowatch_version", "fio_version", "vcpus", "memory_mib",
			      "fingerprint") },
	{ "boot", KEYS("status", "taint", "seconds", "qemu_cmdline", "kernel_cmdline", "log_tail", "parallel",
		       "phases") },
	{ "boot.phases", KEYS("kernel_up_s", "workloads_s", "profiling_s", "shutdown_s") },
	{ "sequential", KEYS("look", "max_looks") },
	{ "results[]", KEYS("workload", "variant", "metric", "params", "unit", "direction", "kind",
			    "min_effect_pct", "samples", "counters", "error") },
	{ "profiles[]", KEYS("workload", "variant", "function", "hits", "time_us", "self_us") },
	{ NULL, NULL },
};

const struct fw_doc_object *fw_doc_objects(void)
{
	return objects;
}

static const struct fw_doc_object *find(const char *path)
{
	for (const struct fw_doc_object *o = objects; o->path; o++)
		if (!strcmp(o->path, path))
			return o;
	return NULL;
}

static int known(const struct fw_doc_object *o, const char *key)
{
	for (int i = 0; o->keys[i]; i++)
		if (!strcmp(o->keys[i], key))
			return 1;
	return 0;
}

/* 1 and path = "<shown>.<key>" for the first key of obj that o does not list. */
static int unknown_in(const cJSON *obj, const char *table, const char *shown, struct strbuf *path)
{
	const struct fw_doc_object *o = find(table);
	const cJSON *v;

	if (!cJSON_IsObject(obj))  /* a wrong type is the field checks' error */
		return 0;
	cJSON_ArrayForEach(v, obj)
		if (!known(o, v->string)) {
			strbuf_reset(path);
			strbuf_addstr(path, shown);
			fw_path_key(path, v->string);
			return 1;
		}
	return 0;
}

static int unknown_in_array(const cJSON *doc, const char *key, const char *table, struct strbuf *path)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, key), *v;
	char shown[64];
	int i = 0;

	if (!cJSON_IsArray(arr))
		return 0;
	cJSON_ArrayForEach(v, arr) {
		snprintf(shown, sizeof(shown), "%s[%d]", key, i++);
		if (unknown_in(v, table, shown, path))
			return 1;
	}
	return 0;
}

int fw_doc_unknown_field(const cJSON *doc, struct strbuf *path)
{
	static const char *const nested[] = { "tree", "series", "commit", "build", "environment",
					      "boot", "sequential", NULL };

	if (unknown_in(doc, "", "", path))
		return 1;
	for (int i = 0; nested[i]; i++) {
		const cJSON *obj = cJSON_GetObjectItemCaseSensitive(doc, nested[i]);
		if (unknown_in(obj, nested[i], nested[i], path))
			return 1;
	}
	if (unknown_in(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "series"), "cover"),
		       "series.cover", "series.cover", path) ||
	    unknown_in(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "commit"), "mail"),
		       "commit.mail", "commit.mail", path) ||
	    unknown_in(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "boot"), "phases"),
		       "boot.phases", "boot.phases", path))
		return 1;
	return unknown_in_array(doc, "results", "results[]", path) ||
	       unknown_in_array(doc, "profiles", "profiles[]", path);
}
