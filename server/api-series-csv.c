/*
 * GET /api/v1/series/{name}.csv: every sample of the series, one per row,
 * for spreadsheets and scripts. Fields are always quoted, and a cell that a
 * spreadsheet would read as a formula gets a leading apostrophe.
 */
#include <stdio.h>
#include <string.h>
#include "routes.h"
#include "ui.h"
#include "numfmt.h"

static void csv_field(struct strbuf *sb, const char *s, int last)
{
	strbuf_addch(sb, '"');
	if (s && strchr("=+-@\t\r", *s) && *s)
		strbuf_addch(sb, '\'');
	for (; s && *s; s++) {
		if (*s == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
	strbuf_addch(sb, last ? '\n' : ',');
}

void fw_series_csv(const struct fw_series *s, struct strbuf *sb)
{
	strbuf_addstr(sb, "series,revision,position,sha,workload,variant,metric,unit,direction,env,run,value\n");
	for (int i = 0; i < s->nmetrics; i++) {
		const struct fw_metric *m = &s->metrics[i];

		for (int c = 0; c < s->ncommits; c++) {
			for (int k = 0; k < m->cells[c].n; k++) {
				csv_field(sb, s->name, 0);
				strbuf_addf(sb, "%d,%d,", s->revision, s->commits[c].position);
				csv_field(sb, s->commits[c].sha, 0);
				csv_field(sb, m->workload, 0);
				csv_field(sb, m->variant, 0);
				csv_field(sb, m->metric, 0);
				csv_field(sb, m->unit, 0);
				csv_field(sb, m->direction, 0);
				csv_field(sb, m->env, 0);
				/* Shortest form that reads back exactly: 0.0883, not 0.088300000000000003. */
				strbuf_addf(sb, "%lld,", m->cells[c].vals[k].run);
				fw_num_exact(sb, m->cells[c].vals[k].v);
				strbuf_addch(sb, '\n');
			}
		}
	}
}

enum MHD_Result api_series_csv(struct fw_req *r)
{
	struct fw_series s;
	struct strbuf sb = STRBUF_INIT;
	enum MHD_Result ret;

	if (req_series(r, r->args[0], "name", &s, &ret))
		return ret;
	fw_series_csv(&s, &sb);
	fw_series_free(&s);
	return reply_buf(r, 200, "text/csv; charset=utf-8", &sb, NULL);
}
