#ifndef FW_COLLECT_COMMANDS_H
#define FW_COLLECT_COMMANDS_H
#include "cmdopt.h"
#include "qemu.h"

/* foliowatch-collect subcommands, one file each (collector/cmd-*.c); main.c holds the table. */
int cmd_series(int argc, char **argv);
int cmd_post(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_boot(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_workload(int argc, char **argv);
/* run's options (lib/cmdopt.h): watch accepts and documents most of them too. */
extern const struct fw_option fw_run_options[];

/*
 * Test-boots kernel under accel (no initramfs: the kernel must get as far
 * as its "no root" panic, which proves it ran). 1 works, 0 does not; why gets the reason.
 */
int fw_probe_accel(const char *kernel, enum fw_accel a, double timeout_s, char *why, size_t n);
/* auto: kvm if its test boot works (verdict cached per QEMU and host kernel), else tcg. */
enum fw_accel fw_probe_auto(const char *kernel);
/* Newest <cache>/kernels/x/bzImage into out; -1 if there is none. */
int fw_find_cached_kernel(char *out, size_t n);

#endif
