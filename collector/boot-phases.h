#ifndef FW_BOOT_PHASES_H
#define FW_BOOT_PHASES_H
#include <stddef.h>
#include <sys/types.h>

/*
 * Where a boot's wall time goes (issue 27, "timing you can read"): the host
 * watches the result channel while QEMU runs and notes when the guest init's
 * begin record, each timed workload's end (info workload_seconds), and the
 * end record arrive. Host-side seconds, so they include the machine's load;
 * the guest's own times are in the samples.
 */
struct fw_boot_phases {
	const char *chan_path;   /* the channel file QEMU writes */
	double start;            /* QEMU started (monotonic seconds) */
	double begin, timed_end, end, exit;  /* when seen; 0: not seen */
	off_t off;               /* bytes of the channel read so far */
	char line[512];          /* a record not yet ended by '\n' */
	size_t used;
};

void fw_phases_init(struct fw_boot_phases *p, const char *chan_path);
/* Reads what the channel gained since the last call (runcmd's tick). */
void fw_phases_tick(void *arg);
/* After QEMU exited: the four phases in seconds, -1 where a boundary was not seen. */
void fw_phases_done(struct fw_boot_phases *p, double out[4]);

#endif
