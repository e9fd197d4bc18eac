/* clawmd.c - the entry point: options before the command, then dispatch to
 * cmd_<name> through one table. */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{"compose", cmd_compose, "compose each group's CLAUDE.md (run at every spawn)"},
	{"migrate", cmd_migrate, "cut a legacy layout over, once, losing nothing"},
	{"render", cmd_render, "print exactly the memory Claude Code will load"},
	{"check", cmd_check, "lint instruction files and report findings"},
	{"status", cmd_status, "the fleet at a glance"},
	{"mounts", cmd_mounts, "the mounts a container runner needs for a group"},
	{"init", cmd_init, "scaffold a new layout (container/, skills/, groups/, clawmd.json)"},
	{"report", cmd_report, "one HTML page: every group, its size by source, its text"},
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct cmd_opt main_options[] = {
	{"version", 'V', NULL, "print the version"},
	{"quiet", 'q', NULL, "the command's -q: only errors (and findings)"},
	CMD_OPT_END,
};

static void usage(FILE *f)
{
	fprintf(f, "usage: clawmd [-q] [-C DIR|--root DIR] [layout options] <command> [options] [operands]\n"
		   "       clawmd help <command>\n"
		   "       clawmd -V|--version\n\nCommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "  %-9s %s\n", "help", "describe a command (as 'clawmd <command> --help')");
	fprintf(f, "\nOptions and operands may come in any order ('--' ends options); layout\n"
		   "options (-C DIR, --groups DIR, ...) and -q/--quiet go before or after the\n"
		   "command.\n"
		   "'clawmd <command> --help' describes a command.\n"
		   /* The one table of exit statuses: clawmd(1) and doc/layout.md
		    * hold the same rows, word for word (t67 compares them). */
		   "\nExit status (the same causes in every command):\n"
		   "  0  success\n"
		   "  1  drift (compose --check) or error-level findings (check)\n"
		   "  2  usage: an unknown command or option, a bad value of a flag\n"
		   "  3  invalid input: clawmd.json, container.json, a name, a missing shared base;\n"
		   "     status: a group whose container.json is invalid\n"
		   "  4  filesystem or safety refusal: a missing group or groups directory, a\n"
		   "     symlinked group directory, a failed write\n"
		   "  5  lock timeout: a group's lock stayed taken for --lock-timeout seconds\n"
		   "  6  migrate: every group migrated but the failed ones, listed (the host may start)\n");
}

static int find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return (int)i;
	return -1;
}

static int unknown_command(const char *name)
{
	const char *cands[NCOMMANDS + 1];
	for (size_t i = 0; i < NCOMMANDS; i++)
		cands[i] = commands[i].name;
	cands[NCOMMANDS] = "help";
	const char *near = clawmd_spell_nearest(name, cands, NCOMMANDS + 1);
	char *e = cmd_escaped(name);
	if (near)
		fprintf(stderr, "clawmd: '%s' is not a command; did you mean '%s'? (see 'clawmd --help')\n",
			e, near);
	else
		fprintf(stderr, "clawmd: '%s' is not a command (see 'clawmd --help')\n", e);
	free(e);
	return 2;
}

/*
 * `clawmd __complete groups|commands|options CMD`: what the shell
 * completions offer, from the layout (clawmd.json included) and the option
 * tables, so they never go stale.  Not a documented command.
 */
static int complete(int argc, char **argv)
{
	struct cmd_layout_opts lo = cmd_layout_global;
	struct cmd_args a;
	int c;
	cmd_args_init(&a, "__complete", NULL, true, argc, argv);
	while ((c = cmd_args_next(&a)) > 0)
		if (c != OPT_COLOR) /* no colour here; a bad --color is no error */
			cmd_layout_opt(&lo, c, a.arg, a.spelled);
	const char *what = a.noperands ? a.operands[0] : "";
	int st = 0;
	if (!strcmp(what, "commands")) {
		for (size_t i = 0; i < NCOMMANDS; i++)
			printf("%s\t%s\n", commands[i].name, commands[i].summary);
	} else if (!strcmp(what, "groups")) {
		struct clawmd_root root;
		struct clawmd_err err = CLAWMD_ERR_INIT;
		char **v = NULL;
		size_t n = 0;
		if (c < 0 || cmd_root_open(&root, &lo, true)) {
			st = 1;
		} else {
			if (clawmd_groups_list(&v, &n, &root.lay, &err) == 0)
				for (size_t i = 0; i < n; i++)
					printf("%s\n", v[i]);
			clawmd_strv_free(v, n);
			clawmd_root_release(&root);
		}
	}
	cmd_args_release(&a);
	return st;
}

static int run(int k, int argc, char **argv)
{
	if (cmd_front && commands[k].fn != cmd_compose)
		cmd_handover(); /* the front composes, and nothing else */
	int st = commands[k].fn(argc, argv);
	/* Output cut short (a full disk, a closed pipe) must not pass for a
	 * clean --check. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "clawmd: could not write the output\n");
		return st ? st : 4;
	}
	return st;
}

int main(int argc, char **argv)
{
	/* Options before the command: the layout, --color, -h, -V.  The first
	 * operand is the command; everything after it is the command's. */
	struct cmd_args a;
	int c = 0, first = argc;
	cmd_argv = argv;
	cmd_args_init(&a, NULL, main_options, true, argc, argv);
	for (;;) {
		bool between = !a.bundle || !*a.bundle;
		if (between && a.i < argc && (argv[a.i][0] != '-' || !argv[a.i][1])) {
			first = a.i;
			break;
		}
		if (between && a.i < argc && !strcmp(argv[a.i], "--")) {
			first = a.i + 1;
			break;
		}
		if ((c = cmd_args_next(&a)) <= 0)
			break;
		if (c == 'h' || c == 'V')
			break;
		if (c == 'q') {
			cmd_quiet = true;
			continue;
		}
		if ((c = cmd_args_common(&a, c, &cmd_layout_global)) < 0)
			break;
	}
	cmd_args_release(&a);
	if (c < 0)
		return 2;
	if (c == 'h') {
		usage(stdout);
		cmd_help_layout();
		return 0;
	}
	if (c == 'V') {
		printf("clawmd %s\n", CLAWMD_VERSION);
		return 0;
	}
	if (first >= argc) {
		usage(stderr);
		return 2;
	}
	const char *name = argv[first];
	if (!strcmp(name, "help")) {
		if (first + 1 >= argc) {
			usage(stdout);
			cmd_help_layout();
			return 0;
		}
		int k = find_command(argv[first + 1]);
		if (k < 0)
			return unknown_command(argv[first + 1]);
		char *hv[] = {argv[first + 1], "--help", NULL};
		return run(k, 2, hv);
	}
	if (!strcmp(name, "__complete"))
		return complete(argc - first, argv + first);
	if (!strcmp(name, "version")) {
		printf("clawmd %s\n", CLAWMD_VERSION);
		return 0;
	}
	int k = find_command(name);
	if (k < 0)
		return unknown_command(name);
	return run(k, argc - first, argv + first);
}
