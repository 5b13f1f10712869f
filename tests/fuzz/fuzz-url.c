/*
 * libFuzzer target: the URL side of the server as outside input reaches it.
 * libmicrohttpd hands us the raw path (fw_http_no_unescape keeps escapes) and
 * raw query values; routes.c matches the path segment by segment and decodes
 * captures with fw_url_decode, req_query() decodes query values the same way.
 * Input: first byte picks the method, the rest is "path[?query]".
 * Checked beyond "no crash": decoded strings never contain NUL or grow, a
 * decode of the re-encoded output gives the output back, and a found route
 * has every capture set.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "routes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const methods[] = { "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "BREW", "" };

static void check_decode(const char *in, size_t len)
{
	struct strbuf out = STRBUF_INIT, enc = STRBUF_INIT, back = STRBUF_INIT;

	if (!fw_url_decode(in, len, &out)) {
		if (out.len > len || memchr(out.buf, 0, out.len))
			abort();
		for (size_t i = 0; i < out.len; i++)
			strbuf_addf(&enc, "%%%02X", (unsigned char)out.buf[i]);
		if (fw_url_decode(enc.buf, enc.len, &back) || back.len != out.len ||
		    memcmp(back.buf, out.buf, out.len))
			abort();
	}
	strbuf_release(&out);
	strbuf_release(&enc);
	strbuf_release(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_req r;
	struct strbuf allow = STRBUF_INIT;
	fw_handler fn;
	char *url, *q;
	int st;

	if (!size)
		return 0;
	/* MHD gives us a NUL-terminated string: what follows a NUL is never seen. */
	url = strndup((const char *)data + 1, size - 1);
	if (!url)
		return 0;
	q = strchr(url, '?');
	if (q) {
		char *p = q + 1;

		*q = 0;
		while (*p) {
			char *amp = strchrnul(p, '&');
			char *eq = memchr(p, '=', (size_t)(amp - p));

			check_decode(p, (size_t)((eq ? eq : amp) - p));
			if (eq)
				check_decode(eq + 1, (size_t)(amp - eq - 1));
			p = *amp ? amp + 1 : amp;
		}
	}
	check_decode(url, strlen(url));

	memset(&r, 0, sizeof(r));
	r.path = url;
	r.method = methods[data[0] % (sizeof(methods) / sizeof(methods[0]))];
	st = fw_route_find(&r, r.method, &fn, &allow);
	if (st == 0) {
		if (!fn)
			abort();
		for (int i = 0; i < r.nargs; i++)
			if (!r.args[i])
				abort();
	} else if (st != 400 && st != 404 && st != 405 && st != 414) {
		abort();
	} else if (r.nargs) {
		abort(); /* captures of a failed lookup must be freed */
	}
	if ((st == 405) != (allow.len > 0))
		abort();
	for (int i = 0; i < r.nargs; i++)
		free(r.args[i]);
	strbuf_release(&allow);
	free(url);
	return 0;
}
