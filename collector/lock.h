#ifndef FW_LOCK_H
#define FW_LOCK_H

/*
 * One measurement at a time per host: flock() on <cache>/lock, taken by
 * everything that measures a guest or builds a kernel (a build beside a
 * measured guest would steal its CPU), and held from a checkout to the end
 * of its build. Everything passes cache_root NULL, the default cache
 * (FOLIOWATCH_CACHE or ~/.cache/foliowatch), whatever --cache a command
 * was given: it is the host's lock, not one cache's. The holder writes its pid into the
 * file so that a waiter can say whom it waits for. The lock is released by
 * fw_lock_release() or by the process exiting (the kernel drops flocks).
 */
struct fw_lock {
	int fd;
};

/*
 * Blocks until the lock is ours, printing "waiting for lock held by pid N"
 * once to stderr if it has to wait. cache_root NULL: fw_cache_root().
 * 0 or -1 (message printed).
 */
int fw_lock_acquire(struct fw_lock *l, const char *cache_root, const char *what);
void fw_lock_release(struct fw_lock *l);

#endif
