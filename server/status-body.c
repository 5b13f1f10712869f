/*
 * Checks a regression status change's body like a run document's text: valid
 * UTF-8, no \u0000 (cJSON would cut the string), no control characters,
 * lengths (analysis.h: FW_BY_MAX, FW_NOTE_MAX), no unknown field.
 */
#include <string.h>
#include "status-body.h"
#include "analysis.h"
#include "run-doc.h"

int fw_status_valid(const char *s)
{
	return s && (!strcmp(s, "new") || !strcmp(s, "acknowledged") || !strcmp(s, "fixed") ||
		     !strcmp(s, "invalid"));
}

static int fail(struct strbuf *field, struct strbuf *detail, const char *f, const char *d)
{
	strbuf_addstr(field, f);
	strbuf_addstr(detail, d);
	return -1;
}

/* One member: 0 fine, -1 with field and detail set. */
static int member(const cJSON *it, struct fw_status_body *b, struct strbuf *field, struct strbuf *detail)
{
	static const char *const known[] = { "status", "by", "note", NULL };
	const char *problem = NULL;
	size_t k = 0;

	while (known[k] && strcmp(known[k], it->string))
		k++;
	if (!known[k]) {
		fw_path_key(field, it->string);
		strbuf_addstr(detail, "unknown field (status, by and note are)");
		return -1;
	}
	if (!cJSON_IsString(it))
		problem = "must be a string";
	else if (k == 1)
		problem = fw_text_problem(it->valuestring, 1, FW_BY_MAX, 0);
	else if (k == 2)
		problem = fw_text_problem(it->valuestring, 0, FW_NOTE_MAX, 1);
	else if (!fw_status_valid(it->valuestring))
		problem = "must be one of new, acknowledged, fixed, invalid";
	if (problem) {
		strbuf_addstr(field, it->string);
		strbuf_addf(detail, "%s %s", it->string, problem);
		if (k)
			strbuf_addf(detail, " (%d..%d bytes of text%s)", k == 1, k == 1 ? FW_BY_MAX : FW_NOTE_MAX,
				    k == 1 ? " on one line" : ", lines allowed");
		return -1;
	}
	*(k == 0 ? &b->status : k == 1 ? &b->by : &b->note) = it->valuestring;
	return 0;
}

int fw_status_body_parse(const char *buf, size_t len, struct fw_status_body *b, struct strbuf *field,
			 struct strbuf *detail)
{
	const cJSON *it;
	long nul;

	memset(b, 0, sizeof(*b));
	b->json = cJSON_ParseWithLength(buf, len);
	if (!cJSON_IsObject(b->json) || memchr(buf, '\0', len)) {
		fw_status_body_free(b);
		return fail(field, detail, "body", "the body must be a JSON object");
	}
	nul = fw_json_nul_escape_at(buf, len);
	if (nul >= 0) {
		fw_json_string_path(b->json, nul, field);
		fw_status_body_free(b);
		return fail(field, detail, "", "\\u0000 (NUL) is not allowed in a string");
	}
	cJSON_ArrayForEach(it, b->json)
		if (member(it, b, field, detail)) {
			fw_status_body_free(b);
			return -1;
		}
	if (!b->status) {
		fw_status_body_free(b);
		return fail(field, detail, "status", "status must be one of new, acknowledged, fixed, invalid");
	}
	return 0;
}

void fw_status_body_free(struct fw_status_body *b)
{
	cJSON_Delete(b->json);
	memset(b, 0, sizeof(*b));
}
