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

const char *fw_attribution_key(const cJSON *e)
{
	return isnan(fw_json_num_at(e, "delta", "self_us", NAN)) ? "time_us" : "self_us";
}

void fw_attribution_line(const cJSON *e, struct strbuf *out)
{
	const char *k = fw_attribution_key(e);
	double d = fw_json_num_at(e, "delta", k, NAN), pct = fw_json_num_at(e, "delta_pct", k, NAN);

	strbuf_addf(out, "%s  %s %+.0f us", fw_json_str(e, "function", "?"), k[0] == 's' ? "self" : "total", d);
	if (!isnan(pct))
		strbuf_addf(out, " (%+.0f%%)", pct);
	else
		strbuf_addstr(out, " (new)");
	strbuf_addf(out, "  hits %.0f -> %.0f", fw_json_num_at(e, "before", "hits", NAN),
		    fw_json_num_at(e, "after", "hits", NAN));
}
