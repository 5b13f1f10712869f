/* Which commits and workloads get a profile-only boot (see profile-plan.h). */
#include "profile-plan.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run-doc.h"
#include "xalloc.h"

/* Adds workload w to the wanted list of commit c (if it is one of ours), group g. */
static void want(char *lists, int ngroups, int c, int g, const char *w)
{
	char *list = lists + ((size_t)c * (size_t)ngroups + (size_t)g) * 256;
	size_t len = strlen(list);

	if (c < 0 || fw_list_has(list, w) || len + strlen(w) + 2 > 256)
		return;
	snprintf(list + len, 256 - len, "%s%s", len ? "," : "", w);
}

int fw_profile_jobs(const struct fw_an *analysis, const struct fw_patchset *s, const char *host,
		    const struct fw_accel_group *groups, int ngroups, struct boot_job **jobs, int *flagged)
{
	char *lists = calloc((size_t)s->nr * (size_t)ngroups + 1, 256);
	size_t n = 0, alloc = 0;

	if (!lists)
		abort();
	*jobs = NULL;
	*flagged = 0;
	for (size_t i = 0; analysis && i < analysis->nrows; i++) {
		const struct fw_an_row *r = &analysis->rows[i];
		int g = fw_group_index(groups, ngroups, r->accel);

		if ((r->v != FW_REGRESSION && r->v != FW_IMPROVEMENT) || strcmp(r->host, host) || g < 0 ||
		    !*r->workload || !fw_list_has(groups[g].workloads.buf, r->workload))
			continue;
		if (r->nattribution)
			continue; /* both sides profiled already */
		++*flagged;
		want(lists, ngroups, fw_commit_index(s, r->sha), g, r->workload);
		want(lists, ngroups, fw_commit_index(s, r->ref_sha), g, r->workload);
	}
	for (int c = 0; c < s->nr; c++)
		for (int g = 0; g < ngroups; g++) {
			const char *list = lists + ((size_t)c * (size_t)ngroups + (size_t)g) * 256;
			struct boot_job j = { .commit = c, .boot = -1, .group = g, .look = 0, .profile_only = 1 };
			if (!*list)
				continue;
			snprintf(j.workloads, sizeof(j.workloads), "%s", list);
			FW_ALLOC_GROW(*jobs, n + 1, alloc);
			(*jobs)[n++] = j;
		}
	free(lists);
	return (int)n;
}
