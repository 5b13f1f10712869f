/*
 * The route table and the OpenAPI document (server/openapi.json, compiled in)
 * describe the same API: every API route (kind JSON, or a path under /api/)
 * with its method is an operation of the document, and every operation of
 * the document is such a route. A route added without its document entry,
 * or a documented path that no route serves, fails here by name.
 * Pages, plots and static files are not API routes.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "routes.h"

static const char *const methods[] = { "get", "put", "post", "delete", "options", "head", "patch", "trace" };

static int is_api_route(const char *pattern, enum fw_route_kind kind)
{
	return kind == FW_ROUTE_JSON || !strncmp(pattern, "/api/", 5);
}


static int route_in_doc(const cJSON *paths, const char *method, const char *pattern)
{
	struct strbuf pat = STRBUF_INIT, lower = STRBUF_INIT;
	const cJSON *item;
	int found = 0;

	for (const char *m = method; *m; m++)
		strbuf_addch(&lower, (char)tolower((unsigned char)*m));
	cJSON_ArrayForEach(item, paths) {
		fw_openapi_pattern(item->string, &pat);
		if (!strcmp(pat.buf, pattern) && cJSON_GetObjectItemCaseSensitive(item, lower.buf))
			found = 1;
	}
	strbuf_release(&pat);
	strbuf_release(&lower);
	return found;
}

static int doc_op_routed(const char *pattern, const char *method)
{
	const char *rm, *rp;
	enum fw_route_kind kind;

	for (size_t i = 0; !fw_route_info(i, &rm, &rp, &kind); i++)
		if (is_api_route(rp, kind) && !strcmp(rp, pattern) && !strcasecmp(rm, method))
			return 1;
	return 0;
}

/* Mismatches between the table and doc (each printed as a TAP comment). */
static int mismatches(const cJSON *doc)
{
	const cJSON *paths = cJSON_GetObjectItemCaseSensitive(doc, "paths"), *item;
	struct strbuf pat = STRBUF_INIT;
	const char *method, *pattern;
	enum fw_route_kind kind;
	int bad = 0;

	for (size_t i = 0; !fw_route_info(i, &method, &pattern, &kind); i++) {
		if (is_api_route(pattern, kind) && !route_in_doc(paths, method, pattern)) {
			printf("#   route %s %s is not in server/openapi.json\n", method, pattern);
			bad++;
		}
	}
	cJSON_ArrayForEach(item, paths) {
		fw_openapi_pattern(item->string, &pat);
		for (size_t m = 0; m < sizeof(methods) / sizeof(methods[0]); m++) {
			if (cJSON_GetObjectItemCaseSensitive(item, methods[m]) && !doc_op_routed(pat.buf, methods[m])) {
				printf("#   %s %s of server/openapi.json is no API route of server/routes.c\n",
				       methods[m], item->string);
				bad++;
			}
		}
	}
	strbuf_release(&pat);
	return bad;
}

int main(void)
{
	cJSON *doc = cJSON_ParseWithLength(fw_openapi_json, fw_openapi_json_len), *paths, *extra;
	const char *method, *pattern;
	enum fw_route_kind kind;
	int api_routes = 0;

	ok(cJSON_IsObject(doc), "the compiled-in document is JSON");
	if (!doc)
		return done_testing();
	is_str(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "openapi")), "3.1.0", "OpenAPI 3.1");
	for (size_t i = 0; !fw_route_info(i, &method, &pattern, &kind); i++)
		api_routes += is_api_route(pattern, kind);
	ok(api_routes >= 12, "the route table has its API routes");
	is_int(mismatches(doc), 0, "every API route is documented and every documented operation is a route");

	/* The check itself: a route missing from the document, and a path no route serves. */
	paths = cJSON_GetObjectItemCaseSensitive(doc, "paths");
	cJSON_DeleteItemFromObjectCaseSensitive(paths, "/api/v1/trend");
	is_int(mismatches(doc), 1, "a document without GET /api/v1/trend fails");
	extra = cJSON_AddObjectToObject(paths, "/api/v1/nothing/{id}");
	cJSON_AddObjectToObject(extra, "get");
	is_int(mismatches(doc), 2, "... and a documented path that no route serves fails too");
	cJSON_DeleteItemFromObjectCaseSensitive(paths, "/api/v1/nothing/{id}");
	extra = cJSON_GetObjectItemCaseSensitive(paths, "/api/v1/regressions/{id}");
	cJSON_DeleteItemFromObjectCaseSensitive(extra, "post");
	is_int(mismatches(doc), 2, "... and so does a route's method missing from its path");
	cJSON_Delete(doc);
	return done_testing();
}
