/*
 * The collector command that measures a series the same way (the text report
 * and the mail both print it): shell words, quoted where needed, wrapped with
 * " \" under a width.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-internal.h"
#include "runcmd.h"

/* "--opt VALUE" as one unit, VALUE quoted for a shell. */
static char *unit(const char *opt, const char *value)
{
	struct strbuf u = STRBUF_INIT;
	const char *argv[] = { value, NULL };

	strbuf_addf(&u, "%s ", opt);
	runcmd_quote(&u, argv);
	return strbuf_detach(&u, NULL);
}

static void words(struct strbuf *b, const char *const *units, size_t width)
{
	size_t line = b->len;

	strbuf_addstr(b, "  ");
	for (int i = 0; units[i]; i++) {
		size_t n = strlen(units[i]);
		if (i && b->len - line + 1 + n > width - 2) {
			strbuf_addstr(b, " \\\n");
			line = b->len;
			strbuf_addstr(b, "      ");
		} else if (i) {
			strbuf_addch(b, ' ');
		}
		strbuf_addstr(b, units[i]);
	}
	strbuf_addch(b, '\n');
}

/* How it was measured: profile, workloads (or just workload), accelerator, vCPUs, memory, rounds of env. */
static int env_units(const char **units, int k, char *u[3], char num[3][32], const cJSON *env, const char *workload)
{
	units[k++] = u[0] = unit("--profile", fw_json_str(env, "profile", ""));
	units[k++] = u[1] = unit("--workloads", workload ? workload : fw_json_str(env, "workloads", ""));
	units[k++] = u[2] = unit("--accel", fw_json_str(env, "accel", ""));
	snprintf(num[0], sizeof(num[0]), "--vcpus %.0f", fw_json_num(env, "vcpus", 0));
	snprintf(num[1], sizeof(num[1]), "--memory %.0f", fw_json_num(env, "memory_mib", 0));
	snprintf(num[2], sizeof(num[2]), "--rounds %.0f", fw_json_num(env, "rounds", 0));
	units[k++] = num[0];
	units[k++] = num[1];
	if (fw_json_num(env, "rounds", 0) > 0)
		units[k++] = num[2];
	return k;
}

void fw_report_command(struct strbuf *b, const struct fw_an *s, const cJSON *env, size_t width)
{
	char rev[32], num[3][32];
	char *u[5] = { NULL };
	const char *units[16];
	int k = 0;

	snprintf(rev, sizeof(rev), "--revision %d", s->revision == FW_AN_NA ? 1 : s->revision);
	units[k++] = "foliowatch-collect run";
	units[k++] = u[0] = unit("--series", s->series);
	units[k++] = rev;
	units[k++] = u[1] = unit("--base", s->base);
	units[k++] = "--mbox series.mbx";
	if (env)
		k = env_units(units, k, u + 2, num, env, NULL);
	units[k] = NULL;
	words(b, units, width);
	for (int i = 0; i < 5; i++)
		free(u[i]);
}

void fw_report_command_range(struct strbuf *b, const char *series, const char *parent, const char *culprit,
			     const char *only, const char *workload, const cJSON *env, size_t width)
{
	char num[3][32];
	char *u[6] = { NULL };
	const char *units[16];
	struct strbuf range = STRBUF_INIT;
	int k = 0;

	strbuf_addf(&range, "%s..%s", parent, culprit);
	units[k++] = "foliowatch-collect run";
	units[k++] = u[0] = unit("--series", series);
	units[k++] = "--tree ~/linux";
	units[k++] = u[1] = unit("--range", range.buf);
	if (only)
		units[k++] = u[5] = unit("--only", only);
	if (env)
		k = env_units(units, k, u + 2, num, env, workload);
	units[k] = NULL;
	words(b, units, width);
	for (int i = 0; i < 6; i++)
		free(u[i]);
	strbuf_release(&range);
}
