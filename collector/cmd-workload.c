/*
 * foliowatch-collect workload check DIR...   validate workload folders (issue 33)
 * foliowatch-collect workload try DIR [--variant V] [--profile P]
 *   run the program once here, on this machine's kernel, and read what it
 *   printed as a boot would: the line format checked before any kernel is built.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdopt.h"
#include "commands.h"
#include "runcmd.h"
#include "workload-dirs.h"



static void describe(const struct fw_workload_def *w)
{
	printf("%s: workload %s, %d variant(s), %d metric(s), %d counter(s), %d check(s), timeout %.0f s, %s\n", w->dir,
	       w->name, w->nvariants, w->nmetrics, w->ncounters, w->nchecks, w->timeout_s,
	       w->icount ? "icount" : "tcg");
	for (int i = 0; i < w->nmetrics; i++)
		printf("  metric %s (%s, %s, %s%s)\n", w->metrics[i].name, w->metrics[i].unit,
		       w->metrics[i].higher_is_better ? "higher is better" : "lower is better",
		       w->metrics[i].kind == FW_WL_TIME ? "time" : w->metrics[i].kind == FW_WL_RATE ? "rate" : "count",
		       w->metrics[i].timed ? ", timed by foliowatch" : "");
}

/* One run of variant v: its output read as a boot reads it. 0 ok, 1 the program or its output failed. */
static int try_run(const struct fw_workload_def *w, const struct fw_wl_variant *v, const char *profile)
{
	char **argv = fw_workload_argv(w, v, profile);
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, shown = STRBUF_INIT;
	struct runcmd rc = { .argv = (const char *const *)argv, .dir = w->dir, .out = &out,
			     .timeout_s = w->timeout_s };
	struct fw_wl_output o;
	int ret = 1;

	runcmd_quote(&shown, (const char *const *)argv);
	printf("running %s\n", shown.buf);
	if (runcmd_run(&rc) < 0)
		fprintf(stderr, "workload: %s: cannot start %s\n", w->name, w->program);
	else if (rc.timed_out)
		fprintf(stderr, "workload: %s/%s: killed after its timeout_s (%.0f s)\n", w->name, v->name, w->timeout_s);
	else if (rc.exit_code)
		fprintf(stderr, "workload: %s/%s: the program exited with %d\n", w->name, v->name, rc.exit_code);
	else if (fw_workload_parse_output(w, out.buf, &o, &err))
		fprintf(stderr, "workload: %s/%s: its output: %s\n", w->name, v->name, err.buf);
	else {
		for (int i = 0; i < w->nmetrics; i++)
			if (w->metrics[i].timed)
				o.value[i] = rc.seconds;
		for (int i = 0; i < w->nmetrics; i++)
			printf("%s/%s %s %.6g %s\n", w->name, v->name, w->metrics[i].name, o.value[i], w->metrics[i].unit);
		for (int i = 0; i < o.ncounters; i++)
			printf("%s/%s counter program/%s %.6g\n", w->name, v->name, o.counter[i], o.counter_value[i]);
		printf("took %.2f s\n", rc.seconds);
		fw_wl_output_release(&o);
		ret = 0;
	}
	fw_workload_argv_free(argv);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&shown);
	return ret;
}

static int try_one(const char *dir, const char *variant, const char *profile)
{
	struct fw_workload_def w;
	struct strbuf err = STRBUF_INIT;
	int ret = 1;

	if (fw_workload_load(dir, fw_builtin_workloads, &w, &err)) {
		fprintf(stderr, "workload: %s\n", err.buf);
		strbuf_release(&err);
		return 1;
	}
	ret = 0;
	for (int i = 0, found = 0; i < w.nvariants || (variant && !found); i++) {
		if (i == w.nvariants) {
			fprintf(stderr, "workload: %s has no variant '%s'\n", w.name, variant);
			ret = 1;
			break;
		}
		if (variant && strcmp(variant, w.variants[i].name))
			continue;
		found = 1;
		ret |= try_run(&w, &w.variants[i], profile);
	}
	fw_workload_release(&w);
	strbuf_release(&err);
	return ret;
}

int cmd_workload(int argc, char **argv)
{
	static const struct fw_option opts[] = {
		{ "variant", 0, required_argument, 'v', "NAME", "every variant", "try: only this variant" },
		{ "profile", 0, required_argument, 'p', "quick|seed", "the defaults", "try: the profile's parameter values" },
		{ 0 },
	};
	static const struct fw_usage usage = { "foliowatch-collect", "workload", "check DIR...\ntry DIR [--variant NAME] [--profile P]",
		"Your own workloads (kernel/workloads/README.md): a folder with workload.json\n"
		"and a program. check validates each folder (the manifest, every field named\n"
		"in an error, and that the program is executable); try runs the program here,\n"
		"once per variant, and reads its output as a boot would.\n"
		"Exit: 0 ok, 1 a workload is wrong (the message says where), 2 usage error.",
		opts, "check kernel/workloads/examples/lru-contention\ntry kernel/workloads/examples/lru-contention --profile quick" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	const char *variant = NULL, *profile = NULL;
	int opt, ret = 0;

	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		switch (opt) {
		case 'v': variant = optarg; break;
		case 'p': profile = optarg; break;
		default: return g.exit;
		}
	}
	if (profile && strcmp(profile, "quick") && strcmp(profile, "seed"))
		return fw_usage_error(&usage, "--profile is quick or seed, not '%s'", profile);
	if (optind + 1 >= argc || (strcmp(argv[optind], "check") && strcmp(argv[optind], "try")))
		return fw_usage_error(&usage, "give check DIR... or try DIR");
	if (!strcmp(argv[optind], "try")) {
		if (optind + 2 != argc)
			return fw_usage_error(&usage, "try takes one folder");
		return try_one(argv[optind + 1], variant, profile);
	}
	if (variant || profile)
		return fw_usage_error(&usage, "--variant and --profile go with try");
	for (int i = optind + 1; i < argc; i++) {
		struct fw_workload_def w;
		struct strbuf err = STRBUF_INIT;

		if (fw_workload_load(argv[i], fw_builtin_workloads, &w, &err)) {
			fprintf(stderr, "workload: %s\n", err.buf);
			ret = 1;
		} else {
			describe(&w);
			fw_workload_release(&w);
		}
		strbuf_release(&err);
	}
	return ret;
}
