/*
 * The host lock's boot slots (issue 27): one-thread boots share the host up
 * to one per CPU, a whole-host holder (a build) excludes them all and they
 * exclude it. Real flock()s on files in a scratch cache; the "other
 * collector" is a forked child, as another process would be.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "lock.h"
#include "boot-pool.h"

static char root[] = "/tmp/fw-test-lock-XXXXXX";

/* In a child process: may `name` be flock()ed with op now? 1 yes, 0 no, -1 error. */
static int other_may(const char *name, int op)
{
	char path[4200];
	int status = 0;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	if ((pid = fork()) == 0) {
		int fd = open(path, O_RDWR | O_CREAT, 0644);
		if (fd < 0)
			_exit(2);
		_exit(flock(fd, op | LOCK_NB) == 0 ? 0 : errno == EWOULDBLOCK ? 1 : 2);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status) == 0 ? 1 : WEXITSTATUS(status) == 1 ? 0 : -1;
}

static void slots(void)
{
	struct fw_lock a = { .fd = -1 }, b = { .fd = -1 }, w = { .fd = -1 };
	int n = fw_lock_slots();

	ok(n >= 1 && n <= FW_LOCK_MAX_SLOTS, "one slot per online CPU");
	ok(!fw_lock_acquire_boot(&a, root, "test", 1), "a one-thread boot gets room");
	is_int(n > 1 ? a.nslots : 0, n > 1 ? 1 : 0, "it holds one slot (the whole host on a 1-CPU machine)");
	is_int(other_may("lock", LOCK_EX), 0, "a build waits while a boot runs");
	is_int(other_may("lock", LOCK_SH), 1, "another one-thread boot may share the host");
	if (n > 1) {
		ok(!fw_lock_acquire_boot(&b, root, "test", 1) && b.nslots == 1, "a second boot gets the next slot");
		is_int(other_may("lock.slot0", LOCK_EX) + other_may("lock.slot1", LOCK_EX), 0,
		       "both slots are taken: a third boot would wait");
	}
	fw_lock_release(&a);
	fw_lock_release(&b);
	is_int(a.fd, -1, "released");
	is_int(other_may("lock", LOCK_EX), 1, "with no boot left a build may start");
	ok(!fw_lock_acquire(&w, root, "test"), "the whole host");
	is_int(other_may("lock", LOCK_SH), 0, "a boot waits while a build runs");
	fw_lock_release(&w);
	ok(!fw_lock_acquire_boot(&w, root, "test", n), "a boot as wide as the host takes the whole host");
	is_int(other_may("lock", LOCK_SH), 0, "and excludes the one-thread boots");
	fw_lock_release(&w);
}

/*
 * Fairness: a run holding every slot frees one and asks for its next boot at
 * once; the other collector, which was waiting, must get that slot first.
 */
static void turnstile(void)
{
	struct fw_lock a = { .fd = -1 }, b = { .fd = -1 }, again = { .fd = -1 };
	int fds[2], got = 0;
	pid_t pid;

	if (fw_lock_slots() != 2 || pipe(fds)) {
		ok(1, "# SKIP the turnstile check wants exactly 2 slots");
		return;
	}
	ok(!fw_lock_acquire_boot(&a, root, "run", 1) && !fw_lock_acquire_boot(&b, root, "run", 1),
	   "a run holds both slots");
	if ((pid = fork()) == 0) {
		struct fw_lock c = { .fd = -1 };
		/* another process: it does not share the run's locks (a fork inherits their descriptions) */
		close(a.slot_fd[0]);
		close(b.slot_fd[0]);
		close(a.fd);
		close(b.fd);
		close(fds[0]);
		if (fw_lock_acquire_boot(&c, root, "waiter", 1) || write(fds[1], "g", 1) != 1)
			_exit(1);
		usleep(500 * 1000);  /* its boot */
		fw_lock_release(&c);
		_exit(0);
	}
	close(fds[1]);
	usleep(400 * 1000);  /* the waiter is polling by now */
	is_int(other_may("lock.turnstile", LOCK_EX), 0, "a waiting collector holds the turnstile while it polls");
	fw_lock_release(&a);
	ok(!fw_lock_acquire_boot(&again, root, "run", 1), "the run's next boot gets a slot in the end");
	{
		char c;
		int fl = fcntl(fds[0], F_GETFL);
		fcntl(fds[0], F_SETFL, fl | O_NONBLOCK);
		got = read(fds[0], &c, 1) == 1;
	}
	ok(got, "... after the waiter got the slot that freed");
	fw_lock_release(&again);
	fw_lock_release(&b);
	waitpid(pid, NULL, 0);
	close(fds[0]);
}

/* A pool's job log: which jobs ran, how many at once, in what order. */
struct log {
	int commit[8], ran[8], order[8], norder;
	int now, most;
};

static int claim(void *ctx, int i)
{
	struct log *l = ctx;
	l->order[l->norder++] = i;
	return i != 5; /* job 5 needs no boot (say, measured already) */
}

static void work(void *ctx, int i)
{
	struct log *l = ctx;
	int now = __atomic_add_fetch(&l->now, 1, __ATOMIC_SEQ_CST);
	int most = __atomic_load_n(&l->most, __ATOMIC_SEQ_CST);

	while (now > most && !__atomic_compare_exchange_n(&l->most, &most, now, 0, __ATOMIC_SEQ_CST,
							  __ATOMIC_SEQ_CST))
		;
	usleep(50 * 1000); /* long enough for the other worker to start its job */
	__atomic_sub_fetch(&l->now, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&l->ran[i], 1, __ATOMIC_SEQ_CST);
}

static void finish(void *ctx, int i)
{
	(void)ctx;
	(void)i;
}

static int stop(void *ctx)
{
	(void)ctx;
	return 0;
}

static int commit_of(void *ctx, int i)
{
	return ((struct log *)ctx)->commit[i];
}

static void pool(void)
{
	static const struct boot_pool_ops ops = { claim, work, finish, stop, commit_of };
	/* two boots of commit 0 first: the second worker must start commit 1, not the second 0 */
	struct log l = { { 0, 0, 1, 1, 2, 2, 0, 1 }, { 0 }, { 0 }, 0, 0, 0 };
	int once = 1;

	boot_pool_run(2, 8, &ops, &l);
	for (int i = 0; i < 8; i++)
		once &= l.ran[i] == (i != 5);
	ok(once, "every job that claims a boot runs exactly once; a job that claims none does not");
	is_int(l.norder, 8, "every job is claimed once");
	is_int(l.most, 2, "two boots run at once with 2 workers");
	is_int(l.order[1], 2, "the second worker skips the second boot of commit 0 for commit 1");
	memset(&l.ran, 0, sizeof(l.ran));
	l.norder = l.most = 0;
	boot_pool_run(1, 8, &ops, &l);
	is_int(l.most, 1, "one worker: one at a time");
	is_int(l.order[1], 1, "one worker keeps the list's order");
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	slots();
	turnstile();
	pool();
	{
		char cmd[200];
		snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
		if (system(cmd)) {
			/* scratch only */
		}
	}
	return done_testing();
}
