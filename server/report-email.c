/* The mail reply to a series (see report-email.h). */
#include "report-email.h"
#include "analysis-json.h"
#include "html.h"
#include "mailhdr.h"
#include "run-doc.h"
#include "runcmd.h"
#include "utf8.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define WIDTH 78  /* body lines stay under 80 columns */

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/*
 * Per patch: "[k/N] subject (sha)", wrapped at words, and its tables against
 * the parent as the text report prints them (analysis/report-cover.c), with
 * a %stddev column and the counters that moved with a decided change.
 */
static void table(struct strbuf *b, const struct fw_an *s, int npatches, int base_pos)
{
	const struct fw_an_row *first = NULL;
	int show_host = 0;
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct fw_an_row *r = &s->rows[i];

		if (r->against != FW_AGAINST_PARENT)
			continue;
		if (!first)
			first = r;
		else if (strcmp(first->env, r->env))
			show_host = 1;
	}
	if (!first)
		strbuf_addstr(b, "No comparable results yet (no patch has boots on both sides).\n");
	for (i = first ? (size_t)(first - s->rows) : s->nrows; i < s->nrows;) {
		const struct fw_an_row *r = &s->rows[i];
		struct strbuf h = STRBUF_INIT;

		if (r->against != FW_AGAINST_PARENT) {
			i++;
			continue;
		}
		strbuf_addf(&h, "[%.0f/%d] %s (%.*s)", fw_an_whole(r->position) - base_pos, npatches, r->subject,
			    UTF8_CUT(r->sha, 12));
		strbuf_addch(b, '\n');
		fw_report_wrap(b, h.buf, 0, 4);
		strbuf_release(&h);
		i = fw_report_tables(b, s, i, show_host, 1);
	}
}

/* "Summary: 1 regression, 2 no change (3 patches, each against its parent)." */
static void summary(struct strbuf *b, const struct fw_an *s, int npatches)
{
	static const char *const verdicts[] = { "regression", "improvement", "unsure", "no change" };
	struct strbuf t = STRBUF_INIT;
	int n[4] = { 0 }, any = 0;

	for (size_t k = 0; k < s->nrows; k++)
		for (int i = 0; i < 4 && s->rows[k].against == FW_AGAINST_PARENT; i++)
			n[i] += !strcmp(s->rows[k].verdict, verdicts[i]);
	strbuf_addstr(&t, "Summary:");
	for (int i = 0; i < 4; i++)
		if (n[i])
			strbuf_addf(&t, "%s %d %s%s", any++ ? "," : "", n[i], verdicts[i], n[i] > 1 && i < 2 ? "s" : "");
	strbuf_addf(&t, "%s (%d patch%s, each against its parent).", any ? "" : " nothing measured yet",
		    npatches, npatches == 1 ? "" : "es");
	fw_report_wrap_to(b, t.buf, 0, 2, WIDTH);
	strbuf_release(&t);
}

/* One fact of the environment, wrapped at words under WIDTH (never cut). */
static void fact_line(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fact_line(struct strbuf *b, const char *fmt, ...)
{
	struct strbuf l = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&l, fmt, ap);
	va_end(ap);
	fw_report_wrap_to(b, l.buf, 2, 4, WIDTH);
	strbuf_release(&l);
}

/* How to measure the same way: the collector command and every environment it ran in. */
static void reproduce(struct strbuf *b, const struct fw_an *s, const cJSON *facts, const char *parent)
{
	strbuf_addstr(b, "\nHow to reproduce:\n");
	if (parent) {
		const char *argv[] = { parent, NULL };
		struct strbuf q = STRBUF_INIT;
		runcmd_quote(&q, argv);
		fact_line(b, "b4 am -n series %s     (writes series.mbx)", q.buf);
		strbuf_release(&q);
	}
	else
		strbuf_addstr(b, "  Save the patches as posted as series.mbx, then:\n");
	fw_report_command(b, s, cJSON_GetArrayItem(get(facts, "envs"), 0), WIDTH);
	fw_email_environments(b, facts);
}

void fw_email_environments(struct strbuf *b, const cJSON *facts)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, get(facts, "envs")) {
		double vcpus = fw_json_num(e, "vcpus", 0);
		strbuf_addf(b, "\nEnvironment (host %s):\n", fw_json_str(e, "host", ""));
		fact_line(b, "%s, %.0f vCPU%s, %.0f MiB guest, QEMU %s", fw_json_str(e, "accel", ""), vcpus,
			  vcpus == 1 ? "" : "s", fw_json_num(e, "memory_mib", 0), fw_json_str(e, "qemu_version", ""));
		fact_line(b, "host kernel %s, CPU %s", fw_json_str(e, "host_kernel", ""), fw_json_str(e, "cpu_model", ""));
		fact_line(b, "kernel %s, %s, config %.*s, %s, foliowatch %s", fw_json_str(e, "kernel_version", ""),
			  fw_json_str(e, "compiler", ""), UTF8_CUT(fw_json_str(e, "config_hash", ""), 12),
			  fw_json_str(e, "fio_version", ""), fw_json_str(e, "foliowatch_version", ""));
		fact_line(b, "profile %s, %.0f rounds per boot, %.0f boots in all, workloads %s",
			  fw_json_str(e, "profile", ""), fw_json_num(e, "rounds", 0), fw_json_num(e, "boots", 0),
			  fw_json_str(e, "workloads", ""));
	}
}

static void add_body(struct strbuf *b, const struct fw_an *s, const cJSON *facts, const struct fw_email_opts *o,
		     const char *parent)
{
	const cJSON *patches = get(facts, "patches");
	int npatches = cJSON_GetArraySize(patches), base_pos = 0;

	for (size_t i = 0; i < s->ncommits; i++)
		if (s->commits[i].is_base)
			base_pos = s->commits[i].position == FW_AN_NA ? 0 : s->commits[i].position;
	strbuf_addstr(b, "Hi,\n\nfoliowatch built and booted each patch of this series under QEMU and\n"
		      "compared it with its parent");
	strbuf_addf(b, " (v%d, base %.12s).\n\n", s->revision == FW_AN_NA ? 1 : s->revision, s->base);
	if (!parent)
		strbuf_addstr(b, "Note: the mbox this series was measured from has no Message-ID headers\n"
			      "(git format-patch without --thread), so this message cannot name the\n"
			      "series' thread: it has no In-Reply-To or References header.\n\n");
	summary(b, s, npatches);
	table(b, s, npatches, base_pos);
	strbuf_addstr(b, "\nbetter/worse: a decided change (Mann-Whitney U with Benjamini-Hochberg\n"
		      "over the series, or a noise floor for deterministic metrics); same:\n"
		      "decided, within the floor or the minimum effect; unsure: more boots\n"
		      "needed. %stddev: the spread of the boots compared, in % of Before.\n"
		      "Counters under a row moved with it.\n");
	reproduce(b, s, facts, parent);
	if (o->base_url) {
		size_t n = strlen(o->base_url);
		while (n && o->base_url[n - 1] == '/')
			n--;  /* "https://fw.example.org/" and without the slash: one link */
		strbuf_addf(b, "\nDashboard:\n  %.*s/series/", (int)n, o->base_url);
		html_url_arg(b, s->series);
		strbuf_addf(b, "?revision=%d\n", s->revision == FW_AN_NA ? 1 : s->revision);
	}
	strbuf_addstr(b, "\n-- \nfoliowatch\n");
}

/* RFC 5322 date in UTC, without the locale's names. */
static void add_date(struct strbuf *h, time_t t)
{
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm tm;

	gmtime_r(&t, &tm);
	strbuf_addf(h, "Date: %s, %02d %s %04d %02d:%02d:%02d +0000\n", days[tm.tm_wday], tm.tm_mday,
		    months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* A list option (or the default) parsed: -1 with err naming what is wrong. */
static int addrs(const char *what, const char *s, struct mail_addr **l, int *n, struct strbuf *err)
{
	struct strbuf e = STRBUF_INIT;

	if (!mail_addrs_parse(s, l, n, &e))
		return 0;
	strbuf_addf(err, "%s: %s", what, e.buf);
	strbuf_release(&e);
	return -1;
}

/* "Re: " + the cover's subject, else the first patch's, else "[PATCH 0/N] <series>". */
static void subject(struct strbuf *sub, const struct fw_an *s, const cJSON *facts)
{
	const char *cover = fw_json_str(get(facts, "cover"), "subject", NULL);
	const char *first = fw_json_str(cJSON_GetArrayItem(get(facts, "patches"), 0), "subject", NULL);

	if (cover || first) {
		const char *t = cover ? cover : first;
		strbuf_addf(sub, "%s%s", strncasecmp(t, "Re:", 3) ? "Re: " : "", t);
	} else {
		strbuf_addf(sub, "Re: [PATCH 0/%d] %s", cJSON_GetArraySize(get(facts, "patches")),
			    s->series);
	}
}

int fw_email_headers(struct strbuf *h, const char *to, const char *to_what, const char *subject,
		     const char *in_reply_to, const struct fw_email_opts *o, struct strbuf *err)
{
	struct mail_addr *from = NULL, *tl = NULL, *cl = NULL;
	int nf = 0, nt = 0, nc = 0, ret = -1;
	unsigned char rnd[6] = { 0 };

	if (addrs("--from", o->from ? o->from : "foliowatch <foliowatch@localhost>", &from, &nf, err) ||
	    addrs(to_what, to, &tl, &nt, err) || addrs("--cc", o->cc ? o->cc : "", &cl, &nc, err))
		goto cleanup;
	if (nf != 1 || !nt) {
		strbuf_addf(err, nf != 1 ? "--from: give exactly one address" : "no recipient: %s has no address, give --to",
			    to_what);
		goto cleanup;
	}
	if (getrandom(rnd, sizeof(rnd), 0) < 0)
		memset(rnd, 0, sizeof(rnd));  /* time and pid still make it unique here */
	mail_header_addrs(h, "From", from, 1);
	mail_header_addrs(h, "To", tl, nt);
	if (nc)
		mail_header_addrs(h, "Cc", cl, nc);
	mail_header_text(h, "Subject", subject);
	add_date(h, time(NULL));
	strbuf_addf(h, "Message-ID: <foliowatch.%ld.%ld.%02x%02x%02x%02x%02x%02x@%s>\n", (long)time(NULL),
		    (long)getpid(), rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], strchr(from[0].addr, '@') + 1);
	if (in_reply_to)
		strbuf_addf(h, "In-Reply-To: %s\nReferences: %s\n", in_reply_to, in_reply_to);
	strbuf_addstr(h, "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
		      "Content-Transfer-Encoding: 8bit\n");
	ret = 0;
cleanup:
	mail_addrs_free(from, nf);
	mail_addrs_free(tl, nt);
	mail_addrs_free(cl, nc);
	return ret;
}

static int headers(struct strbuf *h, const struct fw_an *s, const cJSON *facts, const struct fw_email_opts *o,
		   const char *parent, struct strbuf *err)
{
	const cJSON *first = cJSON_GetArrayItem(get(facts, "patches"), 0);
	const char *to = o->to ? o->to : fw_json_str(first, "from_addr", fw_json_str(first, "author", ""));
	struct strbuf sub = STRBUF_INIT;
	int ret;

	subject(&sub, s, facts);
	ret = fw_email_headers(h, to, o->to ? "--to" : "the series' author", sub.buf, parent, o, err);
	strbuf_release(&sub);
	return ret;
}

int fw_report_email(const struct fw_an *s, const cJSON *facts, const struct fw_email_opts *o,
		    struct strbuf *out, struct strbuf *err)
{
	const char *parent = fw_json_str(get(facts, "cover"), "message_id", NULL);

	if (!parent)
		parent = fw_json_str(cJSON_GetArrayItem(get(facts, "patches"), 0), "message_id", NULL);
	if (parent && !mail_msgid_valid(parent))
		parent = NULL;  /* stored ones were checked; this guards the header all the same */
	if (o->base_url && (strncmp(o->base_url, "http://", 7) && strncmp(o->base_url, "https://", 8))) {
		strbuf_addstr(err, "--base-url: must start with http:// or https://");
		return -1;
	}
	for (const char *p = o->base_url; p && *p; p++)
		if (*p <= 0x20 || *p >= 0x7f) {
			strbuf_addstr(err, "--base-url: spaces, control characters and non-ASCII are not allowed");
			return -1;
		}
	if (headers(out, s, facts, o, parent, err))
		return -1;
	strbuf_addch(out, '\n');
	add_body(out, s, facts, o, parent);
	return 0;
}

void fw_mbox_wrap(const char *msg, struct strbuf *out)
{
	strbuf_addstr(out, "From foliowatch@localhost Thu Jan  1 00:00:00 1970\n");
	for (const char *line = msg; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
		if (!strncmp(line + strspn(line, ">"), "From ", 5))
			strbuf_addch(out, '>');  /* mboxrd: reversible for any number of '>' */
		strbuf_add(out, line, len);
		line += len;
	}
	if (out->len && out->buf[out->len - 1] != '\n')
		strbuf_addch(out, '\n');
	strbuf_addch(out, '\n');
}
