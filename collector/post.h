#ifndef FW_POST_H
#define FW_POST_H
#include "strbuf.h"

/*
 * Sending run documents to a foliowatch server (POST /api/v1/runs). curl does
 * the HTTP, started through runcmd with an argv vector; the token goes in a
 * 0600 header file, never on a command line.
 */
struct post_opts {
	const char *url;          /* server base URL, e.g. http://127.0.0.1:8080 */
	const char *token_file;   /* file holding the bearer token */
	const char *spool_dir;    /* where unsent documents wait (NULL: no spooling) */
	int retries;              /* attempts after the first on 5xx / connection errors */
	double backoff_s;         /* first wait; doubles each retry */
	const char *cacert;       /* CA file for HTTPS with a private CA, or NULL */
};

enum post_result {
	POST_STORED,     /* 201 */
	POST_UNCHANGED,  /* 200: the server had it already */
	POST_REJECTED,   /* 4xx: will not succeed by retrying; message in err */
	POST_FAILED,     /* 5xx or unreachable after retries (spooled if a spool dir is set) */
};

enum post_result post_file(const struct post_opts *o, const char *path, struct strbuf *err);
/*
 * POST /api/v1/series/{series}/complete?revision=N: the run is over, the
 * server may send its held webhook events now (one attempt; 0, or -1 with err).
 */
int post_complete(const struct post_opts *o, const char *series, int revision, struct strbuf *err);
/* Copies a document into the spool (temp name + rename). */
int post_spool(const struct post_opts *o, const char *path, struct strbuf *err);
/* Sends everything in the spool; sent or rejected files leave it. Returns the number still queued, -1 on error. */
int post_flush_spool(const struct post_opts *o, int verbose);

#endif
