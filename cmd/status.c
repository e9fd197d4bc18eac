/* status.c - placeholder until the subcommand lands. */
#include "cmd.h"

int cmd_status(int argc, char **argv)
{
	fprintf(stderr, "clawmd status: not implemented yet\n");
	return 2;
}
