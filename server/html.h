#ifndef FW_HTML_H
#define FW_HTML_H
/*
 * HTML only through these writers (after cgit's html.c): text from the DB or
 * the request never reaches a page except through html_txt/html_attr/html_url_arg.
 */
#include "strbuf.h"

void html_txt(struct strbuf *sb, const char *s);      /* element content */
void html_attr(struct strbuf *sb, const char *s);     /* inside a "quoted" attribute */
/* A name such as split/pmd-to-0/split_ms in a table cell: it may wrap after a '/',
 * never at the '-' of a part (issue 29); html_wvm writes workload/variant/metric so. */
void html_name(struct strbuf *sb, const char *s);
void html_wvm(struct strbuf *sb, const char *workload, const char *variant, const char *metric);
/* XML 1.0 text or "quoted" attribute (the Atom feed): as html_attr, and U+FFFE/U+FFFF
 * (not XML characters) written as U+FFFD like the C0 controls. */
void xml_txt(struct strbuf *sb, const char *s);
/* html_txt of the first max_chars characters (display only: never for identifiers). */
void html_txt_short(struct strbuf *sb, const char *s, size_t max_chars);
/* Percent-encodes everything but [A-Za-z0-9_~-] (so '.', '/' and '%' in names stay data). */
void html_url_arg(struct strbuf *sb, const char *s);
void html_page_begin(struct strbuf *sb, const char *title);
/* The same with the home, stylesheet and icon links given (relative ones in an export). */
void html_page_begin_at(struct strbuf *sb, const char *title, const char *home, const char *css,
			const char *icon);
void html_page_end(struct strbuf *sb);
/* Number with a sensible number of significant digits. */
void html_num(struct strbuf *sb, double v);

#endif
