/*
 * One attribution entry (analysis/profile-diff.c) as a line of text, the one
 * wording the report, the pages and the plot labels share:
 *   split_huge_page_to_list_to_order  self +2100 us (+35%)  hits 512 -> 512
 * Self time when both sides measured it, else "total".
 */
#include <math.h>
#include <stdio.h>
#include "analysis.h"
#include "run-doc.h"

static double num(const cJSON *e, const char *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, obj), key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const char *fw_attribution_key(const cJSON *e)
{
	return isnan(num(e, "delta", "self_us")) ? "time_us" : "self_us";
}

void fw_attribution_line(const cJSON *e, struct strbuf *out)
{
	const char *k = fw_attribution_key(e);
	double d = num(e, "delta", k), pct = num(e, "delta_pct", k);

	strbuf_addf(out, "%s  %s %+.0f us", fw_json_str(e, "function", "?"), k[0] == 's' ? "self" : "total", d);
	if (!isnan(pct))
		strbuf_addf(out, " (%+.0f%%)", pct);
	else
		strbuf_addstr(out, " (new)");
	strbuf_addf(out, "  hits %.0f -> %.0f", num(e, "before", "hits"), num(e, "after", "hits"));
}
