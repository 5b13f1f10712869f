/* /proc/vmstat snapshots and their deltas, the counters that explain a result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fw.h"

int vmstat_read(struct vmstat *vs)
{
	static char buf[32768];
	char *line, *save = NULL;

	vs->n = 0;
	if (read_text("/proc/vmstat", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line && vs->n < VMSTAT_MAX;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');

		if (!sp || (size_t)(sp - line) >= sizeof(vs->name[0]))
			continue;
		memcpy(vs->name[vs->n], line, (size_t)(sp - line));
		vs->name[vs->n][sp - line] = '\0';
		vs->val[vs->n] = strtoull(sp + 1, NULL, 10);
		vs->n++;
	}
	return 0;
}

uint64_t vmstat_get(const struct vmstat *vs, const char *name)
{
	size_t i;

	for (i = 0; i < vs->n; i++)
		if (!strcmp(vs->name[i], name))
			return vs->val[i];
	return 0;
}

int vmstat_has(const struct vmstat *vs, const char *name)
{
	for (size_t i = 0; i < vs->n; i++)
		if (!strcmp(vs->name[i], name))
			return 1;
	return 0;
}

int64_t vmstat_delta(const struct vmstat *a, const struct vmstat *b, const char *name)
{
	return (int64_t)(vmstat_get(b, name) - vmstat_get(a, name));
}

static int listed(const char *const *list, const char *name)
{
	for (; list && *list; list++)
		if (!strcmp(*list, name))
			return 1;
	return 0;
}

void rec_vmstat_delta(struct fw_rec *r, const struct vmstat *a, const struct vmstat *b,
		      const char *const *always)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		int64_t d = (int64_t)(b->val[i] - vmstat_get(a, b->name[i]));
		int gauge = !strncmp(b->name[i], "nr_", 3);

		/* Gauges (nr_*) are levels, not events: only the listed ones. */
		if (listed(always, b->name[i]) || (!gauge && d != 0))
			rec_kvi(r, b->name[i], d);
	}
}
