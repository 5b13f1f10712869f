/*
 * A tiny static /init for testing the host side of a boot without the real
 * guest (kernel/guest/): it writes a result channel (format 1) on ttyS1 or
 * misbehaves on purpose, chosen by fwtest=<mode> on the kernel command line:
 *   ok        valid channel: one "spin" sample per round for each fw.workloads entry
 *   hang      never ends (the host must time out and kill QEMU)
 *   exit      PID 1 exits: the kernel panics ("Attempted to kill init")
 *   truncate  begin and one sample, then reboot without an end record
 *   garbage   a valid channel with a line of noise in the middle
 *   error     valid channel whose first workload reports an error record
 * The "spin" sample times a fixed loop of arithmetic: under icount it is a
 * function of instructions only, so it must repeat exactly between boots.
 */
#include "crc32.h"
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static int chan_fd = -1;
static unsigned long seq;

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...)
{
	char body[1024], line[1100];
	va_list ap;
	int n, m;

	n = snprintf(body, sizeof(body), "FW1 %lu ", seq++);
	va_start(ap, fmt);
	vsnprintf(body + n, sizeof(body) - (size_t)n, fmt, ap);
	va_end(ap);
	m = snprintf(line, sizeof(line), "%s *%08x\n", body, (unsigned)crc32_update(0, body, strlen(body)));
	if (write(chan_fd, line, (size_t)m) != m)
		perror("fw-test-init: write channel");
}

static const char *arg(const char *cmdline, const char *key, char *out, size_t n, const char *dflt)
{
	const char *p = strstr(cmdline, key);

	if (!p) {
		snprintf(out, n, "%s", dflt);
		return out;
	}
	p += strlen(key);
	snprintf(out, n, "%.*s", (int)strcspn(p, " \n"), p);
	return out;
}

static double spin_ms(void)
{
	struct timespec a, b;
	volatile unsigned long x = 1;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (unsigned long i = 0; i < 20000000ul; i++)
		x = x * 6364136223846793005ul + i;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

int main(void)
{
	char cmdline[4096] = "", mode[32], wl[256], rounds_s[16], profile[32];
	struct termios t;
	int fd, rounds;
	ssize_t n;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	if ((fd = open("/proc/cmdline", O_RDONLY)) >= 0) {
		n = read(fd, cmdline, sizeof(cmdline) - 1);
		cmdline[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	arg(cmdline, "fwtest=", mode, sizeof(mode), "ok");
	arg(cmdline, "fw.workloads=", wl, sizeof(wl), "spin");
	arg(cmdline, "fw.rounds=", rounds_s, sizeof(rounds_s), "1");
	arg(cmdline, "fw.profile=", profile, sizeof(profile), "quick");
	rounds = atoi(rounds_s);
	printf("fw-test-init: mode %s\n", mode);
	fflush(stdout);
	if (!strcmp(mode, "exit"))
		return 1;
	if (!strcmp(mode, "hang"))
		for (;;)
			pause();
	chan_fd = open("/dev/ttyS1", O_WRONLY | O_NOCTTY);
	/* raw: no \n -> \r\n or other tty processing on the channel */
	if (chan_fd >= 0 && !tcgetattr(chan_fd, &t)) {
		cfmakeraw(&t);
		tcsetattr(chan_fd, TCSANOW, &t);
	}
	emit("begin format=1 kernel=test profile=%s workloads=%s rounds=%d", profile, wl, rounds);
	for (int r = 0; r < rounds; r++) {
		for (char *w = wl, *next; w && *w; w = next) {
			next = strchr(w, ',');
			int len = next ? (int)(next - w) : (int)strlen(w);
			if (next)
				next++;
			if (!strcmp(mode, "error") && w == wl) {
				emit("error workload=%.*s variant=default msg=injected%%20failure", len, w);
				continue;
			}
			emit("sample workload=%.*s variant=default metric=spin_ms unit=ms direction=lower_is_better "
			     "kind=time round=%d value=%.6f", len, w, r, spin_ms());
			emit("counters workload=%.*s variant=default round=%d loops=20000000", len, w, r);
			if (!strcmp(mode, "truncate"))
				goto out;
			if (!strcmp(mode, "garbage") && r == 0 && w == wl) {
				const char *junk = "this is not a record\n";
				if (write(chan_fd, junk, strlen(junk)) < 0)
					perror("write");
			}
		}
	}
	emit("end records=%lu", seq);
out:
	if (chan_fd >= 0)
		tcdrain(chan_fd);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
