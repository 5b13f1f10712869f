/*
 * libFuzzer target: the regression status body (server/status-body.c) and
 * the text and scope validators it and the tokens rest on. Checks that an
 * accepted body holds only text those validators accept, that every refusal
 * names a field, and that scope lists round-trip through their text form.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "status-body.h"
#include "analysis.h"
#include "run-doc.h"
#include "token-db.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf field = STRBUF_INIT, detail = STRBUF_INIT, sc = STRBUF_INIT;
	struct fw_status_body b;
	char *s = malloc(size + 1);
	unsigned scopes, again;

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	if (!fw_status_body_parse((const char *)data, size, &b, &field, &detail)) {
		if (!fw_status_valid(b.status) || (b.by && fw_text_problem(b.by, 1, FW_BY_MAX, 0)) ||
		    (b.note && fw_text_problem(b.note, 0, FW_NOTE_MAX, 1)))
			abort();  /* accepted what the validators refuse */
		fw_status_body_free(&b);
	} else if (!detail.len || utf8_invalid_at(detail.buf, detail.len) >= 0) {
		abort();  /* a refusal says why, in valid UTF-8 */
	}
	/* The same bytes as outside text and as a scope list. */
	(void)fw_text_problem(s, 0, size, size & 1);
	(void)utf8_has_bidi(utf8_invalid_at(s, strlen(s)) < 0 ? s : "");
	(void)utf8_prefix(s, size % 16);
	strbuf_reset(&detail);
	if (!fw_scopes_parse(s, &scopes, &detail)) {
		fw_scopes_format(scopes, &sc);
		if (fw_scopes_parse(sc.buf, &again, &detail) || again != scopes)
			abort();
	}
	free(s);
	strbuf_release(&field);
	strbuf_release(&detail);
	strbuf_release(&sc);
	return 0;
}
