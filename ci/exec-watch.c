/*
 * exec-watch: every program a command and its descendants execute, without
 * ptrace.
 *
 *   exec-watch -o LOG COMMAND [ARG...]
 *
 * Writes one line per successful open-for-exec by a descendant, in the form
 * ci/check-exec-deps.py reads from strace (`PID execve("PATH") = 0`), and
 * exits with COMMAND's status once it and every orphan it left have ended.
 *
 * Why not strace: LeakSanitizer stops the world with ptrace, which fails in a
 * traced process, so the quick tests ran twice (ASan untraced, plain traced).
 * This watches fanotify's FAN_OPEN_EXEC_PERM on every mounted filesystem
 * instead: a permission event holds the exec until it is answered, so the
 * process is alive while its ancestry is read from /proc. It is a child
 * subreaper, so orphans reparent here and stay descendants.
 * Needs CAP_SYS_ADMIN (root); every event is allowed, at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* Filesystems that hold no programs (and some refuse marks). */
static const char *const pseudo_fs[] = {
	"proc", "sysfs", "cgroup", "cgroup2", "devpts", "mqueue", "debugfs", "tracefs",
	"securityfs", "bpf", "pstore", "configfs", "fusectl", "binfmt_misc", "autofs", NULL,
};

static int is_pseudo(const char *fstype)
{
	for (int i = 0; pseudo_fs[i]; i++)
		if (strcmp(fstype, pseudo_fs[i]) == 0)
			return 1;
	return 0;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape_octal(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '7' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* Marks every mount but pseudo filesystems; returns how many took the mark. */
static int mark_mounts(int fan)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return 0;
	char line[4096];
	int marked = 0;
	while (fgets(line, sizeof line, f)) {
		char mnt[PATH_MAX], fstype[64];
		const char *sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s", fstype) != 1 || is_pseudo(fstype))
			continue;
		unescape_octal(mnt);
		if (fanotify_mark(fan, FAN_MARK_ADD | FAN_MARK_MOUNT, FAN_OPEN_EXEC_PERM, AT_FDCWD, mnt) == 0)
			marked++;
	}
	fclose(f);
	return marked;
}

/* The parent of pid from /proc/PID/stat (the field after the comm's ')'), or -1. */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	int ppid;
	if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return -1;
	return (pid_t)ppid;
}

/* 1 when pid descends from this process. An ancestor may exit during the
 * walk (its children then reparent here): walk again from the start. */
static int is_descendant(pid_t pid)
{
	pid_t self = getpid();
	for (int attempt = 0; attempt < 3; attempt++) {
		pid_t p = pid;
		int depth = 0;
		while (p > 1 && p != self && depth++ < 256)
			p = parent_of(p);
		if (p == self)
			return 1;
		if (p != -1)
			return 0;
	}
	return 0;
}

/* Writes PATH the way strace quotes a string. */
static void log_exec(FILE *log, pid_t pid, const char *path)
{
	fprintf(log, "%d execve(\"", (int)pid);
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(log, "\\%c", *c);
		else if (*c < 0x20 || *c >= 0x7f)
			fprintf(log, "\\%o", *c);
		else
			fputc(*c, log);
	}
	fputs("\") = 0\n", log);
}

/* Answers one read's events (allow), logging the descendants' programs;
 * 0 once nothing is queued. */
static int drain_some(int fan, FILE *log)
{
	char buf[8192] __attribute__((aligned(__alignof__(struct fanotify_event_metadata))));
	ssize_t len = read(fan, buf, sizeof buf);
	if (len <= 0)
		return 0;
	struct fanotify_event_metadata *m = (struct fanotify_event_metadata *)buf;
	for (; FAN_EVENT_OK(m, len); m = FAN_EVENT_NEXT(m, len)) {
		if (m->vers != FANOTIFY_METADATA_VERSION || m->fd < 0)
			continue;
		char fdpath[64], path[PATH_MAX];
		snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", m->fd);
		ssize_t n = readlink(fdpath, path, sizeof path - 1);
		int ours = is_descendant(m->pid);
		struct fanotify_response r = { .fd = m->fd, .response = FAN_ALLOW };
		if (write(fan, &r, sizeof r) != (ssize_t)sizeof r)
			perror("exec-watch: answering an exec");
		close(m->fd);
		if (ours && n > 0) {
			path[n] = '\0';
			log_exec(log, m->pid, path);
		}
	}
	return 1;
}

static void drain(int fan, FILE *log)
{
	while (drain_some(fan, log))
		;
}

int main(int argc, char **argv)
{
	if (argc < 4 || strcmp(argv[1], "-o") != 0) {
		fprintf(stderr, "usage: exec-watch -o LOG COMMAND [ARG...]\n");
		return 2;
	}
	FILE *log = fopen(argv[2], "w");
	if (!log) {
		fprintf(stderr, "exec-watch: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	int fan = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC | FAN_NONBLOCK, O_RDONLY | O_LARGEFILE | O_CLOEXEC);
	if (fan < 0) {
		fprintf(stderr, "exec-watch: fanotify_init: %s (it needs root and a kernel with "
				"CONFIG_FANOTIFY_ACCESS_PERMISSIONS)\n", strerror(errno));
		return 2;
	}
	if (mark_mounts(fan) == 0) {
		fprintf(stderr, "exec-watch: no mount took a FAN_OPEN_EXEC_PERM mark: %s\n", strerror(errno));
		return 2;
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	pid_t child = fork();
	if (child < 0) {
		perror("exec-watch: fork");
		return 2;
	}
	if (child == 0) {
		close(fan);
		fclose(log);
		execvp(argv[3], argv + 3);
		fprintf(stderr, "exec-watch: %s: %s\n", argv[3], strerror(errno));
		_exit(127);
	}
	/* This process only answers events and reaps: a stop here would hold
	 * every exec on the machine. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	int status = 0, left = 1;
	while (left) {
		struct pollfd p = { .fd = fan, .events = POLLIN };
		if (poll(&p, 1, 100) > 0)
			drain(fan, log);
		for (;;) {
			int st;
			pid_t w = waitpid(-1, &st, WNOHANG);
			if (w == child)
				status = st;
			if (w < 0 && errno == ECHILD)
				left = 0;
			if (w <= 0)
				break;
		}
	}
	drain(fan, log);
	close(fan);
	if (fclose(log) != 0) {
		fprintf(stderr, "exec-watch: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
