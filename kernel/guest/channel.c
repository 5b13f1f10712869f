/*
 * Result channel writer, format 1 (kernel/result-channel.md):
 *   FW1 <seq> <type> <key=value>... *<crc32 of the bytes before " *">
 * Values are percent-encoded outside [A-Za-z0-9._,:+-]. The sequence number
 * lives in a MAP_SHARED page so that workload children forked from PID 1
 * continue the same sequence without gaps.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <termios.h>
#include <unistd.h>
#include "crc32.h"
#include "fw.h"

struct chan_state {
	int fd;
	unsigned seq;
};
static struct chan_state *chan;

int chan_open(const char *path)
{
	struct termios tio;
	int ret = -1;

	chan = mmap(NULL, sizeof(*chan), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (chan == MAP_FAILED) {
		chan = NULL;
		fail("mmap channel state: %s", strerror(errno));
		goto cleanup;
	}
	chan->seq = 0;
	chan->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (chan->fd < 0) {
		fail("open %s: %s", path, strerror(errno));
		goto cleanup;
	}
	/* A tty would turn \n into \r\n (OPOST/ONLCR): the host file must get
	 * exactly the bytes the CRC covers. */
	if (isatty(chan->fd)) {
		if (tcgetattr(chan->fd, &tio) < 0) {
			fail("tcgetattr %s: %s", path, strerror(errno));
			goto cleanup;
		}
		cfmakeraw(&tio);
		if (tcsetattr(chan->fd, TCSANOW, &tio) < 0) {
			fail("tcsetattr %s: %s", path, strerror(errno));
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	return ret;
}

unsigned chan_count(void)
{
	return chan ? chan->seq : 0;
}

void rec_start(struct fw_rec *r, const char *type)
{
	snprintf(r->type, sizeof(r->type), "%s", type);
	r->len = 0;
	r->body[0] = '\0';
	r->overflow = 0;
}

static int plain_byte(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || strchr("._,:+-", c) != NULL;
}

static void put_encoded(struct fw_rec *r, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (r->len + 4 >= sizeof(r->body)) {
			r->overflow = 1;
			return;
		}
		if (c && plain_byte(c)) {
			r->body[r->len++] = (char)c;
		} else {
			r->body[r->len++] = '%';
			r->body[r->len++] = hex[c >> 4];
			r->body[r->len++] = hex[c & 15];
		}
	}
	r->body[r->len] = '\0';
}

void rec_kv(struct fw_rec *r, const char *key, const char *val)
{
	if (r->len + 2 >= sizeof(r->body)) {
		r->overflow = 1;
		return;
	}
	r->body[r->len++] = ' ';
	put_encoded(r, key);
	if (r->len + 2 >= sizeof(r->body)) {
		r->overflow = 1;
		return;
	}
	r->body[r->len++] = '=';
	r->body[r->len] = '\0';
	put_encoded(r, val);
}

void rec_kvu(struct fw_rec *r, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	rec_kv(r, key, buf);
}

void rec_kvi(struct fw_rec *r, const char *key, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	rec_kv(r, key, buf);
}

void rec_kvd(struct fw_rec *r, const char *key, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.9g", v);
	rec_kv(r, key, buf);
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int muted;

void chan_mute(int on)
{
	muted = on;
}

int rec_emit(struct fw_rec *r)
{
	char line[FW_REC_MAX + 128];
	int n, ret = -1;
	uint32_t crc;

	if (muted && strcmp(r->type, "profile"))
		return 0;
	if (!chan || chan->fd < 0)
		goto cleanup;
	if (r->overflow) {
		/* Never a truncated record: say so in a record that fits. */
		logmsg("record of type %s too long, dropped", r->type);
		rec_start(r, "error");
		rec_kv(r, "workload", "init");
		rec_kv(r, "variant", "none");
		rec_kv(r, "msg", "record too long for the channel");
	}
	n = snprintf(line, sizeof(line), "FW1 %u %s%s", chan->seq, r->type, r->body);
	if (n < 0 || (size_t)n + 12 >= sizeof(line))
		goto cleanup;
	crc = crc32_update(0, line, (size_t)n);
	n += snprintf(line + n, sizeof(line) - (size_t)n, " *%08x\n", crc);
	if (write_all(chan->fd, line, (size_t)n) < 0) {
		logmsg("result channel write: %s", strerror(errno));
		goto cleanup;
	}
	chan->seq++;
	ret = 0;
cleanup:
	return ret;
}

int emit_error(const char *wl, const char *variant, const char *fmt, ...)
{
	struct fw_rec r;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	logmsg("error: %s/%s: %s", wl, variant, msg);
	rec_start(&r, "error");
	rec_kv(&r, "workload", wl);
	rec_kv(&r, "variant", variant);
	rec_kv(&r, "msg", msg);
	return rec_emit(&r);
}

int emit_info(const char *key, const char *val)
{
	struct fw_rec r;

	rec_start(&r, "info");
	rec_kv(&r, key, val);
	return rec_emit(&r);
}

static int sample(const char *wl, const char *variant, const struct fw_metric *m,
		  int round, double value, int diag)
{
	struct fw_rec r;

	rec_start(&r, "sample");
	rec_kv(&r, "workload", wl);
	rec_kv(&r, "variant", variant);
	rec_kv(&r, "metric", m->name);
	rec_kv(&r, "unit", m->unit);
	rec_kv(&r, "direction", m->direction);
	rec_kv(&r, "kind", m->kind);
	rec_kvi(&r, "round", round);
	if (diag)
		rec_kv(&r, "diag", "1");
	rec_kvd(&r, "value", value);
	return rec_emit(&r);
}

int emit_sample(const char *wl, const char *variant, const struct fw_metric *m,
		int round, double value)
{
	return sample(wl, variant, m, round, value, 0);
}

int emit_diag_sample(const char *wl, const char *variant, const struct fw_metric *m,
		     int round, double value)
{
	return sample(wl, variant, m, round, value, 1);
}
