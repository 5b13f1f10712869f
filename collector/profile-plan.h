#ifndef FW_PROFILE_PLAN_H
#define FW_PROFILE_PLAN_H
#include "an-result.h"
#include "accel-plan.h"
#include "adaptive.h"
#include "patchset.h"

/*
 * Profiles where a verdict needs one (issue 27). After the deciding boots,
 * `run` profiles only the commits of rows decided "regression" or
 * "improvement" and the other side of each such row (its parent, or the base
 * for a row against the base), only the workloads of those rows, each in one
 * profile-only boot (no timed rounds: fw.rounds=0, the profiling round
 * alone). A row whose attribution the analysis already gives (both sides
 * profiled: a resumed run) asks for nothing.
 *
 * From a series analysis (fw_analysis_series), jobs for this host's commits
 * of the series in the plan's accelerators: one per commit and accelerator
 * group, its workloads those of the flagged rows, in series order. *jobs is
 * malloc()ed; returns the number of jobs, and in *flagged the number of rows
 * that asked.
 */
int fw_profile_jobs(const struct fw_an *analysis, const struct fw_patchset *s, const char *host,
		    const struct fw_accel_group *groups, int ngroups, struct boot_job **jobs, int *flagged);

#endif
