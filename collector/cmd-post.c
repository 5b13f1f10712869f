/*
 * foliowatch-collect post --url URL --token-file F [--spool DIR] [--retries N] [--cacert F] [doc.json...]
 * Sends run documents; what cannot be sent waits in the spool and goes first next time.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include "cache.h"
#include "commands.h"
#include "post.h"

int cmd_post(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "url", required_argument, NULL, 'u' },
		{ "token-file", required_argument, NULL, 't' },
		{ "spool", required_argument, NULL, 's' },
		{ "retries", required_argument, NULL, 'r' },
		{ "backoff", required_argument, NULL, 'b' },
		{ "cacert", required_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct post_opts o = { 0 };
	struct strbuf spool = STRBUF_INIT;
	int opt, ret = 0, quiet = 0, left;

	o.retries = 4;
	o.backoff_s = 1;
	while ((opt = getopt_long(argc, argv, "q", opts, NULL)) != -1) {
		switch (opt) {
		case 'u': o.url = optarg; break;
		case 't': o.token_file = optarg; break;
		case 's': strbuf_addstr(&spool, optarg); break;
		case 'r': o.retries = atoi(optarg); break;
		case 'b': o.backoff_s = atof(optarg); break;
		case 'c': o.cacert = optarg; break;
		case 'q': quiet = 1; break;
		default: goto usage;
		}
	}
	if (!o.url || !o.token_file || o.retries < 0)
		goto usage;
	if (!spool.len) {
		fw_kcache_root(&spool);
		strbuf_addstr(&spool, "/spool");
	}
	o.spool_dir = spool.buf;
	/* older documents first, so the server sees them in order */
	left = post_flush_spool(&o, !quiet);
	if (left > 0)
		ret = 1;
	for (int i = optind; i < argc; i++) {
		struct strbuf err = STRBUF_INIT;
		enum post_result r = left > 0 ? (post_spool(&o, argv[i], &err) ? POST_REJECTED : POST_FAILED)
					      : post_file(&o, argv[i], &err);
		switch (r) {
		case POST_STORED:
		case POST_UNCHANGED:
			if (!quiet)
				printf("%s %s\n", r == POST_STORED ? "stored" : "unchanged", argv[i]);
			break;
		case POST_FAILED:
			fprintf(stderr, "post: %s\n", err.len ? err.buf : "server unreachable: queued in the spool");
			left++;
			ret = 1;
			break;
		case POST_REJECTED:
			fprintf(stderr, "post: %s\n", err.buf);
			ret = 1;
			break;
		}
		strbuf_release(&err);
	}
	if (left > 0)
		fprintf(stderr, "post: %d document(s) wait in %s; run post again to send them\n", left, spool.buf);
	goto cleanup;
usage:
	fprintf(stderr, "usage: foliowatch-collect post --url URL --token-file F [--spool DIR] [--retries N] "
			"[--backoff S] [--cacert F] [doc.json...]\n");
	ret = 2;
cleanup:
	strbuf_release(&spool);
	return ret;
}
