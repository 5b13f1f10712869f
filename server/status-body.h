#ifndef FW_STATUS_BODY_H
#define FW_STATUS_BODY_H
/*
 * The body of POST /api/v1/regressions/{id}: {"status": S, "by": WHO,
 * "note": TEXT}, checked without HTTP so the fuzz target can drive it.
 */
#include <stddef.h>
#include <cjson/cJSON.h>
#include "strbuf.h"

struct fw_status_body {
	cJSON *json;
	const char *status;   /* new, acknowledged, fixed or invalid */
	const char *by;       /* NULL: not given */
	const char *note;     /* NULL: not given */
};
/* 1 when s is one of the four statuses. */
int fw_status_valid(const char *s);
/* 0 ok (free with fw_status_body_free), else -1 with the field and why (a 400). */
int fw_status_body_parse(const char *buf, size_t len, struct fw_status_body *b, struct strbuf *field,
			 struct strbuf *detail);
void fw_status_body_free(struct fw_status_body *b);

#endif
