/*
 * Runs a program (mkfs.xfs, a user's workload) from the init: fork,
 * optionally join a memcg and chroot, exec an argv vector of any length (no
 * shell), capture stdout. stderr stays on the console for diagnosis. With a
 * timeout the program runs in a process group of its own, and the whole
 * group is killed when the time is up (its children too).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fw.h"

#define SPAWN_MAX_ENV 8

/* In the child: never returns. */
static void child(const struct spawn *sp, int out_fd)
{
	static char env_path[] = "PATH=/usr/sbin:/usr/bin:/sbin:/bin";
	static char env_home[] = "HOME=/tmp";
	static char env_lang[] = "LANG=C";
	char *envp[4 + SPAWN_MAX_ENV] = { env_path, env_home, env_lang };
	size_t n = 0, e = 3;
	char **argv;

	setpgid(0, 0);
	if (sp->memcg && memcg_join(sp->memcg) < 0)
		goto fail;
	if (sp->root && (chroot(sp->root) < 0 || chdir("/") < 0)) {
		fail("chroot %s: %s", sp->root, strerror(errno));
		goto fail;
	}
	if (dup2(out_fd, 1) < 0) {
		fail("dup2: %s", strerror(errno));
		goto fail;
	}
	while (sp->argv[n])
		n++;
	if (!(argv = calloc(n + 1, sizeof(*argv)))) {
		fail("out of memory for %zu arguments", n);
		goto fail;
	}
	/* execve() wants char *const[]: copy through a union, it does not write to the strings. */
	for (size_t i = 0; i < n; i++) {
		union { const char *c; char *m; } u = { .c = sp->argv[i] };

		argv[i] = u.m;
	}
	for (size_t i = 0; sp->env && sp->env[i]; i++) {
		if (i == SPAWN_MAX_ENV) {
			fail("more than %d environment entries", SPAWN_MAX_ENV);
			goto fail;
		}
		union { const char *c; char *m; } u2 = { .c = sp->env[i] };

		envp[e++] = u2.m;
	}
	envp[e] = NULL;
	execve(argv[0], argv, envp);
	fail("exec %s: %s", sp->argv[0], strerror(errno));
fail:
	fprintf(stderr, "fw-init child: %s\n", fw_errbuf);
	_exit(127);
}

/* Milliseconds left before deadline (-1: no deadline). */
static int left_ms(double deadline)
{
	double left = deadline - now_s();

	if (deadline <= 0)
		return -1;
	return left <= 0 ? 0 : (int)(left * 1000) + 1;
}

/* The program's group (its children too), then the program. */
static void kill_group(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/*
 * Reads the program's stdout into sp->out until EOF; kills its group at the
 * deadline, checked on every pass (a program that never stops printing is
 * cut too). After a kill, 2 s more for the pipe to close: a descendant that
 * left the group must not hold the init forever.
 */
static void capture(struct spawn *sp, int fd, pid_t pid)
{
	double deadline = sp->timeout_s > 0 ? now_s() + sp->timeout_s : 0;
	size_t got = 0;

	for (;;) {
		char scratch[4096];
		int room_left = sp->out && got + 1 < sp->out_size;
		char *dst = room_left ? sp->out + got : scratch;
		size_t room = room_left ? sp->out_size - 1 - got : sizeof(scratch);
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int ready = poll(&pfd, 1, left_ms(deadline));
		ssize_t n;

		if (ready < 0 && errno == EINTR)
			continue;
		if (ready < 0)
			break;
		if (deadline > 0 && now_s() >= deadline) {
			if (sp->timed_out)
				break;  /* the grace after the kill is over */
			kill_group(pid);
			sp->timed_out = 1;
			deadline = now_s() + 2;
			continue;
		}
		if (ready == 0)
			continue;
		n = read(fd, dst, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (dst != scratch)
			got += (size_t)n;
		else if (sp->out)
			sp->truncated = 1;
	}
	if (sp->out && sp->out_size)
		sp->out[got] = '\0';
}

/* The program's exit, within its deadline too (it may close stdout and go on). */
static int reap(struct spawn *sp, pid_t pid, double started, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, sp->timeout_s > 0 && !sp->timed_out ? WNOHANG : 0);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return fail("waitpid: %s", strerror(errno));
		if (r == 0 && now_s() - started >= sp->timeout_s) {
			kill_group(pid);
			sp->timed_out = 1;
		} else if (r == 0) {
			usleep(10000);  /* only a program that closed its stdout and runs on */
		}
	}
}

int spawn_run(struct spawn *sp)
{
	int pfd[2] = { -1, -1 };
	int status, ret = -1;
	double started = now_s();
	pid_t pid;

	sp->exit_code = -1;
	sp->timed_out = 0;
	sp->truncated = 0;
	if (pipe(pfd) < 0) {
		fail("pipe: %s", strerror(errno));
		goto cleanup;
	}
	pid = fork();
	if (pid < 0) {
		fail("fork: %s", strerror(errno));
		goto cleanup;
	}
	if (pid == 0)
		child(sp, pfd[1]);
	setpgid(pid, pid);
	close(pfd[1]);
	pfd[1] = -1;
	capture(sp, pfd[0], pid);
	if (reap(sp, pid, started, &status) < 0)
		goto cleanup;
	kill(-pid, SIGKILL);  /* what it left running in its group must not run into the next round */
	sp->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (sp->timed_out) {
		fail("%s killed after its timeout of %.0f s", sp->argv[0], sp->timeout_s);
		goto cleanup;
	}
	if (sp->exit_code != 0) {
		if (WIFSIGNALED(status))
			fail("%s killed by signal %d", sp->argv[0], WTERMSIG(status));
		else
			fail("%s exited with %d", sp->argv[0], sp->exit_code);
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	return ret;
}
