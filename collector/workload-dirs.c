/* User workloads given by --workload-dir: see workload-dirs.h. */
#include "workload-dirs.h"
#include <stdlib.h>
#include <string.h>
#include "xalloc.h"
#include "workload-plan.h"

const char *const fw_builtin_workloads[] = { "split", "mthp", "lazyfree", "filemap", NULL };

/* The plan can be written for both profiles: its mistakes said now, not at the first boot. */
static int plan_travels(const struct fw_workload_def *w, const char *hash, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	int ok = !fw_workload_plan_text(w, "quick", hash, &text, err);

	strbuf_reset(&text);
	ok = ok && !fw_workload_plan_text(w, "seed", hash, &text, err);
	strbuf_release(&text);
	return ok;
}

int fw_user_workloads_add(struct fw_user_workloads *u, const char *dir, struct strbuf *err)
{
	struct fw_workload_def *w;

	if (u->n == FW_WL_DIRS_MAX) {
		strbuf_addf(err, "%s: more than %d --workload-dir", dir, FW_WL_DIRS_MAX);
		return -1;
	}
	if (!u->def)
		u->def = xcalloc(FW_WL_DIRS_MAX, sizeof(*u->def));
	w = &u->def[u->n];
	if (fw_workload_load(dir, fw_builtin_workloads, w, err))
		return -1;
	for (int i = 0; i < u->n; i++)
		if (!strcmp(u->def[i].name, w->name)) {
			strbuf_addf(err, "%s/workload.json: name: '%s' is also the name of %s", dir, w->name, u->def[i].dir);
			goto fail;
		}
	if (w->needs.memcg == 2) {
		/* kernel/guest/memcg.c mounts v1 for filemap; one kernel cannot mount both */
		strbuf_addf(err, "%s/workload.json: needs.memcg: v2 is refused: the guest mounts cgroup v1, and v1 and "
			    "v2 cannot both be mounted in one boot", dir);
		goto fail;
	}
	if (fw_workload_content_hash(w, NULL, u->hash[u->n], err) || !plan_travels(w, u->hash[u->n], err))
		goto fail;
	strbuf_addf(&u->content, "%s%s@%s", u->content.len ? "," : "", w->name, u->hash[u->n]);
	strbuf_addf(&u->names, "%s%s", u->names.len ? "," : "", w->name);
	u->n++;
	return 0;
fail:
	fw_workload_release(w);
	return -1;
}

int fw_user_workloads_queue(struct fw_user_workloads *u, const char *dir)
{
	if (u->nqueued == FW_WL_DIRS_MAX)
		return -1;
	u->queued[u->nqueued++] = dir;
	return 0;
}

int fw_user_workloads_load(struct fw_user_workloads *u, struct strbuf *err)
{
	for (int i = 0; i < u->nqueued; i++)
		if (fw_user_workloads_add(u, u->queued[i], err))
			return -1;
	return 0;
}

void fw_user_workloads_default(const struct fw_user_workloads *u, struct strbuf *out)
{
	for (int i = 0; fw_builtin_workloads[i]; i++)
		strbuf_addf(out, "%s%s", i ? "," : "", fw_builtin_workloads[i]);
	if (u->n)
		strbuf_addf(out, ",%s", u->names.buf);
}

void fw_user_workloads_release(struct fw_user_workloads *u)
{
	for (int i = 0; i < u->n; i++)
		fw_workload_release(&u->def[i]);
	free(u->def);
	u->def = NULL;
	u->n = 0;
	strbuf_release(&u->content);
	strbuf_release(&u->names);
}
