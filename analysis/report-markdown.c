/*
 * report --format markdown (issue 56): what moved, for a merge-request or
 * pull-request comment. A heading with the count of what moved, then the
 * what-moved text as it is pasted into a cover letter (a fenced block keeps
 * its columns), then every row (report --all) folded in <details>, so the
 * first screen is the decided rows. Names come from outside: in the heading
 * what could start markup is backslash-escaped (no markup, no HTML), and each
 * fence is longer than any run of backticks in its text.
 */
#include <string.h>
#include "analysis-internal.h"
#include "analysis-json.h"

/*
 * s with what starts markup inside a line backslash-escaped (emphasis, code,
 * links and images, HTML, entities, tables, strikethrough) and line breaks as
 * spaces: s follows text on its line, so line-start markers (#, -, +) are inert.
 */
static void md_escape(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r')
			strbuf_addch(sb, ' ');
		else if (strchr("\\`*_[]<>&|~", *s))
			strbuf_addf(sb, "\\%c", *s);
		else
			strbuf_addch(sb, *s);
	}
}

/* text in a fenced block: the fence one backtick longer than the longest run inside (at least 3). */
static void md_fenced(struct strbuf *sb, const char *text)
{
	size_t run = 0, longest = 0;

	for (const char *p = text; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	longest = longest < 3 ? 3 : longest + 1;
	for (size_t i = 0; i < longest; i++)
		strbuf_addch(sb, '`');
	strbuf_addstr(sb, "text\n");
	strbuf_addstr(sb, text);
	if (sb->len && sb->buf[sb->len - 1] != '\n')
		strbuf_addch(sb, '\n');
	for (size_t i = 0; i < longest; i++)
		strbuf_addch(sb, '`');
	strbuf_addch(sb, '\n');
}

/* "2 regressions, 3 improvements, 1 unsure": the patches against their parents and the whole series. */
static void md_counts(struct strbuf *sb, const struct fw_an *s)
{
	int worse = 0, better = 0, unsure = 0;

	for (size_t i = 0; i < s->nrows; i++) {
		const struct fw_an_row *r = &s->rows[i];

		if (r->against != FW_AGAINST_PARENT)
			continue;
		worse += r->v == FW_REGRESSION;
		better += r->v == FW_IMPROVEMENT;
		unsure += r->v == FW_UNSURE;
	}
	strbuf_addf(sb, "%s%d regression%s%s, %d improvement%s, %d unsure", worse ? "**" : "", worse,
		    worse == 1 ? "" : "s", worse ? "**" : "", better, better == 1 ? "" : "s", unsure);
}

void fw_report_markdown(const struct fw_an *s, const cJSON *facts, struct strbuf *sb)
{
	struct strbuf text = STRBUF_INIT;
	int npatches = fw_cover_patches(s);

	strbuf_addstr(sb, "### foliowatch: ");
	md_escape(sb, s->series);
	strbuf_addf(sb, " v%d, %d patch%s\n\n", s->revision == FW_AN_NA ? 1 : s->revision, npatches,
		    npatches == 1 ? "" : "es");
	md_counts(sb, s);
	strbuf_addstr(sb, " (rows of each patch against its parent)\n\n");
	fw_report_moved(s, facts, &text);
	md_fenced(sb, text.buf);
	strbuf_reset(&text);
	fw_report_cover(s, facts, &text);
	strbuf_addstr(sb, "\n<details><summary>Every row (report --all)</summary>\n\n");
	md_fenced(sb, text.buf);
	strbuf_addstr(sb, "\n</details>\n");
	strbuf_release(&text);
}
