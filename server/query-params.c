/*
 * Unknown query parameters (issue 56): an API route answers 400 naming the
 * first parameter it does not take, and lists the ones it does, as a body's
 * unknown field is named. What a route takes is its operation's "in": "query"
 * parameters in the OpenAPI document (server/openapi.json, compiled in): one
 * list, the one users read. Routes with no operation there (pages, plots,
 * static files) take what browsers and forms send and are not checked.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "routes.h"

#define QP_MAX_ROUTES 128

/* Per route index: " a b c " (its query parameters), "" (none), or NULL (not an API operation). */
static char *accepted[QP_MAX_ROUTES];
static pthread_once_t once = PTHREAD_ONCE_INIT;

void fw_openapi_pattern(const char *path, struct strbuf *out)
{
	strbuf_reset(out);
	for (const char *p = path; *p; p++) {
		const char *close = *p == '{' ? strchr(p, '}') : NULL;

		if (close) {
			strbuf_addch(out, '*');
			p = close;
		} else {
			strbuf_addch(out, *p);
		}
	}
}

static char *params_of(const cJSON *op)
{
	struct strbuf l = STRBUF_INIT;
	const cJSON *p;

	strbuf_addch(&l, ' ');
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(op, "parameters")) {
		const cJSON *in = cJSON_GetObjectItemCaseSensitive(p, "in"), *name = cJSON_GetObjectItemCaseSensitive(p, "name");

		if (cJSON_IsString(in) && !strcmp(in->valuestring, "query") && cJSON_IsString(name))
			strbuf_addf(&l, "%s ", name->valuestring);
	}
	return strbuf_detach(&l, NULL);
}

static void load(void)
{
	cJSON *doc = cJSON_ParseWithLength(fw_openapi_json, fw_openapi_json_len), *path;
	struct strbuf pat = STRBUF_INIT, method = STRBUF_INIT;
	const char *m, *pattern;
	enum fw_route_kind kind;

	cJSON_ArrayForEach(path, cJSON_GetObjectItemCaseSensitive(doc, "paths")) {
		fw_openapi_pattern(path->string, &pat);
		for (size_t i = 0; i < QP_MAX_ROUTES && !fw_route_info(i, &m, &pattern, &kind); i++) {
			const cJSON *op;

			if (strcmp(pattern, pat.buf))
				continue;
			strbuf_reset(&method);
			for (const char *c = m; *c; c++)
				strbuf_addch(&method, (char)(*c | 0x20));  /* "GET" is "get" in the document */
			if ((op = cJSON_GetObjectItemCaseSensitive(path, method.buf)) && !accepted[i])
				accepted[i] = params_of(op);
		}
	}
	strbuf_release(&pat);
	strbuf_release(&method);
	cJSON_Delete(doc);
}

struct first_unknown {
	const char *list;
	struct strbuf key;  /* decoded: the server takes the query raw (req_query decodes) */
	int found;
};

static enum MHD_Result find_unknown(void *cls, enum MHD_ValueKind kind, const char *raw, const char *value)
{
	struct first_unknown *u = cls;
	const char *hit, *key;
	size_t n;

	(void)kind;
	(void)value;
	strbuf_reset(&u->key);
	if (fw_url_decode(raw, strlen(raw), &u->key)) {
		strbuf_reset(&u->key);
		strbuf_addstr(&u->key, raw);  /* undecodable: named as sent, and no parameter's */
		u->found = 1;
		return MHD_NO;
	}
	key = u->key.buf;
	n = u->key.len;
	/* a name with a space (or none) is no parameter's, and would match across two */
	for (hit = n && !strchr(key, ' ') ? strstr(u->list, key) : NULL; hit; hit = strstr(hit + 1, key))
		if (hit[-1] == ' ' && hit[n] == ' ')
			return MHD_YES;
	u->found = 1;
	return MHD_NO;
}

int fw_query_unknown(struct fw_req *r, size_t route, enum MHD_Result *ret)
{
	struct first_unknown u = { NULL, STRBUF_INIT, 0 };
	struct strbuf why = STRBUF_INIT;

	pthread_once(&once, load);
	if (route >= QP_MAX_ROUTES || !(u.list = accepted[route]))
		return 0;
	MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, find_unknown, &u);
	if (!u.found) {
		strbuf_release(&u.key);
		return 0;
	}
	strbuf_addf(&why, "unknown query parameter; this takes %s", u.list[1] ? "" : "none");
	for (const char *p = u.list + 1; *p; p += strcspn(p, " ") + 1)
		strbuf_addf(&why, "%s%.*s", p == u.list + 1 ? "" : ", ", (int)strcspn(p, " "), p);
	*ret = reply_error(r, 400, "unknown_parameter", u.key.buf, why.buf);
	strbuf_release(&why);
	strbuf_release(&u.key);
	return 1;
}
