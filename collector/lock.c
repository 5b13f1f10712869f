/* Host-wide measurement/build lock with boot slots (see lock.h). */
#include <stddef.h>
#include "lock.h"
#include "cache.h"
#include "strbuf.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int fw_lock_slots(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > FW_LOCK_MAX_SLOTS ? FW_LOCK_MAX_SLOTS : (int)n;
}

/* <root>/<name>, opened for flock (created if missing); -1 said. */
static int open_lock_file(const char *cache_root, const char *name, char *path, size_t n)
{
	char root[4096];
	int fd;

	if (cache_root)
		snprintf(root, sizeof(root), "%s", cache_root);
	else
		fw_cache_root(root, sizeof(root));
	if (fw_mkdirs(root) < 0) {
		fprintf(stderr, "foliowatch: cannot create %s: %s\n", root, strerror(errno));
		return -1;
	}
	snprintf(path, n, "%s/%s", root, name);
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0)
		fprintf(stderr, "foliowatch: cannot open %s: %s\n", path, strerror(errno));
	return fd;
}

/* The pid is only for the waiting message: not worth failing over. */
static void write_pid(int fd)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, strlen(pid), 0) < 0) {
		/* harmless: the waiter says "?" */
	}
}

static void say_waiting(int fd, const char *path, const char *what)
{
	char pid[32] = "";
	ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);

	pid[n > 0 ? n : 0] = '\0';
	pid[strcspn(pid, "\n")] = '\0';
	fprintf(stderr, "foliowatch: %s: waiting for lock held by pid %s (%s)\n", what, *pid ? pid : "?", path);
}

/* flock(op) on fd, waiting if need be (said once); 0 or -1 said. */
static int flock_wait(int fd, int op, const char *path, const char *what)
{
	if (flock(fd, op | LOCK_NB) == 0)
		return 0;
	if (errno != EWOULDBLOCK) {
		fprintf(stderr, "foliowatch: cannot lock %s: %s\n", path, strerror(errno));
		return -1;
	}
	say_waiting(fd, path, what);
	while (flock(fd, op) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "foliowatch: cannot lock %s: %s\n", path, strerror(errno));
			return -1;
		}
	return 0;
}

/* <cache>/lock, exclusive or shared; 0 or -1 said. */
static int take_main(struct fw_lock *l, const char *cache_root, const char *what, int op)
{
	char path[4200];

	l->nslots = 0;
	l->exclusive = op == LOCK_EX;
	if ((l->fd = open_lock_file(cache_root, "lock", path, sizeof(path))) < 0)
		return -1;
	if (flock_wait(l->fd, op, path, what)) {
		close(l->fd);
		l->fd = -1;
		return -1;
	}
	if (op == LOCK_EX)
		write_pid(l->fd);
	return 0;
}

int fw_lock_acquire(struct fw_lock *l, const char *cache_root, const char *what)
{
	return take_main(l, cache_root, what, LOCK_EX);
}

/* Drops the slots held so far (a try that did not get them all). */
static void drop_slots(struct fw_lock *l)
{
	while (l->nslots > 0) {
		int fd = l->slot_fd[--l->nslots];
		if (ftruncate(fd, 0) < 0) {
			/* harmless: the next holder rewrites it */
		}
		close(fd);
	}
}

/* One pass over the slot files: 1 when `want` of them are ours, 0 if not (none kept), -1 said. */
static int try_slots(struct fw_lock *l, const char *cache_root, int want, int *busy_fd, char *busy_path, size_t n)
{
	for (int i = 0; i < fw_lock_slots() && l->nslots < want; i++) {
		char name[32], path[4200];
		int fd;

		snprintf(name, sizeof(name), "lock.slot%d", i);
		if ((fd = open_lock_file(cache_root, name, path, sizeof(path))) < 0) {
			drop_slots(l);
			return -1;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			write_pid(fd);
			l->slot_fd[l->nslots++] = fd;
			continue;
		}
		if (*busy_fd < 0) { /* kept open for the waiting message */
			*busy_fd = fd;
			snprintf(busy_path, n, "%s", path);
		} else {
			close(fd);
		}
	}
	if (l->nslots == want)
		return 1;
	drop_slots(l);
	return 0;
}

int fw_lock_acquire_boot(struct fw_lock *l, const char *cache_root, const char *what, int threads)
{
	const struct timespec pause = { 0, 100 * 1000 * 1000 };
	char busy_path[4200] = "", turn_path[4200];
	int busy_fd = -1, said = 0, got, turn;

	if (threads >= fw_lock_slots())
		return fw_lock_acquire(l, cache_root, what);
	if (take_main(l, cache_root, what, LOCK_SH))
		return -1;
	/*
	 * One waiter at a time polls, holding the turnstile: a run that boots
	 * again as soon as a boot of its own ends passes it too, so the slot that
	 * frees goes to whoever waited, not back to that run (a second collector
	 * waited 10 minutes for a slot beside a run of 2 boots at a time).
	 */
	if ((turn = open_lock_file(cache_root, "lock.turnstile", turn_path, sizeof(turn_path))) < 0 ||
	    flock_wait(turn, LOCK_EX, turn_path, what)) {
		if (turn >= 0)
			close(turn);
		fw_lock_release(l);
		return -1;
	}
	write_pid(turn);  /* for the next waiter's message */
	/* slots free up when a boot ends: a short poll costs nothing beside a boot's minutes */
	while ((got = try_slots(l, cache_root, threads < 1 ? 1 : threads, &busy_fd, busy_path, sizeof(busy_path))) == 0) {
		if (!said && busy_fd >= 0)
			say_waiting(busy_fd, busy_path, what);
		said = 1;
		nanosleep(&pause, NULL);
	}
	close(turn);
	if (busy_fd >= 0)
		close(busy_fd);
	if (got < 0) {
		fw_lock_release(l);
		return -1;
	}
	return 0;
}

void fw_lock_release(struct fw_lock *l)
{
	drop_slots(l);
	if (l->fd >= 0) {
		/* empty the pid first so a stale number never names an unrelated process
		 * (only an exclusive holder wrote one) */
		if (l->exclusive && ftruncate(l->fd, 0) < 0) {
			/* harmless: the next holder rewrites it */
		}
		close(l->fd);
	}
	l->fd = -1;
}
