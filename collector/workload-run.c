/*
 * One run of a user's program: its argv (the manifest's args with the
 * variant's values), and what it printed (kernel/workloads/README.md, "The
 * line format"): "metric NAME VALUE" once per metric of the manifest,
 * "counter NAME VALUE" for its own counters; any other line is the program's
 * own (kept in the console log, not read). A metric never printed, printed
 * twice, not in the manifest or not a finite number is an error naming the line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "workload-manifest.h"
#include "xalloc.h"

/* The value of "KEYWORD NAME VALUE" in line (NUL-terminated, no newline): 0, or -1 with err. */
static int split(char *line, int n, char **name, double *value, struct strbuf *err)
{
	char *sp = strchr(line, ' '), *val, *end;

	*name = sp ? sp + 1 : NULL;
	val = *name ? strchr(*name, ' ') : NULL;
	if (!val || val == *name) {
		strbuf_addf(err, "line %d: expected '%.*s NAME VALUE'", n, (int)(sp ? sp - line : 6), line);
		return -1;
	}
	*val++ = '\0';
	*value = strtod(val, &end);
	if (end == val || *end || !isfinite(*value)) {
		strbuf_addf(err, "line %d: '%.40s' is not a number for %s", n, val, *name);
		return -1;
	}
	return 0;
}

static int metric_line(const struct fw_workload_def *w, struct fw_wl_output *out, int *seen, char *line, int n,
		       struct strbuf *err)
{
	char *name;
	double v;
	int m = 0;

	if (split(line, n, &name, &v, err))
		return -1;
	while (m < w->nmetrics && strcmp(w->metrics[m].name, name))
		m++;
	if (m == w->nmetrics) {
		strbuf_addf(err, "line %d: metric '%.60s' is not in the manifest", n, name);
		return -1;
	}
	if (w->metrics[m].timed) {
		strbuf_addf(err, "line %d: metric '%s' is timed by foliowatch (\"timed\": true): do not print it", n, name);
		return -1;
	}
	if (seen[m]) {
		strbuf_addf(err, "line %d: metric '%s' printed twice (once per run)", n, name);
		return -1;
	}
	seen[m] = 1;
	out->value[m] = v;
	return 0;
}

static int counter_line(struct fw_wl_output *out, char *line, int n, struct strbuf *err)
{
	char *name;
	double v;

	if (split(line, n, &name, &v, err))
		return -1;
	if (out->ncounters == FW_WL_MAX_ITEMS) {
		strbuf_addf(err, "line %d: more than %d counters", n, FW_WL_MAX_ITEMS);
		return -1;
	}
	out->counter[out->ncounters] = xstrdup(name);
	out->counter_value[out->ncounters++] = v;
	return 0;
}

int fw_workload_parse_output(const struct fw_workload_def *w, const char *text, struct fw_wl_output *out,
			     struct strbuf *err)
{
	char *copy = xstrdup(text), *line = copy, *next;
	int seen[FW_WL_MAX_ITEMS] = { 0 }, n = 0, r = 0;

	memset(out, 0, sizeof(*out));
	for (; line && !r; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n++;
		if (!strncmp(line, "metric ", 7))
			r = metric_line(w, out, seen, line, n, err);
		else if (!strncmp(line, "counter ", 8))
			r = counter_line(out, line, n, err);
	}
	for (int m = 0; !r && m < w->nmetrics; m++)
		if (!seen[m] && !w->metrics[m].timed) {
			strbuf_addf(err, "metric '%s' was never printed (a line 'metric %s VALUE')", w->metrics[m].name,
				    w->metrics[m].name);
			r = -1;
		}
	free(copy);
	if (r)
		fw_wl_output_release(out);
	return r;
}

void fw_wl_output_release(struct fw_wl_output *out)
{
	for (int i = 0; i < out->ncounters; i++)
		free(out->counter[i]);
	out->ncounters = 0;
}

/* The variant's value of name under profile ("quick", "seed" or NULL: the defaults). */
static const char *param_value(const struct fw_wl_variant *v, const char *profile, const char *name)
{
	const struct fw_wl_param *over = profile && !strcmp(profile, "quick") ? v->quick
					 : profile && !strcmp(profile, "seed") ? v->seed : NULL;
	int nover = over == v->quick ? v->nquick : over == v->seed ? v->nseed : 0;

	for (int i = 0; i < nover; i++)
		if (!strcmp(over[i].name, name))
			return over[i].value;
	for (int i = 0; i < v->nparams; i++)
		if (!strcmp(v->params[i].name, name))
			return v->params[i].value;
	return "";
}

char **fw_workload_argv(const struct fw_workload_def *w, const struct fw_wl_variant *v, const char *profile)
{
	char **argv = xcalloc((size_t)w->nargs + 2, sizeof(*argv));

	argv[0] = xstrdup(w->program);
	for (int i = 0; i < w->nargs; i++) {
		struct strbuf a = STRBUF_INIT;
		const char *p = w->args[i], *open;

		while ((open = strchr(p, '{'))) {
			size_t n = strcspn(open + 1, "}");
			char name[FW_WL_NAME_MAX + 1];

			snprintf(name, sizeof(name), "%.*s", (int)n, open + 1);
			strbuf_add(&a, p, (size_t)(open - p));
			strbuf_addstr(&a, param_value(v, profile, name));
			p = open + n + 2;
		}
		strbuf_addstr(&a, p);
		argv[i + 1] = strbuf_detach(&a, NULL);
	}
	return argv;
}

void fw_workload_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}
