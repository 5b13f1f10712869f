/*
 * Runs a program (fio, mkfs.xfs from the host over 9p) from PID 1: fork,
 * optionally join a memcg and chroot, exec an argv vector (no shell),
 * capture stdout. stderr stays on the console for diagnosis.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fw.h"

int spawn_run(struct spawn *sp)
{
	static char env_path[] = "PATH=/usr/sbin:/usr/bin:/sbin:/bin";
	static char env_home[] = "HOME=/tmp";
	static char env_lang[] = "LANG=C";
	char *const envp[] = { env_path, env_home, env_lang, NULL };
	char *argv[32];
	size_t i;
	int pfd[2] = { -1, -1 };
	size_t got = 0;
	int status, ret = -1;
	pid_t pid;

	sp->exit_code = -1;
	if (pipe(pfd) < 0) {
		fail("pipe: %s", strerror(errno));
		goto cleanup;
	}
	pid = fork();
	if (pid < 0) {
		fail("fork: %s", strerror(errno));
		goto cleanup;
	}
	if (pid == 0) {
		/* Child: any failure is reported on stderr and exit 127. */
		if (sp->memcg && memcg_join(sp->memcg) < 0)
			goto child_fail;
		if (sp->root && (chroot(sp->root) < 0 || chdir("/") < 0)) {
			fail("chroot %s: %s", sp->root, strerror(errno));
			goto child_fail;
		}
		if (dup2(pfd[1], 1) < 0) {
			fail("dup2: %s", strerror(errno));
			goto child_fail;
		}
		/* execve() wants char *const[]: copy through a union, it does not
		 * write to the strings. */
		for (i = 0; sp->argv[i] && i + 1 < sizeof(argv) / sizeof(argv[0]); i++) {
			union { const char *c; char *m; } u = { .c = sp->argv[i] };

			argv[i] = u.m;
		}
		argv[i] = NULL;
		execve(argv[0], argv, envp);
		fail("exec %s: %s", sp->argv[0], strerror(errno));
child_fail:
		fprintf(stderr, "fw-init child: %s\n", fw_errbuf);
		_exit(127);
	}
	close(pfd[1]);
	pfd[1] = -1;
	for (;;) {
		char scratch[4096];
		char *dst = sp->out && got + 1 < sp->out_size ? sp->out + got : scratch;
		size_t room = sp->out && got + 1 < sp->out_size ? sp->out_size - 1 - got
								: sizeof(scratch);
		ssize_t n = read(pfd[0], dst, room);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (dst != scratch)
			got += (size_t)n;
	}
	if (sp->out)
		sp->out[got] = '\0';
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fail("waitpid: %s", strerror(errno));
			goto cleanup;
		}
	}
	sp->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (sp->exit_code != 0) {
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
