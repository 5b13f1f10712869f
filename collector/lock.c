/* Host-wide measurement/build lock (see lock.h). */
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
#include <unistd.h>



int fw_lock_acquire(struct fw_lock *l, const char *cache_root, const char *what)
{
	char root[4096], path[4200], pid[32] = "";
	ssize_t n;
	int ret = -1;

	l->fd = -1;
	if (cache_root)
		snprintf(root, sizeof(root), "%s", cache_root);
	else
		fw_cache_root(root, sizeof(root));
	if (fw_mkdirs(root) < 0) {
		fprintf(stderr, "foliowatch: cannot create %s: %s\n", root, strerror(errno));
		goto cleanup;
	}
	snprintf(path, sizeof(path), "%s/lock", root);
	/* never unlinked: removing a flock file lets two holders lock different inodes */
	if ((l->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0) {
		fprintf(stderr, "foliowatch: cannot open %s: %s\n", path, strerror(errno));
		goto cleanup;
	}
	if (flock(l->fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK) {
			fprintf(stderr, "foliowatch: cannot lock %s: %s\n", path, strerror(errno));
			goto cleanup;
		}
		n = pread(l->fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		fprintf(stderr, "foliowatch: %s: waiting for lock held by pid %s (%s)\n",
			what, *pid ? pid : "?", path);
		while (flock(l->fd, LOCK_EX) < 0)
			if (errno != EINTR) {
				fprintf(stderr, "foliowatch: cannot lock %s: %s\n", path, strerror(errno));
				goto cleanup;
			}
	}
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(l->fd, 0) < 0 || pwrite(l->fd, pid, strlen(pid), 0) < 0) {
		/* the pid is only for the waiting message: not worth failing over */
	}
	ret = 0;
cleanup:
	if (ret && l->fd >= 0) {
		close(l->fd);
		l->fd = -1;
	}
	return ret;
}

void fw_lock_release(struct fw_lock *l)
{
	if (l->fd >= 0) {
		/* empty the pid first so a stale number never names an unrelated process */
		if (ftruncate(l->fd, 0) < 0) {
			/* harmless: the next holder rewrites it */
		}
		close(l->fd);
	}
	l->fd = -1;
}
