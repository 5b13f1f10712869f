/* foliowatch-collect: builds, boots and measures kernels; one file per subcommand. */
#include "commands.h"
#include "subcommand.h"
#include "kernel-build.h"

static const struct fw_subcommand commands[] = {
	{ "boot", cmd_boot, "boot --kernel bzImage [--workloads L] [--accel A] [--db F | --out F]  one measured boot" },
	{ "kernel", cmd_kernel, "kernel [--tree DIR] [--cache DIR] [--jobs N]  build (or reuse) a kernel, print its bzImage" },
	{ "post", cmd_post, "post --url URL --token-file F [--spool DIR] doc.json...  send run documents" },
	{ "probe", cmd_probe, "probe                          which accelerators (kvm, tcg, icount) boot a kernel here" },
	{ "run", cmd_run, "run --series S (--range A..B | --mbox F) [--boots N] [--interleave] [--db F | --post URL]  measure a series" },
	{ "watch", cmd_watch, "watch --tree DIR --branch NAME --series S [--interval S] [--once]  measure new commits of a branch" },
	{ "series", cmd_series, "series --tree DIR (--range A..B | --base REV --mbox F --worktree DIR)  list a series" },
};

int main(int argc, char **argv)
{
	return fw_subcommand_main("foliowatch-collect", commands, sizeof(commands) / sizeof(commands[0]), argc, argv);
}
