#ifndef FW_WORKLOAD_PLAN_H
#define FW_WORKLOAD_PLAN_H
/*
 * A user's workload packed for a boot (issue 33): its program and the
 * libraries it loads (guest-tools.h), and the plan the guest init reads
 * (kernel/guest/user-plan.h), written from the manifest for one profile.
 */
#include "guest-tools.h"
#include "workload-manifest.h"

struct fw_wl_packed {
	struct fw_guest_tools tools;   /* the program (at its host path) and its libraries */
	char hash[65];                 /* content: the manifest and every packed file */
	char plan[4200];               /* the plan file on the host */
	char plan_dst[96];             /* fw/wl/NAME.plan in the archive */
};

/*
 * The workload's content hash: sha256 over workload.json's bytes and the
 * packed files' names and contents; tools is filled on the way (NULL: a
 * scratch one). 0, or -1 with err naming the file.
 */
int fw_workload_content_hash(const struct fw_workload_def *w, struct fw_guest_tools *tools, char hash[65],
			     struct strbuf *err);
/* Packs w for profile into p, its plan written in workdir. 0, or -1 with err. */
int fw_workload_pack(const struct fw_workload_def *w, const char *profile, const char *workdir, struct fw_wl_packed *p,
		     struct strbuf *err);
/* The plan's text (tests read it): 0, or -1 with err naming the field that cannot travel. */
int fw_workload_plan_text(const struct fw_workload_def *w, const char *profile, const char *hash, struct strbuf *out,
			  struct strbuf *err);

#endif
