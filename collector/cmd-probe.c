/* `foliowatch-collect probe`: which accelerators really boot a kernel here. */
#include "cmdopt.h"
#include "commands.h"
#include "lock.h"
#include "cache.h"
#include "run-doc-build.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int fw_find_cached_kernel(char *out, size_t n)
{
	char root[4096], dir[4200], cand[8400];
	time_t best = 0;
	struct dirent *de;
	DIR *d;

	fw_cache_root(root, sizeof(root));
	snprintf(dir, sizeof(dir), "%s/kernels", root);
	if (!(d = opendir(dir)))
		return -1;
	while ((de = readdir(d))) {
		struct stat st;
		if (de->d_name[0] == '.')
			continue;
		snprintf(cand, sizeof(cand), "%s/%s/bzImage", dir, de->d_name);
		/* the newest finished build: kernels/ only ever holds renamed-into-place builds */
		if (!stat(cand, &st) && S_ISREG(st.st_mode) && st.st_mtime >= best) {
			best = st.st_mtime;
			snprintf(out, n, "%s", cand);
		}
	}
	closedir(d);
	return best ? 0 : -1;
}

int fw_probe_accel(const char *kernel, enum fw_accel a, double timeout_s, char *why, size_t n)
{
	struct fw_qemu_opts o = { 0 };
	struct fw_boot b;
	char tmpl[] = "/tmp/fw-probe.XXXXXX", console[64];
	int works = 0;

	if (!mkdtemp(tmpl)) {
		snprintf(why, n, "cannot create a temp dir");
		return 0;
	}
	snprintf(console, sizeof(console), "%s/console.log", tmpl);
	o.accel = a;
	o.vcpus = 1;
	o.memory_mib = 256;
	o.kernel = kernel;
	/* no initramfs and no root: a kernel that runs ends in its "VFS: Unable to mount root" panic */
	o.append = "console=ttyS0 panic=-1";
	o.console_path = console;
	o.timeout_s = timeout_s;
	if (fw_qemu_boot(&o, &b) < 0) {
		snprintf(why, n, "%s", b.reason);
	} else if (b.timed_out) {
		snprintf(why, n, "test boot did not finish in %.0f s (QEMU killed)%s", timeout_s,
			 b.saw_linux ? "" : "; no kernel output");
	} else if (!b.saw_linux) {
		snprintf(why, n, "no kernel output (%s)", b.reason[0] ? b.reason : "QEMU exited");
	} else {
		works = 1;
		snprintf(why, n, "test boot %.1f s", b.seconds);
	}
	unlink(console);
	rmdir(tmpl);
	fw_boot_release(&b);
	return works;
}

enum fw_accel fw_probe_auto(const char *kernel)
{
	struct fw_hostfacts h;
	char root[4096], path[4200], line[512] = "", key[450], why[300];
	FILE *fp;
	int works;

	if (access("/dev/kvm", R_OK | W_OK))
		return FW_ACCEL_TCG;
	/* a 20 s test boot per run would be a tax: remember the verdict per QEMU + host kernel */
	fw_hostfacts_collect(&h, "probe", NULL);
	snprintf(key, sizeof(key), "%s|%s", h.qemu_version, h.host_kernel);
	fw_cache_root(root, sizeof(root));
	snprintf(path, sizeof(path), "%s/kvm-probe", root);
	if ((fp = fopen(path, "r"))) {
		if (!fgets(line, sizeof(line), fp))
			line[0] = '\0';
		fclose(fp);
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, key, strlen(key)) && line[strlen(key)] == '|')
			return !strcmp(line + strlen(key) + 1, "yes") ? FW_ACCEL_KVM : FW_ACCEL_TCG;
	}
	works = fw_probe_accel(kernel, FW_ACCEL_KVM, 20, why, sizeof(why));
	fprintf(stderr, "foliowatch: kvm probe: %s (%s)\n", works ? "works" : "does not work", why);
	if ((fp = fopen(path, "w"))) {
		fprintf(fp, "%s|%s\n", key, works ? "yes" : "no");
		fclose(fp);
	}
	return works ? FW_ACCEL_KVM : FW_ACCEL_TCG;
}

int cmd_probe(int argc, char **argv)
{
	static const struct {
		enum fw_accel a;
		double timeout;
	} modes[] = { { FW_ACCEL_KVM, 20 }, { FW_ACCEL_TCG, 120 }, { FW_ACCEL_ICOUNT, 180 } };
	static const struct fw_option opts[] = {
		{ "kernel", 0, required_argument, 'k', "bzImage", "the newest kernel in the cache",
		  "the kernel to test-boot" },
		{ 0 },
	};
	static const struct fw_usage usage = { "foliowatch-collect", "probe", "[--kernel bzImage]",
		"Test-boots a kernel (no initramfs: it must get as far as its \"no root\"\n"
		"panic) under each accelerator and says which work here: kvm (if /dev/kvm is\n"
		"usable), tcg, icount. Takes up to about 5 minutes.\n"
		"Exit: 0 probed, 1 no kernel to probe with, 2 usage error.",
		opts, "\n--kernel \"$(foliowatch-collect kernel)\"" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	char kernel[8400] = "", why[300];
	int opt;

	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		if (opt != 'k')
			return g.exit;
		snprintf(kernel, sizeof(kernel), "%s", optarg);
	}
	if (optind != argc)
		return fw_usage_error(&usage, "unexpected argument '%s'", argv[optind]);
	if (!*kernel && fw_find_cached_kernel(kernel, sizeof(kernel))) {
		fprintf(stderr, "foliowatch-collect probe: no cached kernel (build one with "
			"`foliowatch-collect kernel`, or pass --kernel)\n");
		return 1;
	}
	printf("kernel: %s\n", kernel);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		int works;
		if (modes[i].a == FW_ACCEL_KVM && access("/dev/kvm", R_OK | W_OK)) {
			printf("kvm: no (/dev/kvm is not usable)\n");
			continue;
		}
		works = fw_probe_accel(kernel, modes[i].a, modes[i].timeout, why, sizeof(why));
		printf("%s: %s (%s)\n", fw_accel_name(modes[i].a), works ? "yes" : "no", why);
		fflush(stdout);
	}
	return 0;
}
