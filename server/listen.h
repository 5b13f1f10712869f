#ifndef FW_LISTEN_H
#define FW_LISTEN_H
/*
 * The listening socket of `serve` (server/listen.c), opened here rather than by
 * libmicrohttpd so that the bind is exclusive and its failure can be explained.
 */
#include <netinet/in.h>
#include "strbuf.h"

/*
 * Bound and listening TCP socket on sa, close-on-exec. SO_REUSEADDR is on (a
 * restart binds despite the last run's TIME_WAIT connections), SO_REUSEPORT
 * off (a second server on the address fails instead of sharing the port).
 * -1 on failure, err then says why, naming the address, and when the address
 * is in use whether (and which) another process listens there.
 */
int fw_listen_open(const struct sockaddr_in *sa, struct strbuf *err);

/* "ADDR:PORT" of sa into out. */
void fw_listen_format(const struct sockaddr_in *sa, char out[32]);

#endif
