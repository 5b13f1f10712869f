/*
 * foliowatch-server serve --db FILE [--listen ADDR:PORT] [--tls-cert F --tls-key F]
 *   [--static DIR] [--cache-dir DIR] [--max-connections N] [--per-ip-limit N]
 *   [--threads N] [--timeout S] [--plot-cache-mb N] [--plot-cache-days N]
 *   [--public-url URL] [--webhook-backoff S] [--webhook-backoff-max S] [--settle-seconds S]
 * libmicrohttpd with an internal thread pool. SIGINT/SIGTERM: stop accepting,
 * let requests in flight (ingests included) finish, then stop.
 * Two background threads (server/notify.h) detect regressions after each
 * stored run and deliver webhook events.
 * One server per address: the listening socket is ours (server/listen.c), bound
 * without SO_REUSEPORT, so a second `serve` on the address exits 1 at start.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cmdopt.h"
#include "commands.h"
#include "fw-db.h"
#include "http.h"
#include "listen.h"
#include "notify.h"
#include "ui.h"
#include "plot.h"
#include "webhook-db.h"
#include "xalloc.h"

static int parse_listen(const char *s, struct sockaddr_in *sa)
{
	const char *colon = strrchr(s, ':');
	char host[64];
	char *end;
	long port;

	if (!colon || (size_t)(colon - s) >= sizeof(host))
		return -1;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = 0;
	errno = 0;
	port = strtol(colon + 1, &end, 10);
	/* "ADDR:" is no port (strtol would read it as 0, any free port) */
	if (errno || end == colon + 1 || *end || port < 0 || port > 65535)
		return -1;
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, host[0] ? host : "0.0.0.0", &sa->sin_addr) == 1 ? 0 : -1;
}

static int mkdir_p(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	strbuf_addstr(&sb, path);
	for (char *p = sb.buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(sb.buf, 0755) && errno != EEXIST)
			ret = -1;
		*p = '/';
	}
	if (mkdir(sb.buf, 0755) && errno != EEXIST)
		ret = -1;
	strbuf_release(&sb);
	return ret;
}

/* Every connection is a descriptor: lift the soft limit towards the hard one if needed. */
static void raise_fd_limit(unsigned maxconn, unsigned threads)
{
	struct rlimit rl;
	/* + per worker a pooled DB handle (db, -wal, -shm) and its wakeup pipe; + listen, cache, gnuplot */
	rlim_t want = (rlim_t)maxconn + 4 * (rlim_t)threads + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= want)
		return;
	rl.rlim_cur = want < rl.rlim_max ? want : rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur < want) {
		getrlimit(RLIMIT_NOFILE, &rl);
		fprintf(stderr, "serve: open-file limit %llu is below the %llu that --max-connections %u needs: "
			"new clients may be refused early (raise ulimit -n)\n",
			(unsigned long long)rl.rlim_cur, (unsigned long long)want, maxconn);
	}
}

static const struct fw_option serve_opts[] = {
	{ "db", 'd', required_argument, 'd', "FILE", FW_DB_DEFAULT, "the database; created if missing" },
	{ "listen", 'l', required_argument, 'l', "ADDR:PORT", "127.0.0.1:8080",
	  "IPv4 address and port (port 0: any free one; ':8080': all addresses)" },
	{ "tls-cert", 0, required_argument, 'c', "FILE", "none: plain HTTP", "PEM certificate: serve HTTPS (with --tls-key)" },
	{ "tls-key", 0, required_argument, 'k', "FILE", "none", "PEM private key of --tls-cert" },
	{ "static", 0, required_argument, 's', "DIR", "static", "the folder served as /static/" },
	{ "cache-dir", 0, required_argument, 'C', "DIR", "<db>.cache/plots", "where rendered plots are cached" },
	{ "max-connections", 0, required_argument, 'm', "N", "256", "open connections at most (1..1000000)" },
	{ "per-ip-limit", 0, required_argument, 'p', "N", "32", "open connections per client address at most (0: no limit)" },
	{ "threads", 0, required_argument, 't', "N", "4", "worker threads (1..256)" },
	{ "timeout", 0, required_argument, 'T', "SECONDS", "30", "close a connection idle this long (0: never)" },
	{ "plot-cache-mb", 0, required_argument, 'P', "N", "256", "plot cache size above which the least recently used go" },
	{ "plot-cache-days", 0, required_argument, 'D', "N", "30", "plots unused this long are removed" },
	{ "public-url", 0, required_argument, 'u', "URL", "none: paths",
	  "how people reach this server (http(s)://host[:port][/prefix]): makes webhook links absolute" },
	{ "webhook-backoff", 0, required_argument, 'b', "SECONDS", "30",
	  "wait before a failed webhook delivery's first retry; doubles per failure" },
	{ "webhook-backoff-max", 0, required_argument, 'B', "SECONDS", "3600", "the longest wait between retries" },
	{ "settle-seconds", 0, required_argument, 'S', "SECONDS", "1800",
	  "a series revision no run came for this long counts as complete (its held events go out)" },
	{ 0 },
};
static const struct fw_usage serve_usage = { "foliowatch-server", "serve", "[--db FILE] [--listen ADDR:PORT] [options]",
	"The dashboard and the HTTP API (GET pages, plots and JSON; POST run\n"
	"documents with a token from 'foliowatch-server token add'). Runs until\n"
	"SIGINT or SIGTERM, then finishes the requests in flight. Plain HTTP is for\n"
	"loopback: give --tls-cert and --tls-key for anything else.\n"
	"Exit: 0 stopped by a signal, 1 error (database, listen address), 2 usage error.",
	serve_opts, "--db foliowatch.db\n"
	"--db /var/lib/foliowatch/foliowatch.db --listen 0.0.0.0:8443 --tls-cert cert.pem --tls-key key.pem" };

/* Why URL cannot prefix the links of webhook events (they reach chat text), or NULL. */
static const char *public_url_problem(const char *url)
{
	const char *bad = fw_webhook_url_problem(url);

	if (bad)
		return bad;
	if (strpbrk(url, "<>|\"'`\\"))
		return "must be a plain URL (no quotes, <, >, | or \\)";
	if (url[strlen(url) - 1] == '/')
		return "must not end with / (links add their own)";
	return NULL;
}

/* The command line, checked: what the stages below need. */
struct serve_args {
	const char *dbpath, *listen, *certf, *keyf, *staticd, *cached;
	unsigned maxconn, perip, threads, timeout, cache_mb, cache_days;
	struct fw_notify_opts notify;
	struct sockaddr_in sa;
};

/* A whole number option into an unsigned; -1 after a usage error naming it. */
static int uint_opt(const char *name, long lo, long hi, unsigned *out)
{
	int n;

	if (fw_opt_int(&serve_usage, name, optarg, lo, hi, &n))
		return -1;
	*out = (unsigned)n;
	return 0;
}

/* Options and their cross-checks: -1 to go on, else the exit code (0 --help, 2 usage error). */
static int serve_parse_args(int argc, char **argv, struct serve_args *a)
{
	struct fw_getopt g = FW_GETOPT_INIT(&serve_usage);
	int opt, bad = 0;

	*a = (struct serve_args){ .dbpath = FW_DB_DEFAULT, .listen = "127.0.0.1:8080", .staticd = "static",
				  .maxconn = 256, .perip = 32, .threads = 4, .timeout = 30,
				  .cache_mb = 256, .cache_days = 30,
				  .notify = { .backoff_s = 30, .backoff_max_s = 3600, .settle_s = 1800 } };
	while (!bad && (opt = fw_getopt(&g, argc, argv)) != -1) {
		switch (opt) {
		case 'd': a->dbpath = optarg; break;
		case 'l': a->listen = optarg; break;
		case 'c': a->certf = optarg; break;
		case 'k': a->keyf = optarg; break;
		case 's': a->staticd = optarg; break;
		case 'C': a->cached = optarg; break;
		case 'm': bad = uint_opt("max-connections", 1, 1000000, &a->maxconn); break;
		case 'p': bad = uint_opt("per-ip-limit", 0, 1000000, &a->perip); break;
		case 't': bad = uint_opt("threads", 1, 256, &a->threads); break;
		case 'T': bad = uint_opt("timeout", 0, 86400, &a->timeout); break;
		case 'P': bad = uint_opt("plot-cache-mb", 0, 4000000, &a->cache_mb); break;
		case 'D': bad = uint_opt("plot-cache-days", 0, 100000, &a->cache_days); break;
		case 'u': a->notify.public_url = optarg; break;
		case 'b': bad = fw_opt_double(&serve_usage, "webhook-backoff", optarg, 0.01, 86400, 0, &a->notify.backoff_s); break;
		case 'B': bad = fw_opt_double(&serve_usage, "webhook-backoff-max", optarg, 0.01, 864000, 0,
					      &a->notify.backoff_max_s); break;
		case 'S': bad = fw_opt_double(&serve_usage, "settle-seconds", optarg, 0, 864000, 0, &a->notify.settle_s); break;
		default:
			return g.exit;
		}
	}
	if (bad)
		return 2; /* the message is out */
	if (optind != argc)
		return fw_usage_error(&serve_usage, "unexpected argument '%s'", argv[optind]);
	if (parse_listen(a->listen, &a->sa))
		return fw_usage_error(&serve_usage, "--listen must be IPV4-ADDRESS:PORT (e.g. 127.0.0.1:8080), not '%s'",
				      a->listen);
	if (a->notify.public_url && public_url_problem(a->notify.public_url))
		return fw_usage_error(&serve_usage, "--public-url: %s, not '%s'", public_url_problem(a->notify.public_url),
				      a->notify.public_url);
	if (!!a->certf != !!a->keyf)
		return fw_usage_error(&serve_usage, "%s needs %s too", a->certf ? "--tls-cert" : "--tls-key",
				      a->certf ? "--tls-key" : "--tls-cert");
	return -1;
}

/*
 * Everything before the daemon starts: the listening socket (*lfd), the DB,
 * the response cache, the static folder, the plot cache (pruned) and the TLS
 * files (cert, key). 0 ok, -1 said on stderr.
 */
static int serve_prepare(struct fw_server *srv, const struct serve_args *a, int *lfd,
			 struct strbuf *cert, struct strbuf *key)
{
	struct strbuf err = STRBUF_INIT, cache = STRBUF_INIT;
	struct fw_plot_prune pr;
	char real[PATH_MAX];
	sqlite3 *db;
	int ret = -1;

	raise_fd_limit(a->maxconn, a->threads);
	/*
	 * Bind first: a second server on this address must fail before it opens
	 * (and migrates) the DB or prunes a plot cache it may share with the first.
	 */
	*lfd = fw_listen_open(&a->sa, &err);
	if (*lfd < 0) {
		fprintf(stderr, "serve: %s\n", err.buf);
		goto cleanup;
	}
	/* Open (and migrate) once up front so a bad DB fails here, not on the first request. */
	db = fw_db_open(srv->dbpath, &err);
	if (!db) {
		fprintf(stderr, "serve: %s\n", err.buf);
		goto cleanup;
	}
	srv->pool[srv->pool_n++] = db;
	/* Without the cache every GET is recomputed: slower, still correct. */
	if (fw_rc_init(srv, &err))
		fprintf(stderr, "serve: no response cache: %s\n", err.buf);
	if (realpath(a->staticd, real))
		srv->static_dir = xstrdup(real);
	else
		fprintf(stderr, "serve: no static folder '%s': /static/ answers 404\n", a->staticd);
	if (a->cached)
		strbuf_addstr(&cache, a->cached);
	else
		strbuf_addf(&cache, "%s.cache/plots", srv->dbpath);
	if (mkdir_p(cache.buf)) {
		fprintf(stderr, "serve: cannot create cache folder %s: %s\n", cache.buf, strerror(errno));
		goto cleanup;
	}
	srv->cache_dir = strbuf_detach(&cache, NULL);
	srv->plot_cache_bytes = (unsigned long long)a->cache_mb << 20;
	srv->plot_cache_age = (long)a->cache_days * 86400;
	if (!fw_plot_cache_prune(srv->cache_dir, srv->plot_cache_bytes, srv->plot_cache_age, time(NULL), &pr) &&
	    (pr.removed || pr.temps))
		fprintf(stderr, "serve: plot cache %s: removed %u plots (%llu KiB) and %u render temps; %llu KiB kept\n",
			srv->cache_dir, pr.removed, pr.freed >> 10, pr.temps, pr.kept_bytes >> 10);
	if (a->certf && (strbuf_read_file(cert, a->certf, 1 << 20) || strbuf_read_file(key, a->keyf, 1 << 20))) {
		fprintf(stderr, "serve: reading TLS certificate or key: %s\n", strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&err);
	strbuf_release(&cache);
	return ret;
}

/* libmicrohttpd on our listening socket, or NULL (said on stderr). */
static struct MHD_Daemon *serve_start(struct fw_server *srv, const struct serve_args *a, int lfd,
				      const struct strbuf *cert, const struct strbuf *key)
{
	struct MHD_Daemon *d;
	unsigned int flags;

	/*
	 * poll(), not epoll: libmicrohttpd 0.9.75's edge-triggered epoll loses the
	 * hang-up of a client whose FIN arrives with the last body bytes (measured:
	 * 17-27 of 50 POSTs cut off mid-body stayed in CLOSE-WAIT until --timeout,
	 * holding per-IP slots, so a normal client from that address was refused).
	 * Level-triggered poll() reaps all 50 at once (t6100).
	 */
	flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC | MHD_USE_ERROR_LOG;
	if (a->certf)
		flags |= MHD_USE_TLS;
	d = MHD_start_daemon(flags, 0, NULL, NULL, fw_http_access, srv,
			     MHD_OPTION_LISTEN_SOCKET, (MHD_socket)lfd,
			     MHD_OPTION_THREAD_POOL_SIZE, a->threads,
			     MHD_OPTION_CONNECTION_LIMIT, a->maxconn,
			     MHD_OPTION_NOTIFY_CONNECTION, fw_conn_notify, srv,
			     MHD_OPTION_PER_IP_CONNECTION_LIMIT, a->perip,
			     MHD_OPTION_CONNECTION_TIMEOUT, a->timeout,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)FW_CONN_POOL,
			     MHD_OPTION_NOTIFY_COMPLETED, fw_http_completed, srv,
			     MHD_OPTION_UNESCAPE_CALLBACK, fw_http_no_unescape, NULL,
			     MHD_OPTION_URI_LOG_CALLBACK, fw_req_uri_seen, NULL,
			     a->certf ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, cert->buf,
			     MHD_OPTION_HTTPS_MEM_KEY, key->buf,
			     MHD_OPTION_END);
	if (!d)
		fprintf(stderr, "serve: libmicrohttpd did not start on %s\n", a->listen);
	return d;
}

/* Until SIGINT/SIGTERM; then stop accepting, let handlers in flight finish, stop. */
static void serve_until_signal(struct MHD_Daemon *d, struct fw_server *srv, const sigset_t *sigs)
{
	MHD_socket quiesced;
	int sig;

	do {
		if (sigwait(sigs, &sig))
			break;
	} while (sig != SIGINT && sig != SIGTERM);
	fprintf(stderr, "serve: signal %d: finishing requests in flight\n", sig);
	/* Stop accepting; then wait (bounded) for running handlers, e.g. an ingest's COMMIT. */
	quiesced = MHD_quiesce_daemon(d);
	for (int i = 0; i < 100 && atomic_load(&srv->inflight) > 0; i++) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	MHD_stop_daemon(d);
	/* After quiescing, closing the socket is ours, and only after MHD_stop_daemon. */
	if (quiesced != MHD_INVALID_SOCKET)
		close(quiesced);
}

int cmd_serve(int argc, char **argv)
{
	struct serve_args a;
	struct fw_server srv;
	struct strbuf cert = STRBUF_INIT, key = STRBUF_INIT;
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	sigset_t sigs;
	int ret = 1, lfd = -1;

	memset(&srv, 0, sizeof(srv));
	pthread_mutex_init(&srv.pool_lock, NULL);
	pthread_mutex_init(&srv.prune_lock, NULL);
	ret = serve_parse_args(argc, argv, &a);
	if (ret >= 0)
		goto cleanup;
	ret = 1;
	srv.dbpath = a.dbpath;
	if (serve_prepare(&srv, &a, &lfd, &cert, &key))
		goto cleanup;

	/* Block the signals before MHD starts its threads: they inherit the mask and main sigwait()s. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);

	/* after the mask: the threads must not take SIGTERM from main's sigwait() */
	{
		struct strbuf err = STRBUF_INIT;
		int bad = fw_notify_start(&srv.notify, srv.dbpath, &a.notify, &err);

		if (bad)
			fprintf(stderr, "serve: %s\n", err.buf);
		strbuf_release(&err);
		if (bad)
			goto cleanup;
		fw_ui_set_notify(&srv.notify);  /* pages ask it to analyse a slow series */
	}
	d = serve_start(&srv, &a, lfd, &cert, &key);
	/* Started, MHD owns the socket; failed, some of its paths close it, some do not: leave it to exit(). */
	lfd = -1;
	if (!d)
		goto cleanup;
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	printf("foliowatch-server: listening on %s://%s:%u (db %s)\n", a.certf ? "https" : "http",
	       inet_ntoa(a.sa.sin_addr), info ? info->port : ntohs(a.sa.sin_port), srv.dbpath);
	fflush(stdout);
	serve_until_signal(d, &srv, &sigs);
	ret = 0;
cleanup:
	if (lfd >= 0)
		close(lfd);
	fw_ui_set_notify(NULL);
	fw_notify_stop(&srv.notify);  /* after the daemon: no request can queue a refresh now */
	fw_rc_free(&srv);
	fw_server_release(&srv);
	free(srv.static_dir);
	free(srv.cache_dir);
	strbuf_release(&cert);
	strbuf_release(&key);
	pthread_mutex_destroy(&srv.pool_lock);
	return ret;
}
