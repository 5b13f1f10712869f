/* foliowatch-collect: builds, boots and measures kernels; one file per subcommand. */
#include "commands.h"
#include "subcommand.h"
#include "kernel-build.h"

static const struct fw_subcommand commands[] = {
	{ "boot", cmd_boot, "one measured boot of a kernel image" },
	{ "kernel", cmd_kernel, "build (or reuse) a kernel, print its bzImage" },
	{ "post", cmd_post, "send run documents to a server (spooled when it is unreachable)" },
	{ "probe", cmd_probe, "which accelerators (kvm, tcg, icount) boot a kernel here" },
	{ "run", cmd_run, "measure a patch series: build and boot every commit" },
	{ "watch", cmd_watch, "measure the new commits of a branch, continuously or once" },
	{ "bisect", cmd_bisect, "find the commit where a metric moved between two measured commits" },
	{ "series", cmd_series, "list the commits a run would measure" },
	{ "workload", cmd_workload, "check your own workload's folder, or try its program here" },
};

int main(int argc, char **argv)
{
	return fw_subcommand_main("foliowatch-collect", commands, sizeof(commands) / sizeof(commands[0]), argc, argv);
}
