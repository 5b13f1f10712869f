#ifndef FW_MAIL_SEND_H
#define FW_MAIL_SEND_H
#include <stddef.h>
#include "strbuf.h"

/*
 * Hands a message to `PROG -t -oi` (sendmail's interface: recipients from
 * the headers, a lone "." line is text) on its stdin. argv only, never a
 * shell; PROG is looked up in PATH. 0, or -1 with err holding its exit and
 * output.
 */
int fw_mail_send(const char *prog, const char *msg, size_t len, struct strbuf *err);

#endif
