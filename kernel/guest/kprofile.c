/*
 * The profiling round (fw.fprofile=1): after every workload's timed rounds,
 * each workload runs once more, twice over, with the ftrace function
 * profiler on for all functions: pass 1 with options/graph-time=1 (a
 * function's time includes its children: total), pass 2 with graph-time=0
 * (self time). Each workload brackets its timed section with
 * kprof_section_begin/end, so only that section is profiled, per variant.
 * Everything the workload would emit is muted; when both passes succeeded,
 * the top functions go out as `profile` records. A failed or cut pass emits
 * no profile: the timed samples, already written, are untouched.
 * trace_stat prints names cut to 30 bytes ("%-30.30s"): a cut name is made
 * whole again from available_filter_functions when only one name there has
 * that prefix (else it stays cut).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fw.h"

#define TR "/sys/kernel/tracing"
#define MAX_SECTIONS 4
#define NAME_MAX_ 128

struct fn_stat {
	char name[NAME_MAX_ + 1];
	uint64_t hits;
	double total_us, self_us;
	int has_self, picked;
};

struct section {
	char variant[32];
	struct fn_stat *fn;  /* pass 1, sorted by name after it */
	size_t n;
};

#define STAT_NAME_LEN 30  /* trace_stat's width for a name */

int kprof_pass;
static struct section sections[MAX_SECTIONS];
static size_t nsections;
static char **known;  /* available_filter_functions, sorted */
static size_t nknown;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Loads the traceable function names (first word of each line). */
static int load_known(void)
{
	char line[512];
	size_t cap = 0;
	FILE *f = fopen(TR "/available_filter_functions", "re");

	if (!f)
		return fail("open available_filter_functions: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \n")] = '\0';
		if (!*line)
			continue;
		if (nknown == cap) {
			char **nk = realloc(known, (cap = cap ? 2 * cap : 8192) * sizeof(*known));

			if (!nk) {
				fclose(f);
				return fail("profile: out of memory reading available_filter_functions");
			}
			known = nk;
		}
		if (!(known[nknown] = strdup(line)))
			break;
		nknown++;
	}
	fclose(f);
	qsort(known, nknown, sizeof(*known), cmp_str);
	return 0;
}

/* A name cut by trace_stat made whole when exactly one traceable name has it as prefix. */
static void resolve_name(char *name, size_t size)
{
	size_t lo = 0, hi = nknown, len = strlen(name);

	if (len != STAT_NAME_LEN)
		return;
	while (lo < hi) {  /* the first name >= the prefix */
		size_t mid = (lo + hi) / 2;

		if (strcmp(known[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < nknown && !strncmp(known[lo], name, len) &&
	    (lo + 1 == nknown || strncmp(known[lo + 1], name, len)) && strlen(known[lo]) < size)
		snprintf(name, size, "%s", known[lo]);
}

static struct section *section_of(const char *variant, int create)
{
	for (size_t i = 0; i < nsections; i++)
		if (!strcmp(sections[i].variant, variant))
			return &sections[i];
	if (!create || nsections == MAX_SECTIONS)
		return NULL;
	snprintf(sections[nsections].variant, sizeof(sections[0].variant), "%s", variant);
	return &sections[nsections++];
}

void kprof_section_begin(void)
{
	/* Enabling resets every CPU's counts. */
	if (kprof_pass)
		write_text(TR "/function_profile_enabled", "0"), write_text(TR "/function_profile_enabled", "1");
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct fn_stat *)a)->name, ((const struct fn_stat *)b)->name);
}

/* "  name   hits   12.345 us   ..." -> microseconds; 0 on a line that is not a row. */
static int parse_row(const char *line, struct fn_stat *f)
{
	char unit[8] = "";
	unsigned long long hits;
	double t = 0;
	int n = sscanf(line, " %128s %llu %lf %7s", f->name, &hits, &t, unit);

	if (n < 2 || !strcmp(f->name, "Function") || f->name[0] == '-')
		return 0;
	f->hits = hits;
	f->total_us = n >= 3 ? t : 0;
	if (n == 4 && !strcmp(unit, "ms"))
		f->total_us *= 1e3;
	else if (n == 4 && !strcmp(unit, "s"))
		f->total_us *= 1e6;
	return 1;
}

/* Sums trace_stat/function<cpu> into *out (sorted by name), n entries. */
static int read_stats(struct fn_stat **out, size_t *n)
{
	struct fn_stat *v = NULL, row;
	size_t cap = 0, len = 0, w = 0;
	char path[64], line[512];

	for (int cpu = 0; cpu < 64; cpu++) {
		FILE *f;

		snprintf(path, sizeof(path), TR "/trace_stat/function%d", cpu);
		if (!(f = fopen(path, "re")))
			break;
		while (fgets(line, sizeof(line), f)) {
			memset(&row, 0, sizeof(row));
			if (!parse_row(line, &row))
				continue;
			if (len == cap) {
				struct fn_stat *nv = realloc(v, (cap = cap ? 2 * cap : 4096) * sizeof(*v));

				if (!nv) {
					fclose(f);
					free(v);
					return fail("profile: out of memory at %zu functions", len);
				}
				v = nv;
			}
			v[len++] = row;
		}
		fclose(f);
	}
	qsort(v, len, sizeof(*v), by_name);
	/* one row per function: the CPUs' counts summed */
	for (size_t i = 0; i < len; i++) {
		if (w && !strcmp(v[w - 1].name, v[i].name)) {
			v[w - 1].hits += v[i].hits;
			v[w - 1].total_us += v[i].total_us;
		} else {
			v[w++] = v[i];
		}
	}
	*out = v;
	*n = w;
	return 0;
}

void kprof_section_end(const char *variant)
{
	struct section *s;
	struct fn_stat *v = NULL;
	size_t n = 0;

	if (!kprof_pass)
		return;
	write_text(TR "/function_profile_enabled", "0");
	s = section_of(variant, kprof_pass == 1);
	if (!s || read_stats(&v, &n) < 0)
		return;
	if (kprof_pass == 1) {
		free(s->fn);
		s->fn = v;
		s->n = n;
		return;
	}
	/* pass 2 (graph-time off): its time is the self time of pass 1's rows */
	for (size_t i = 0; i < n; i++) {
		struct fn_stat *f = bsearch(&v[i], s->fn, s->n, sizeof(*v), by_name);

		if (f) {
			f->self_us = v[i].total_us;
			f->has_self = 1;
		}
	}
	free(v);
}

static int by_self(const void *a, const void *b)
{
	double x = ((const struct fn_stat *)a)->self_us, y = ((const struct fn_stat *)b)->self_us;

	return (x < y) - (x > y);
}

static int by_total(const void *a, const void *b)
{
	double x = ((const struct fn_stat *)a)->total_us, y = ((const struct fn_stat *)b)->total_us;

	return (x < y) - (x > y);
}

/* The top `top` functions of a section: two thirds by self time, the rest by total. */
static int emit_section(const char *wl, struct section *s, size_t top)
{
	size_t want_self = top * 2 / 3, picked = 0;
	struct fw_rec r;

	qsort(s->fn, s->n, sizeof(*s->fn), by_self);
	for (size_t i = 0; i < s->n && picked < want_self; i++)
		if (s->fn[i].hits)
			s->fn[i].picked = 1, picked++;
	qsort(s->fn, s->n, sizeof(*s->fn), by_total);
	for (size_t i = 0; i < s->n && picked < top; i++)
		if (s->fn[i].hits && !s->fn[i].picked)
			s->fn[i].picked = 1, picked++;
	for (size_t i = 0; i < s->n; i++) {
		const struct fn_stat *f = &s->fn[i];

		if (!f->picked)
			continue;
		char name[NAME_MAX_ + 1];

		snprintf(name, sizeof(name), "%s", f->name);
		resolve_name(name, sizeof(name));
		rec_start(&r, "profile");
		rec_kv(&r, "workload", wl);
		rec_kv(&r, "variant", s->variant);
		rec_kv(&r, "fn", name);
		rec_kvu(&r, "hits", f->hits);
		rec_kvd(&r, "time_us", f->total_us);
		if (f->has_self)
			rec_kvd(&r, "self_us", f->self_us);
		if (rec_emit(&r) < 0)
			return -1;
	}
	return 0;
}

int kprof_run(const char *wl, workload_fn fn, const struct fw_ctx *ctx)
{
	struct fw_ctx once = *ctx;
	int ret = -1;

	once.rounds = 1;
	once.diag = 0;
	if (mount_tracefs() < 0)
		return -1;
	if (write_text(TR "/options/graph-time", "1") < 0)
		return fail("no %s/options/graph-time (a kernel without FUNCTION_GRAPH_TRACER): "
			    "no function times", TR);
	fprof_stop();  /* profiler off, filter empty: every function */
	/* time off the CPU is no function's cost: without this, schedule() takes
	 * every sleep (fio's waits, a wakeup's latency) as its own time */
	write_text(TR "/options/sleep-time", "0");
	if (load_known() < 0)
		return -1;
	chan_mute(1);
	for (kprof_pass = 1; kprof_pass <= 2; kprof_pass++) {
		if (write_text(TR "/options/graph-time", kprof_pass == 1 ? "1" : "0") < 0 || fn(&once) < 0)
			goto cleanup;
	}
	ret = 0;
cleanup:
	kprof_pass = 0;
	write_text(TR "/function_profile_enabled", "0");
	write_text(TR "/options/graph-time", "1");
	write_text(TR "/options/sleep-time", "1");
	chan_mute(0);
	for (size_t i = 0; i < nsections; i++) {
		if (ret == 0 && emit_section(wl, &sections[i], (size_t)ctx->fprofile_top) < 0)
			ret = fail("profile of %s/%s: result channel write failed", wl, sections[i].variant);
		free(sections[i].fn);
	}
	nsections = 0;
	return ret;
}
