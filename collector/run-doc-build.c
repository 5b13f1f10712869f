/* Run documents from a capture and the facts around a boot (see run-doc-build.h). */
#include "run-doc-build.h"
#include "atomic-file.h"
#include "runcmd.h"
#include "xalloc.h"
#include "fw-db.h"
#include "version.h"
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static void copy_trim(char *dst, size_t n, const char *src)
{
	size_t len;

	while (*src == ' ' || *src == '\t')
		src++;
	snprintf(dst, n, "%s", src);
	len = strlen(dst);
	while (len && (dst[len - 1] == '\n' || dst[len - 1] == ' ' || dst[len - 1] == '\r'))
		dst[--len] = '\0';
	/* only the first line: version banners continue with copyright lines */
	dst[strcspn(dst, "\n")] = '\0';
}

void fw_hostfacts_collect(struct fw_hostfacts *f, const char *host_label, const char *qemu)
{
	const char *qv[] = { qemu ? qemu : "qemu-system-x86_64", "--version", NULL };
	const char *fv[] = { "fio", "--version", NULL };
	struct strbuf sb = STRBUF_INIT;
	struct utsname u;
	FILE *fp;
	char line[512];

	memset(f, 0, sizeof(*f));
	if (host_label && *host_label)
		snprintf(f->host, sizeof(f->host), "%s", host_label);
	else if (gethostname(f->host, sizeof(f->host) - 1) < 0 || !f->host[0])
		snprintf(f->host, sizeof(f->host), "unknown");
	/* "QEMU emulator version 7.2.22 (Debian ...)": keep the version and the build tag */
	if (!runcmd_capture(qv, NULL, &sb)) {
		const char *p = strstr(sb.buf, "version ");
		copy_trim(f->qemu_version, sizeof(f->qemu_version), p ? p + 8 : sb.buf);
	}
	strbuf_reset(&sb);
	if (!runcmd_capture(fv, NULL, &sb))
		copy_trim(f->fio_version, sizeof(f->fio_version), sb.buf);
	if (!uname(&u))
		snprintf(f->host_kernel, sizeof(f->host_kernel), "%s", u.release);
	if ((fp = fopen("/proc/cpuinfo", "r"))) {
		while (fgets(line, sizeof(line), fp))
			if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
				copy_trim(f->cpu_model, sizeof(f->cpu_model), strchr(line, ':') + 1);
				break;
			}
		fclose(fp);
	}
	strbuf_release(&sb);
}

static const char *nz(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

/* An object of the mail's headers that it has ("mail", "cover"), none when it has none. */
static void add_mail(cJSON *parent, const char *key, const struct fw_mail *m, int full)
{
	cJSON *o;

	if (!m || !(m->message_id || m->subject || (full && (m->from || m->to || m->cc))))
		return;
	o = cJSON_AddObjectToObject(parent, key);
	if (m->message_id)
		cJSON_AddStringToObject(o, "message_id", m->message_id);
	if (full && m->from)
		cJSON_AddStringToObject(o, "from", m->from);
	if (full && m->to)
		cJSON_AddStringToObject(o, "to", m->to);
	if (full && m->cc)
		cJSON_AddStringToObject(o, "cc", m->cc);
	if (m->subject)
		cJSON_AddStringToObject(o, "subject", m->subject);
}

/* Everything but results; run_id and fingerprint are computed here, never typed in. */
/* "name@hash,..." as `workload_content`: { name: hash } for the document's own workloads (nothing when none). */
static void add_workload_content(cJSON *doc, const char *list, const cJSON *workloads)
{
	cJSON *o = NULL;

	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ","), at = strcspn(p, "@");

		if (at < len) {
			char *name = strndup(p, at), *hash = strndup(p + at + 1, len - at - 1);
			const cJSON *w;
			int listed = 0;

			if (!name || !hash)
				abort();
			/* a boot of a subset (one accelerator's group, --workloads) names only its own */
			cJSON_ArrayForEach(w, workloads)
				listed |= cJSON_IsString(w) && !strcmp(w->valuestring, name);
			if (listed && !o)
				o = cJSON_AddObjectToObject(doc, "workload_content");
			if (listed)
				cJSON_AddStringToObject(o, name, hash);
			free(name);
			free(hash);
		}
		p += len + (p[len] == ',');
	}
}

static cJSON *skeleton(const struct fw_rundoc_facts *f, const char *boot_status)
{
	cJSON *doc = cJSON_CreateObject(), *o, *wl;
	char now[32], fp[65];
	struct strbuf rid = STRBUF_INIT;

	fw_now_iso(now);
	cJSON_AddStringToObject(doc, "format", FW_DOC_FORMAT);
	cJSON_AddStringToObject(doc, "origin", nz(f->origin, "local"));
	cJSON_AddStringToObject(doc, "created_at", now);
	o = cJSON_AddObjectToObject(doc, "tree");
	cJSON_AddStringToObject(o, "name", nz(f->tree_name, "unknown"));
	cJSON_AddStringToObject(o, "url", nz(f->tree_url, ""));
	o = cJSON_AddObjectToObject(doc, "series");
	cJSON_AddStringToObject(o, "name", nz(f->series, "adhoc"));
	cJSON_AddNumberToObject(o, "revision", f->revision > 0 ? f->revision : 1);
	cJSON_AddStringToObject(o, "base", nz(f->series_base, "unknown"));
	add_mail(o, "cover", f->cover, 0);
	if (f->watched)
		cJSON_AddBoolToObject(o, "watched", 1);
	o = cJSON_AddObjectToObject(doc, "commit");
	cJSON_AddStringToObject(o, "sha", nz(f->commit_sha, "unknown"));
	cJSON_AddStringToObject(o, "key", nz(f->commit_key, nz(f->commit_sha, "unknown")));
	cJSON_AddStringToObject(o, "subject", nz(f->commit_subject, ""));
	cJSON_AddStringToObject(o, "author", nz(f->commit_author, ""));
	cJSON_AddNumberToObject(o, "position", f->position);
	if (f->commit_parent && *f->commit_parent)
		cJSON_AddStringToObject(o, "parent", f->commit_parent);
	add_mail(o, "mail", f->mail, 1);
	o = cJSON_AddObjectToObject(doc, "build");
	cJSON_AddStringToObject(o, "status", f->build_failed ? "failed" : "ok");
	if (f->build_seconds >= 0)
		cJSON_AddNumberToObject(o, "seconds", f->build_seconds);
	cJSON_AddStringToObject(o, "kernel_version", nz(f->kernel_version, ""));
	if (f->config && *f->config)
		cJSON_AddStringToObject(o, "config", f->config);
	cJSON_AddStringToObject(o, "config_hash", nz(f->config_hash, ""));
	cJSON_AddStringToObject(o, "compiler", nz(f->compiler, ""));
	if (f->build_log_tail)
		cJSON_AddStringToObject(o, "log_tail", f->build_log_tail);
	o = cJSON_AddObjectToObject(doc, "environment");
	cJSON_AddStringToObject(o, "host", nz(f->host->host, "unknown"));
	cJSON_AddStringToObject(o, "accel", nz(f->accel, "tcg"));
	cJSON_AddStringToObject(o, "qemu_version", f->host->qemu_version);
	cJSON_AddNumberToObject(o, "vcpus", f->vcpus);
	cJSON_AddNumberToObject(o, "memory_mib", f->memory_mib);
	cJSON_AddStringToObject(o, "host_kernel", f->host->host_kernel);
	cJSON_AddStringToObject(o, "cpu_model", f->host->cpu_model);
	cJSON_AddStringToObject(o, "foliowatch_version", fw_version);
	cJSON_AddStringToObject(o, "fio_version", f->host->fio_version);
	fw_env_fingerprint(o, fp);
	cJSON_AddStringToObject(o, "fingerprint", fp);
	o = cJSON_AddObjectToObject(doc, "boot");
	cJSON_AddStringToObject(o, "status", boot_status);
	cJSON_AddNumberToObject(o, "taint", (double)f->taint);
	if (f->boot_seconds >= 0)
		cJSON_AddNumberToObject(o, "seconds", f->boot_seconds);
	if (f->parallel > 0)
		cJSON_AddNumberToObject(o, "parallel", f->parallel);
	if (f->has_phases) {
		static const char *const names[4] = { "kernel_up_s", "workloads_s", "profiling_s", "shutdown_s" };
		cJSON *ph = cJSON_AddObjectToObject(o, "phases");
		for (int i = 0; i < 4; i++)
			if (f->phases[i] >= 0) /* to the millisecond: a host's wall clock says no more */
				cJSON_AddNumberToObject(ph, names[i], round(f->phases[i] * 1000) / 1000);
	}
	if (f->qemu_cmdline)
		cJSON_AddStringToObject(o, "qemu_cmdline", f->qemu_cmdline);
	if (f->kernel_cmdline)
		cJSON_AddStringToObject(o, "kernel_cmdline", f->kernel_cmdline);
	if (f->boot_log_tail)
		cJSON_AddStringToObject(o, "log_tail", f->boot_log_tail);
	cJSON_AddStringToObject(doc, "profile", nz(f->profile, "quick"));
	cJSON_AddNumberToObject(doc, "boot_index", f->boot_index);
	wl = cJSON_AddArrayToObject(doc, "workloads");
	for (const char *p = f->workloads; p && *p;) {
		size_t len = strcspn(p, ",");
		char *name = strndup(p, len);
		if (!name)
			abort();
		if (*name)
			cJSON_AddItemToArray(wl, cJSON_CreateString(name));
		free(name);
		p += len + (p[len] == ',');
	}
	add_workload_content(doc, f->workload_content, wl);
	if (f->seq_max_looks > 0) { /* not part of the run id */
		cJSON *seq = cJSON_AddObjectToObject(doc, "sequential");
		cJSON_AddNumberToObject(seq, "look", f->seq_look);
		cJSON_AddNumberToObject(seq, "max_looks", f->seq_max_looks);
	}
	fw_doc_expected_run_id(doc, &rid); /* reads the fields just set, results are not part of it */
	cJSON_AddStringToObject(doc, "run_id", rid.buf);
	strbuf_release(&rid);
	return doc;
}

/* Console text may hold control bytes (escape sequences): the document allows \n \t \r only. */
static char *clean_text(const char *s)
{
	char *out = xstrdup(s ? s : ""), *p;

	for (p = out; *p; p++) {
		unsigned char c = (unsigned char)*p;
		size_t n = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : 9;
		size_t k = 1;

		if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f) {
			*p = '?';
			continue;
		}
		/* invalid UTF-8 (the server refuses it) becomes '?' byte by byte */
		while (n != 9 && k <= n && ((unsigned char)p[k] & 0xc0) == 0x80)
			k++;
		if (n == 9 || k <= n)
			*p = '?';
		else
			p += n;
	}
	return out;
}

cJSON *fw_rundoc_build(const struct fw_rundoc_facts *f, struct fw_chan *c, struct fw_error *e)
{
	struct fw_rundoc_facts ff = *f;
	char *tail = clean_text(f->boot_log_tail), *btail = clean_text(f->build_log_tail);
	cJSON *doc = NULL, *results, *profiles;
	int n_errors = 0;

	ff.boot_log_tail = tail;
	ff.build_log_tail = f->build_log_tail ? btail : NULL;
	results = fw_rundoc_results(c, f->workloads, &n_errors);
	doc = skeleton(&ff, nz(f->boot_status, "error"));
	cJSON_AddItemToObject(doc, "results", results);
	if ((profiles = fw_rundoc_profiles(c, results)))
		cJSON_AddItemToObject(doc, "profiles", profiles);
	if (fw_doc_validate(doc, e)) {
		cJSON_Delete(doc);
		doc = NULL;
	}
	free(tail);
	free(btail);
	return doc;
}

cJSON *fw_rundoc_not_run(const struct fw_rundoc_facts *f, struct fw_error *e)
{
	struct fw_rundoc_facts ff = *f;
	char *btail = clean_text(f->build_log_tail);
	cJSON *doc;

	ff.build_failed = 1;
	ff.build_log_tail = btail;
	ff.boot_log_tail = NULL;
	ff.boot_seconds = -1;
	ff.taint = 0;
	doc = skeleton(&ff, "not_run");
	cJSON_AddArrayToObject(doc, "results");
	if (fw_doc_validate(doc, e)) {
		cJSON_Delete(doc);
		doc = NULL;
	}
	free(btail);
	return doc;
}

int fw_rundoc_write(const cJSON *doc, const char *path, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	char *json = cJSON_Print(doc);
	int ret;

	if (!json) {
		strbuf_addstr(err, "cannot render the document");
		return -1;
	}
	strbuf_addstr(&text, json);
	strbuf_addch(&text, '\n');
	free(json);
	ret = fw_write_file_atomic(path, text.buf, text.len, 0644, err);
	strbuf_release(&text);
	return ret;
}
