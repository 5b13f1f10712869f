/* Pseudo filesystems PID 1 needs before anything else can run. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include "fw.h"

static int mount_one(const char *src, const char *dir, const char *type, const char *opts)
{
	if (mkdir_p(dir) < 0)
		return -1;
	if (mount(src, dir, type, 0, opts) < 0 && errno != EBUSY)
		return fail("mount %s on %s: %s", type, dir, strerror(errno));
	return 0;
}

int mount_basics(void)
{
	int ret = -1;

	if (mount_one("proc", "/proc", "proc", NULL) < 0 ||
	    mount_one("sysfs", "/sys", "sysfs", NULL) < 0 ||
	    mount_one("devtmpfs", "/dev", "devtmpfs", NULL) < 0 ||
	    mount_one("debugfs", "/sys/kernel/debug", "debugfs", NULL) < 0 ||
	    mount_one("tmpfs", "/tmp", "tmpfs", "size=64m") < 0)
		goto cleanup;
	ret = 0;
cleanup:
	return ret;
}

/* Only the workloads that trace need it; a kernel without tracing still runs the rest. */
int mount_tracefs(void)
{
	return mount_one("tracefs", "/sys/kernel/tracing", "tracefs", NULL);
}
