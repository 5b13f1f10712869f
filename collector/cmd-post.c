/*
 * foliowatch-collect post --url URL --token-file F [--spool DIR] [--retries N] [--cacert F] [doc.json...]
 * Sends run documents; what cannot be sent waits in the spool and goes first next time.
 */
#include <stdio.h>
#include <stdlib.h>
#include "cache.h"
#include "cmdopt.h"
#include "commands.h"
#include "post.h"

int cmd_post(int argc, char **argv)
{
	static const struct fw_option opts[] = {
		{ "url", 0, required_argument, 'u', "URL", "required", "the server (http[s]://host:port)" },
		{ "token-file", 0, required_argument, 't', "FILE", "required",
		  "file holding the API token ('foliowatch-server token add')" },
		{ "spool", 0, required_argument, 's', "DIR", "<cache>/spool",
		  "where documents wait while the server is unreachable\n(<cache>: $FOLIOWATCH_CACHE or ~/.cache/foliowatch)" },
		{ "retries", 0, required_argument, 'r', "N", "4", "attempts after the first one, per document" },
		{ "backoff", 0, required_argument, 'b', "SECONDS", "1", "wait before the first retry (doubles each time)" },
		{ "cacert", 0, required_argument, 'c', "FILE", "the system's CAs", "CA certificate to check an HTTPS server with" },
		{ "quiet", 'q', no_argument, 'q', NULL, "off", "print nothing for documents stored or unchanged" },
		{ 0 },
	};
	static const struct fw_usage usage = { "foliowatch-collect", "post",
		"--url URL --token-file FILE [options] [doc.json...]",
		"Sends run documents to a server's POST /api/v1/runs. Documents waiting in\n"
		"the spool go first (oldest first); what cannot be sent now waits there for\n"
		"the next post. Without documents it only sends the spool.\n"
		"Exit: 0 all sent, 1 something refused or still waiting, 2 usage error.",
		opts, "--url https://fw.example.org --token-file runner.token run.json\n"
		"--url http://127.0.0.1:8080 --token-file runner.token    # only the spool" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	struct post_opts o = { 0 };
	struct strbuf spool = STRBUF_INIT;
	int opt, ret = 0, quiet = 0, left;

	o.retries = 4;
	o.backoff_s = 1;
	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		switch (opt) {
		case 'u': o.url = optarg; break;
		case 't': o.token_file = optarg; break;
		case 's':
			strbuf_reset(&spool);
			strbuf_addstr(&spool, optarg);
			break;
		case 'r':
			if (fw_opt_int(&usage, "retries", optarg, 0, 100, &o.retries))
				goto usage;
			break;
		case 'b':
			if (fw_opt_double(&usage, "backoff", optarg, 0, 3600, 1, &o.backoff_s))
				goto usage;
			break;
		case 'c': o.cacert = optarg; break;
		case 'q': quiet = 1; break;
		default:
			ret = g.exit;
			goto cleanup;
		}
	}
	if (!o.url || !o.token_file) {
		fw_usage_error(&usage, "%s is required", !o.url ? "--url URL" : "--token-file FILE");
		goto usage;
	}
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
usage: /* the message is out */
	ret = 2;
cleanup:
	strbuf_release(&spool);
	return ret;
}
