/* clawmd.c - the entry point: dispatch to cmd_<name> through one table. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
};

static void usage(FILE *f)
{
	fprintf(f, "usage: clawmd <command> [options]\n\nCommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'clawmd <command> --help' describes a command.\n"
		   "Exit status: 0 success, 1 drift or findings, 2 usage, 3 invalid input,\n"
		   "4 filesystem or safety refusal, 5 lock timeout.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *name = argv[1];
	if (!strcmp(name, "-h") || !strcmp(name, "--help") || !strcmp(name, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("clawmd %s\n", CLAWMD_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(name, commands[i].name))
			continue;
		int st = commands[i].fn(argc - 1, argv + 1);
		/* Output cut short (a full disk, a closed pipe) must not pass
		 * for a clean --check. */
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "clawmd: could not write the output\n");
			return st ? st : 4;
		}
		return st;
	}
	fprintf(stderr, "clawmd: '%s' is not a command\n", name);
	usage(stderr);
	return 2;
}

bool cmd_layout_opt(struct cmd_layout_opts *o, int opt, const char *arg)
{
	static const char *const keys[] = {"preset", "base",  "skills",	      "groups",	      "modules",
					   "state",  "mode", "lock_timeout", "import_local"};
	if (opt == 'C') {
		o->root = arg;
		return true;
	}
	if (opt < OPT_LAYOUT || opt >= OPT_LAYOUT + (int)(sizeof(keys) / sizeof(keys[0])))
		return false;
	if (o->n == (int)(sizeof(o->keys) / sizeof(o->keys[0]))) {
		fprintf(stderr, "clawmd: too many layout options\n");
		exit(2);
	}
	o->keys[o->n] = keys[opt - OPT_LAYOUT];
	o->values[o->n] = arg ? arg : "true";
	o->n++;
	return true;
}

int cmd_layout_open(struct clawmd_layout *lay, const struct cmd_layout_opts *o)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	clawmd_layout_init(lay);
	/* A preset goes first so that later flags refine it. */
	int rc = clawmd_layout_load(lay, o->root, &err);
	for (int i = 0; rc == 0 && i < o->n; i++)
		if (!strcmp(o->keys[i], "preset"))
			rc = clawmd_layout_set(lay, o->keys[i], o->values[i], &err);
	for (int i = 0; rc == 0 && i < o->n; i++)
		if (strcmp(o->keys[i], "preset"))
			rc = clawmd_layout_set(lay, o->keys[i], o->values[i], &err);
	if (rc < 0) {
		clawmd_layout_release(lay);
		return cmd_fail(&err);
	}
	return 0;
}

int cmd_fail(const struct clawmd_err *err)
{
	fprintf(stderr, "clawmd: %s\n", err->msg[0] ? err->msg : "unknown error");
	int st = clawmd_err_exit_status(err->code);
	return st ? st : 4;
}

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "clawmd %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'clawmd %s --help'.\n", cmd);
	return 2;
}

bool cmd_use_colour(FILE *f)
{
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		return false;
	return isatty(fileno(f));
}
