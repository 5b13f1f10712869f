#ifndef FW_ACCEL_PLAN_H
#define FW_ACCEL_PLAN_H
#include "qemu.h"
#include "strbuf.h"

/*
 * Which accelerator measures which workload (issue 12, "a plan per
 * workload"). --accel MODE puts every workload on MODE. The default, "plan":
 * KVM for everything when a test boot under KVM works; otherwise icount for
 * the workloads measured to repeat between boots of one kernel under icount
 * (kernel/guest-notes.md: split, mthp, lazyfree and filemap agreed to
 * 0.00-0.10%), TCG for any other. Each accelerator is its own environment:
 * the series table keeps them apart, as two runs with --accel did.
 */
#define FW_ACCEL_GROUPS 3

struct fw_accel_group {
	enum fw_accel accel;
	struct strbuf workloads;   /* comma-separated, in the order given */
};

/* Is workload measured to be deterministic under icount (the built-in plan table)? */
int fw_icount_suits(const char *workload);

/*
 * Splits workloads over accelerators. accel_opt: "plan", "auto", "kvm", "tcg"
 * or "icount"; kvm_works: the KVM probe's verdict (only read for plan/auto);
 * icount_also: user workloads whose manifest asks for icount (comma-separated,
 * or NULL): under plan they join the table's, any other user workload gets TCG.
 * Returns the number of groups (>= 1), each with at least one workload.
 */
int fw_accel_plan(const char *workloads, const char *accel_opt, int kvm_works, const char *icount_also,
		  struct fw_accel_group groups[FW_ACCEL_GROUPS]);
void fw_accel_plan_release(struct fw_accel_group *groups, int n);

#endif
