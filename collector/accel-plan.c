#include "accel-plan.h"
#include <string.h>

/* Measured deterministic under icount: 5 boots of one kernel agreed to 0.00-0.10%
 * (split, mthp, lazyfree), 2 boots to 0.01-0.03% (filemap); kernel/guest-notes.md. */
static const char *const icount_workloads[] = { "split", "mthp", "lazyfree", "filemap", NULL };

int fw_icount_suits(const char *workload)
{
	for (int i = 0; icount_workloads[i]; i++)
		if (!strcmp(workload, icount_workloads[i]))
			return 1;
	return 0;
}

static struct fw_accel_group *group_for(struct fw_accel_group *g, int *n, enum fw_accel a)
{
	for (int i = 0; i < *n; i++)
		if (g[i].accel == a)
			return &g[i];
	g[*n].accel = a;
	strbuf_init(&g[*n].workloads, 0);
	return &g[(*n)++];
}

/* name is an item of the comma-separated list (NULL: none). */
static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
		if (strcspn(p, ",") == n && !strncmp(p, name, n))
			return 1;
	return 0;
}

int fw_accel_plan(const char *workloads, const char *accel_opt, int kvm_works, const char *icount_also,
		  struct fw_accel_group groups[FW_ACCEL_GROUPS])
{
	int plan = !strcmp(accel_opt, "plan"), n = 0;
	enum fw_accel fixed = FW_ACCEL_TCG;

	if (!strcmp(accel_opt, "auto") || (plan && kvm_works)) {
		fixed = kvm_works ? FW_ACCEL_KVM : FW_ACCEL_TCG;
		plan = 0;
	} else if (!plan && fw_accel_parse(accel_opt, &fixed)) {
		fixed = FW_ACCEL_TCG;
	}
	for (const char *p = workloads; *p;) {
		size_t len = strcspn(p, ",");
		char name[64];

		if (len && len < sizeof(name)) {
			memcpy(name, p, len);
			name[len] = 0;
			enum fw_accel a = !plan ? fixed : fw_icount_suits(name) || listed(icount_also, name) ? FW_ACCEL_ICOUNT : FW_ACCEL_TCG;
			struct fw_accel_group *g = group_for(groups, &n, a);
			if (g->workloads.len)
				strbuf_addch(&g->workloads, ',');
			strbuf_addstr(&g->workloads, name);
		}
		p += len + (p[len] == ',');
	}
	if (!n) /* no workload named: one group, as the guest would run its defaults */
		group_for(groups, &n, plan ? FW_ACCEL_ICOUNT : fixed);
	return n;
}

void fw_accel_plan_release(struct fw_accel_group *groups, int n)
{
	for (int i = 0; i < n; i++)
		strbuf_release(&groups[i].workloads);
}
