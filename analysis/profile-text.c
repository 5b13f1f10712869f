/*
 * One attribution entry (analysis/profile-diff.c) as a line of text, the one
 * wording the report, the pages and the plot labels share:
 *   split_huge_page_to_list_to_order  self +2100 us (+35%)  hits 512 -> 512
 * Self time when both sides measured it, else "total".
 */
#include <math.h>
#include <stdio.h>
#include "analysis.h"

int fw_attribution_uses_self(const struct fw_an_function *f)
{
	return !isnan(f->delta.self_us);
}

void fw_attribution_line(const struct fw_an_function *f, struct strbuf *out)
{
	int self = fw_attribution_uses_self(f);
	double d = self ? f->delta.self_us : f->delta.time_us;
	double pct = self ? f->delta_pct.self_us : f->delta_pct.time_us;

	strbuf_addf(out, "%s  %s %+.0f us", f->function[0] ? f->function : "?", self ? "self" : "total", d);
	if (!isnan(pct))
		strbuf_addf(out, " (%+.0f%%)", pct);
	else
		strbuf_addstr(out, " (new)");
	strbuf_addf(out, "  hits %.0f -> %.0f", f->before.hits, f->after.hits);
}
