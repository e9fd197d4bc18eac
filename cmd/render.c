/* render.c - placeholder until the subcommand lands. */
#include "cmd.h"

int cmd_render(int argc, char **argv)
{
	fprintf(stderr, "clawmd render: not implemented yet\n");
	return 2;
}
