/*
 * GET /api/v1/openapi.json: the OpenAPI 3.1 document of the HTTP API
 * (server/openapi.json, compiled in). tests/unit/test-openapi-routes.c keeps
 * it and the route table in step; tests/t1090-openapi.sh validates it and
 * the live answers against it.
 */
#include "routes.h"

enum MHD_Result api_openapi(struct fw_req *r)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add(&sb, fw_openapi_json, fw_openapi_json_len);
	return reply_buf(r, 200, "application/json", &sb, NULL);
}
