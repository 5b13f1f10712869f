/*
 * A long history is shown a window at a time (issue 31): which positions a
 * page shows of how many, and links to the older and newer windows and to
 * all. The series page and the metric page share it, each with its links.
 */
#include "ui.h"

void ui_window_nav(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, const struct fw_metric *m,
		   ui_window_href_fn href)
{
	int n = s->to - s->from + 1;

	if (!s->window || ui->exported)
		return;
	strbuf_addf(sb, "<p class=\"window\" id=\"window\">Commits at positions %d&ndash;%d of %d commits "
		    "(positions %d&ndash;%d).", s->from, s->to, s->total_commits, s->first_position, s->last_position);
	if (s->from > s->first_position) {
		strbuf_addstr(sb, " <a rel=\"prev\" href=\"");
		href(sb, ui, s, m, s->from - n > s->first_position ? s->from - n : s->first_position, s->from - 1);
		strbuf_addstr(sb, "\">older</a>");
	}
	if (s->to < s->last_position) {
		strbuf_addstr(sb, " <a rel=\"next\" href=\"");
		href(sb, ui, s, m, s->to + 1, s->to + n);
		strbuf_addstr(sb, "\">newer</a>");
	}
	strbuf_addstr(sb, " <a href=\"");
	href(sb, ui, s, m, s->first_position, -1);
	strbuf_addstr(sb, "\">all</a></p>\n");
}
