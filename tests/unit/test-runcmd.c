/*
 * runcmd_run (lib/runcmd.c): a command dies with the process that started it.
 * The child runs in its own process group (so a timeout can kill its
 * grandchildren), which a signal to the caller's group does not reach: a
 * collector killed mid-boot left its QEMU running to the timeout. Here a
 * forked "caller" starts `sleep 60` through runcmd_run and is SIGKILLed; the
 * sleep must be gone within a second. Also: exit codes and a timeout.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"
#include "runcmd.h"

static const char pidfile[] = "/tmp/fw-runcmd-test.pid";

/* The caller: writes the pid of its child (via sh's $$, exec'd into sleep) and waits on it. */
static void caller(void)
{
	static const char *const argv[] = { "sh", "-c", "echo $$ > /tmp/fw-runcmd-test.pid; exec sleep 60", NULL };
	struct runcmd rc = { .argv = argv };

	runcmd_run(&rc);
	_exit(0);
}

static pid_t read_pid(void)
{
	for (int i = 0; i < 200; i++) {  /* up to 2 s for sh to write it */
		FILE *f = fopen(pidfile, "r");
		long pid = 0;

		if (f && fscanf(f, "%ld", &pid) == 1 && pid > 0) {
			fclose(f);
			return (pid_t)pid;
		}
		if (f)
			fclose(f);
		usleep(10000);
	}
	return -1;
}

/* Running, not a zombie waiting for a reaper (init here may be slow to reap). */
static int alive(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');  /* pid (comm) state ... */
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

int main(void)
{
	static const char *const t[] = { "true", NULL }, *const f[] = { "sh", "-c", "exit 3", NULL },
			       *const slow[] = { "sleep", "5", NULL };
	struct runcmd a = { .argv = t }, b = { .argv = f }, c = { .argv = slow, .timeout_s = 0.3 };
	pid_t who, child;
	int gone = 0;

	is_int(runcmd_run(&a), 0, "exit 0");
	is_int(runcmd_run(&b), 3, "exit 3");
	runcmd_run(&c);
	ok(c.timed_out, "a timeout kills it");

	unlink(pidfile);
	who = fork();
	if (who == 0)
		caller();
	child = read_pid();
	ok(child > 0 && alive(child), "the caller's command runs");
	kill(who, SIGKILL);
	waitpid(who, NULL, 0);
	for (int i = 0; i < 100 && !gone; i++) {  /* up to 1 s */
		gone = !alive(child);
		if (!gone)
			usleep(10000);
	}
	ok(gone, "killing the caller kills its command (it was in a process group of its own)");
	if (!gone)
		kill(child, SIGKILL);
	unlink(pidfile);
	return done_testing();
}
