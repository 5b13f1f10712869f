#ifndef FW_MBOX_MAIL_H
#define FW_MBOX_MAIL_H
#include "strbuf.h"

/*
 * The mail headers of each message of an mbox as `git format-patch` writes
 * it (and b4, and mail clients that save a thread): what a reply to the
 * series needs to thread into it. Values are unfolded, their RFC 2047
 * encoded-words decoded to UTF-8, control characters turned into spaces; a
 * value over the run document's bound, or a Message-ID that is not one, is
 * dropped (NULL) rather than cut.
 */
#define FW_MAIL_FROM_MAX    500
#define FW_MAIL_ADDRS_MAX   8000   /* To, Cc: kernel Cc lists run long */
#define FW_MAIL_SUBJECT_MAX 1000

struct fw_mail {
	char *message_id, *from, *to, *cc, *subject;  /* NULL: absent */
	int number, total;   /* "[PATCH k/N]" of the subject; -1 when it has none */
};

/*
 * Splits text (an mbox: messages start at "From <sender> <date>" lines, at the
 * start or after a blank line) and reads each message's header. *n messages in order.
 */
struct fw_mail *fw_mbox_read(const char *text, size_t len, int *n);
void fw_mail_free(struct fw_mail *m, int n);
/* 1 when m is a cover letter: "[... 0/N]". */
int fw_mail_is_cover(const struct fw_mail *m);

#endif
