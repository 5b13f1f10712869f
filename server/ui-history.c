/* A stored regression's status history (who, when, note) for the pages. */
#include "ui.h"
#include "html.h"

void ui_regression_history(struct strbuf *sb, const cJSON *reg)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(reg, "history"), *e;

	if (!cJSON_GetArraySize(h))
		return;
	strbuf_addstr(sb, "<details class=\"history\"><summary>history</summary><ol>");
	cJSON_ArrayForEach(e, h) {
		const char *note = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "note"));

		strbuf_addstr(sb, "<li>");
		html_txt(sb, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "status")));
		strbuf_addstr(sb, " by <bdi>");
		html_txt(sb, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "by")));
		strbuf_addstr(sb, "</bdi> at ");
		html_txt(sb, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "at")));
		if (note && *note) {
			strbuf_addstr(sb, ": <bdi class=\"note\">");
			html_txt(sb, note);
			strbuf_addstr(sb, "</bdi>");
		}
		strbuf_addstr(sb, "</li>");
	}
	strbuf_addstr(sb, "</ol></details>");
}
