/*
 * The listening socket of `serve`: one server per address.
 *
 * libmicrohttpd was given MHD_OPTION_LISTENING_ADDRESS_REUSE 1, i.e.
 * SO_REUSEPORT: a second server on the same address started fine and the
 * kernel split connections between the two (issue 20). MHD's other choices do
 * not fit either: value 0 binds without SO_REUSEADDR on Linux, so a restart
 * fails while the last run's connections are in TIME_WAIT, and leaving the
 * option out binds right but MHD's failure says nothing we can pass on. So the
 * socket is made here (SO_REUSEADDR on, SO_REUSEPORT off) and handed to MHD
 * with MHD_OPTION_LISTEN_SOCKET.
 *
 * With SO_REUSEADDR Linux still refuses a bind (or listen) to an address where
 * a socket is listening; TIME_WAIT connections of a stopped server (that had
 * SO_REUSEADDR too) do not block it. On EADDRINUSE the listener is looked up in
 * /proc/net/tcp{,6} and its pid in /proc/PID/fd (only our own user's processes
 * are readable there without privileges).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "listen.h"

#define TCP_LISTEN 0x0A  /* st column of /proc/net/tcp */

void fw_listen_format(const struct sockaddr_in *sa, char out[32])
{
	char host[INET_ADDRSTRLEN];

	if (!inet_ntop(AF_INET, &sa->sin_addr, host, sizeof(host)))
		strcpy(host, "?");
	snprintf(out, 32, "%s:%u", host, (unsigned)ntohs(sa->sin_port));
}

/* Does a listener on local address a (raw network order) conflict with a bind to sa? */
static int conflicts(const struct sockaddr_in *sa, uint32_t a)
{
	return sa->sin_addr.s_addr == htonl(INADDR_ANY) || a == htonl(INADDR_ANY) ||
	       a == sa->sin_addr.s_addr;
}

/*
 * A listening socket on sa's port that a bind to sa conflicts with: its inode
 * and owner. The addresses in /proc/net/tcp are the raw 32-bit words printed
 * with %08X, so parsing one back gives the same bytes as s_addr; ports are in
 * host order. In tcp6, [::] (dual-stack unless IPV6_V6ONLY) and ::ffff:a.b.c.d
 * count. 0 when found.
 */
static int find_listener(const struct sockaddr_in *sa, unsigned long *inode, unsigned *uid)
{
	static const char *const files[] = { "/proc/net/tcp", "/proc/net/tcp6" };
	unsigned port = ntohs(sa->sin_port);

	for (int f = 0; f < 2; f++) {
		FILE *fp = fopen(files[f], "r");
		char line[512];

		if (!fp)
			continue;
		if (!fgets(line, sizeof(line), fp)) {  /* header */
			fclose(fp);
			continue;
		}
		while (fgets(line, sizeof(line), fp)) {
			char local[33];
			unsigned lport, st, u;
			unsigned long ino;
			uint32_t w[4];
			int match;

			if (sscanf(line, " %*u: %32[0-9A-Fa-f]:%x %*[0-9A-Fa-f]:%*x %x %*x:%*x %*x:%*x %*x %u %*u %lu",
				   local, &lport, &st, &u, &ino) != 5 || st != TCP_LISTEN || lport != port)
				continue;
			if (f == 0) {
				match = strlen(local) == 8 && conflicts(sa, (uint32_t)strtoul(local, NULL, 16));
			} else {
				if (strlen(local) != 32)
					continue;
				for (int i = 3; i >= 0; i--) {
					local[8 * (i + 1)] = 0;
					w[i] = (uint32_t)strtoul(local + 8 * i, NULL, 16);
				}
				match = !w[0] && !w[1] &&
					((!w[2] && !w[3]) || (w[2] == htonl(0xffff) && conflicts(sa, w[3])));
			}
			if (match) {
				*inode = ino;
				*uid = u;
				fclose(fp);
				return 0;
			}
		}
		fclose(fp);
	}
	return -1;
}

/* A process with socket inode ino among its descriptors (readable ones only); 0: none found. */
static long find_pid(unsigned long ino)
{
	char want[40], path[64], link[64];
	struct dirent *p, *fd;
	DIR *proc = opendir("/proc"), *fds;
	long found = 0;

	if (!proc)
		return 0;
	snprintf(want, sizeof(want), "socket:[%lu]", ino);
	while (!found && (p = readdir(proc))) {
		if (strspn(p->d_name, "0123456789") != strlen(p->d_name) || atol(p->d_name) == (long)getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/fd", p->d_name);
		if (!(fds = opendir(path)))
			continue;
		while ((fd = readdir(fds))) {
			ssize_t n;

			snprintf(path, sizeof(path), "/proc/%.20s/fd/%.20s", p->d_name, fd->d_name);
			n = readlink(path, link, sizeof(link) - 1);
			if (n <= 0)
				continue;
			link[n] = 0;
			if (!strcmp(link, want)) {
				found = atol(p->d_name);
				break;
			}
		}
		closedir(fds);
	}
	closedir(proc);
	return found;
}

static void describe_in_use(const struct sockaddr_in *sa, const char *addr, struct strbuf *err)
{
	unsigned long ino;
	unsigned uid;
	long pid;

	strbuf_addf(err, "cannot listen on %s: address already in use", addr);
	if (find_listener(sa, &ino, &uid)) {
		strbuf_addstr(err, " (by a socket that is not listening: another program may hold it)");
		return;
	}
	strbuf_addstr(err, ": another process is listening there");
	pid = ino ? find_pid(ino) : 0;
	if (pid) {
		char path[40], comm[32] = "";
		FILE *fp;

		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		if ((fp = fopen(path, "r"))) {
			if (fgets(comm, sizeof(comm), fp))
				comm[strcspn(comm, "\n")] = 0;
			fclose(fp);
		}
		strbuf_addf(err, " (pid %ld%s%s)", pid, comm[0] ? ", " : "", comm);
	} else {
		strbuf_addf(err, " (uid %u; its pid is not visible to this user)", uid);
	}
	strbuf_addstr(err, "; one server per address: stop that one or choose another --listen");
}

int fw_listen_open(const struct sockaddr_in *sa, struct strbuf *err)
{
	char addr[32];
	int fd, on = 1, off = 0;

	fw_listen_format(sa, addr);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		strbuf_addf(err, "cannot listen on %s: socket: %s", addr, strerror(errno));
		return -1;
	}
	/* SO_REUSEPORT is off by default; said here so that nobody turns it on in passing. */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &off, sizeof(off))) {
		strbuf_addf(err, "cannot listen on %s: setsockopt: %s", addr, strerror(errno));
		close(fd);
		return -1;
	}
	/* listen() checks again: two servers may both bind before either listens. */
	if (bind(fd, (const struct sockaddr *)sa, sizeof(*sa)) || listen(fd, SOMAXCONN)) {
		int e = errno;

		close(fd);
		if (e == EADDRINUSE)
			describe_in_use(sa, addr, err);
		else
			strbuf_addf(err, "cannot listen on %s: %s", addr, strerror(e));
		return -1;
	}
	return fd;
}
