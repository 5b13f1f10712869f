/*
 * fw-init: PID 1 of the foliowatch guest.
 *
 * Reads fw.workloads=a,b fw.profile=quick|seed fw.rounds=N fw.locktrace=0|1
 * fw.diag=0|1 fw.fprofile=0|1 fw.fprofile_top=N fw.fprofile_timeout_s=N
 * fw.channel=/dev/ttyS1 fw.fixed_work=0|1 (the collector sets 1 under
 * icount) fw.tools=HASH (of the packed host programs) and, for tests, fw.filemap_limit_mib=N fw.mthp_fail_pct=N from
 * /proc/cmdline, writes begin, runs each workload
 * in its own child (a crash becomes an error record, not a dead PID 1),
 * writes end and calls reboot() so that QEMU -no-reboot exits. A name that
 * is not built in runs the user workload packed as /fw/wl/NAME.plan (user.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include "fw.h"

static const struct {
	const char *name;
	workload_fn fn;
} workloads[] = {
	{ "split", wl_split },
	{ "mthp", wl_mthp },
	{ "lazyfree", wl_lazyfree },
	{ "filemap", wl_filemap },
};
#define N_WL (sizeof(workloads) / sizeof(workloads[0]))

struct opts {
	char workloads[256];
	char channel[64];
	struct fw_ctx ctx;
};

/* The last key=value wins (as for the kernel's own parameters): --append overrides. */
static void cmdline_value(const char *cmdline, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);
	const char *p = cmdline;

	while ((p = strstr(p, key))) {
		if ((p == cmdline || p[-1] == ' ') && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, " \n");

			if (n >= size)
				n = size - 1;
			memcpy(out, p + klen + 1, n);
			out[n] = '\0';
		}
		p += klen;
	}
}

static int parse_opts(struct opts *o)
{
	char cmdline[4096], rounds[16] = "1", lt[8] = "1", diag[8] = "1", limit[16] = "-1",
	     failpct[8] = "0", fprof[8] = "0", ftop[16] = "300", ftimeout[16] = "300", fixed[8] = "0";

	snprintf(o->workloads, sizeof(o->workloads), "split,mthp,lazyfree,filemap");
	snprintf(o->channel, sizeof(o->channel), "/dev/ttyS1");
	snprintf(o->ctx.profile, sizeof(o->ctx.profile), "quick");
	o->ctx.rounds = 1;
	o->ctx.locktrace = 1;
	o->ctx.diag = 1;
	o->ctx.filemap_limit_mib = -1;
	if (read_text("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		return -1;
	cmdline_value(cmdline, "fw.workloads", o->workloads, sizeof(o->workloads));
	cmdline_value(cmdline, "fw.channel", o->channel, sizeof(o->channel));
	cmdline_value(cmdline, "fw.profile", o->ctx.profile, sizeof(o->ctx.profile));
	cmdline_value(cmdline, "fw.rounds", rounds, sizeof(rounds));
	cmdline_value(cmdline, "fw.locktrace", lt, sizeof(lt));
	cmdline_value(cmdline, "fw.diag", diag, sizeof(diag));
	cmdline_value(cmdline, "fw.filemap_limit_mib", limit, sizeof(limit));
	cmdline_value(cmdline, "fw.mthp_fail_pct", failpct, sizeof(failpct));
	cmdline_value(cmdline, "fw.fixed_work", fixed, sizeof(fixed));
	cmdline_value(cmdline, "fw.tools", o->ctx.tools, sizeof(o->ctx.tools));
	cmdline_value(cmdline, "fw.fprofile", fprof, sizeof(fprof));
	cmdline_value(cmdline, "fw.fprofile_top", ftop, sizeof(ftop));
	cmdline_value(cmdline, "fw.fprofile_timeout_s", ftimeout, sizeof(ftimeout));
	o->ctx.fprofile = atoi(fprof) != 0;
	o->ctx.fprofile_top = atoi(ftop);
	o->ctx.fprofile_timeout_s = atoi(ftimeout);
	o->ctx.rounds = atoi(rounds);
	o->ctx.locktrace = atoi(lt) != 0;
	o->ctx.diag = atoi(diag) != 0;
	o->ctx.filemap_limit_mib = atol(limit);
	o->ctx.mthp_fail_pct = atoi(failpct);
	o->ctx.fixed_work = atoi(fixed) != 0;
	o->ctx.seed = !strcmp(o->ctx.profile, "seed");
	/* 0 rounds: a profile-only boot (issue 27), profiling where a verdict asked for it */
	if (o->ctx.rounds < 0 || o->ctx.rounds > 1000 || (o->ctx.rounds == 0 && !o->ctx.fprofile))
		return fail("fw.rounds=%s out of range 1..1000 (0 only with fw.fprofile=1)", rounds);
	if (!o->ctx.seed && strcmp(o->ctx.profile, "quick"))
		return fail("fw.profile=%s: not quick or seed", o->ctx.profile);
	if (o->ctx.fprofile_top < 1 || o->ctx.fprofile_top > 1000)
		return fail("fw.fprofile_top=%s out of range 1..1000", ftop);
	if (o->ctx.fprofile_timeout_s < 1)
		return fail("fw.fprofile_timeout_s=%s: not a positive number of seconds", ftimeout);
	return 0;
}

static workload_fn find_workload(const char *name)
{
	size_t i;

	for (i = 0; i < N_WL; i++)
		if (!strcmp(workloads[i].name, name))
			return workloads[i].fn;
	return user_find(name);
}

/* Runs fn in a child; a signal or nonzero exit without an error record is reported here. */
static void run_workload(const char *name, workload_fn fn, const struct fw_ctx *ctx)
{
	unsigned before = chan_count();
	double t0 = now_s();
	char secs[32];
	int status;
	pid_t pid;

	logmsg("workload %s: start", name);
	pid = fork();
	if (pid < 0) {
		emit_error(name, "all", "fork: %s", strerror(errno));
		return;
	}
	if (pid == 0)
		_exit(fn(ctx) == 0 ? 0 : 1);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			emit_error(name, "all", "waitpid: %s", strerror(errno));
			return;
		}
	}
	if (WIFSIGNALED(status))
		emit_error(name, "all", "workload killed by signal %d after %u records",
			   WTERMSIG(status), chan_count() - before);
	snprintf(secs, sizeof(secs), "%s:%.3f", name, now_s() - t0);
	emit_info("workload_seconds", secs);
	logmsg("workload %s: done in %.3f s", name, now_s() - t0);
}

static void on_alarm(int sig)
{
	(void)sig;  /* only to cut waitpid() with EINTR */
}

/*
 * The profiling round of one workload, in a process group of its own with a
 * time limit: a failure, a crash or a timeout costs the profile only (an
 * info record says why), never the timed samples written before. On a
 * timeout the whole group goes (a workload's fio too) and the profiler is
 * switched off for the next workload.
 */
static void profile_workload(const char *name, workload_fn fn, const struct fw_ctx *ctx)
{
	char why[600];
	double t0 = now_s();
	int status = 0, timed_out = 0;
	pid_t pid;

	logmsg("workload %s: profiling round", name);
	pid = fork();
	if (pid < 0) {
		snprintf(why, sizeof(why), "%s:fork: %s", name, strerror(errno));
		emit_info("profile_error", why);
		return;
	}
	if (pid == 0) {
		setpgid(0, 0);
		if (kprof_run(name, fn, ctx) == 0)
			_exit(0);
		snprintf(why, sizeof(why), "%s:%s", name, fw_errbuf);
		emit_info("profile_error", why);
		_exit(1);
	}
	setpgid(pid, pid);
	/* a blocking wait cut by an alarm: polling would put PID 1 into the profile */
	sigaction(SIGALRM, &(struct sigaction){ .sa_handler = on_alarm }, NULL);
	alarm((unsigned)ctx->fprofile_timeout_s);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
		if (now_s() - t0 >= ctx->fprofile_timeout_s - 1) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			timed_out = 1;
			break;
		}
	}
	alarm(0);
	if (timed_out || WIFSIGNALED(status)) {
		snprintf(why, sizeof(why), "%s:%s after %.0f s", name, timed_out ? "timed out" : "killed",
			 now_s() - t0);
		emit_info("profile_error", why);
		fprof_stop();
		write_text("/sys/kernel/tracing/options/graph-time", "1");
	}
	snprintf(why, sizeof(why), "%s:%.3f", name, now_s() - t0);
	emit_info("profile_seconds", why);
}

static void console_stdio(void)
{
	int fd;

	if (fcntl(2, F_GETFD) >= 0)
		return;
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

int main(void)
{
	struct opts o;
	struct utsname uts;
	char facts[64];
	struct fw_rec r;
	char list[256], *name, *save = NULL;
	int ok = 0, bad;

	if (mount_basics() < 0) {
		console_stdio();
		logmsg("%s", fw_errbuf);
		goto out;
	}
	console_stdio();
	memset(&o, 0, sizeof(o));
	if ((bad = parse_opts(&o) < 0)) {
		logmsg("%s", fw_errbuf);
		/* Still open the channel with the defaults to report it. */
	}
	if (chan_open(o.channel) < 0) {
		logmsg("result channel: %s", fw_errbuf);
		goto out;
	}
	uname(&uts);
	rec_start(&r, "begin");
	rec_kv(&r, "format", "1");
	rec_kv(&r, "kernel", uts.release);
	rec_kv(&r, "profile", o.ctx.profile);
	rec_kv(&r, "workloads", o.workloads);
	rec_kvi(&r, "rounds", o.ctx.rounds);
	if (rec_emit(&r) < 0)
		goto out;
	if (bad) {
		emit_error("init", "none", "bad command line: %s", fw_errbuf);
	} else {
		emit_info("memcg", "v1");
		snprintf(facts, sizeof(facts), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
		emit_info("cpus", facts);
		snprintf(facts, sizeof(facts), "%lld", (long long)meminfo_kb("MemTotal"));
		emit_info("mem_total_kb", facts);
		snprintf(list, sizeof(list), "%s", o.workloads);
		for (name = strtok_r(list, ",", &save); o.ctx.rounds > 0 && name; name = strtok_r(NULL, ",", &save)) {
			workload_fn fn = find_workload(name);

			if (!fn)
				emit_error(name, "none", "unknown workload (neither built in nor packed by --workload-dir)");
			else
				run_workload(name, fn, &o.ctx);
		}
		/* never during the timed rounds: after all of them */
		snprintf(list, sizeof(list), "%s", o.workloads);
		for (name = strtok_r(list, ",", &save); o.ctx.fprofile && name; name = strtok_r(NULL, ",", &save))
			if (find_workload(name))
				profile_workload(name, find_workload(name), &o.ctx);
	}
	rec_start(&r, "end");
	rec_kvu(&r, "records", chan_count());
	if (rec_emit(&r) < 0)
		goto out;
	ok = 1;
out:
	logmsg("%s", ok ? "done" : "failed before the end record");
	sync();
	if (getpid() == 1)
		reboot(RB_AUTOBOOT);
	return ok ? 0 : 1;
}
