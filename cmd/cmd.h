/*
 * cmd.h - what the subcommands share: the dispatch table entries, the
 * options every subcommand accepts for finding ROOT and the layout, and the
 * conventions for printing errors.
 *
 * Each subcommand is cmd_<name>(argc, argv) in cmd/<name>.c and returns the
 * process exit status (0 success, 1 drift/findings, 2 usage, 3 invalid
 * input, 4 filesystem or safety refusal, 5 lock timeout).
 */
#ifndef CLAWMD_CMD_H
#define CLAWMD_CMD_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "clawmd.h"

int cmd_compose(int argc, char **argv);
int cmd_migrate(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_status(int argc, char **argv);

/*
 * Layout options, shared by every subcommand: getopt_long() entries and the
 * help text.  Values >= 0x100 so they never clash with short options.
 */
enum {
	OPT_ROOT = 'C',
	OPT_LAYOUT = 0x100, /* --base, --skills, ... carry their key in .flag */
	OPT_HELP_LONG = 0x1ff,
};

#define CMD_LAYOUT_LONGOPTS                                                                        \
	{"root", required_argument, NULL, 'C'},                                                    \
	{"preset", required_argument, NULL, OPT_LAYOUT + 0},                                       \
	{"base", required_argument, NULL, OPT_LAYOUT + 1},                                         \
	{"skills", required_argument, NULL, OPT_LAYOUT + 2},                                       \
	{"groups", required_argument, NULL, OPT_LAYOUT + 3},                                       \
	{"modules", required_argument, NULL, OPT_LAYOUT + 4},                                      \
	{"state", required_argument, NULL, OPT_LAYOUT + 5},                                        \
	{"mode", required_argument, NULL, OPT_LAYOUT + 6},                                         \
	{"lock-timeout", required_argument, NULL, OPT_LAYOUT + 7},                                 \
	{"import-local", no_argument, NULL, OPT_LAYOUT + 8},                                       \
	{"help", no_argument, NULL, 'h'}

#define CMD_LAYOUT_HELP                                                                            \
	"Layout options (also set in ROOT/clawmd.json):\n"                                         \
	"  -C, --root DIR        the host root (default: $CLAWMD_ROOT, else the git\n"            \
	"                        work tree containing the current directory)\n"                   \
	"      --preset NAME     start from a preset layout: default or nanoclaw\n"               \
	"      --base FILE       shared base (default ROOT/container/CLAUDE.md)\n"                \
	"      --skills DIR      skills directory (default ROOT/skills)\n"                        \
	"      --groups DIR      groups directory (default ROOT/groups)\n"                        \
	"      --modules DIR     module fragments directory (default: none)\n"                    \
	"      --state DIR       host-only state: locks, records (default ROOT/.clawmd)\n"        \
	"      --mode MODE       fragments as 'copy' (default) or 'symlink'\n"                    \
	"      --lock-timeout S  seconds to wait for a group's lock (default 30)\n"               \
	"      --import-local    also import CLAUDE.local.md from the composed entry\n"           \
	"  -h, --help            this help\n"

struct cmd_layout_opts {
	const char *root;
	const char *keys[64];
	const char *values[64];
	int n;
};

/* Record a layout option; false when `opt` is not one. */
bool cmd_layout_opt(struct cmd_layout_opts *o, int opt, const char *arg);
/* Load the layout (ROOT, clawmd.json, then the flags); prints on error. */
int cmd_layout_open(struct clawmd_layout *lay, const struct cmd_layout_opts *o);

/* Print "clawmd: <msg>" and return the exit status for err's code. */
int cmd_fail(const struct clawmd_err *err);
/* Print "clawmd <cmd>: <msg>" plus the help hint; returns 2. */
int cmd_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Colour escapes are used only on a terminal and never with NO_COLOR. */
bool cmd_use_colour(FILE *f);

#endif
