/*
 * Plot cache pruning (server/plot-cache.c): plots unused for max_age go, then
 * the least recently used until under max_bytes; stale render temps go; other
 * files stay; a hit (fw_plot_cache_touch) makes a plot recently used.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"
#include "plot.h"

static char dir[] = "/tmp/fw-plotcache-XXXXXX";
static const char hex64[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

static void make(const char *name, size_t size, time_t used, time_t modified)
{
	char path[512];
	struct timespec ts[2] = { { used, 0 }, { modified, 0 } };
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	for (size_t i = 0; f && i < size; i++)
		fputc('x', f);
	if (f)
		fclose(f);
	utimensat(AT_FDCWD, path, ts, 0);
}

static int exists(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static char *plot(char c, const char *ext)
{
	static char names[8][80];
	static int k;
	char *n = names[k++ % 8];

	snprintf(n, 80, "%.63s%c.%s", hex64, c, ext);
	return n;
}

int main(void)
{
	time_t now = time(NULL), day = 86400;
	struct fw_plot_prune pr;
	char *old = plot('0', "svg"), *mid = plot('1', "svg"), *recent = plot('2', "png");
	char *touched = plot('3', "svg"), sub[600];
	struct stat st;

	if (!mkdtemp(dir))
		return 1;
	make(old, 1000, now - 40 * day, now - 40 * day);
	make(mid, 1000, now - 2 * day, now - 40 * day);
	make(recent, 1000, now - 1 * day, now - 40 * day);
	make(touched, 1000, now - 3 * day, now - 3 * day);
	make("README", 5000, now - 100 * day, now - 100 * day);
	make("0123.svg", 1000, now - 100 * day, now - 100 * day);
	snprintf(sub, sizeof(sub), "%s/tmp-abc.d", dir);
	mkdir(sub, 0700);
	make("tmp-abc.d/data", 10, now, now);
	make("tmp-abc.d/plot.gp", 10, now, now);
	{
		struct timespec ts[2] = { { now - 7200, 0 }, { now - 7200, 0 } };

		utimensat(AT_FDCWD, sub, ts, 0);
	}
	snprintf(sub, sizeof(sub), "%s/tmp-new.d", dir);
	mkdir(sub, 0700);

	/* A hit makes the 3-day-old plot the most recently used. */
	snprintf(sub, sizeof(sub), "%s/%s", dir, touched);
	fw_plot_cache_touch(sub);
	ok(!stat(sub, &st) && st.st_atime >= now, "touch sets the use time to now");
	ok(st.st_mtime == now - 3 * day, "... and leaves the modification time (Last-Modified) alone");

	ok(!fw_plot_cache_prune(dir, 2500, 30 * day, now, &pr), "prune runs");
	ok(!exists(old), "a plot unused for 40 days (limit 30) is removed");
	ok(!exists(mid), "over 2,500 bytes: the least recently used plot goes");
	ok(exists(recent) && exists(touched), "the two most recently used stay");
	is_int(pr.removed, 2, "two plots removed");
	is_int((long long)pr.freed, 2000, "2,000 bytes freed");
	is_int((long long)pr.kept_bytes, 2000, "2,000 bytes kept");
	ok(!exists("tmp-abc.d") && exists("tmp-new.d"), "an hour-old render temp is removed, a fresh one stays");
	is_int(pr.temps, 1, "one temp removed");
	ok(exists("README") && exists("0123.svg"), "files that are not plots are never touched");

	ok(!fw_plot_cache_prune(dir, 0, 30 * day, now, &pr) && !exists(recent) && !exists(touched),
	   "limit 0: every plot goes");
	ok(fw_plot_cache_prune("/nonexistent/fw", 0, 0, now, &pr) < 0, "a missing folder is an error");

	/* A render's output temp (fw_atomic_temp: .NAME.tmp-XXXXXX) left by a crash. */
	make(".0123.svg.tmp-aBcDeF", 10, now - 7200, now - 7200);
	make(".4567.svg.tmp-aBcDeF", 10, now, now);
	ok(!fw_plot_cache_prune(dir, 0, 30 * day, now, &pr) && !exists(".0123.svg.tmp-aBcDeF") &&
	   exists(".4567.svg.tmp-aBcDeF"), "an hour-old output temp is removed, a fresh one stays");

	snprintf(sub, sizeof(sub), "rm -rf '%s'", dir);
	if (system(sub))
		return 1;
	return done_testing();
}
