/* Reads a user workload's plan (see user-plan.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fw.h"
#include "user-plan.h"

int uplan_exists(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), UPLAN_DIR "/%s.plan", name);
	return strlen(name) < 64 && access(path, R_OK) == 0;
}

/* Splits line at tabs into f (at most max fields); returns the count. */
static int fields(char *line, char **f, int max)
{
	int n = 0;

	for (char *save = NULL, *t = strtok_r(line, "\t", &save); t && n < max; t = strtok_r(NULL, "\t", &save))
		f[n++] = t;
	return n;
}

static int add_check(struct uplan *p, char **f, int n)
{
	struct uplan_check *c = &p->check[p->nchecks++];

	c->counter = f[1];
	if (n == 4 && !strcmp(f[2], "min")) {
		c->min = atof(f[3]);
		return 0;
	}
	if (n == 5 && !strcmp(f[2], "ratio")) {
		c->ratio = atof(f[3]);
		c->of = f[4];
		return 0;
	}
	return -1;
}

static int variant_line(struct uplan *p, char **f, int n)
{
	struct uplan_variant *v = p->nvariants ? &p->variant[p->nvariants - 1] : NULL;

	if (!strcmp(f[0], "variant") && n == 2 && p->nvariants < UPLAN_MAX) {
		p->variant[p->nvariants++].name = f[1];
		return 0;
	}
	if (!v)
		return -1;
	if (!strcmp(f[0], "param") && n == 3 && v->nparams < UPLAN_MAX) {
		v->param[v->nparams][0] = f[1];
		v->param[v->nparams++][1] = f[2];
		return 0;
	}
	if (!strcmp(f[0], "arg") && n == 2 && v->nargs + 1 < (int)(sizeof(v->argv) / sizeof(v->argv[0]))) {
		v->argv[v->nargs++] = f[1];
		return 0;
	}
	return -1;
}

/* One line of the plan: 0, or -1 (the caller names the line). */
static int plan_line(struct uplan *p, char *line)
{
	char *f[6];
	int n = fields(line, f, 6);

	if (n == 0)
		return 0;
	if (!strcmp(f[0], "hash") && n == 2)
		p->hash = f[1];
	else if (!strcmp(f[0], "timeout_s") && n == 2)
		p->timeout_s = atof(f[1]);
	else if (!strcmp(f[0], "need") && n >= 2 && p->nneeds < UPLAN_MAX)
		memcpy(p->need[p->nneeds++], (char *[3]){ f[1], n > 2 ? f[2] : NULL, n > 3 ? f[3] : NULL },
		       sizeof(p->need[0]));
	else if (!strcmp(f[0], "counter") && n == 2 && p->ncounters < UPLAN_MAX)
		p->counter[p->ncounters++] = f[1];
	else if (!strcmp(f[0], "metric") && (n == 5 || (n == 6 && !strcmp(f[5], "timed"))) && p->nmetrics < UPLAN_MAX) {
		p->timed[p->nmetrics] = n == 6;
		p->metric[p->nmetrics++] = (struct fw_metric){ f[1], f[2], f[3], f[4] };
	}
	else if (!strcmp(f[0], "check") && n >= 4 && p->nchecks < UPLAN_MAX)
		return add_check(p, f, n);
	else
		return variant_line(p, f, n);
	return 0;
}

int uplan_read(const char *name, struct uplan *p)
{
	char path[128], *line, *next;
	int n = 0;

	memset(p, 0, sizeof(*p));
	snprintf(path, sizeof(path), UPLAN_DIR "/%s.plan", name);
	if (read_text(path, p->text, sizeof(p->text)) < 0)
		return -1;
	for (line = p->text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n++;
		if (plan_line(p, line) < 0)
			return fail("%s line %d: not understood (a collector and init of different versions?)", path, n);
	}
	if (!p->nmetrics || !p->nvariants)
		return fail("%s: no metric or no variant", path);
	for (int i = 0; i < p->nvariants; i++)
		if (!p->variant[i].nargs)
			return fail("%s: variant %s has no program", path, p->variant[i].name);
	return 0;
}

char *const *uplan_need(const struct uplan *p, const char *kind)
{
	for (int i = 0; i < p->nneeds; i++)
		if (!strcmp(p->need[i][0], kind))
			return p->need[i];
	return NULL;
}
