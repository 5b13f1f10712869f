/*
 * A user's workload (issue 33): sets up what its plan needs (THP/mTHP
 * knobs, a memcg, a huge tmpfs, a block device), runs the program once per
 * round with a time limit, reads its line format ("metric NAME VALUE",
 * "counter NAME VALUE"), checks the counters, writes samples and a counters
 * record per round, and restores what it changed for the next workload.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>
#include "fw.h"
#include "user-plan.h"

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"
#define USER_TMPFS "/mnt/fw-tmpfs"
#define USER_MEMCG "fw-user"
#define USER_BLOCK "/dev/ram1"
#define OUT_MAX (64 * 1024)

static char user_name[64];
static struct uplan plan;

/* What setup changed, undone in reverse by restore(). */
struct undo {
	char saved[16][160], value[16][32];  /* the knob's path, its value before */
	int nknobs, tmpfs, memcg;
};

struct round_out {
	double value[UPLAN_MAX];
	char *counter[UPLAN_MAX];
	double counter_value[UPLAN_MAX];
	int ncounters;
};

workload_fn user_find(const char *name)
{
	if (!uplan_exists(name))
		return NULL;
	snprintf(user_name, sizeof(user_name), "%s", name);
	return wl_user;
}

/* Sets a sysfs knob, keeping its current ("always [madvise] never": the bracketed) value. */
static int set_knob(struct undo *u, const char *path, const char *value)
{
	char cur[256], *open, *close;

	if (u->nknobs == 16)
		return fail("more than 16 knobs");
	if (read_text(path, cur, sizeof(cur)) < 0)
		return -1;
	open = strchr(cur, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!open || !close)
		return fail("%s: no [current] value in '%.60s'", path, cur);
	snprintf(u->saved[u->nknobs], sizeof(u->saved[0]), "%s", path);
	snprintf(u->value[u->nknobs], sizeof(u->value[0]), "%.*s", (int)(close - open - 1), open + 1);
	if (write_text(path, value) < 0)
		return -1;
	u->nknobs++;
	return 0;
}

static void restore(struct undo *u)
{
	char path[256];

	if (u->memcg && memcg_path(path, sizeof(path), USER_MEMCG, "") == 0 && rmdir(path) < 0)
		logmsg("%s: rmdir %s: %s", user_name, path, strerror(errno));
	if (u->tmpfs && umount2(USER_TMPFS, MNT_DETACH) < 0)
		logmsg("%s: umount %s: %s", user_name, USER_TMPFS, strerror(errno));
	while (u->nknobs-- > 0)
		if (write_text(u->saved[u->nknobs], u->value[u->nknobs]) < 0)
			logmsg("%s: cannot restore %s: %s", user_name, u->saved[u->nknobs], fw_errbuf);
}

/* The environment the plan asks for; env gets what the program is told. */
static int setup(struct undo *u, const char **env, int *nenv, const char **memcg)
{
	static char tmpfs_opts[64];
	char path[256];

	for (int i = 0; i < plan.nneeds; i++) {
		char *const *n = plan.need[i];

		if (!strcmp(n[0], "thp_enabled") || !strcmp(n[0], "thp_defrag")) {
			snprintf(path, sizeof(path), THP_DIR "/%s", n[0] + 4);
			if (!n[1] || set_knob(u, path, n[1]) < 0)
				return -1;
		} else if (!strcmp(n[0], "mthp") && n[1] && n[2]) {
			snprintf(path, sizeof(path), THP_DIR "/hugepages-%s/enabled", n[1]);
			if (access(path, F_OK) < 0)
				return fail("needs mthp %s: this kernel has no %s", n[1], path);
			if (set_knob(u, path, n[2]) < 0)
				return -1;
		} else if (!strcmp(n[0], "memcg")) {
			if (!n[1] || strcmp(n[1], "v1"))
				return fail("needs memcg %s: the guest mounts cgroup v1 (v1 and v2 cannot both be mounted)",
					    n[1] ? n[1] : "?");
			if (memcg_create(USER_MEMCG, 0) < 0)
				return -1;
			u->memcg = 1;
			*memcg = USER_MEMCG;
		} else if (!strcmp(n[0], "tmpfs_huge") && n[1]) {
			snprintf(tmpfs_opts, sizeof(tmpfs_opts), "huge=%s,size=50%%", n[1]);
			if (mkdir_p(USER_TMPFS) < 0)
				return -1;
			if (mount("tmpfs", USER_TMPFS, "tmpfs", 0, tmpfs_opts) < 0)
				return fail("mount tmpfs %s on %s: %s", tmpfs_opts, USER_TMPFS, strerror(errno));
			u->tmpfs = 1;
			env[(*nenv)++] = "FW_TMPFS=" USER_TMPFS;
		} else if (!strcmp(n[0], "debugfs")) {
			env[(*nenv)++] = "FW_DEBUGFS=/sys/kernel/debug";
		} else if (!strcmp(n[0], "block_device")) {
			if (access(USER_BLOCK, F_OK) < 0)
				return fail("needs a block device: no %s (the collector boots with brd.rd_nr=2)", USER_BLOCK);
			env[(*nenv)++] = "FW_BLOCK_DEVICE=" USER_BLOCK;
		} else {
			return fail("unknown need '%s'", n[0]);
		}
	}
	return 0;
}

/* Now's value of each counter of the plan (a vmstat field, or mthp/SIZE/STAT). */
static int snapshot(uint64_t *v)
{
	struct vmstat vs;

	if (vmstat_read(&vs) < 0)
		return -1;
	for (int i = 0; i < plan.ncounters; i++) {
		char size[32], stat[96], path[200];

		if (sscanf(plan.counter[i], "mthp/%31[^/]/%95s", size, stat) == 2) {
			snprintf(path, sizeof(path), THP_DIR "/hugepages-%s/stats/%s", size, stat);
			if (read_u64(path, &v[i]) < 0)
				return -1;
		} else if (!vmstat_has(&vs, plan.counter[i])) {
			/* a misspelt name would read 0 and pass every check but a minimum */
			return fail("counter %s: /proc/vmstat has no such field", plan.counter[i]);
		} else {
			v[i] = vmstat_get(&vs, plan.counter[i]);
		}
	}
	return 0;
}

/* "KEYWORD NAME VALUE": 0, or -1 with fw_errbuf naming the line. */
static int split_line(char *line, int n, char **name, double *value)
{
	char *val, *end;

	*name = strchr(line, ' ');
	val = *name ? strchr(++*name, ' ') : NULL;
	if (!val || val == *name)
		return fail("output line %d: expected 'KEYWORD NAME VALUE'", n);
	*val++ = '\0';
	*value = strtod(val, &end);
	if (end == val || (*end && *end != '\r') || !isfinite(*value))
		return fail("output line %d: '%.40s' is not a number for %s", n, val, *name);
	return 0;
}

static int metric_line(struct round_out *o, int *seen, char *line, int n)
{
	char *name;
	double v;
	int m = 0;

	if (split_line(line, n, &name, &v) < 0)
		return -1;
	while (m < plan.nmetrics && strcmp(plan.metric[m].name, name))
		m++;
	if (m == plan.nmetrics)
		return fail("output line %d: metric '%.60s' is not in the manifest", n, name);
	if (plan.timed[m])
		return fail("output line %d: metric '%s' is timed by foliowatch (\"timed\": true): do not print it", n, name);
	if (seen[m]++)
		return fail("output line %d: metric '%s' printed twice (once per run)", n, name);
	o->value[m] = v;
	return 0;
}

/* The program's output in the line format (kernel/workloads/README.md); other lines go to the console. */
static int parse_output(char *text, struct round_out *o)
{
	int seen[UPLAN_MAX] = { 0 }, n = 0;
	char *line, *next;

	memset(o, 0, sizeof(*o));
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n++;
		if (!strncmp(line, "metric ", 7)) {
			if (metric_line(o, seen, line, n) < 0)
				return -1;
		} else if (!strncmp(line, "counter ", 8)) {
			if (o->ncounters == UPLAN_MAX)
				return fail("output line %d: more than %d counters", n, UPLAN_MAX);
			if (split_line(line, n, &o->counter[o->ncounters], &o->counter_value[o->ncounters]) < 0)
				return -1;
			o->ncounters++;
		} else {
			fprintf(stderr, "%s: %s\n", user_name, line);
		}
	}
	for (int m = 0; m < plan.nmetrics; m++)
		if (!seen[m] && !plan.timed[m])
			return fail("metric '%s' was never printed (a line 'metric %s VALUE')", plan.metric[m].name,
				    plan.metric[m].name);
	return 0;
}

/* A counter's growth over the round: one of the plan's, or program/NAME the program printed. */
static int counter_value(const struct round_out *o, const int64_t *delta, const char *name, double *v)
{
	for (int i = 0; i < plan.ncounters; i++)
		if (!strcmp(plan.counter[i], name)) {
			*v = (double)delta[i];
			return 0;
		}
	for (int i = 0; !strncmp(name, "program/", 8) && i < o->ncounters; i++)
		if (!strcmp(o->counter[i], name + 8)) {
			*v = o->counter_value[i];
			return 0;
		}
	return fail("check: counter %s was not recorded (the program did not print 'counter %s VALUE')", name,
		    name + (strncmp(name, "program/", 8) ? 0 : 8));
}

/* "No effect is an error, never a fast result": each check of the plan on this round. */
static int checks(const struct round_out *o, const int64_t *delta)
{
	for (int i = 0; i < plan.nchecks; i++) {
		const struct uplan_check *c = &plan.check[i];
		double got, of = 0, need;

		if (counter_value(o, delta, c->counter, &got) < 0 || (c->of && counter_value(o, delta, c->of, &of) < 0))
			return -1;
		if (c->of && of <= 0)
			return fail("check failed: %s grew by %.0f: nothing to compare %s with", c->of, of, c->counter);
		need = c->of ? c->ratio * of : c->min;
		if (got < need) {
			if (c->of)
				return fail("check failed: %s grew by %.0f, less than %g x %s (%.0f)", c->counter, got,
					    c->ratio, c->of, of);
			return fail("check failed: %s grew by %.0f, less than %g", c->counter, got, c->min);
		}
	}
	return 0;
}

/* The round's counters record: the plan's counters (mthp/S/X as mthp_S_X), the program's as program_NAME. */
static int emit_counters(const struct uplan_variant *v, int round, const int64_t *delta, const struct round_out *o)
{
	struct fw_rec r;
	char key[128];

	rec_start(&r, "counters");
	rec_kv(&r, "workload", user_name);
	rec_kv(&r, "variant", v->name);
	rec_kvi(&r, "round", round);
	for (int i = 0; i < plan.ncounters; i++) {
		snprintf(key, sizeof(key), "%s", plan.counter[i]);
		for (char *s = key; *s; s++)
			*s = *s == '/' ? '_' : *s;
		rec_kvi(&r, key, delta[i]);
	}
	for (int i = 0; i < o->ncounters; i++) {
		snprintf(key, sizeof(key), "program_%.100s", o->counter[i]);
		rec_kvd(&r, key, o->counter_value[i]);
	}
	return rec_emit(&r);
}

/* One run of the program: its samples and counters, or -1 with fw_errbuf. */
static int user_round(const struct uplan_variant *v, int round, struct spawn *sp)
{
	static char out[OUT_MAX];
	uint64_t before[UPLAN_MAX], after[UPLAN_MAX];
	int64_t delta[UPLAN_MAX];
	struct round_out o;

	sp->argv = v->argv;
	sp->out = out;
	sp->out_size = sizeof(out);
	double t0;

	if (snapshot(before) < 0)
		return -1;
	kprof_section_begin();
	t0 = now_s();
	if (spawn_run(sp) < 0) {
		kprof_section_end(v->name);
		return -1;
	}
	t0 = now_s() - t0;
	kprof_section_end(v->name);
	if (sp->truncated)
		return fail("it printed more than %d KiB: its output is cut, its last line unreadable", OUT_MAX / 1024);
	if (snapshot(after) < 0 || parse_output(out, &o) < 0)
		return -1;
	for (int i = 0; i < plan.ncounters; i++)
		delta[i] = (int64_t)(after[i] - before[i]);
	if (checks(&o, delta) < 0)
		return -1;
	for (int m = 0; m < plan.nmetrics; m++)
		if (plan.timed[m])
			o.value[m] = t0;  /* fork to reaped: the whole program, as the manifest asked */
	for (int m = 0; m < plan.nmetrics; m++)
		if (emit_sample(user_name, v->name, &plan.metric[m], round, o.value[m]) < 0)
			return -1;
	return emit_counters(v, round, delta, &o);
}

static int emit_params(const struct uplan_variant *v)
{
	struct fw_rec r;

	rec_start(&r, "param");
	rec_kv(&r, "workload", user_name);
	rec_kv(&r, "variant", v->name);
	for (int i = 0; i < v->nparams; i++)
		rec_kv(&r, v->param[i][0], v->param[i][1]);
	rec_kv(&r, "content_hash", plan.hash ? plan.hash : "none");
	return rec_emit(&r);
}

int wl_user(const struct fw_ctx *ctx)
{
	static char env_round[32], env_profile[40], env_fixed[24];
	const char *env[9] = { env_round, env_profile, env_fixed };
	struct spawn sp = { .env = env };
	struct undo u = { .nknobs = 0 };
	int nenv = 3, ret = -1;

	if (uplan_read(user_name, &plan) < 0) {
		emit_error(user_name, "all", "%s", fw_errbuf);
		return -1;
	}
	snprintf(env_profile, sizeof(env_profile), "FW_PROFILE=%s", ctx->profile);
	snprintf(env_fixed, sizeof(env_fixed), "FW_FIXED_WORK=%d", ctx->fixed_work);
	sp.timeout_s = plan.timeout_s;
	if (setup(&u, env, &nenv, &sp.memcg) < 0) {
		emit_error(user_name, "all", "setting up what it needs: %s", fw_errbuf);
		goto cleanup;
	}
	ret = 0;
	for (int i = 0; i < plan.nvariants; i++) {
		const struct uplan_variant *v = &plan.variant[i];

		if (emit_params(v) < 0) {
			ret = -1;
			break;
		}
		for (int round = 0; round < ctx->rounds; round++) {
			snprintf(env_round, sizeof(env_round), "FW_ROUND=%d", round);
			if (user_round(v, round, &sp) < 0) {
				emit_error(user_name, v->name, "round %d: %s", round, fw_errbuf);
				ret = -1;
				break;
			}
		}
	}
cleanup:
	restore(&u);
	return ret;
}
