/* A user's workload packed for a boot: see workload-plan.h. */
#include "workload-plan.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sha256.h"

/* Debian's busybox-static: a user workload's /bin/sh in the guest. */
#define FW_GUEST_BUSYBOX "/bin/busybox"

/* A plan field travels between tabs and newlines: a value holding one, or an empty one, cannot. */
static int clean(const char *file, const char *field, const char *v, struct strbuf *err)
{
	if (*v && !strpbrk(v, "\t\n\r"))
		return 0;
	strbuf_addf(err, "%s: %s: %s, which the guest's plan cannot carry", file, field,
		    *v ? "holds a tab or a line break" : "is empty");
	return -1;
}

/* The profile's overrides of v ("quick", "seed"; anything else: the defaults alone, as fw_workload_argv). */
static const struct fw_wl_param *overrides(const struct fw_wl_variant *v, const char *profile, int *n)
{
	int quick = profile && !strcmp(profile, "quick"), seed = profile && !strcmp(profile, "seed");

	*n = quick ? v->nquick : seed ? v->nseed : 0;
	return quick ? v->quick : seed ? v->seed : NULL;
}

static const char *kind_name(enum fw_wl_kind k)
{
	return k == FW_WL_TIME ? "time" : k == FW_WL_RATE ? "rate" : "count";
}

static void needs_text(const struct fw_wl_needs *n, struct strbuf *out)
{
	if (n->thp_enabled)
		strbuf_addf(out, "need\tthp_enabled\t%s\n", n->thp_enabled);
	if (n->thp_defrag)
		strbuf_addf(out, "need\tthp_defrag\t%s\n", n->thp_defrag);
	for (int i = 0; i < n->nmthp; i++)
		strbuf_addf(out, "need\tmthp\t%s\t%s\n", n->mthp_size[i], n->mthp_enabled[i]);
	if (n->memcg)
		strbuf_addf(out, "need\tmemcg\tv%d\n", n->memcg);
	if (n->tmpfs_huge)
		strbuf_addf(out, "need\ttmpfs_huge\t%s\n", n->tmpfs_huge);
	if (n->debugfs)
		strbuf_addstr(out, "need\tdebugfs\n");
	if (n->block_device)
		strbuf_addstr(out, "need\tblock_device\n");
}

static int variant_text(const struct fw_workload_def *w, const struct fw_wl_variant *v, const char *profile,
			const char *guest_program, struct strbuf *out, struct strbuf *err)
{
	char **argv = fw_workload_argv(w, v, profile), field[64];
	int ret = 0, nlist;
	const struct fw_wl_param *list = overrides(v, profile, &nlist);

	strbuf_addf(out, "variant\t%s\n", v->name);
	for (int i = 0; i < v->nparams; i++) {
		const struct fw_wl_param *over = NULL;

		if (!strcmp(v->params[i].name, "workload") || !strcmp(v->params[i].name, "variant") ||
		    !strcmp(v->params[i].name, "content_hash")) {
			strbuf_addf(err, "%s: variants.%s.params.%s: a name the results use themselves", w->name, v->name,
				    v->params[i].name);
			ret = -1;
		}
		for (int k = 0; k < nlist; k++)
			if (!strcmp(list[k].name, v->params[i].name))
				over = &list[k];
		snprintf(field, sizeof(field), "params.%s", v->params[i].name);
		ret |= clean(w->name, field, (over ? over : &v->params[i])->value, err);
		strbuf_addf(out, "param\t%s\t%s\n", v->params[i].name, (over ? over : &v->params[i])->value);
	}
	for (int i = 0; argv[i]; i++) {
		snprintf(field, sizeof(field), i ? "args[%d]" : "program", i - 1);
		ret |= clean(w->name, field, argv[i], err);
		/* the program is packed under /fw/wl (the guest's /tmp is a tmpfs over whatever the host path was) */
		strbuf_addf(out, "arg\t%s\n", i || !guest_program ? argv[i] : guest_program);
	}
	fw_workload_argv_free(argv);
	return ret ? -1 : 0;
}

int fw_workload_plan_text(const struct fw_workload_def *w, const char *profile, const char *hash, struct strbuf *out,
			  struct strbuf *err)
{
	char guest[FW_WL_NAME_MAX + 300];
	const char *base = strrchr(w->program, '/');

	snprintf(guest, sizeof(guest), "/fw/wl/%s/%.256s", w->name, base ? base + 1 : w->program);
	for (int i = 0; i < w->nmetrics; i++)
		if (clean(w->name, "metrics[].unit", w->metrics[i].unit, err))
			return -1;
	strbuf_addf(out, "hash\t%s\ntimeout_s\t%g\n", hash, w->timeout_s);
	needs_text(&w->needs, out);
	for (int i = 0; i < w->ncounters; i++)
		strbuf_addf(out, "counter\t%s\n", w->counters[i]);
	for (int i = 0; i < w->nmetrics; i++)
		strbuf_addf(out, "metric\t%s\t%s\t%s\t%s%s\n", w->metrics[i].name, w->metrics[i].unit,
			    w->metrics[i].higher_is_better ? "higher_is_better" : "lower_is_better",
			    kind_name(w->metrics[i].kind), w->metrics[i].timed ? "\ttimed" : "");
	for (int i = 0; i < w->nchecks; i++) {
		const struct fw_wl_check *c = &w->checks[i];

		if (c->of)
			strbuf_addf(out, "check\t%s\tratio\t%.15g\t%s\n", c->counter, c->min_ratio, c->of);
		else
			strbuf_addf(out, "check\t%s\tmin\t%.15g\n", c->counter, c->min);
	}
	for (int i = 0; i < w->nvariants; i++)
		if (variant_text(w, &w->variants[i], profile, guest, out, err))
			return -1;
	/* the guest reads the plan into 64 KiB */
	if (out->len >= 64 * 1024 - 1) {
		strbuf_addf(err, "%s: its plan is %zu bytes, over the guest's 64 KiB: fewer variants or arguments", w->name,
			    out->len);
		return -1;
	}
	return 0;
}

/* A script needs its interpreter in the guest, which has none: say so before a boot. */
/*
 * A script runs under Debian's busybox-static, packed as /bin/sh (its
 * standalone shell runs every applet without links): only "#!/bin/sh". 1: a
 * script (busybox packed), 0: a compiled program, -1: refused (err set).
 */
static int script_shell(const struct fw_workload_def *w, struct fw_guest_tools *t, struct strbuf *err)
{
	char head[128] = { 0 };
	FILE *f = fopen(w->program, "rbe");

	if (f) {
		if (!fgets(head, sizeof(head), f))
			head[0] = '\0';
		fclose(f);
	}
	if (head[0] != '#' || head[1] != '!')
		return 0;
	head[strcspn(head, "\r\n")] = '\0';
	if (strcmp(head + 2 + strspn(head + 2, " "), "/bin/sh")) {
		strbuf_addf(err, "%s/workload.json: program: %s starts '%.60s': the guest runs scripts with busybox's "
			    "/bin/sh only (#!/bin/sh), or give a compiled program", w->dir, w->program, head);
		return -1;
	}
	if (access(FW_GUEST_BUSYBOX, X_OK)) {
		strbuf_addf(err, "%s/workload.json: program: %s is a shell script, which needs %s on this host "
			    "(Debian's busybox-static; ci/install-deps.sh installs it)", w->dir, w->program, FW_GUEST_BUSYBOX);
		return -1;
	}
	return fw_guest_tools_add_as(t, FW_GUEST_BUSYBOX, "bin/sh", 0755, err) ? -1 : 1;
}

/* The program's file in the guest: fw/wl/NAME/BASENAME, never its host path (see variant_text). */
static void guest_program(const struct fw_workload_def *w, struct fw_guest_tools *t)
{
	const char *base = strrchr(w->program, '/');

	snprintf(t->paths[0][1], sizeof(t->paths[0][1]), "fw/wl/%s/%.256s", w->name, base ? base + 1 : w->program);
}

int fw_workload_content_hash(const struct fw_workload_def *w, struct fw_guest_tools *tools, char hash[65],
			     struct strbuf *err)
{
	static struct fw_guest_tools scratch;
	struct strbuf all = STRBUF_INIT, path = STRBUF_INIT;
	int ret = -1;

	if (!tools)
		tools = &scratch;
	strbuf_addf(&path, "%s/workload.json", w->dir);
	if (fw_guest_tools_collect(tools, w->program, err))
		goto cleanup;
	guest_program(w, tools);
	if (script_shell(w, tools, err) < 0)
		goto cleanup;
	if (strbuf_read_file(&all, path.buf, 1 << 20) < 0) {
		strbuf_addf(err, "cannot read %s: %s", path.buf, strerror(errno));
		goto cleanup;
	}
	/* again, under the names the guest sees: the same folder elsewhere hashes the same */
	if (fw_guest_tools_hash(tools, err))
		goto cleanup;
	strbuf_addf(&all, "\n%s\n", tools->hash);
	sha256_hex(all.buf, all.len, hash);
	ret = 0;
cleanup:
	strbuf_release(&all);
	strbuf_release(&path);
	return ret;
}

int fw_workload_pack(const struct fw_workload_def *w, const char *profile, const char *workdir, struct fw_wl_packed *p,
		     struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	FILE *f = NULL;
	int ret = -1;

	if (fw_workload_content_hash(w, &p->tools, p->hash, err) ||
	    fw_workload_plan_text(w, profile, p->hash, &text, err))
		goto cleanup;
	snprintf(p->plan, sizeof(p->plan), "%s/%s.plan", workdir, w->name);
	snprintf(p->plan_dst, sizeof(p->plan_dst), "fw/wl/%s.plan", w->name);
	if (!(f = fopen(p->plan, "we")) || fwrite(text.buf, 1, text.len, f) != text.len) {
		strbuf_addf(err, "cannot write %s: %s", p->plan, strerror(errno));
		goto cleanup;
	}
	ret = fclose(f) ? -1 : 0;
	f = NULL;
	if (ret)
		strbuf_addf(err, "cannot write %s: %s", p->plan, strerror(errno));
cleanup:
	if (f)
		fclose(f);
	strbuf_release(&text);
	return ret;
}
