/*
 * GET /api/v1/series/{name}.csv: every sample of the series, one per row,
 * for spreadsheets and scripts. Fields are always quoted, and a cell that a
 * spreadsheet would read as a formula gets a leading apostrophe.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "routes.h"
#include "ui.h"
#include "numfmt.h"
#include "sample-cursor.h"
#include "xalloc.h"

static void csv_field(struct strbuf *sb, const char *s, int last)
{
	strbuf_addch(sb, '"');
	if (s && strchr("=+-@\t\r", *s) && *s)
		strbuf_addch(sb, '\'');
	while (s && *s) {  /* spans up to and with each quote, which is then doubled */
		const char *q = strchr(s, '"');
		size_t n = q ? (size_t)(q - s) + 1 : strlen(s);

		strbuf_add(sb, s, n);
		if (q)
			strbuf_addch(sb, '"');
		s += n;
	}
	strbuf_addch(sb, '"');
	strbuf_addch(sb, last ? '\n' : ',');
}

static const char csv_header[] = "series,revision,position,sha,workload,variant,metric,unit,direction,env,run,value\n";

static void csv_line(struct strbuf *sb, const char *series, int revision, const struct fw_sample_row *x)
{
	csv_field(sb, series, 0);
	strbuf_addf(sb, "%d,%d,", revision, x->position);
	csv_field(sb, x->sha, 0);
	csv_field(sb, x->workload, 0);
	csv_field(sb, x->variant, 0);
	csv_field(sb, x->metric, 0);
	csv_field(sb, x->unit, 0);
	csv_field(sb, x->direction, 0);
	csv_field(sb, x->env, 0);
	/* Shortest form that reads back exactly: 0.0883, not 0.088300000000000003. */
	strbuf_addf(sb, "%lld,", x->run);
	fw_num_exact(sb, x->value);
	strbuf_addch(sb, '\n');
}

/* The smallest run at commit c with samples not yet written (at[]: each metric's next value); 0 when none. */
static int next_run(const struct fw_series *s, int c, const int *at, long long *run)
{
	int found = 0;

	for (int i = 0; i < s->nmetrics; i++) {
		const struct fw_cell *cell = &s->metrics[i].cells[c];

		if (at[i] < cell->n && (!found || cell->vals[at[i]].run < *run)) {
			*run = cell->vals[at[i]].run;
			found = 1;
		}
	}
	return found;
}

/*
 * The streamed answer's order from a loaded series (the export): commit by
 * commit, run by run, metrics in their order, rounds in theirs. A cell's
 * values come sorted by run and round, and a run has one environment.
 */
void fw_series_csv(const struct fw_series *s, struct strbuf *sb)
{
	int *at = xcalloc(s->nmetrics + 1, sizeof(*at));

	strbuf_addstr(sb, csv_header);
	for (int c = 0; c < s->ncommits; c++) {
		long long run = 0;

		memset(at, 0, (s->nmetrics + 1) * sizeof(*at));
		while (next_run(s, c, at, &run))
			for (int i = 0; i < s->nmetrics; i++) {
				const struct fw_metric *m = &s->metrics[i];
				const struct fw_cell *cell = &m->cells[c];
				struct fw_sample_row x = { .position = s->commits[c].position, .sha = s->commits[c].sha,
							   .workload = m->workload, .variant = m->variant,
							   .metric = m->metric, .unit = m->unit,
							   .direction = m->direction, .env = m->env, .run = run };

				for (; at[i] < cell->n && cell->vals[at[i]].run == run; at[i]++) {
					x.value = cell->vals[at[i]].v;
					csv_line(sb, s->name, s->revision, &x);
				}
			}
	}
	free(at);
}

/*
 * The answer is streamed: rows are read from a cursor on a connection of its
 * own as libmicrohttpd asks for bytes, so memory stays at a chunk whatever
 * the history (a 6,000-commit CSV would be 1.7 GB).
 */
struct csv_stream {
	struct fw_sample_cursor *cur;
	struct strbuf pending;
	size_t off;
	char *series;
	int revision, done;
};

static ssize_t csv_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct csv_stream *st = cls;
	struct strbuf err = STRBUF_INIT;

	(void)pos;
	while (!st->done && st->pending.len - st->off < max) {
		struct fw_sample_row x;
		int rc = fw_sample_cursor_next(st->cur, &x, &err);

		if (rc < 0) {
			fprintf(stderr, "foliowatch-server: series CSV: %s\n", err.buf);
			strbuf_release(&err);
			return MHD_CONTENT_READER_END_WITH_ERROR;
		}
		if (!rc)
			st->done = 1;
		else
			csv_line(&st->pending, st->series, st->revision, &x);
	}
	strbuf_release(&err);
	return reply_stream_take(&st->pending, &st->off, buf, max);
}

static void csv_free(void *cls)
{
	struct csv_stream *st = cls;

	fw_sample_cursor_close(st->cur);
	strbuf_release(&st->pending);
	free(st->series);
	free(st);
}

enum MHD_Result api_series_csv(struct fw_req *r)
{
	struct fw_series_only none = { NULL, 0, { 0, 0 } };  /* the series and its window; rows come from the cursor */
	struct strbuf err = STRBUF_INIT;
	struct csv_stream *st;
	struct fw_series s;
	enum MHD_Result ret;

	if (req_series_only(r, r->args[0], "name", &none, &s, &ret))
		return ret;
	st = xcalloc(1, sizeof(*st));
	strbuf_init(&st->pending, 0);
	st->series = xstrdup(s.name);
	st->revision = s.revision;
	st->cur = fw_sample_cursor_open(r->srv->dbpath, s.id, s.from, s.to, &err);
	fw_series_free(&s);
	if (!st->cur) {
		csv_free(st);
		ret = reply_error(r, 503, "db_error", NULL, err.buf);
	} else {
		strbuf_addstr(&st->pending, csv_header);
		ret = reply_stream(r, 200, "text/csv; charset=utf-8", csv_read, st, csv_free);
	}
	strbuf_release(&err);
	return ret;
}
