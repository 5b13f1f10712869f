/*
 * The default determinism table (issue 12): which metrics are expected to be
 * deterministic in which accelerator mode before an environment has shown
 * anything. The data overrules it (fw_classify): an entry only decides while
 * the same-kernel evidence is missing or inconclusive.
 *
 * Format, one rule a line, `#` starts a comment:
 *     ACCEL  WORKLOAD/VARIANT/METRIC  deterministic|rank
 * ACCEL is kvm, tcg, icount or *; the pattern is a shell glob (fnmatch, `*`
 * also crosses `/`). The first matching line wins; a user's file
 * (`--determinism FILE` or FOLIOWATCH_DETERMINISM) is read before the
 * built-in lines below. A metric no line matches: a count (`kind: count`) is
 * deterministic (exact by construction), anything else is not.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-internal.h"
#include "sha256.h"
#include "xalloc.h"

/* Keep in step with README.md ("Deciding: ..."). */
const char fw_det_builtin[] =
	"# icount (1 vCPU): guest time is a function of instructions executed; 5 boots of one\n"
	"# kernel agreed to 0.00-0.10% (kernel/guest-notes.md)\n"
	"icount split/*/split_ms          deterministic\n"
	"icount split/*/split_cpu_ms      deterministic\n"
	"icount mthp/*/wall_s             deterministic\n"
	"icount mthp/*/cpu_s              deterministic\n"
	"# tick-sampled (HZ=250): moved +-2% / +-16% between boots of one kernel\n"
	"icount mthp/*/user_s             rank\n"
	"icount mthp/*/sys_s              rank\n"
	"# lazyfree's timed write runs SCHED_FIFO: rounds and boots agree to 0.001% (before it,\n"
	"# round 1 took one of two values 9% apart: the vmpressure kworker's preemptions)\n"
	"icount lazyfree/*/reclaim_s      deterministic\n"
	"# rounds inside one boot disagree by more than 0.5% in 7 of 16 filemap boots (up to 4.8%)\n"
	"icount filemap/*/*               rank\n"
	"# counted by the function profiler in the untimed diagnostic round: exact in every mode\n"
	"*      mthp/*/lru_lock_per_fault deterministic\n";

static int parse_into(struct fw_det_table *t, const char *text, int from_file, const char *name,
		      struct strbuf *err)
{
	const char *p = text;
	int line = 0;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char buf[512], accel[16], pat[300], mode[64], extra[8];
		int n;

		line++;
		if (len >= sizeof(buf)) {
			strbuf_addf(err, "%s: line %d: too long", name, line);
			return -1;
		}
		memcpy(buf, p, len);
		buf[len] = 0;
		p = eol ? eol + 1 : p + len;
		if (strchr(buf, '#'))
			*strchr(buf, '#') = 0;
		n = sscanf(buf, "%15s %299s %63s %7s", accel, pat, mode, extra);
		if (n <= 0)
			continue;
		if (n != 3 || (strcmp(mode, "deterministic") && strcmp(mode, "rank")) ||
		    (strcmp(accel, "*") && strcmp(accel, "kvm") && strcmp(accel, "tcg") && strcmp(accel, "icount"))) {
			strbuf_addf(err, "%s: line %d: expected ACCEL WORKLOAD/VARIANT/METRIC deterministic|rank "
				    "(ACCEL kvm, tcg, icount or *)", name, line);
			return -1;
		}
		FW_ALLOC_GROW(t->rules, t->n + 1, t->alloc);
		snprintf(t->rules[t->n].accel, sizeof(t->rules[t->n].accel), "%s", accel);
		snprintf(t->rules[t->n].pattern, sizeof(t->rules[t->n].pattern), "%s", pat);
		t->rules[t->n].deterministic = !strcmp(mode, "deterministic");
		t->rules[t->n].from_file = from_file;
		t->n++;
	}
	return 0;
}

int fw_det_table_load(struct fw_det_table *t, const char *path, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	if (path && *path) {
		if (strbuf_read_file(&text, path, 1 << 20)) {
			strbuf_addf(err, "determinism table %s: %s", path, strerror(errno));
			goto cleanup;
		}
		if (parse_into(t, text.buf, 1, path, err))
			goto cleanup;
	}
	if (parse_into(t, fw_det_builtin, 0, "built-in determinism table", err))
		goto cleanup;
	/* The cache key must change with the table: hash what was read. */
	strbuf_addstr(&text, "\n--\n");
	strbuf_addstr(&text, fw_det_builtin);
	sha256_hex(text.buf, text.len, t->hash);
	ret = 0;
cleanup:
	if (ret)
		fw_det_table_free(t);
	strbuf_release(&text);
	return ret;
}

void fw_det_table_free(struct fw_det_table *t)
{
	free(t->rules);
	t->rules = NULL;
	t->n = t->alloc = 0;
}

int fw_det_table_lookup(const struct fw_det_table *t, const char *accel, const char *workload,
			const char *variant, const char *metric, const char *kind, const char **source)
{
	char name[512];

	snprintf(name, sizeof(name), "%s/%s/%s", workload, variant, metric);
	for (size_t i = 0; t && i < t->n; i++) {
		const struct fw_det_rule *r = &t->rules[i];
		if ((!strcmp(r->accel, "*") || !strcmp(r->accel, accel)) && !fnmatch(r->pattern, name, 0)) {
			*source = r->from_file ? "table file" : "default table";
			return r->deterministic;
		}
	}
	*source = !strcmp(kind, "count") ? "default for counts" : "default for times and rates";
	return !strcmp(kind, "count");
}
