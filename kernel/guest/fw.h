/*
 * foliowatch guest init: shared declarations.
 *
 * The init runs as PID 1 in an initramfs, reads what to run from
 * /proc/cmdline, runs each workload in a forked child (a crashing workload
 * must not kill PID 1) and writes result records in format 1 (see
 * kernel/result-channel.md) to the result port, /dev/ttyS1 by default.
 */
#ifndef FW_GUEST_H
#define FW_GUEST_H
#include <stddef.h>
#include <stdint.h>

/* ---- result channel (channel.c) ---- */
#define FW_REC_MAX 16384

struct fw_rec {
	char type[16];
	char body[FW_REC_MAX];  /* " key=value" pairs, already encoded */
	size_t len;
	int overflow;           /* a pair did not fit: emit() refuses the record */
};

/* Opens the port (raw tty if it is one); shared seq survives fork(). */
int chan_open(const char *path);
/* Number of records written so far (the next seq). */
unsigned chan_count(void);
void rec_start(struct fw_rec *r, const char *type);
void rec_kv(struct fw_rec *r, const char *key, const char *val);
void rec_kvu(struct fw_rec *r, const char *key, uint64_t v);
void rec_kvi(struct fw_rec *r, const char *key, int64_t v);
void rec_kvd(struct fw_rec *r, const char *key, double v);
int rec_emit(struct fw_rec *r);
/* Muted (the profiling round's workload runs): every record but `profile`
 * is dropped, reported as written. Per process. */
void chan_mute(int on);
/* Convenience records. */
int emit_error(const char *wl, const char *variant, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int emit_info(const char *key, const char *val);
struct fw_metric {
	const char *name, *unit, *direction, *kind;
};
int emit_sample(const char *wl, const char *variant, const struct fw_metric *m,
		int round, double value);

/* ---- small helpers (util.c) ---- */
void logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int read_text(const char *path, char *buf, size_t size);
int write_text(const char *path, const char *text);
int write_textf(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int read_u64(const char *path, uint64_t *v);
/* A /proc/meminfo field in kB, or -1 if absent. */
int64_t meminfo_kb(const char *field);
double now_s(void);
double rusage_sys_s(void);
double rusage_user_s(void);
/* CPU time of all threads of the process (sum_exec_runtime: precise, not
 * tick-sampled like the getrusage user/sys split). */
double process_cpu_s(void);
double thread_cpu_s(void);
int mkdir_p(const char *path);
/* Full errno text of the last failure, for error records. */
extern char fw_errbuf[512];
int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- /proc/vmstat snapshots (vmstat.c) ---- */
#define VMSTAT_MAX 256
struct vmstat {
	size_t n;
	char name[VMSTAT_MAX][48];
	uint64_t val[VMSTAT_MAX];
};
int vmstat_read(struct vmstat *vs);
/* Value of one counter, 0 if the kernel does not have it. */
uint64_t vmstat_get(const struct vmstat *vs, const char *name);
int vmstat_has(const struct vmstat *vs, const char *name);
int64_t vmstat_delta(const struct vmstat *a, const struct vmstat *b, const char *name);
/* Adds every event counter (not nr_* gauges) that moved, plus the always[] ones. */
void rec_vmstat_delta(struct fw_rec *r, const struct vmstat *a, const struct vmstat *b,
		      const char *const *always);

/* ---- mounts and cgroups (mounts.c, memcg.c) ---- */
int mount_basics(void);
int mount_tracefs(void);
/* Mounts the v1 memory controller at /sys/fs/cgroup/memory (once). */
int memcg_v1_mount(void);
/* Creates /sys/fs/cgroup/memory/<name>, sets limit (0: none). */
int memcg_create(const char *name, uint64_t limit_bytes);
int memcg_join(const char *name); /* name NULL: back to the root cgroup */
int memcg_usage(const char *name, uint64_t *bytes);
int memcg_path(char *buf, size_t size, const char *name, const char *file);
int memcg_stat(const char *name, const char *key, uint64_t *v);
int memcg_failcnt(const char *name, uint64_t *v);

/* ---- THP sysfs knobs (thp.c) ---- */
/* Sets hugepages-<kb>kB/enabled=always for size_kb and never for every other size. */
int thp_anon_only(unsigned size_kb);
int mthp_stat(unsigned size_kb, const char *stat, uint64_t *v);

/* ---- child processes (spawn.c) ---- */
struct spawn {
	const char *const *argv;   /* argv[0]: absolute path inside root; NULL-terminated, any length */
	const char *const *env;    /* up to 8 more NAME=VALUE (NULL-terminated), or NULL */
	const char *root;          /* chroot here first, or NULL */
	const char *memcg;         /* join this v1 memcg first, or NULL */
	char *out;                 /* capture stdout (NUL terminated), or NULL */
	size_t out_size;
	double timeout_s;          /* > 0: kill the program's process group after this long */
	int exit_code;             /* exit status or 128+signal */
	int timed_out;             /* 1: killed at timeout_s */
	int truncated;             /* 1: it printed more than out_size - 1 bytes (the rest was read and dropped) */
};
int spawn_run(struct spawn *sp);

/* ---- lock contention via hist triggers (locktrace.c) ---- */
struct lockstat {
	uint64_t contended;  /* matched contention_begin/end pairs */
	uint64_t wait_us;    /* sum of their wait times */
	uint64_t dropped;    /* hist map overflow (should be 0) */
};
int locktrace_start(void);
int locktrace_read(struct lockstat *ls);
void locktrace_stop(void);

/* ---- ftrace function profiler, diagnostic rounds only (fprofile.c) ---- */
int fprof_start(const char *func);
int fprof_hits(const char *func, uint64_t *hits);
void fprof_stop(void);

/* ---- the profiling round, all functions (kprofile.c) ---- */
struct fw_ctx;
typedef int (*workload_fn)(const struct fw_ctx *ctx);
extern int kprof_pass;  /* 0: not profiling; 1: total times; 2: self times */
/* Around a workload's timed section: no-ops unless kprof_pass. */
void kprof_section_begin(void);
void kprof_section_end(const char *variant);
/* In the profiling child: both passes of fn, then its `profile` records. */
int kprof_run(const char *wl, workload_fn fn, const struct fw_ctx *ctx);
/* A sample of the untimed diagnostic round after the timed ones: round=<rounds>
 * diag=1; the collector keeps it as a one-sample result (kernel/result-channel.md). */
int emit_diag_sample(const char *wl, const char *variant, const struct fw_metric *m,
		     int round, double value);

/* ---- configuration and workloads ---- */
struct fw_ctx {
	char profile[16];
	int rounds;
	int locktrace;         /* fw.locktrace=0: no lock trace in the diagnostic round */
	int diag;              /* fw.diag=0: no untimed diagnostic round */
	long filemap_limit_mib; /* fw.filemap_limit_mib=N overrides the profile's (tests); -1: not set */
	int mthp_fail_pct;     /* fw.mthp_fail_pct=N: inject N% order>=2 allocation failures (tests) */
	int fixed_work;        /* fw.fixed_work=1 (icount): fixed counts where a workload would run for a time */
	char tools[24];        /* fw.tools=HASH: the packed host programs' hash (guest-tools.h), for params */
	int seed;              /* profile == seed */
	int fprofile;          /* fw.fprofile=1: the profiling round after the timed ones */
	int fprofile_top;      /* fw.fprofile_top=N: functions kept per variant (300) */
	int fprofile_timeout_s; /* fw.fprofile_timeout_s=N: one workload's profiling round at most (300) */
};
int wl_split(const struct fw_ctx *ctx);
int wl_mthp(const struct fw_ctx *ctx);
int wl_lazyfree(const struct fw_ctx *ctx);
int wl_filemap(const struct fw_ctx *ctx);
/* A user's workload (user.c): user_find() selects it if the initramfs has its plan. */
int wl_user(const struct fw_ctx *ctx);
workload_fn user_find(const char *name);

#endif
