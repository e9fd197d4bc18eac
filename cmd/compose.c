/* compose.c - placeholder until the subcommand lands. */
#include "cmd.h"

int cmd_compose(int argc, char **argv)
{
	fprintf(stderr, "clawmd compose: not implemented yet\n");
	return 2;
}
