/*
 * Lock contention from the lock:contention_begin/end tracepoints, without
 * perf: a hist trigger saves the begin timestamp per task, the end trigger
 * computes the wait and fires a synthetic event fw_lock_wait, whose own hist
 * sums count and wait. These tracepoints exist whenever TRACEPOINTS is on
 * (qspinlock slow path, mutex, rwsem, rwlock); they carry no lock name
 * without lockdep, so the numbers cover all contended locks, lru_lock
 * (a spinlock) among them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fw.h"

#define TR "/sys/kernel/tracing"
#define BEGIN_TRIG "hist:keys=common_pid:fw_ts0=common_timestamp.usecs"
#define END_TRIG "hist:keys=common_pid:fw_wait=common_timestamp.usecs-$fw_ts0" \
		 ":onmatch(lock.contention_begin).trace(fw_lock_wait,$fw_wait)"
#define SYN_TRIG "hist:keys=common_pid:vals=hitcount,wait_us"

/* Trigger files take one command per write; O_APPEND keeps other triggers. */
static int append_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd, ret = -1;

	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		fail("open %s: %s", path, strerror(errno));
		goto cleanup;
	}
	if (write(fd, text, len) != (ssize_t)len) {
		fail("write '%s' to %s: %s", text, path, strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (fd >= 0)
		close(fd);
	return ret;
}

void locktrace_stop(void)
{
	/* Reverse order of creation: users of a variable go first. Errors are
	 * expected here when start() stopped half way, so they are ignored. */
	append_text(TR "/events/synthetic/fw_lock_wait/trigger", "!" SYN_TRIG);
	append_text(TR "/events/lock/contention_end/trigger", "!" END_TRIG);
	append_text(TR "/events/lock/contention_begin/trigger", "!" BEGIN_TRIG);
	append_text(TR "/synthetic_events", "!fw_lock_wait");
}

int locktrace_start(void)
{
	int ret = -1;

	if (mount_tracefs() < 0)
		goto cleanup;
	if (access(TR "/events/lock/contention_begin", F_OK) < 0) {
		fail("no lock:contention_begin tracepoint in this kernel");
		goto cleanup;
	}
	locktrace_stop(); /* leftovers of an earlier round */
	if (append_text(TR "/synthetic_events", "fw_lock_wait u64 wait_us") < 0 ||
	    append_text(TR "/events/lock/contention_begin/trigger", BEGIN_TRIG) < 0 ||
	    append_text(TR "/events/lock/contention_end/trigger", END_TRIG) < 0 ||
	    append_text(TR "/events/synthetic/fw_lock_wait/trigger", SYN_TRIG) < 0)
		goto cleanup;
	ret = 0;
cleanup:
	if (ret < 0) {
		char why[sizeof(fw_errbuf)];

		memcpy(why, fw_errbuf, sizeof(why));
		locktrace_stop();
		memcpy(fw_errbuf, why, sizeof(why));
	}
	return ret;
}

static uint64_t field_after(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

int locktrace_read(struct lockstat *ls)
{
	static char buf[1 << 20];
	char *line, *save = NULL;
	int ret = -1;

	memset(ls, 0, sizeof(*ls));
	if (read_text(TR "/events/synthetic/fw_lock_wait/hist", buf, sizeof(buf)) < 0)
		goto cleanup;
	/* Lines: "{ common_pid: 123 } hitcount: 5  wait_us: 77", then Totals. */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *close_brace = strchr(line, '}');

		if (line[0] == '{' && close_brace) {
			ls->contended += field_after(close_brace, "hitcount:");
			ls->wait_us += field_after(close_brace, "wait_us:");
		} else if (strstr(line, "Dropped:")) {
			ls->dropped += field_after(line, "Dropped:");
		}
	}
	ret = 0;
cleanup:
	return ret;
}
