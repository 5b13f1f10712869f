#ifndef FW_REPORT_EMAIL_H
#define FW_REPORT_EMAIL_H
#include <cjson/cJSON.h>
#include "strbuf.h"
#include "an-result.h"

/*
 * report --format email: an RFC 5322 reply to the series' thread built from
 * the analysis (analysis.h's series JSON, not recomputed) and the mail facts
 * (fw_mail_facts, schema/store.h). Headers only through lib/mailhdr (validated addresses,
 * encoded-words, no control characters); the body is plain UTF-8 text under
 * 80 columns.
 */
struct fw_email_opts {
	const char *from;      /* NULL: "foliowatch <foliowatch@localhost>" */
	const char *to, *cc;   /* address lists; to NULL: the series author (the first patch's From) */
	const char *base_url;  /* http(s) URL of the dashboard, or NULL */
};
/* 0, or -1 with err naming the option or fact that is wrong. */
int fw_report_email(const struct fw_an *series, const cJSON *facts, const struct fw_email_opts *o,
		    struct strbuf *out, struct strbuf *err);
/*
 * The headers of a foliowatch mail: From (o->from or the default), To (to,
 * named to_what in errors), Cc (o->cc), Subject, Date, a new Message-ID, and
 * In-Reply-To/References when in_reply_to is not NULL. 0, or -1 with err.
 */
int fw_email_headers(struct strbuf *h, const char *to, const char *to_what, const char *subject,
		     const char *in_reply_to, const struct fw_email_opts *o, struct strbuf *err);
/* "Environment (host H):" and its facts, for every environment of facts (fw_mail_facts), under 78 columns. */
void fw_email_environments(struct strbuf *b, const cJSON *facts);
/* msg as one mbox message (mboxrd): a From_ line, ">From " escaping, a blank line after. */
void fw_mbox_wrap(const char *msg, struct strbuf *out);

#endif
