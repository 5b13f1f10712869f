#ifndef FW_LOCK_H
#define FW_LOCK_H

/*
 * The host's measurement/build lock, with one boot slot per online CPU
 * (issue 27: boots in parallel). Files in the default cache (FOLIOWATCH_CACHE
 * or ~/.cache/foliowatch), whatever --cache a command was given: it is the
 * host's lock, not one cache's.
 *
 * - <cache>/lock, flock()ed exclusive by everything that needs the whole
 *   host: a kernel build (it would steal a measured guest's CPU; held from a
 *   checkout to the end of its build), and a boot whose QEMU runs as many
 *   threads as the host has CPUs (TCG with 2 vCPUs on 2 cores, KVM). Older
 *   collectors take it the same way, so they exclude and are excluded.
 * - A boot that needs fewer host threads (an icount boot runs one) holds
 *   <cache>/lock shared and one <cache>/lock.slotN file per thread, so at most
 *   one such boot per CPU runs, across every collector on the host. Waiters
 *   take their turn through <cache>/lock.turnstile (exclusive while one
 *   polls for slots), so a slot that frees goes to the collector that waited,
 *   not to a run that takes slot after slot for its next boots.
 *
 * A holder writes its pid into what it holds so that a waiter can say whom
 * it waits for. Locks go with fw_lock_release() or with the process (the
 * kernel drops flocks). Lock files are never unlinked: removing a flock file
 * lets two holders lock different inodes.
 */
#define FW_LOCK_MAX_SLOTS 64

struct fw_lock {
	int fd;                          /* <cache>/lock; -1: not held */
	int exclusive;                   /* fd is held exclusive (it wrote its pid) */
	int nslots;                      /* slot files held */
	int slot_fd[FW_LOCK_MAX_SLOTS];
};

/*
 * The whole host. Blocks until it is ours, printing "waiting for lock held
 * by pid N" once to stderr if it has to wait. cache_root NULL:
 * fw_cache_root(). 0 or -1 (message printed).
 */
int fw_lock_acquire(struct fw_lock *l, const char *cache_root, const char *what);

/*
 * Room for a boot whose QEMU runs `threads` host threads: the whole host if
 * that is at least fw_lock_slots(), else that many free slots. Blocks (and
 * says once whom it waits for) like fw_lock_acquire.
 */
int fw_lock_acquire_boot(struct fw_lock *l, const char *cache_root, const char *what, int threads);

/* Boot slots of this host: its online CPUs, 1..FW_LOCK_MAX_SLOTS. */
int fw_lock_slots(void);

void fw_lock_release(struct fw_lock *l);

#endif
