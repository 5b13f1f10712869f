/*
 * filemap (seed 004): XFS on a brd ramdisk, a file twice the memcg limit
 * (the seed: 16 GiB file, 8 GiB cgroup), drop_caches, then host fio
 * (--ioengine=mmap --rw=randread --buffered=1) with numjobs in the v1 memcg,
 * run in a chroot of the host's / shared read-only over 9p.
 * Variant 4k: the seed's first test. Variant thp: the seed's second test,
 * whose +12.5% headline is its thp=1 --readonly randread phase (the 4K tail
 * after it read 64 KiB in all and was noise): that phase is what is measured.
 * XFS gets large page-cache folios directly in 6.12 (ext4 would need
 * khugepaged). Verified (checks.c): fio read bytes > 0; the file is larger
 * than the limit and the limit bit (file refaults or the memcg's failcnt
 * moved: drop_caches alone moves pgpgin); thp: the share of the memcg's page
 * cache in PMD-size folios (FileHugePages) reaches FILEMAP_MIN_HUGE_PCT.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>
#include "checks.h"
#include "fw.h"

#define WL "filemap"
#define CG "fw-filemap"
#define HOST "/host"
#define MNT "/tmp/fw"                /* inside the chroot */
#define IMG MNT "/test.img"
#define FIO "/usr/bin/fio"
#define MKFS "/usr/sbin/mkfs.xfs"

static const struct fw_metric m_bw = { "bw_mib_s", "MiB/s", "higher_is_better", "rate" };
static const struct fw_metric m_iops = { "iops", "IO/s", "higher_is_better", "rate" };

struct filemap_cfg {
	uint64_t limit_mib, file_mib;
	int numjobs, ramp_s, runtime_s;     /* ramp of both variants, runtime of 4k */
	int thp_runtime_s;                  /* the thp=1 --readonly phase */
};

static char fio_out[1 << 20];

static int mount_at(const char *src, const char *dir, const char *type, unsigned long fl,
		    const char *opts)
{
	if (mount(src, dir, type, fl, opts) < 0)
		return fail("mount %s at %s: %s", type, dir, strerror(errno));
	return 0;
}

/* Host / read-only at /host with the pseudo filesystems a chroot needs. */
static int host_setup(void)
{
	if (access(HOST FIO, X_OK) == 0)
		return 0;
	if (mkdir_p(HOST) < 0 ||
	    mount_at("host", HOST, "9p", MS_RDONLY, "trans=virtio,version=9p2000.L") < 0 ||
	    mount_at("devtmpfs", HOST "/dev", "devtmpfs", 0, NULL) < 0 ||
	    mount_at("proc", HOST "/proc", "proc", 0, NULL) < 0 ||
	    mount_at("sysfs", HOST "/sys", "sysfs", 0, NULL) < 0 ||
	    mount_at("tmpfs", HOST "/tmp", "tmpfs", 0, "size=16m") < 0)
		return -1;
	if (access(HOST FIO, X_OK) < 0)
		return fail("no %s on the host (install fio)", FIO);
	if (access(HOST MKFS, X_OK) < 0)
		return fail("no %s on the host (install xfsprogs)", MKFS);
	return 0;
}

static int run_host(const char *const *argv, const char *memcg, char *out, size_t out_size)
{
	struct spawn sp = { argv, HOST, memcg, out, out_size, 0 };

	return spawn_run(&sp);
}

static int write_file(const char *path, uint64_t size)
{
	static char chunk[1 << 20];
	uint64_t done;
	int fd, ret = -1;

	memset(chunk, 0x5a, sizeof(chunk));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fail("create %s: %s", path, strerror(errno));
		goto cleanup;
	}
	for (done = 0; done < size; done += sizeof(chunk)) {
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk)) {
			fail("write %s at %llu: %s", path, (unsigned long long)done,
			     strerror(errno));
			goto cleanup;
		}
	}
	if (fsync(fd) < 0) {
		fail("fsync %s: %s", path, strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (fd >= 0)
		close(fd);
	return ret;
}

static int setup(const struct filemap_cfg *cfg)
{
	static const char *const mkfs[] = { MKFS, "-f", "-q", "/dev/ram0", NULL };
	static const char *const version[] = { FIO, "--version", NULL };
	uint64_t sectors;
	char ver[128];
	int ret = -1;

	if (host_setup() < 0)
		goto cleanup;
	if (read_u64("/sys/block/ram0/size", &sectors) < 0)
		goto cleanup;
	if ((sectors >> 11) < cfg->file_mib + cfg->file_mib / 8 + 320) {
		fail("brd ram0 is %llu MiB, need %llu: pass brd.rd_size= (KiB)",
		     (unsigned long long)(sectors >> 11),
		     (unsigned long long)(cfg->file_mib + cfg->file_mib / 8 + 320));
		goto cleanup;
	}
	if (run_host(version, NULL, ver, sizeof(ver)) < 0)
		goto cleanup;
	ver[strcspn(ver, "\n")] = '\0';
	emit_info("fio_version", ver);
	if (run_host(mkfs, NULL, NULL, 0) < 0 || mkdir_p(HOST MNT) < 0 ||
	    mount_at("/dev/ram0", HOST MNT, "xfs", 0, NULL) < 0)
		goto cleanup;
	if (write_file(HOST IMG, cfg->file_mib << 20) < 0)
		goto cleanup;
	if (memcg_create(CG, cfg->limit_mib << 20) < 0)
		goto cleanup;
	ret = 0;
cleanup:
	return ret;
}

/* The number after "key" : in fio's JSON, searching from p. */
static int json_num(const char *p, const char *key, double *v)
{
	char quoted[64];
	char *end;

	snprintf(quoted, sizeof(quoted), "\"%s\"", key);
	p = strstr(p, quoted);
	if (!p)
		return fail("fio JSON has no %s", key);
	p = strchr(p + strlen(quoted), ':');
	if (!p)
		return fail("fio JSON: no value for %s", key);
	*v = strtod(p + 1, &end);
	if (end == p + 1)
		return fail("fio JSON: %s is not a number", key);
	return 0;
}

static int fio_run(const struct filemap_cfg *cfg, int thp_fill, int ramp_s, int runtime_s,
		   double *bw_mib, double *iops)
{
	char numjobs[32], ramp[32], runtime[32];
	const char *argv[20];
	const char *rd;
	double io_bytes, bw_bytes;
	int n = 0;

	snprintf(numjobs, sizeof(numjobs), "--numjobs=%d", cfg->numjobs);
	snprintf(ramp, sizeof(ramp), "--ramp_time=%ds", ramp_s);
	snprintf(runtime, sizeof(runtime), "--runtime=%ds", runtime_s);
	argv[n++] = FIO;
	argv[n++] = "--name=cached";
	argv[n++] = numjobs;
	argv[n++] = "--filename=" IMG;
	argv[n++] = "--buffered=1";
	argv[n++] = "--ioengine=mmap";
	if (thp_fill) {
		argv[n++] = "--thp=1";
		argv[n++] = "--readonly";
	}
	argv[n++] = "--rw=randread";
	argv[n++] = "--time_based";
	if (ramp_s)
		argv[n++] = ramp;
	argv[n++] = runtime;
	argv[n++] = "--group_reporting";
	argv[n++] = "--output-format=json";
	argv[n] = NULL;
	if (run_host(argv, CG, fio_out, sizeof(fio_out)) < 0)
		return -1;
	rd = strstr(fio_out, "\"jobs\"");
	rd = rd ? strstr(rd, "\"read\"") : NULL;
	if (!rd)
		return fail("fio printed no JSON read section");
	if (json_num(rd, "io_bytes", &io_bytes) < 0 || json_num(rd, "bw_bytes", &bw_bytes) < 0 ||
	    json_num(rd, "iops", iops) < 0)
		return -1;
	if (io_bytes <= 0)
		return fail("fio read nothing");
	*bw_mib = bw_bytes / 1048576.0;
	return 0;
}

/* 4k: read the whole file once inside the memcg, so the measured randread
 * starts with the cache at the limit and every miss must evict (the seed's
 * 5-minute runs spend nearly all their time so). Without it a quick 4 s run
 * on a slow TCG host touched less than the limit and the limit never bit. */
static int prefill(const char *path)
{
	static char buf[1 << 20];
	ssize_t n;
	int fd, ret = -1;

	if (memcg_join(CG) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fail("open %s: %s", path, strerror(errno));
		goto cleanup;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	if (n < 0) {
		fail("read %s: %s", path, strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (fd >= 0)
		close(fd);
	if (memcg_join(NULL) < 0)
		ret = -1;
	return ret;
}

static int one_round(const struct filemap_cfg *cfg, const char *variant, int round)
{
	static const char *const always[] = { "workingset_refault_file", "pgpgin",
					      "thp_split_page", "nr_file_hugepages", NULL };
	struct vmstat a, b;
	struct fw_rec r;
	double bw = 0, iops = 0;
	int thp = !strcmp(variant, "thp");
	uint64_t fail0, fail1, cache = 0;
	int64_t huge_end;
	char why[300];
	int ret = -1;

	sync();
	if (write_text("/proc/sys/vm/drop_caches", "3") < 0)
		goto cleanup;
	if (!thp && prefill(HOST IMG) < 0)
		goto cleanup;
	if (vmstat_read(&a) < 0 || memcg_failcnt(CG, &fail0) < 0)
		goto cleanup;
	/* thp: the seed's headline is the thp=1 --readonly randread phase itself. */
	kprof_section_begin();
	if (fio_run(cfg, thp, cfg->ramp_s, thp ? cfg->thp_runtime_s : cfg->runtime_s, &bw, &iops) < 0)
		goto cleanup;
	kprof_section_end(variant);
	if (vmstat_read(&b) < 0 || memcg_failcnt(CG, &fail1) < 0)
		goto cleanup;
	huge_end = meminfo_kb("FileHugePages");
	if (filemap_refill_check(cfg->file_mib, cfg->limit_mib,
				 vmstat_delta(&a, &b, "workingset_refault_file"),
				 (int64_t)(fail1 - fail0), why, sizeof(why)) < 0) {
		fail("%s", why);
		goto cleanup;
	}
	if (memcg_stat(CG, "cache", &cache) < 0)
		goto cleanup;
	if (thp && filemap_huge_share_check(huge_end, cache >> 10, why, sizeof(why)) < 0) {
		fail("%s", why);
		goto cleanup;
	}
	if (emit_sample(WL, variant, &m_bw, round, bw) < 0 ||
	    emit_sample(WL, variant, &m_iops, round, iops) < 0)
		goto cleanup;
	rec_start(&r, "counters");
	rec_kv(&r, "workload", WL);
	rec_kv(&r, "variant", variant);
	rec_kvi(&r, "round", round);
	rec_kvi(&r, "FileHugePages_end_kb", huge_end);
	rec_kvu(&r, "memcg_cache_end_kb", cache >> 10);
	rec_kvu(&r, "memcg_failcnt", fail1 - fail0);
	rec_vmstat_delta(&r, &a, &b, always);
	if (rec_emit(&r) < 0)
		goto cleanup;
	ret = 0;
cleanup:
	return ret;
}

static int emit_params(const struct filemap_cfg *cfg, const char *variant)
{
	struct fw_rec r;
	int thp = !strcmp(variant, "thp");

	rec_start(&r, "param");
	rec_kv(&r, "workload", WL);
	rec_kv(&r, "variant", variant);
	rec_kv(&r, "fs", "xfs");
	rec_kv(&r, "device", "brd");
	rec_kvu(&r, "file_mib", cfg->file_mib);
	rec_kvu(&r, "memcg_limit_mib", cfg->limit_mib);
	rec_kv(&r, "memcg", "v1");
	rec_kvi(&r, "numjobs", cfg->numjobs);
	rec_kvi(&r, "ramp_s", cfg->ramp_s);
	rec_kvi(&r, "runtime_s", thp ? cfg->thp_runtime_s : cfg->runtime_s);
	/* the measured phase: 4k randread, or the thp=1 --readonly randread
	 * (rows of the old 4K tail after a fill had no phase: never compared) */
	rec_kv(&r, "phase", thp ? "thp" : "4k");
	if (!thp)
		rec_kv(&r, "prefill", "sequential-read-in-memcg");
	if (thp) {
		rec_kv(&r, "fio_thp", "thp=1,readonly");
		rec_kv(&r, "large_folios", "xfs-readahead-verified-FileHugePages");
	}
	rec_kv(&r, "fio", "host-9p-chroot");
	return rec_emit(&r);
}

int wl_filemap(const struct fw_ctx *ctx)
{
	static const char *const variants[] = { "4k", "thp" };
	/* seed: 8 GiB memcg, 16 GiB file, 16 jobs, 30 s ramp, 5 min; the thp
	 * phase 10 min (samples=18976 over 16 jobs in the seed's table);
	 * quick keeps the 2:1 ratio at 128/256 MiB, 1 s ramp + 3 s. */
	struct filemap_cfg cfg = ctx->seed ?
		(struct filemap_cfg){ 8192, 16384, 16, 30, 300, 600 } :
		(struct filemap_cfg){ 128, 256, 2, 1, 3, 3 };
	size_t v;
	int round, ret = -1, bad = 0;

	if (ctx->filemap_limit_mib >= 0)
		cfg.limit_mib = (uint64_t)ctx->filemap_limit_mib; /* tests: 0 = no limit */
	for (v = 0; v < 2; v++)
		if (emit_params(&cfg, variants[v]) < 0)
			goto cleanup;
	if (setup(&cfg) < 0) {
		for (v = 0; v < 2; v++)
			emit_error(WL, variants[v], "setup: %s", fw_errbuf);
		goto cleanup;
	}
	for (v = 0; v < 2; v++) {
		for (round = 0; round < ctx->rounds; round++) {
			if (one_round(&cfg, variants[v], round) < 0) {
				emit_error(WL, variants[v], "round %d: %s", round, fw_errbuf);
				bad = 1;
				break;
			}
		}
	}
	ret = bad ? -1 : 0;
	/* unmounted again: the profiling round runs setup() once more (mkfs on a
	 * mounted ram0 fails) */
	if (umount(HOST MNT) < 0)
		logmsg("filemap: umount %s: %s", HOST MNT, strerror(errno));
cleanup:
	return ret;
}
