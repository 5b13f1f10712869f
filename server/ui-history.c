/* A stored regression's status history (who, when, note) for the pages. */
#include "ui.h"
#include "html.h"

void ui_regression_history(struct strbuf *sb, const struct fw_reg *reg)
{
	if (!reg->nhistory)
		return;
	strbuf_addstr(sb, "<details class=\"history\"><summary>history</summary><ol>");
	for (size_t i = 0; i < reg->nhistory; i++) {
		const struct fw_reg_change *e = &reg->history[i];

		strbuf_addstr(sb, "<li>");
		html_txt(sb, e->status);
		strbuf_addstr(sb, " by <bdi>");
		html_txt(sb, e->by);
		strbuf_addstr(sb, "</bdi> at ");
		html_txt(sb, e->at);
		if (*e->note) {
			strbuf_addstr(sb, ": <bdi class=\"note\">");
			html_txt(sb, e->note);
			strbuf_addstr(sb, "</bdi>");
		}
		strbuf_addstr(sb, "</li>");
	}
	strbuf_addstr(sb, "</ol></details>");
}
