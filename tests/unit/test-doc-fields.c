/*
 * The run document's known fields (schema/run-doc-fields.c) and its JSON
 * Schema (#/components/schemas/RunDocument of server/openapi.json, compiled
 * in) list the same keys for every object, each object of the schema closed
 * (additionalProperties false); foliowatch-run/2 refuses an unknown key with
 * its path, foliowatch-run/1 takes it with a warning; extensions is open.
 */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "routes.h"
#include "run-doc.h"

/* The schema of the object at a table path: "" the document, "results[]" an item of results. */
static const cJSON *schema_at(const cJSON *doc_schema, const char *path)
{
	const cJSON *s = doc_schema;
	char buf[64], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *seg = strtok_r(buf, ".", &save); seg; seg = strtok_r(NULL, ".", &save)) {
		size_t n = strlen(seg);
		int item = n > 2 && !strcmp(seg + n - 2, "[]");

		if (item)
			seg[n - 2] = '\0';
		s = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(s, "properties"), seg);
		if (item)
			s = cJSON_GetObjectItemCaseSensitive(s, "items");
	}
	return s;
}

/* 1 when the schema's properties are exactly keys (any order). */
static int same_keys(const cJSON *schema, const char *const *keys, const char *path)
{
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties"), *p;
	int n = 0, same = 1;

	for (int i = 0; keys[i]; i++, n++)
		if (!cJSON_GetObjectItemCaseSensitive(props, keys[i])) {
			printf("#   %s.%s: in the validator, not in the JSON Schema\n", path, keys[i]);
			same = 0;
		}
	cJSON_ArrayForEach(p, props) {
		int found = 0;
		for (int i = 0; keys[i]; i++)
			found |= !strcmp(keys[i], p->string);
		if (!found) {
			printf("#   %s.%s: in the JSON Schema, not in the validator\n", path, p->string);
			same = 0;
		}
	}
	return same && props && cJSON_GetArraySize(props) == n;
}

static void schema_matches_validator(void)
{
	cJSON *api = cJSON_ParseWithLength(fw_openapi_json, fw_openapi_json_len);
	const cJSON *rd = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(api, "components"), "schemas"),
		"RunDocument");
	char desc[160];
	int objects = 0;

	ok(rd != NULL, "server/openapi.json has #/components/schemas/RunDocument");
	for (const struct fw_doc_object *o = fw_doc_objects(); o->path; o++, objects++) {
		const cJSON *s = schema_at(rd, o->path);
		snprintf(desc, sizeof(desc), "'%s': the same keys in the validator and the JSON Schema, "
			 "unknown ones refused", o->path[0] ? o->path : "(document)");
		ok(s && same_keys(s, o->keys, o->path) &&
		   cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(s, "additionalProperties")), desc);
	}
	is_int(objects, 13, "13 closed objects in the format (boot.phases the newest)");
	ok(cJSON_IsObject(schema_at(rd, "extensions")) &&
	   !cJSON_GetObjectItemCaseSensitive(schema_at(rd, "extensions"), "additionalProperties"),
	   "extensions is an open object in the schema");
	cJSON_Delete(api);
}

static cJSON *example(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct fw_error e;
	cJSON *doc = NULL;

	if (!strbuf_read_file(&sb, "schema/examples/run-ok.json", FW_DOC_MAX_BYTES))
		doc = fw_doc_parse(sb.buf, sb.len, &e);
	strbuf_release(&sb);
	return doc;
}

/* Adds "colour" to the object at path (NULL: the document) and validates. */
static void unknown_refused(const char *where, const char *want_field)
{
	cJSON *doc = example(), *obj = doc;
	struct fw_error e;
	char desc[160];

	if (where && !strcmp(where, "results[0]"))
		obj = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "results"), 0);
	else if (where)
		obj = cJSON_GetObjectItemCaseSensitive(doc, where);
	cJSON_AddStringToObject(obj, "colour", "red");
	snprintf(desc, sizeof(desc), "foliowatch-run/2: %s refused", want_field);
	ok(fw_doc_validate(doc, &e) && !strcmp(e.field, want_field) &&
	   strstr(e.detail, "unknown field"), desc);
	cJSON_ReplaceItemInObject(doc, "format", cJSON_CreateString(FW_DOC_FORMAT_OLD));
	snprintf(desc, sizeof(desc), "foliowatch-run/1: %s taken with a warning naming it", want_field);
	ok(!fw_doc_validate(doc, &e) && !strncmp(e.warning, want_field, strlen(want_field)) &&
	   strstr(e.warning, "deprecated"), desc);
	cJSON_Delete(doc);
}

static void unknown_fields(void)
{
	cJSON *doc = example(), *big;
	struct fw_error e;
	char *pad;

	ok(doc != NULL, "schema/examples/run-ok.json is valid");
	if (!doc)
		return;
	ok(!fw_doc_validate(doc, &e) && !e.warning[0], "... and gets no warning (foliowatch-run/2)");
	unknown_refused(NULL, "colour");
	unknown_refused("environment", "environment.colour");
	unknown_refused("results[0]", "results[0].colour");
	unknown_refused("series", "series.colour");
	cJSON_AddItemToObject(doc, "extensions", cJSON_CreateObject());
	cJSON_AddStringToObject(cJSON_GetObjectItemCaseSensitive(doc, "extensions"), "job_url", "https://ci/1");
	ok(!fw_doc_validate(doc, &e), "extensions with a CI's own keys: valid");
	cJSON_ReplaceItemInObject(doc, "extensions", cJSON_CreateString("x"));
	ok(fw_doc_validate(doc, &e) && !strcmp(e.field, "extensions"), "extensions that is not an object: refused");
	pad = calloc(1, FW_DOC_MAX_EXTENSIONS + 1);
	memset(pad, 'x', FW_DOC_MAX_EXTENSIONS);
	big = cJSON_CreateObject();
	cJSON_AddStringToObject(big, "log", pad);
	cJSON_ReplaceItemInObject(doc, "extensions", big);
	ok(fw_doc_validate(doc, &e) && !strcmp(e.field, "extensions") && strstr(e.detail, "at most"),
	   "extensions over 64 KiB: refused naming the limit");
	cJSON_ReplaceItemInObject(doc, "format", cJSON_CreateString("foliowatch-run/3"));
	ok(fw_doc_validate(doc, &e) && !strcmp(e.field, "format"), "an unknown format: refused");
	free(pad);
	cJSON_Delete(doc);
}

int main(void)
{
	schema_matches_validator();
	unknown_fields();
	return done_testing();
}
