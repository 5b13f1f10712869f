/*
 * GET /api/v1/series/{name}/report.txt: the plain-text series table. The
 * analysed table (p-values, verdicts) comes from the analysis code; until it
 * is linked in, this is a medians table clearly marked "not analysed".
 */
#include <math.h>
#include <string.h>
#include "routes.h"
#include "analysis.h"
#include "ui.h"
#include "utf8.h"

void fw_series_report(const struct fw_series *s, const cJSON *an, struct strbuf *sb)
{
	/* The analysis code's table is the report; the medians table is only a fallback. */
	if (an) {
		fw_report_write(an, FW_REPORT_TEXT, sb);
		return;
	}
	strbuf_addf(sb, "series %s v%d (base %.*s)\n", s->name, s->revision, UTF8_CUT(s->base, 12));
	strbuf_addstr(sb, "statistics: not analysed (medians and delta % against the previous commit only)\n\n");
	for (int i = 0; i < s->nmetrics; i++) {
		const struct fw_metric *m = &s->metrics[i];

		strbuf_addf(sb, "%s (%s, %s)%s%.*s\n", m->id, m->unit,
			    strcmp(m->direction, "higher_is_better") ? "lower is better" : "higher is better",
			    s->nenvs > 1 ? " env " : "", UTF8_CUT(s->nenvs > 1 ? m->env : "", 12));
		strbuf_addf(sb, "  %-4s %-12s %14s %9s %4s  %s\n", "pos", "commit", "median", "delta", "n", "subject");
		for (int c = 0; c < s->ncommits; c++) {
			const struct fw_cell *cell = &m->cells[c];

			strbuf_addf(sb, "  %-4d %-12.*s ", s->commits[c].position, UTF8_CUT(s->commits[c].sha, 12));
			if (isnan(cell->median))
				strbuf_addf(sb, "%14s ", cell->errors ? "error" : "-");
			else
				strbuf_addf(sb, "%14.6g ", cell->median);
			if (isnan(cell->delta_pct))
				strbuf_addf(sb, "%9s ", "");
			else
				strbuf_addf(sb, "%+8.2f%% ", cell->delta_pct);
			strbuf_addf(sb, "%4d  %.*s\n", cell->n, UTF8_CUT(s->commits[c].subject, 60));
		}
		strbuf_addch(sb, '\n');
	}
}

enum MHD_Result api_series_report(struct fw_req *r)
{
	struct fw_series s;
	struct strbuf sb = STRBUF_INIT;
	enum MHD_Result ret;
	cJSON *an;

	if (req_series(r, r->args[0], "name", &s, &ret))
		return ret;
	an = req_analysis(r, s.name, s.revision);
	fw_series_report(&s, an, &sb);
	cJSON_Delete(an);
	fw_series_free(&s);
	return reply_buf(r, 200, "text/plain; charset=utf-8", &sb, NULL);
}
