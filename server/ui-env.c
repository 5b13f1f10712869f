/*
 * Environments by name: "vm icount, 2 vCPUs" (host label, accelerator, vCPUs)
 * where pages used to show a fingerprint. The fingerprint stays available in
 * a <details> element for whoever needs to tell two like-named ones apart;
 * two environments with the same name also get a fingerprint prefix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "html.h"
#include "ui.h"
#include "store.h"
#include "xalloc.h"

void ui_envs_load(struct ui_envs *ev, sqlite3 *db)
{
	struct fw_store_env *envs = NULL;
	int n = 0;

	memset(ev, 0, sizeof(*ev));
	fw_store_envs(db, &envs, &n);  /* on a DB error, the names read so far; fingerprints for the rest */
	for (int i = 0; i < n; i++) {
		struct strbuf name = STRBUF_INIT;

		FW_ALLOC_GROW(ev->e, ev->n + 1, ev->alloc);
		strbuf_addf(&name, "%s %s, %d vCPU%s", envs[i].host, envs[i].accel, envs[i].vcpus,
			    envs[i].vcpus == 1 ? "" : "s");
		ev->e[ev->n].fp = xstrdup(envs[i].fingerprint);
		ev->e[ev->n].name = strbuf_detach(&name, NULL);
		ev->e[ev->n].dup = 0;
		ev->n++;
	}
	fw_store_envs_free(envs, n);
	/* Same name, different fingerprint (another QEMU, another host kernel): add its prefix. */
	for (int i = 0; i < ev->n; i++)
		for (int j = 0; j < ev->n; j++)
			if (i != j && !strcmp(ev->e[i].name, ev->e[j].name))
				ev->e[i].dup = ev->e[j].dup = 1;
	for (int i = 0; i < ev->n; i++) {
		struct strbuf name = STRBUF_INIT;

		if (!ev->e[i].dup)
			continue;
		strbuf_addf(&name, "%s [%.8s]", ev->e[i].name, ev->e[i].fp);
		free(ev->e[i].name);
		ev->e[i].name = strbuf_detach(&name, NULL);
	}
}

void ui_envs_free(struct ui_envs *ev)
{
	for (int i = 0; i < ev->n; i++) {
		free(ev->e[i].fp);
		free(ev->e[i].name);
	}
	free(ev->e);
	memset(ev, 0, sizeof(*ev));
}

const char *ui_env_name(const struct ui_envs *ev, const char *fp)
{
	if (fp && !strcmp(fp, FW_ENV_COMBINED))
		return "all hosts";
	for (int i = 0; fp && i < ev->n; i++)
		if (!strcmp(ev->e[i].fp, fp))
			return ev->e[i].name;
	return fp ? fp : "";
}

void ui_env_html(struct strbuf *sb, const struct ui_envs *ev, const char *fp)
{
	strbuf_addstr(sb, "<span class=\"env\">");
	html_txt(sb, ui_env_name(ev, fp));
	strbuf_addstr(sb, "</span>");
	if (!fp || !strcmp(fp, FW_ENV_COMBINED))
		return;
	strbuf_addstr(sb, " <details class=\"fp\"><summary>fingerprint</summary><span class=\"mono\">");
	html_txt(sb, fp);
	strbuf_addstr(sb, "</span></details>");
}
