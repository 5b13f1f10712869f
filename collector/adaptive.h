#ifndef FW_ADAPTIVE_H
#define FW_ADAPTIVE_H
#include "an-result.h"
#include "accel-plan.h"
#include "patchset.h"

/*
 * The boots of one look of the adaptive design (issue 12). After the first
 * round, `run` asks the analysis which rows are still unsure
 * (fw_analysis_undecided) and boots again the commits on either side of them,
 * only the workloads that are unsure, until every row is decided, the last
 * planned look is taken or the budget is spent.
 */
struct boot_job {
	int commit;            /* index into the series (0 = base) */
	int boot;              /* boot index; -1: the next one not yet measured */
	int group;             /* accelerator group (accel-plan.h) */
	char workloads[256];   /* what this boot runs: the group's workloads or a part of them */
	int look;              /* 1..max_looks; 0: a fixed design (no `sequential` in the document) */
	int profile_only;      /* no timed rounds, the profiling round only (profile-plan.h) */
};

/*
 * Jobs for look `look` from an undecided answer: only this host's commits of
 * this series in the plan's accelerators, only workloads the group runs.
 * Commit c needs boots_next - boots more boots of each listed workload; the
 * jobs take turns over the commits (one more boot of each, then the next),
 * so the machine's drift spreads over them as in the first round. *jobs is
 * malloc()ed; returns the number of jobs.
 */
int fw_adaptive_jobs(const struct fw_undecided *undecided, const struct fw_patchset *s, const char *host,
		     const struct fw_accel_group *groups, int ngroups, int look, struct boot_job **jobs);

/* The index of the commit with this sha in the series, or -1. */
int fw_commit_index(const struct fw_patchset *s, const char *sha);
/* The index of the group of this accelerator name, or -1. */
int fw_group_index(const struct fw_accel_group *g, int n, const char *accel);

/* Is name one of the comma-separated list's entries? */
int fw_list_has(const char *list, const char *name);

#endif
