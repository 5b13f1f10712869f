#include "adaptive.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xalloc.h"
#include "run-doc.h"

int fw_list_has(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && !strncmp(p, name, n))
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

int fw_commit_index(const struct fw_patchset *s, const char *sha)
{
	for (int i = 0; sha && i < s->nr; i++)
		if (!strcmp(s->commits[i].sha, sha))
			return i;
	return -1;
}

int fw_group_index(const struct fw_accel_group *g, int n, const char *accel)
{
	for (int i = 0; accel && i < n; i++)
		if (!strcmp(fw_accel_name(g[i].accel), accel))
			return i;
	return -1;
}

/* The workloads commit entry e still needs at its extra boot r (0-based); 0 if none. */
static int workloads_at(const struct fw_und_commit *e, const struct fw_accel_group *g, int r, char *out, size_t size)
{
	size_t len = 0;

	out[0] = 0;
	for (size_t i = 0; i < e->nworkloads; i++) {
		const struct fw_und_workload *w = &e->workloads[i];

		if (!*w->workload || !fw_list_has(g->workloads.buf, w->workload) || w->boots_next - w->boots <= r)
			continue;
		if (len + strlen(w->workload) + 2 > size)
			break;
		len += (size_t)snprintf(out + len, size - len, "%s%s", len ? "," : "", w->workload);
	}
	return len > 0;
}

int fw_adaptive_jobs(const struct fw_undecided *undecided, const struct fw_patchset *s, const char *host,
		     const struct fw_accel_group *groups, int ngroups, int look, struct boot_job **jobs)
{
	size_t n = 0, alloc = 0;
	int more = 1;

	*jobs = NULL;
	/* round r: the r-th extra boot of every commit that needs more than r */
	for (int r = 0; more; r++) {
		more = 0;
		for (int want = 0; want < s->nr; want++) /* in series order: base, p1, p2, ... */
			for (size_t i = 0; i < undecided->ncommits; i++) {
				const struct fw_und_commit *e = &undecided->commits[i];
				int c = fw_commit_index(s, e->sha), g = fw_group_index(groups, ngroups, e->accel);
				struct boot_job j = { .commit = c, .boot = -1, .group = g, .look = look };

				if (c != want || g < 0 || strcmp(e->host, host) ||
				    !workloads_at(e, &groups[g], r, j.workloads, sizeof(j.workloads)))
					continue;
				FW_ALLOC_GROW(*jobs, n + 1, alloc);
				(*jobs)[n++] = j;
				more = 1;
			}
	}
	return (int)n;
}
