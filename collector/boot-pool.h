#ifndef FW_BOOT_POOL_H
#define FW_BOOT_POOL_H

/*
 * Boots in parallel (issue 27): a list of jobs run by N worker threads, each
 * job in three steps. claim and finish run under the pool's mutex, one at a
 * time (they may touch the database, the counters and the progress lines);
 * work runs unlocked, N at once (it waits for QEMU). The host lock's slots
 * (lock.h), taken inside work, bound what runs at once across collectors;
 * the pool only bounds this one.
 *
 * Jobs start in list order, except that a worker skips ahead to the first
 * job of a commit no other worker is booting, if there is one: the N boots
 * running at once are of different commits where possible, so interleaving
 * (base, p1, p2, ...) keeps spreading the machine's drift over the commits.
 */
struct boot_pool_ops {
	/* Under the mutex: 1 to boot job i, 0 when it needs no boot (then finish is not called). */
	int (*claim)(void *ctx, int i);
	/* Unlocked: the boot itself. */
	void (*work)(void *ctx, int i);
	/* Under the mutex: deliver what work made. */
	void (*finish)(void *ctx, int i);
	/* Under the mutex: stop starting jobs (the budget is spent). */
	int (*stop)(void *ctx);
	/* The commit job i boots. */
	int (*commit_of)(void *ctx, int i);
};

/* Runs jobs 0..njobs-1 with `workers` threads (1: in the calling thread); returns when all ended. */
void boot_pool_run(int workers, int njobs, const struct boot_pool_ops *ops, void *ctx);

#endif
