#include "runcmd.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void child(const struct runcmd *rc, int outfd, pid_t parent)
{
	int infd;

	setpgid(0, 0); /* own process group: a timeout kills grandchildren too */
	/*
	 * ...and so a signal to the caller's group no longer reaches it: die with
	 * the caller (a killed collector left its QEMU running to the timeout).
	 * The caller waits in the thread that forked, so the thread outlives it.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	infd = open(rc->stdin_path ? rc->stdin_path : "/dev/null", O_RDONLY);
	if (infd < 0 || dup2(infd, 0) < 0)
		_exit(127);
	if (outfd >= 0) {
		if (dup2(outfd, 1) < 0)
			_exit(127);
		if (rc->merge_stderr && dup2(outfd, 2) < 0)
			_exit(127);
	}
	if (rc->dir && chdir(rc->dir) < 0) {
		fprintf(stderr, "runcmd: chdir %s: %s\n", rc->dir, strerror(errno));
		_exit(127);
	}
	for (const char *const *e = rc->env; e && *e; e++)
		putenv((char *)(uintptr_t)*e);
	execvp(rc->argv[0], (char *const *)(uintptr_t)rc->argv);
	fprintf(stderr, "runcmd: cannot run %s: %s\n", rc->argv[0], strerror(errno));
	_exit(127);
}

int runcmd_run(struct runcmd *rc)
{
	int pipefd[2] = { -1, -1 }, outfd = -1, status = 0, ret = -1;
	double start = now_s();
	pid_t pid, parent;

	rc->timed_out = 0;
	rc->exit_code = -1;
	if (rc->stdout_path) {
		outfd = open(rc->stdout_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (outfd < 0)
			goto cleanup;
	} else if (rc->out) {
		if (pipe2(pipefd, O_CLOEXEC) < 0)
			goto cleanup;
		outfd = pipefd[1];
	}
	parent = getpid();
	pid = fork();
	if (pid < 0)
		goto cleanup;
	if (pid == 0)
		child(rc, outfd, parent);
	setpgid(pid, pid);
	if (pipefd[1] >= 0) {
		close(pipefd[1]);
		pipefd[1] = -1;
		outfd = -1;
	}
	for (;;) {
		int timeout_ms = -1;
		if (rc->timeout_s > 0) {
			double left = rc->timeout_s - (now_s() - start);
			if (left <= 0) {
				rc->timed_out = 1;
				kill(-pid, SIGKILL);
				break;
			}
			timeout_ms = (int)(left * 1000) + 1;
		}
		if (rc->tick) {
			rc->tick(rc->tick_arg);
			if (timeout_ms < 0 || timeout_ms > rc->tick_ms)
				timeout_ms = rc->tick_ms;
		}
		if (pipefd[0] < 0) {
			/* no pipe to drain: poll the child */
			pid_t w = waitpid(pid, &status, WNOHANG);
			if (w == pid)
				goto reaped;
			struct timespec ts = { 0, 20 * 1000 * 1000 };
			nanosleep(&ts, NULL);
			continue;
		}
		struct pollfd pfd = { pipefd[0], POLLIN, 0 };
		int pr = poll(&pfd, 1, timeout_ms);
		if (pr < 0 && errno != EINTR)
			break;
		if (pr > 0) {
			char buf[8192];
			ssize_t n = read(pipefd[0], buf, sizeof(buf));
			if (n > 0)
				strbuf_add(rc->out, buf, (size_t)n);
			else if (n == 0 || errno != EINTR) {
				close(pipefd[0]);
				pipefd[0] = -1;
			}
		}
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
reaped:
	if (WIFEXITED(status))
		rc->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		rc->exit_code = 128 + WTERMSIG(status);
	ret = rc->exit_code;
cleanup:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	else if (outfd >= 0)
		close(outfd);
	rc->seconds = now_s() - start;
	return ret;
}

int runcmd_capture(const char *const *argv, const char *dir, struct strbuf *out)
{
	struct runcmd rc = { 0 };

	rc.argv = argv;
	rc.dir = dir;
	rc.out = out;
	if (runcmd_run(&rc) != 0)
		return -1;
	while (out->len && out->buf[out->len - 1] == '\n')
		strbuf_setlen(out, out->len - 1);
	return 0;
}

void runcmd_quote(struct strbuf *sb, const char *const *argv)
{
	for (int i = 0; argv[i]; i++) {
		const char *p = argv[i];
		if (i)
			strbuf_addch(sb, ' ');
		if (*p && !p[strcspn(p, " \t\n'\"\\$`!*?[]{}()<>|&;#~")]) {
			strbuf_addstr(sb, p);
			continue;
		}
		strbuf_addch(sb, '\'');
		for (; *p; p++) {
			if (*p == '\'')
				strbuf_addstr(sb, "'\\''");
			else
				strbuf_addch(sb, *p);
		}
		strbuf_addch(sb, '\'');
	}
}
