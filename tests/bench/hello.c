/* libmicrohttpd hello-world, same daemon flags as `serve`: the baseline for wrk figures.
 *   hello PORT [BYTES]: with BYTES, answers a body of that size instead of "hello\n":
 *   the ceiling for an answer of that size on this machine (loopback copying).
 * cc -O2 -o build/bench-hello tests/bench/hello.c $(pkg-config --cflags --libs libmicrohttpd) */
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static char hello_text[] = "hello\n"; /* an array: a literal is const under -Wwrite-strings */
static char *body = hello_text;
static size_t body_len = 6;

static enum MHD_Result hello(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			     const char *version, const char *data, size_t *size, void **ptr)
{
	static int seen;
	struct MHD_Response *r;
	enum MHD_Result ret;

	(void)cls; (void)url; (void)method; (void)version; (void)data; (void)size;
	/* Answer on the second call, as `serve` does: a response queued on the first
	 * call (headers only) makes libmicrohttpd close the connection (no keep-alive),
	 * which would make this baseline slower than the server it is a baseline for. */
	if (!*ptr) {
		*ptr = &seen;
		return MHD_YES;
	}
	r = MHD_create_response_from_buffer(body_len, body, MHD_RESPMEM_PERSISTENT);
	ret = MHD_queue_response(c, 200, r);
	MHD_destroy_response(r);
	return ret;
}

int main(int argc, char **argv)
{
	sigset_t s;
	int sig;
	struct MHD_Daemon *d;

	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	if (argc > 2) {
		body_len = strtoul(argv[2], NULL, 10);
		body = malloc(body_len + 1);
		if (!body)
			return 1;
		for (size_t i = 0; i < body_len; i++)
			body[i] = (char)('a' + i % 26);
	}
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC, (uint16_t)atoi(argc > 1 ? argv[1] : "8081"),
			     NULL, NULL, hello, NULL, MHD_OPTION_THREAD_POOL_SIZE, 4u,
			     MHD_OPTION_CONNECTION_LIMIT, 256u, MHD_OPTION_END);
	if (!d)
		return 1;
	sigwait(&s, &sig);
	MHD_stop_daemon(d);
	return 0;
}
