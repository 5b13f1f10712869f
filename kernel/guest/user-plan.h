/*
 * A user's workload as the collector packed it (issue 33): /fw/wl/NAME.plan,
 * written from the folder's workload.json by collector/workload-plan.c, one
 * item per line, fields separated by tabs (the collector refuses a value
 * holding a tab or a newline):
 *
 *   hash HEX                      the workload's content hash (params)
 *   timeout_s SECONDS             one run of the program at most
 *   need KIND [VALUE [VALUE]]     thp_enabled V, thp_defrag V, mthp SIZE V,
 *                                 memcg v1, tmpfs_huge V, debugfs, block_device
 *   counter NAME                  a /proc/vmstat field or mthp/SIZE/STAT
 *   metric NAME UNIT DIRECTION KIND [timed]   timed: the init times the run
 *   check COUNTER min N | check COUNTER ratio R OF
 *   variant NAME                  then its param NAME VALUE and arg A lines
 *
 * The program's argv (arg lines) starts with its absolute path in the guest.
 */
#ifndef FW_GUEST_USER_PLAN_H
#define FW_GUEST_USER_PLAN_H

#define UPLAN_DIR "/fw/wl"
#define UPLAN_MAX 32
#define UPLAN_TEXT (64 * 1024)

struct uplan_variant {
	char *name;
	char *param[UPLAN_MAX][2];
	int nparams;
	const char *argv[2 * UPLAN_MAX + 2];
	int nargs;
};

struct uplan_check {
	char *counter, *of;   /* of: NULL for an absolute minimum */
	double min, ratio;
};

struct uplan {
	char text[UPLAN_TEXT];
	char *hash;
	double timeout_s;
	char *need[UPLAN_MAX][3];
	int nneeds;
	char *counter[UPLAN_MAX];
	int ncounters;
	struct fw_metric metric[UPLAN_MAX];
	int timed[UPLAN_MAX];
	int nmetrics;
	struct uplan_check check[UPLAN_MAX];
	int nchecks;
	struct uplan_variant variant[UPLAN_MAX];
	int nvariants;
};

/* 1 if NAME has a plan in the initramfs. */
int uplan_exists(const char *name);
/* Reads /fw/wl/NAME.plan into p: 0, or -1 with fw_errbuf naming the line. */
int uplan_read(const char *name, struct uplan *p);
/* The need of that kind, or NULL. */
char *const *uplan_need(const struct uplan *p, const char *kind);

#endif
