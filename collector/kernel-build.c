/*
 * Kernel builds: tinyconfig + kernel/foliowatch.config (merge_config.sh -m)
 * + olddefconfig in a kept O= folder, a check that every fragment option
 * took effect, then `make bzImage` (through ccache when installed) unless
 * kernels/<commit12>-<cfghash12>/ already holds the same build.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "atomic-file.h"
#include "kernel-build.h"
#include "lock.h"
#include "runcmd.h"
#include "sha256.h"

void fw_kbuild_init(struct fw_kbuild *kb)
{
	memset(kb, 0, sizeof(*kb));
	strbuf_init(&kb->kdir, 0);
	strbuf_init(&kb->bzimage, 0);
	strbuf_init(&kb->version, 0);
	strbuf_init(&kb->config_hash, 0);
}

void fw_kbuild_release(struct fw_kbuild *kb)
{
	strbuf_release(&kb->kdir);
	strbuf_release(&kb->bzimage);
	strbuf_release(&kb->version);
	strbuf_release(&kb->config_hash);
}

/* Whether text has a line starting with prefix (and, if whole, equal to it). */
static int has_line(const char *text, const char *prefix, size_t len, int whole)
{
	const char *p = text;

	while ((p = strstr(p, prefix))) {
		int at_start = p == text || p[-1] == '\n';

		if (at_start && (!whole || p[len] == '\n' || p[len] == '\0'))
			return 1;
		p += len;
	}
	return 0;
}

int fw_config_check(const char *fragment_text, const char *config_text, struct strbuf *missing)
{
	const char *p = fragment_text;

	strbuf_reset(missing);
	while (*p) {
		size_t len = strcspn(p, "\n");
		char line[512], name[512];
		int bad = 0;

		if (len < sizeof(line)) {
			memcpy(line, p, len);
			line[len] = '\0';
			if (!strncmp(line, "CONFIG_", 7)) {
				/* CONFIG_X=v must appear exactly. */
				snprintf(name, sizeof(name), "%.*s", (int)strcspn(line, "="), line);
				bad = !has_line(config_text, line, len, 1);
			} else if (!strncmp(line, "# CONFIG_", 9) && strstr(line, " is not set")) {
				/* Off: absent or "is not set" both hold; CONFIG_X= must not. */
				snprintf(name, sizeof(name), "%.*s=", (int)strcspn(line + 2, " "),
					 line + 2);
				bad = has_line(config_text, name, strlen(name), 0);
				name[strlen(name) - 1] = '\0';
			}
			if (bad)
				strbuf_addf(missing, "%s%s", missing->len ? " " : "", name);
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	return missing->len ? -1 : 0;
}

static int run_logged(const char *const *argv, const char *dir, const char *const *env,
		      const char *log, struct strbuf *err)
{
	struct runcmd rc = { 0 };

	rc.argv = argv;
	rc.dir = dir;
	rc.env = env;
	rc.stdout_path = log;
	rc.merge_stderr = 1;
	if (runcmd_run(&rc) != 0) {
		struct strbuf tail = STRBUF_INIT;

		if (log && strbuf_read_file(&tail, log, 64 << 20) == 0)
			strbuf_tail(&tail, 3000);
		strbuf_addf(err, "%s %s failed (exit %d; log %s):\n%s", argv[0],
			    argv[1] ? argv[1] : "", rc.exit_code, log ? log : "-", tail.buf);
		strbuf_release(&tail);
		return -1;
	}
	return 0;
}

static int copy_file(const char *from, const char *to, struct strbuf *err)
{
	struct strbuf data = STRBUF_INIT;
	int fd = -1, ret = -1;

	if (strbuf_read_file(&data, from, 256 << 20) < 0) {
		strbuf_addf(err, "read %s: %s", from, strerror(errno));
		goto cleanup;
	}
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, data.buf, data.len) != (ssize_t)data.len) {
		strbuf_addf(err, "write %s: %s", to, strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (fd >= 0 && close(fd) < 0 && ret == 0) {
		strbuf_addf(err, "close %s: %s", to, strerror(errno));
		ret = -1;
	}
	strbuf_release(&data);
	return ret;
}

static int write_str(const char *path, const char *text, struct strbuf *err)
{
	size_t len = strlen(text);
	int fd, ret = -1;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0 && write(fd, text, len) == (ssize_t)len)
		ret = 0;
	if (fd >= 0 && close(fd) < 0)
		ret = -1;
	if (ret < 0)
		strbuf_addf(err, "write %s: %s", path, strerror(errno));
	return ret;
}

static int have_ccache(void)
{
	static const char *const argv[] = { "ccache", "--version", NULL };
	struct strbuf out = STRBUF_INIT;
	int ok = runcmd_capture(argv, NULL, &out) == 0;

	strbuf_release(&out);
	return ok;
}

/*
 * The index: (source tree id, fragment, compiler) -> the kernels/ entry built
 * from them. Configuring alone costs 15-20 s (tinyconfig + merge_config +
 * olddefconfig) before the config hash, the real cache key, is known; the
 * same inputs always give the same .config, so a hit skips all of that.
 */
static void index_path(struct strbuf *out, const char *cache, const char *commit,
		       const char *fragment_path)
{
	struct strbuf key = STRBUF_INIT, frag = STRBUF_INIT, cc = STRBUF_INIT;
	const char *gcc[] = { "gcc", "--version", NULL };
	char hex[65];

	if (strbuf_read_file(&frag, fragment_path, 1 << 20) < 0)
		strbuf_addstr(&frag, "(unreadable)");
	if (runcmd_capture(gcc, NULL, &cc) != 0)
		strbuf_addstr(&cc, "unknown");
	strbuf_setlen(&cc, strcspn(cc.buf, "\n"));
	strbuf_addf(&key, "tinyconfig\n%s\n%s\n%s", commit, cc.buf, frag.buf);
	sha256_hex(key.buf, key.len, hex);
	strbuf_addf(out, "%s/kernels/index/%s", cache, hex);
	strbuf_release(&key);
	strbuf_release(&frag);
	strbuf_release(&cc);
}

/* A hit fills kb from the entry the index names; 0 on a hit, -1 otherwise. */
static int index_lookup(struct fw_kbuild *kb, const char *index)
{
	struct strbuf name = STRBUF_INIT, path = STRBUF_INIT, cfg = STRBUF_INIT;
	char hash[65];
	int ret = -1;

	if (strbuf_read_file(&name, index, 4096) < 0)
		goto cleanup;
	strbuf_setlen(&name, strcspn(name.buf, "\n"));
	if (!name.len || strchr(name.buf, '/'))
		goto cleanup;
	strbuf_reset(&kb->kdir);
	strbuf_addf(&kb->kdir, "%s/kernels/%s", kb->cache, name.buf);
	strbuf_addf(&path, "%s/.config", kb->kdir.buf);
	if (strbuf_read_file(&cfg, path.buf, 16 << 20) < 0)
		goto cleanup;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/kernelversion", kb->kdir.buf);
	strbuf_reset(&kb->version);
	if (strbuf_read_file(&kb->version, path.buf, 256) < 0)
		goto cleanup;
	while (kb->version.len && kb->version.buf[kb->version.len - 1] == '\n')
		strbuf_setlen(&kb->version, kb->version.len - 1);
	strbuf_reset(&kb->bzimage);
	strbuf_addf(&kb->bzimage, "%s/bzImage", kb->kdir.buf);
	if (access(kb->bzimage.buf, R_OK) != 0)
		goto cleanup;
	sha256_hex(cfg.buf, cfg.len, hash);
	strbuf_reset(&kb->config_hash);
	strbuf_addstr(&kb->config_hash, hash);
	kb->reused = 1;
	ret = 0;
cleanup:
	strbuf_release(&name);
	strbuf_release(&path);
	strbuf_release(&cfg);
	return ret;
}

/* Records kb's entry under index (temp + rename); failures only cost speed later. */
static void index_store(const struct fw_kbuild *kb, const char *index)
{
	struct strbuf dir = STRBUF_INIT;
	const char *name = strrchr(kb->kdir.buf, '/');

	strbuf_addf(&dir, "%s/kernels/index", kb->cache);
	mkdir(dir.buf, 0755);
	if (name)
		fw_write_file_atomic(index, name + 1, strlen(name + 1), 0644, NULL);
	strbuf_release(&dir);
}

/* The commit the tree has checked out, and the index entry keyed by its content. */
static int tree_ids(const struct fw_kbuild *kb, struct strbuf *commit, struct strbuf *index, struct strbuf *err)
{
	const char *head[] = { "git", "rev-parse", "HEAD", NULL };
	/* keyed by the tree's content: a re-applied mbox (new shas, same code) is a hit */
	const char *tree[] = { "git", "rev-parse", "HEAD^{tree}", NULL };
	struct strbuf treeid = STRBUF_INIT;

	if (runcmd_capture(head, kb->tree, commit) != 0 || commit->len < 12) {
		strbuf_addf(err, "%s is not a git tree with a commit", kb->tree);
		return -1;
	}
	if (runcmd_capture(tree, kb->tree, &treeid) != 0)
		strbuf_addstr(&treeid, commit->buf);
	index_path(index, kb->cache, treeid.buf, kb->fragment);
	strbuf_release(&treeid);
	return 0;
}

/*
 * tinyconfig + the fragment + olddefconfig in bdir, checked (every fragment
 * option took effect); sets config_hash, kdir and bzimage from the result.
 */
static int configure(struct fw_kbuild *kb, const char *bdir, const char *commit, struct strbuf *err)
{
	struct strbuf log = STRBUF_INIT, obj = STRBUF_INIT, cfg = STRBUF_INIT, frag = STRBUF_INIT,
		      missing = STRBUF_INIT;
	const char *tiny[] = { "make", NULL, "tinyconfig", NULL };
	const char *merge[] = { "scripts/kconfig/merge_config.sh", "-m", "-O", bdir, NULL, kb->fragment, NULL };
	const char *olddef[] = { "make", NULL, "olddefconfig", NULL };
	char hash[65];
	int ret = -1;

	strbuf_addf(&log, "%s/config.log", bdir);
	strbuf_addf(&obj, "O=%s", bdir);
	strbuf_addf(&cfg, "%s/.config", bdir);
	tiny[1] = olddef[1] = obj.buf;
	merge[4] = cfg.buf;
	if (run_logged(tiny, kb->tree, NULL, log.buf, err) < 0 ||
	    run_logged(merge, kb->tree, NULL, log.buf, err) < 0 ||
	    run_logged(olddef, kb->tree, NULL, log.buf, err) < 0)
		goto cleanup;
	strbuf_reset(&cfg);
	strbuf_reset(&log);
	strbuf_addf(&log, "%s/.config", bdir);
	if (strbuf_read_file(&cfg, log.buf, 16 << 20) < 0 || strbuf_read_file(&frag, kb->fragment, 1 << 20) < 0) {
		strbuf_addf(err, "read %s or %s: %s", log.buf, kb->fragment, strerror(errno));
		goto cleanup;
	}
	if (fw_config_check(frag.buf, cfg.buf, &missing) < 0) {
		strbuf_addf(err, "config options that did not take effect: %s", missing.buf);
		goto cleanup;
	}
	sha256_hex(cfg.buf, cfg.len, hash);
	strbuf_reset(&kb->config_hash);
	strbuf_addstr(&kb->config_hash, hash);
	strbuf_reset(&kb->kdir);
	strbuf_addf(&kb->kdir, "%s/kernels/%.12s-%.12s", kb->cache, commit, hash);
	strbuf_reset(&kb->bzimage);
	strbuf_addf(&kb->bzimage, "%s/bzImage", kb->kdir.buf);
	ret = 0;
cleanup:
	strbuf_release(&log);
	strbuf_release(&obj);
	strbuf_release(&cfg);
	strbuf_release(&frag);
	strbuf_release(&missing);
	return ret;
}

/* 1 and the version read when kdir already holds this build. */
static int already_built(struct fw_kbuild *kb)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int yes;

	strbuf_addf(&path, "%s/kernelversion", kb->kdir.buf);
	yes = stat(kb->bzimage.buf, &st) == 0 && strbuf_read_file(&kb->version, path.buf, 256) == 0;
	while (yes && kb->version.len && kb->version.buf[kb->version.len - 1] == '\n')
		strbuf_setlen(&kb->version, kb->version.len - 1);
	strbuf_release(&path);
	return yes;
}

/* make bzImage in bdir, timed (kb->seconds); the log tail in err on failure. */
static int run_make(struct fw_kbuild *kb, const char *bdir, int ccache, const char *log, struct strbuf *err)
{
	struct strbuf obj = STRBUF_INIT, jobs = STRBUF_INIT, basedir = STRBUF_INIT;
	/* ccache keys on the compiler command: always the same CC */
	const char *make[] = { "make", NULL, NULL, ccache ? "CC=ccache gcc" : "CC=gcc", "bzImage", NULL };
	const char *env[] = { NULL, NULL };
	struct runcmd rc = { 0 };
	struct timespec a, b;
	int ret = -1;

	strbuf_addf(&obj, "O=%s", bdir);
	strbuf_addf(&jobs, "-j%d", kb->jobs > 0 ? kb->jobs : 2);
	strbuf_addf(&basedir, "CCACHE_BASEDIR=%s", kb->tree);
	make[1] = obj.buf;
	make[2] = jobs.buf;
	env[0] = basedir.buf;
	fprintf(stderr, "building %s (%s, log %s)\n", kb->tree, jobs.buf, log);
	clock_gettime(CLOCK_MONOTONIC, &a);
	rc.argv = make;
	rc.dir = kb->tree;
	rc.env = env;
	rc.stdout_path = log;
	rc.merge_stderr = 1;
	if (runcmd_run(&rc) != 0) {
		struct strbuf tail = STRBUF_INIT;

		if (strbuf_read_file(&tail, log, 64 << 20) == 0)
			strbuf_tail(&tail, 3000);
		strbuf_addf(err, "kernel build failed (exit %d, log %s):\n%s", rc.exit_code, log, tail.buf);
		strbuf_release(&tail);
		goto cleanup;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	kb->seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	ret = 0;
cleanup:
	strbuf_release(&obj);
	strbuf_release(&jobs);
	strbuf_release(&basedir);
	return ret;
}

/* Copies bdir's file `from` (relative) to dir/to. */
static int copy_into(const char *bdir, const char *from, const char *dir, const char *to, struct strbuf *err)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int ret;

	strbuf_addf(&a, "%s/%s", bdir, from);
	strbuf_addf(&b, "%s/%s", dir, to);
	ret = copy_file(a.buf, b.buf, err);
	strbuf_release(&a);
	strbuf_release(&b);
	return ret;
}

/*
 * The built kernel into the cache: a temp folder filled (bzImage, .config,
 * build.log, kernelversion, build-info), then renamed into kdir: never a
 * half cache entry.
 */
static int store_kernel(struct fw_kbuild *kb, const char *bdir, const char *commit, int ccache, struct strbuf *err)
{
	struct strbuf obj = STRBUF_INIT, cc = STRBUF_INIT, dir = STRBUF_INIT, file = STRBUF_INIT,
		      text = STRBUF_INIT;
	const char *kver[] = { "make", "-s", NULL, "kernelversion", NULL };
	const char *gcc[] = { "gcc", "--version", NULL };
	int ret = -1;

	strbuf_addf(&obj, "O=%s", bdir);
	kver[2] = obj.buf;
	if (runcmd_capture(kver, kb->tree, &kb->version) != 0) {
		strbuf_addstr(err, "make kernelversion failed");
		goto cleanup;
	}
	if (runcmd_capture(gcc, NULL, &cc) != 0)
		strbuf_addstr(&cc, "unknown");
	strbuf_setlen(&cc, strcspn(cc.buf, "\n"));
	strbuf_addf(&dir, "%s.tmp-%d", kb->kdir.buf, (int)getpid());
	if (mkdir(dir.buf, 0755) < 0 && errno != EEXIST) {
		strbuf_addf(err, "mkdir %s: %s", dir.buf, strerror(errno));
		goto cleanup;
	}
	if (copy_into(bdir, "arch/x86/boot/bzImage", dir.buf, "bzImage", err) < 0 ||
	    copy_into(bdir, ".config", dir.buf, ".config", err) < 0 ||
	    copy_into(bdir, "build.log", dir.buf, "build.log", err) < 0)
		goto cleanup;
	strbuf_addf(&file, "%s/kernelversion", dir.buf);
	strbuf_addf(&text, "%s\n", kb->version.buf);
	if (write_str(file.buf, text.buf, err) < 0)
		goto cleanup;
	strbuf_reset(&file);
	strbuf_reset(&text);
	strbuf_addf(&file, "%s/build-info", dir.buf);
	strbuf_addf(&text, "commit=%s\nconfig_hash=%s\nkernel_version=%s\nseconds=%.1f\n"
		    "compiler=%s\nccache=%d\njobs=%d\n", commit, kb->config_hash.buf, kb->version.buf,
		    kb->seconds, cc.buf, ccache, kb->jobs > 0 ? kb->jobs : 2);
	if (write_str(file.buf, text.buf, err) < 0)
		goto cleanup;
	if (rename(dir.buf, kb->kdir.buf) < 0 && errno != ENOTEMPTY && errno != EEXIST) {
		strbuf_addf(err, "rename %s -> %s: %s", dir.buf, kb->kdir.buf, strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&obj);
	strbuf_release(&cc);
	strbuf_release(&dir);
	strbuf_release(&file);
	strbuf_release(&text);
	return ret;
}

int fw_kernel_find(struct fw_kbuild *kb, const char *commit)
{
	struct strbuf rev = STRBUF_INIT, treeid = STRBUF_INIT, index = STRBUF_INIT;
	const char *tree[] = { "git", "rev-parse", "--verify", "-q", NULL, NULL };
	int ret = -1;

	strbuf_addf(&rev, "%s^{tree}", commit);
	tree[4] = rev.buf;
	if (runcmd_capture(tree, kb->tree, &treeid) == 0 && treeid.len) {
		index_path(&index, kb->cache, treeid.buf, kb->fragment);
		ret = index_lookup(kb, index.buf);
	}
	strbuf_release(&rev);
	strbuf_release(&treeid);
	strbuf_release(&index);
	return ret;
}

int fw_kernel_build(struct fw_kbuild *kb, struct strbuf *err)
{
	struct strbuf bdir = STRBUF_INIT, commit = STRBUF_INIT, kernels = STRBUF_INIT, log = STRBUF_INIT,
		      index = STRBUF_INIT;
	const char *name = strrchr(kb->tree, '/');
	struct fw_lock lock = { .fd = -1 };
	int ret = -1, ccache = have_ccache();

	name = name && name[1] ? name + 1 : kb->tree;
	if (tree_ids(kb, &commit, &index, err))
		goto cleanup;
	if (index_lookup(kb, index.buf) == 0) {
		ret = 0;
		goto cleanup;
	}
	strbuf_addf(&bdir, "%s/build/%s", kb->cache, name);
	strbuf_addf(&kernels, "%s/kernels", kb->cache);
	{
		const char *argv[] = { "mkdir", "-p", bdir.buf, kernels.buf, NULL };

		if (run_logged(argv, NULL, NULL, NULL, err) < 0)
			goto cleanup;
	}
	if (!kb->locked && fw_lock_acquire(&lock, NULL, "kernel build")) {
		strbuf_addstr(err, "cannot take the host lock");
		goto cleanup;
	}
	if (configure(kb, bdir.buf, commit.buf, err))
		goto cleanup;
	if (already_built(kb)) {
		kb->reused = 1;
	} else {
		strbuf_addf(&log, "%s/build.log", bdir.buf);
		if (run_make(kb, bdir.buf, ccache, log.buf, err) || store_kernel(kb, bdir.buf, commit.buf, ccache, err))
			goto cleanup;
	}
	index_store(kb, index.buf);
	ret = 0;
cleanup:
	fw_lock_release(&lock);
	strbuf_release(&bdir);
	strbuf_release(&commit);
	strbuf_release(&kernels);
	strbuf_release(&log);
	strbuf_release(&index);
	return ret;
}
