/* Display truncation for pages: cut at a character boundary, never inside one. */
#include <stdlib.h>
#include <string.h>
#include "html.h"
#include "utf8.h"

void html_txt_short(struct strbuf *sb, const char *s, size_t max_chars)
{
	char *cut = strndup(s, (size_t)utf8_prefix(s, max_chars));

	if (!cut)
		abort();
	html_txt(sb, cut);
	free(cut);
}
