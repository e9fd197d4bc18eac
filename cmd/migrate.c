/* migrate.c - placeholder until the subcommand lands. */
#include "cmd.h"

int cmd_migrate(int argc, char **argv)
{
	fprintf(stderr, "clawmd migrate: not implemented yet\n");
	return 2;
}
