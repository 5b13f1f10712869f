#ifndef FW_MAILHDR_H
#define FW_MAILHDR_H
#include "strbuf.h"

/*
 * The few pieces of RFC 5322 / RFC 2047 that foliowatch needs to read the
 * headers of a patch mail and to write a reply: Message-ID and address checks,
 * encoded-word decoding and a header writer that cannot be made to start a
 * new header (control characters never reach the output, non-ASCII goes into
 * encoded-words, long values are folded).
 */
#define FW_MSGID_MAX 250

/* 1 when s is "<left@right>" of printable ASCII without spaces, quotes or brackets inside. */
int mail_msgid_valid(const char *s);

/*
 * An addr-spec we are willing to put in To/Cc: dot-atom local part (no
 * quoted strings), '@', a host name of letters, digits and '-' labels.
 */
int mail_addr_spec_valid(const char *addr);

/* Appends s with its RFC 2047 encoded-words (Q or B; UTF-8, US-ASCII, ISO-8859-1) decoded. */
void mail_decode_words(struct strbuf *out, const char *s);

/* An address: display name (may be empty, UTF-8) and addr-spec. */
struct mail_addr {
	char *name;
	char *addr;
};
/*
 * Parses a comma-separated list ("Name <a@b>, \"Doe, J\" <j@c>, d@e").
 * Every addr-spec must pass mail_addr_spec_valid. 0, or -1 with err naming
 * the bad entry (the list is then empty). mail_addrs_free releases it.
 */
int mail_addrs_parse(const char *s, struct mail_addr **list, int *n, struct strbuf *err);
void mail_addrs_free(struct mail_addr *list, int n);

/*
 * Writes "Name: value\n" folded at 78 columns. Unstructured value (Subject):
 * non-ASCII, "=?" or a word too long to fold make it encoded-words. Control
 * characters (CR and LF included) become spaces first.
 */
void mail_header_text(struct strbuf *out, const char *name, const char *value);
/* "Name: a, b\n" of addresses, display names quoted or encoded, folded between addresses. */
void mail_header_addrs(struct strbuf *out, const char *name, const struct mail_addr *list, int n);

#endif
