/*
 * GET /api/v1/series/{name}/report.md: the same as Markdown (what moved, every
 * row folded), for a merge-request comment; without an analysis, the text.
 * GET /api/v1/series/{name}/report.txt[?all=1|?verbose=1]: the plain-text
 * series report: what moved (fw_report_moved), with ?all=1 the cover letter's
 * table of every row (fw_report_cover), with ?verbose=1 the long one (p, q,
 * counters); all from the analysis. When it cannot be computed, a
 * medians table clearly marked "not analysed".
 */
#include <math.h>
#include <string.h>
#include "routes.h"
#include "analysis-json.h"
#include "store.h"
#include "ui.h"
#include "utf8.h"

void fw_series_report(const struct fw_series *s, const struct fw_an *an, const cJSON *facts,
		      enum fw_report_view view, struct strbuf *sb)
{
	/* The analysis code's table is the report; the medians table is only a fallback. */
	if (an && view == FW_VIEW_VERBOSE)
		fw_report_write(an, FW_REPORT_TEXT, sb);
	if (an && view == FW_VIEW_ALL)
		fw_report_cover(an, facts, sb);
	if (an && view == FW_VIEW_MOVED)
		fw_report_moved(an, facts, sb);
	if (an)
		return;
	strbuf_addf(sb, "series %s v%d (base %.*s)\n", s->name, s->revision, UTF8_CUT(s->base, 12));
	strbuf_addstr(sb, "statistics: not analysed (medians only)\n\n");
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

/* report.txt (text) or report.md (markdown): the series' report from its analysis. */
static enum MHD_Result series_report(struct fw_req *r, int markdown)
{
	struct fw_series s;
	struct strbuf sb = STRBUF_INIT;
	enum MHD_Result ret;
	struct fw_an *an;

	if (req_series(r, r->args[0], "name", &s, &ret))
		return ret;
	struct strbuf verbose = STRBUF_INIT, all = STRBUF_INIT, err = STRBUF_INIT;
	cJSON *facts = NULL;

	an = req_analysis(r, s.name, s.revision);
	req_query(r, "verbose", &verbose);
	req_query(r, "all", &all);
	if (fw_mail_facts(req_db(r), s.name, s.revision, &facts, &err))
		facts = NULL;  /* the tables stand without "how it was measured" */
	if (markdown && an)
		fw_report_markdown(an, facts, &sb);
	else
		fw_series_report(&s, an, facts,
				 verbose.len && strcmp(verbose.buf, "0") ? FW_VIEW_VERBOSE :
				 all.len && strcmp(all.buf, "0") ? FW_VIEW_ALL : FW_VIEW_MOVED, &sb);
	cJSON_Delete(facts);
	fw_an_free(an);
	strbuf_release(&verbose);
	strbuf_release(&all);
	strbuf_release(&err);
	fw_series_free(&s);
	return reply_buf(r, 200, markdown ? "text/markdown; charset=utf-8" : "text/plain; charset=utf-8", &sb, NULL);
}

enum MHD_Result api_series_report(struct fw_req *r)
{
	return series_report(r, 0);
}

enum MHD_Result api_series_report_md(struct fw_req *r)
{
	return series_report(r, 1);
}
