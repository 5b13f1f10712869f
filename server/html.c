/* Escaping writers and the page frame shared by every server/ui-*.c page. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "html.h"
#include "numfmt.h"
#include "utf8.h"
#include "version.h"

static void escape(struct strbuf *sb, const char *s, int attr)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		case '\n':
			/* A newline in an attribute would be folded to a space anyway; keep it visible. */
			if (attr)
				strbuf_addstr(sb, "&#10;");
			else
				strbuf_addch(sb, '\n');
			break;
		default:
			/* Other C0 controls are not allowed in HTML text; show them as U+FFFD. */
			if ((unsigned char)*s < 0x20 && *s != '\t')
				strbuf_addstr(sb, "&#xfffd;");
			else
				strbuf_addch(sb, *s);
		}
	}
}

/* One part of a name: a browser may break after its '-', so a part with one stays on one line. */
static void name_part(struct strbuf *sb, const struct strbuf *part)
{
	if (!memchr(part->buf, '-', part->len)) {
		html_txt(sb, part->buf);
		return;
	}
	strbuf_addstr(sb, "<span class=\"nw\">");
	html_txt(sb, part->buf);
	strbuf_addstr(sb, "</span>");
}

void html_name(struct strbuf *sb, const char *s)
{
	struct strbuf part = STRBUF_INIT;

	for (s = s ? s : "";; s++) {
		if (*s && *s != '/') {
			strbuf_addch(&part, *s);
			continue;
		}
		if (part.len)
			name_part(sb, &part);
		if (!*s)
			break;
		strbuf_addch(sb, '/');
		strbuf_reset(&part);
	}
	strbuf_release(&part);
}

void html_wvm(struct strbuf *sb, const char *workload, const char *variant, const char *metric)
{
	html_name(sb, workload);
	strbuf_addch(sb, '/');
	html_name(sb, variant);
	strbuf_addch(sb, '/');
	html_name(sb, metric);
}

void html_txt(struct strbuf *sb, const char *s)
{
	/*
	 * Outside text with right-to-left letters or bidi controls is isolated
	 * (FSI ... PDI, what <bdi> does, and valid in <title> too): a U+202E in
	 * a name must not reverse the "+20.00%" after it.
	 */
	int iso = s && utf8_has_bidi(s);

	if (iso)
		strbuf_addstr(sb, "\xe2\x81\xa8");  /* U+2068 FSI */
	escape(sb, s, 0);
	if (iso)
		strbuf_addstr(sb, "\xe2\x81\xa9");  /* U+2069 PDI */
}

void html_attr(struct strbuf *sb, const char *s)
{
	escape(sb, s, 1);
}

void xml_txt(struct strbuf *sb, const char *s)
{
	struct strbuf t = STRBUF_INIT;

	for (; s && *s; s++) {
		if (!strncmp(s, "\xef\xbf\xbe", 3) || !strncmp(s, "\xef\xbf\xbf", 3)) {
			strbuf_addstr(&t, "\xef\xbf\xbd");
			s += 2;
		} else {
			strbuf_addch(&t, *s);
		}
	}
	escape(sb, t.buf, 1);
	strbuf_release(&t);
}

void html_url_arg(struct strbuf *sb, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '_' || c == '-' || c == '~') {
			strbuf_addch(sb, c);
		} else {
			strbuf_addch(sb, '%');
			strbuf_addch(sb, hex[c >> 4]);
			strbuf_addch(sb, hex[c & 15]);
		}
	}
}

void html_page_begin(struct strbuf *sb, const char *title)
{
	html_page_begin_at(sb, title, "/", "/static/style.css", "/static/favicon.svg");
}

void html_page_begin_at(struct strbuf *sb, const char *title, const char *home, const char *css,
			const char *icon)
{
	strbuf_addstr(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	html_txt(sb, title);
	strbuf_addstr(sb, " - foliowatch</title>\n<link rel=\"stylesheet\" href=\"");
	html_attr(sb, css);
	strbuf_addstr(sb, "\">\n<link rel=\"icon\" href=\"");
	html_attr(sb, icon);
	strbuf_addstr(sb, "\" type=\"image/svg+xml\">\n</head>\n<body>\n<header><a class=\"brand\" href=\"");
	html_attr(sb, home);
	strbuf_addstr(sb, "\">foliowatch</a></header>\n<main>\n");
}

void html_page_end(struct strbuf *sb)
{
	strbuf_addf(sb, "</main>\n<footer>foliowatch %s</footer>\n</body>\n</html>\n", fw_version);
}

void html_num(struct strbuf *sb, double v)
{
	if (isnan(v))
		strbuf_addstr(sb, "-");
	else
		fw_num_human(sb, v, 4);  /* counters in full: 131072, not 1.311e+05 */
}
