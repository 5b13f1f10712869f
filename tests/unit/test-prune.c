/* The cache pruning rule: old kernels beyond the newest N and old failed-boot folders go; documents stay. */
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>
#include "tap.h"
#include "cache.h"
#include "prune.h"
#include "strbuf.h"
#include "runcmd.h"

static void make_dir(const char *root, const char *sub, int age_days)
{
	struct strbuf p = STRBUF_INIT;
	struct utimbuf t;

	strbuf_addf(&p, "%s/%s", root, sub);
	fw_mkdirs(p.buf);
	t.actime = t.modtime = time(NULL) - (time_t)age_days * 86400;
	utime(p.buf, &t);
	strbuf_release(&p);
}

static int exists(const char *root, const char *sub)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	strbuf_addf(&p, "%s/%s", root, sub);
	r = access(p.buf, F_OK) == 0;
	strbuf_release(&p);
	return r;
}

int main(void)
{
	char root[] = "/tmp/fw-prune-XXXXXX";

	if (!mkdtemp(root))
		return 1;
	make_dir(root, "kernels/new1", 1);
	make_dir(root, "kernels/new2", 2);
	make_dir(root, "kernels/old1", 40);
	make_dir(root, "kernels/old2", 50);
	make_dir(root, "kernels/index", 90);
	make_dir(root, "runs/s1/work/boot-aaaaaa", 45);
	make_dir(root, "runs/s1/work/boot-bbbbbb", 3);
	{
		struct strbuf doc = STRBUF_INIT;
		strbuf_addf(&doc, "%s/runs/s1/abc.json", root);
		FILE *f = fopen(doc.buf, "w");
		if (f)
			fclose(f);
		strbuf_release(&doc);
	}
	make_dir(root, "runs/s1", 60);
	make_dir(root, "am/killed/mm", 0);
	make_dir(root, "am/killed", 1);
	make_dir(root, "am/applying", 0);
	is_int(fw_prune_cache(root, 30, 3), 3,
	       "one old kernel beyond the newest 3, one old boot folder and one stale git am checkout removed");
	ok(!exists(root, "am/killed") && exists(root, "am/applying"),
	   "a git am checkout a day old goes (a killed run's), one in use stays");
	ok(exists(root, "kernels/new1") && exists(root, "kernels/new2") && exists(root, "kernels/old1"),
	   "the newest 3 kernels stay, even when old");
	ok(!exists(root, "kernels/old2"), "an old kernel beyond them goes");
	ok(exists(root, "kernels/index"), "the index is not a kernel");
	ok(!exists(root, "runs/s1/work/boot-aaaaaa") && exists(root, "runs/s1/work/boot-bbbbbb"),
	   "old failed-boot folders go, recent ones stay");
	ok(exists(root, "runs/s1/abc.json"), "run documents are never removed");
	is_int(fw_prune_cache(root, 30, 3), 0, "nothing more to prune");
	{
		const char *rm[] = { "rm", "-rf", root, NULL };
		struct strbuf o = STRBUF_INIT;
		runcmd_capture(rm, NULL, &o);
		strbuf_release(&o);
	}
	return done_testing();
}
