/* check.c - placeholder until the subcommand lands. */
#include "cmd.h"

int cmd_check(int argc, char **argv)
{
	fprintf(stderr, "clawmd check: not implemented yet\n");
	return 2;
}
