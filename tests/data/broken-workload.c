/*
 * A user workload program that goes wrong on purpose (tests/t3110-user-workloads.sh):
 * argv[1] says how. ok prints what the manifest asks for; exit1 prints it
 * and exits 1; missing prints no metric; garbage prints a value that is not
 * a number; hang never ends (its manifest's timeout_s ends it).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "ok";

	printf("a line of the program's own, not read\n");
	if (!strcmp(how, "missing"))
		return 0;
	if (!strcmp(how, "garbage")) {
		printf("metric wall_s twelve\n");
		return 0;
	}
	if (!strcmp(how, "hang"))
		for (;;)
			pause();
	printf("metric wall_s 0.25\ncounter runs 1\n");
	return !strcmp(how, "exit1") ? 1 : 0;
}
