/*
 * GET /static/...: files from the --static folder only. Each segment is
 * decoded and checked (no "", ".", ".." or dot-files, no NUL or backslash),
 * then realpath() must still be inside the folder, so neither encoded
 * traversal nor a symlink leads out of it.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "routes.h"

static const char *ctype_of(const char *p)
{
	static const struct { const char *ext, *type; } types[] = {
		{ ".css", "text/css; charset=utf-8" }, { ".js", "text/javascript; charset=utf-8" },
		{ ".svg", "image/svg+xml" }, { ".png", "image/png" }, { ".ico", "image/x-icon" },
		{ ".txt", "text/plain; charset=utf-8" }, { ".html", "text/html; charset=utf-8" },
	};
	const char *dot = strrchr(p, '.');

	for (size_t i = 0; dot && i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(dot, types[i].ext))
			return types[i].type;
	return "application/octet-stream";
}

enum MHD_Result ui_static(struct fw_req *r)
{
	struct strbuf rel = STRBUF_INIT, seg = STRBUF_INIT, full = STRBUF_INIT;
	const char *p = r->args[0], *dir = r->srv->static_dir;
	char real[PATH_MAX];
	enum MHD_Result ret;
	size_t dl;

	if (!dir)
		goto notfound;
	while (*p) {
		const char *e = strchrnul(p, '/');

		if (fw_url_decode(p, (size_t)(e - p), &seg) || !seg.len || seg.buf[0] == '.' ||
		    strchr(seg.buf, '/') || strchr(seg.buf, '\\'))
			goto notfound;
		if (rel.len)
			strbuf_addch(&rel, '/');
		strbuf_addstr(&rel, seg.buf);
		p = *e ? e + 1 : e;
	}
	strbuf_addf(&full, "%s/%s", dir, rel.buf);
	dl = strlen(dir);
	if (!realpath(full.buf, real) || strncmp(real, dir, dl) || real[dl] != '/')
		goto notfound;
	ret = reply_file(r, real, ctype_of(real), NULL);
	goto cleanup;
notfound:
	ret = reply_error(r, 404, "not_found", "path", "no such static file");
cleanup:
	strbuf_release(&rel);
	strbuf_release(&seg);
	strbuf_release(&full);
	return ret;
}
