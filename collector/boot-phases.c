/* Host-side phase times of a boot from the channel's records (see boot-phases.h). */
#include "boot-phases.h"
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void fw_phases_init(struct fw_boot_phases *p, const char *chan_path)
{
	memset(p, 0, sizeof(*p));
	p->chan_path = chan_path;
	p->start = now_s();
}

/* One record "FW1 <n> <type> ...": note the first time a boundary shows. */
static void record(struct fw_boot_phases *p, const char *l, double t)
{
	const char *type = strchr(l, ' ');

	if (strncmp(l, "FW1 ", 4) || !type || !(type = strchr(type + 1, ' ')))
		return;
	type++;
	if (!p->begin && !strncmp(type, "begin ", 6))
		p->begin = t;
	else if (!strncmp(type, "info workload_seconds=", 22))
		p->timed_end = t; /* the last one counts */
	else if (!p->end && !strncmp(type, "end ", 4))
		p->end = t;
}

void fw_phases_tick(void *arg)
{
	struct fw_boot_phases *p = arg;
	double t = now_s();
	char buf[4096];
	ssize_t n;
	int fd;

	if (!p->chan_path || (fd = open(p->chan_path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	while ((n = pread(fd, buf, sizeof(buf), p->off)) > 0) {
		p->off += n;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n') {
				p->line[p->used] = '\0';
				record(p, p->line, t);
				p->used = 0;
			} else if (p->used < sizeof(p->line) - 1) {
				p->line[p->used++] = buf[i]; /* a longer record keeps its head, which is all we read */
			}
		}
	}
	close(fd);
}

void fw_phases_done(struct fw_boot_phases *p, double out[4])
{
	p->exit = now_s();
	fw_phases_tick(p); /* what arrived after the last tick */
	out[0] = p->begin ? p->begin - p->start : -1;
	/* no timed workload (a profile-only boot): the workloads phase is empty */
	out[1] = p->begin && p->end ? (p->timed_end ? p->timed_end - p->begin : 0) : -1;
	out[2] = p->begin && p->end ? p->end - (p->timed_end ? p->timed_end : p->begin) : -1;
	out[3] = p->end ? p->exit - p->end : -1;
}
