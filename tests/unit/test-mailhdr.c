/*
 * lib/mailhdr.c and collector/mbox-mail.c: Message-ID and address checks,
 * RFC 2047 decoding (Q, B, adjacent words, charsets we do not know), a header
 * writer that no CR/LF can make start a new header, and the mbox reader on
 * git format-patch output (cover letter, folded and repeated headers,
 * a body line "From " that is not a message).
 */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "mailhdr.h"
#include "mbox-mail.h"
#include "rundoc-facts.h"

static void decoded(const char *in, const char *want, const char *desc)
{
	struct strbuf sb = STRBUF_INIT;

	mail_decode_words(&sb, in);
	is_str(sb.buf, want, desc);
	strbuf_release(&sb);
}

/* Every line after the first of a header starts with a space (folded), none is empty. */
static int one_header(const char *h)
{
	const char *nl = strchr(h, '\n');

	for (; nl && nl[1]; nl = strchr(nl + 1, '\n'))
		if (nl[1] != ' ')
			return 0;
	return nl && !nl[1] && !strchr(h, '\r');
}

static void checks(void)
{
	ok(mail_msgid_valid("<cover.1701.git.dev@example.org>"), "a format-patch Message-ID is valid");
	ok(mail_msgid_valid("<CAHk-=wh+x@mail.gmail.com>"), "a gmail Message-ID is valid");
	ok(!mail_msgid_valid("<a b@c>") && !mail_msgid_valid("<a@b>\n") && !mail_msgid_valid("a@b") &&
	   !mail_msgid_valid("<a@b@c>") && !mail_msgid_valid("<@b>") && !mail_msgid_valid("<a<b@c>"),
	   "spaces, newlines, no brackets, two @, empty left, inner < are not");
	ok(mail_addr_spec_valid("akpm@linux-foundation.org") && mail_addr_spec_valid("a+b.c@x"),
	   "plain addresses are valid");
	ok(!mail_addr_spec_valid("a@b\r\nBcc: c@d") && !mail_addr_spec_valid("\"q\"@b") &&
	   !mail_addr_spec_valid("a..b@c") && !mail_addr_spec_valid("a@-b") && !mail_addr_spec_valid("a@b."),
	   "CR/LF, quoted local parts, double dots, bad labels are not");
}

static void decoding(void)
{
	decoded("=?UTF-8?q?J=C3=B6hn=20D=C5=93?= <j@x>", "Jöhn Dœ <j@x>", "Q word");
	decoded("=?utf-8?B?SsO2aG4=?= x", "Jöhn x", "B word");
	decoded("=?UTF-8?Q?a?= =?UTF-8?Q?b?=", "ab", "whitespace between words dropped");
	decoded("=?ISO-8859-1?Q?M=FCller?=", "Müller", "latin-1 to UTF-8");
	decoded("=?KOI8-R?Q?x?= and =?UTF-8?Q?=FF?=", "=?KOI8-R?Q?x?= and =?UTF-8?Q?=FF?=",
		"unknown charsets and invalid UTF-8 stay as they are");
	decoded("=?UTF-8?Q?a=0Ab?=", "a\nb", "a decoded newline is returned (callers clean it)");
}

static void writing(void)
{
	struct strbuf h = STRBUF_INIT;
	struct mail_addr *l;
	struct strbuf err = STRBUF_INIT;
	int n;

	mail_header_text(&h, "Subject", "Re: [PATCH] a\r\nBcc: evil@example.org");
	ok(one_header(h.buf) && !strstr(h.buf, "\nBcc"), "CR/LF in a subject cannot start a header");
	strbuf_reset(&h);
	mail_header_text(&h, "Subject", "Re: [PATCH 0/3] mm: ünïcode <b>and</b> a long tail of words that "
			 "goes on past the seventy-eighth column of the line");
	ok(one_header(h.buf) && strstr(h.buf, "=?UTF-8?Q?") && !strchr(h.buf, '<'),
	   "non-ASCII subject: encoded-words, folded, markup encoded");
	for (const char *p = h.buf; *p; p++)
		if ((unsigned char)*p >= 0x80) {
			ok(0, "encoded header is ASCII");
			break;
		}
	strbuf_reset(&h);
	is_int(mail_addrs_parse("A <a@x.org>, \"Doe, J\" <j@y.org>, z@z.org", &l, &n, &err), 0, "a list parses");
	is_int(n, 3, "three addresses (a comma inside quotes is not a separator)");
	if (n == 3) {
		is_str(l[1].name, "Doe, J", "quoted name unquoted");
		is_str(l[2].addr, "z@z.org", "bare address");
	}
	mail_header_addrs(&h, "To", l, n);
	is_str(h.buf, "To: A <a@x.org>, \"Doe, J\" <j@y.org>, <z@z.org>\n", "written back");
	mail_addrs_free(l, n);
	is_int(mail_addrs_parse("a@x.org\r\nBcc: e@f.org", &l, &n, &err), -1, "CR/LF in an address: refused");
	ok(strstr(err.buf, "not an address"), "the error says why");
	strbuf_release(&h);
	strbuf_release(&err);
}

static const char mbox[] =
	"From 1111 Mon Sep 17 00:00:00 2001\n"
	"Message-Id: <cover.1.git.dev@example.org>\n"
	"From: =?UTF-8?q?J=C3=B6hn?= <dev@example.org>\n"
	"Subject: [PATCH v2 0/2] mm: a\n  folded subject\n"
	"To: A <a@example.org>\n"
	"Cc: l@example.org,\n    m@example.org\n"
	"Cc: n@example.org\n"
	"\n"
	"body\n"
	"From the cover letter: a line that is not a message\n"
	"\n"
	"From here on, text after a blank line: 1999\n"
	"\n"
	"From 2222 Mon Sep 17 00:00:00 2001\n"
	"Message-Id: <not an id>\n"
	"Subject: [PATCH v2 1/2] mm: one\r\n"
	"\n"
	"diff\n"
	"\n"
	"From 3333 Mon Sep 17 00:00:00 2001\n"
	"Message-ID: <p2@example.org>\n"
	"Subject: [PATCH v2 2/2] mm: two\n";

static void reading(void)
{
	int n;
	struct fw_mail *m = fw_mbox_read(mbox, sizeof(mbox) - 1, &n);

	is_int(n, 3, "three messages (body lines starting \"From \" are none)");
	if (n != 3)
		return;
	ok(fw_mail_is_cover(&m[0]) && !fw_mail_is_cover(&m[1]), "[PATCH v2 0/2] is the cover letter");
	is_int(m[2].number * 10 + m[2].total, 22, "k/N of a patch");
	is_str(m[0].message_id, "<cover.1.git.dev@example.org>", "Message-Id (any case)");
	is_str(m[0].from, "Jöhn <dev@example.org>", "From decoded");
	is_str(m[0].subject, "[PATCH v2 0/2] mm: a  folded subject", "Subject unfolded");
	is_str(m[0].cc, "l@example.org,    m@example.org, n@example.org", "Cc unfolded, two headers joined");
	ok(m[1].message_id == NULL, "a Message-ID that is not one is dropped");
	is_str(m[1].subject, "[PATCH v2 1/2] mm: one", "CR of CRLF dropped");
	is_str(m[2].message_id, "<p2@example.org>", "Message-ID of the last message (no blank line after)");
	fw_mail_free(m, n);
}

/* The run document carries the mail (collector side) and refuses hostile header text (validator). */
static void document(void)
{
	static const struct fw_hostfacts host = { "h", "7.2", "6.1", "cpu", "fio-3.33" };
	char id[] = "<p1@example.org>", from[] = "J <j@example.org>", to[] = "a@example.org", cc[] = "l@example.org";
	char subj[] = "[PATCH 1/1] mm: x", cid[] = "<c@example.org>", csubj[] = "[PATCH 0/1] mm: y";
	struct fw_mail mail = { id, from, to, cc, subj, 1, 1 };
	struct fw_mail cover = { cid, NULL, NULL, NULL, csubj, 0, 1 };
	struct fw_rundoc_facts f = { 0 };
	struct fw_error e;
	cJSON *doc, *m;

	min_facts(&f, &host);
	f.mail = &mail;
	f.cover = &cover;
	doc = fw_rundoc_not_run(&f, &e);
	ok(doc != NULL, "a document with commit.mail and series.cover validates");
	if (!doc)
		return;
	m = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "commit"), "mail");
	is_str(fw_json_str(m, "message_id", NULL), "<p1@example.org>", "commit.mail.message_id written");
	is_str(fw_json_str(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "series"), "cover"),
			   "subject", NULL), "[PATCH 0/1] mm: y", "series.cover.subject written");
	cJSON_ReplaceItemInObject(m, "subject", cJSON_CreateString("x\r\nBcc: e@f.org"));
	ok(fw_doc_validate(doc, &e) && !strcmp(e.field, "commit.mail.subject"), "CR/LF in commit.mail.subject refused");
	cJSON_ReplaceItemInObject(m, "subject", cJSON_CreateString("<b>markup</b> is text"));
	cJSON_ReplaceItemInObject(m, "message_id", cJSON_CreateString("<a b@c>"));
	ok(fw_doc_validate(doc, &e) && !strcmp(e.field, "commit.mail.message_id"), "a Message-ID with a space refused");
	cJSON_ReplaceItemInObject(m, "message_id", cJSON_CreateString("<a@c>"));
	cJSON_ReplaceItemInObject(m, "cc", cJSON_CreateString(""));
	ok(fw_doc_validate(doc, &e) && !strcmp(e.field, "commit.mail.cc"), "an empty cc refused (absent, not empty)");
	cJSON_DeleteItemFromObject(m, "cc");
	ok(!fw_doc_validate(doc, &e), "markup in a subject is text: valid");
	cJSON_Delete(doc);
}

int main(void)
{
	document();
	checks();
	decoding();
	writing();
	reading();
	return done_testing();
}
