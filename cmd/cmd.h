/*
 * cmd.h - what the subcommands share: the dispatch table entries, one option
 * parser (GNU-style permutation: options and operands in any order, `--`
 * ends options), the layout options every subcommand accepts, and the
 * conventions for printing errors.
 *
 * Each subcommand is cmd_<name>(argc, argv) in cmd/<name>.c and returns the
 * process exit status (0 success, 1 drift/findings, 2 usage, 3 invalid
 * input, 4 filesystem or safety refusal, 5 lock timeout).  A subcommand's
 * options are one table of struct cmd_opt: the parser, the --help text and
 * the completion all come from it, so adding a flag is one table line and a
 * case in the subcommand's switch.
 */
#ifndef CLAWMD_CMD_H
#define CLAWMD_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "clawmd.h"

/*
 * The static front (cmd/front.c): the installed `clawmd` is linked
 * statically without any library loader, so that the per-spawn no-op
 * compose pays no dynamic loading.  It answers that run itself; for any
 * other, cmd_handover() replaces it with the full program,
 * BINDIR/../libexec/clawmd/clawmd, with the same arguments, before
 * anything was printed or written.  cmd_front is true only in the front.
 */
extern bool cmd_front;
extern char **cmd_argv; /* main()'s, for cmd_handover() */
__attribute__((noreturn)) void cmd_handover(void);

int cmd_compose(int argc, char **argv);
int cmd_migrate(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_mounts(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* One option.  `key` is the short option letter when it has one, else a
 * value >= 0x100 private to the subcommand.  `arg` names its value in the
 * help (NULL: the option takes none).  `help` may hold "\n" for more lines. */
struct cmd_opt {
	const char *name; /* the long name, without "--" */
	int key;
	const char *arg;
	const char *help;
};
#define CMD_OPT_END {NULL, 0, NULL, NULL}

/* Keys of the layout options (shared by every subcommand). */
enum {
	OPT_ROOT = 'C',
	OPT_HELP = 'h',
	OPT_LAYOUT = 0x100, /* --preset, --base, ... in the order of cmd_layout_options */
	OPT_LAYOUT_END = 0x120,
	OPT_COLOR = 0x121,  /* --color=WHEN, every subcommand */
	OPT_CMD = 0x200,    /* the first key a subcommand may use for itself */
};
extern const struct cmd_opt cmd_layout_options[];

struct cmd_layout_opts {
	const char *root;
	const char *keys[64];
	const char *values[64];
	const char *spelled[64]; /* the flag's long name, for messages */
	int n;
};

/* The layout options given before the command (clawmd -C DIR compose ...);
 * each subcommand starts from them. */
extern struct cmd_layout_opts cmd_layout_global;
/* -q/--quiet given before the command (clawmd -q compose ...), as git takes
 * its global options: each command starts quiet from it. */
extern bool cmd_quiet;

/* Colour: --color=auto (a terminal, not TERM=dumb, no NO_COLOR), always, never. */
enum cmd_color { CMD_COLOR_AUTO, CMD_COLOR_ALWAYS, CMD_COLOR_NEVER };
extern enum cmd_color cmd_color;

struct cmd_args {
	const char *cmd; /* "compose", for messages */
	const struct cmd_opt *opts;
	bool layout; /* the layout options are accepted too */
	int argc;
	char **argv;
	int i;
	const char *bundle; /* the rest of "-nq" */
	bool done;	    /* after "--" */
	const char *arg;    /* the option's value */
	char spelled[80];   /* the option as typed: "--dry-run", "-n" */
	char **operands;
	size_t noperands;
};

/* Start parsing argv[1..argc-1] (argv[0] is the command's name). */
void cmd_args_init(struct cmd_args *a, const char *cmd, const struct cmd_opt *opts, bool layout,
		   int argc, char **argv);
/*
 * The next option's key, with its value in a->arg; operands are collected in
 * a->operands.  0 at the end; -1 after a usage error was printed (one line,
 * with the nearest spelling of an unknown option).  The caller returns 2.
 * --help and --color are handled by the caller's default: cmd_args_common().
 */
int cmd_args_next(struct cmd_args *a);
void cmd_args_release(struct cmd_args *a);
/*
 * The options every subcommand shares, the default of its option switch:
 * a layout option into `lo`, --color.  `key`, or -1 after a usage error
 * was printed (a --color value not auto, always or never), so that the
 * loop reads: default: c = cmd_args_common(a, c, lo); ... if (c < 0) break;
 */
int cmd_args_common(struct cmd_args *a, int key, struct cmd_layout_opts *lo);

/* Print a subcommand's help: `head` (usage and description), its options
 * from the table, the layout options, then `foot` (exit statuses). */
void cmd_help(const char *head, const struct cmd_opt *opts, const char *foot);
/* The same without the layout options, for a command that takes none. */
void cmd_help_own(const char *head, const struct cmd_opt *opts, const char *foot);
/* The layout options and --color/--help, described: 'clawmd --help'. */
void cmd_help_layout(void);

/* Record a layout option; false when `key` is not one. */
bool cmd_layout_opt(struct cmd_layout_opts *o, int key, const char *arg, const char *spelled);
/* Load the layout (ROOT, clawmd.json, then the flags); prints on error.
 * Warnings about clawmd.json are printed unless `quiet`. */
int cmd_root_open(struct clawmd_root *root, const struct cmd_layout_opts *o, bool quiet);
/* Print the warnings about clawmd.json (what `quiet` held back). */
void cmd_layout_warn(const struct clawmd_layout *lay);
/*
 * Validate GROUP operands before anything is written: each must be a valid
 * name (else exit 3) naming a real directory under the groups directory
 * (else exit 4: missing, or a symlink).  Prints the first failure.
 */
int cmd_groups_check(const struct clawmd_root *root, char **groups, size_t n);
/*
 * The root (cmd_root_open) and the groups a command over the fleet works
 * on: the GROUP operands, checked as above, or every group of the root
 * when there are none.  0: *groups is the operands or the listing, which
 * *listed owns (NULL for operands; clawmd_strv_free(*listed, *n)); else
 * the exit status, printed, and the root released.
 */
int cmd_fleet_open(struct clawmd_root *root, const struct cmd_layout_opts *lo, bool quiet,
		   const struct cmd_args *a, char ***groups, char ***listed, size_t *n);
/* The root a --cwd DIR is in (-C, $CLAWMD_ROOT, ROOT found from DIR, else
 * the usual discovery), loaded with the layout flags; false
 * when there is none (quiet: the caller reads DIR as a plain tree). */
bool cmd_tree_root(struct clawmd_root *root, const struct cmd_layout_opts *lo, const char *dir);

/* "clawmd: <msg>" and "clawmd: warning: <msg>", escaped, on stderr. */
void cmd_put_error(const char *msg);
void cmd_put_warning(const char *msg);
/* The last message printed by cmd_put_error(), cmd_fail() or
 * cmd_usage_error() ("" before any). */
const char *cmd_last_error(void);
/* Print "clawmd: <msg>" and return the exit status for err's code. */
int cmd_fail(const struct clawmd_err *err);
/* Print "clawmd <cmd>: <msg> (see 'clawmd <cmd> --help')" on one line; returns 2. */
int cmd_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Colour escapes per --color, TERM=dumb and NO_COLOR. */
bool cmd_use_colour(FILE *f);
/*
 * Escaping (cmd/escape.c): one rule for every string that leaves clawmd.
 * Text: `s` with every control byte (newline, tab, ESC, DEL, a C1
 * control, ...) and every byte outside well-formed UTF-8 escaped as \n,
 * \t, \r or \xNN, so text the agent controls cannot forge a line, an
 * annotation or a terminal sequence.  Backslashes stay as they are: the
 * library's messages already carry escapes of their own.
 */
void cmd_put_escaped(FILE *f, const char *s);
/* The same for a data field read back by programs (render --format files):
 * backslashes are doubled too, so the escaping can be undone exactly. */
void cmd_put_field(FILE *f, const char *s);
/* The same, into a fresh string (caller frees). */
char *cmd_escaped(const char *s);
/* The same for multi-line text (a diff), line by line: each line is
 * escaped, the newlines that end lines are kept; appended to `out`. */
void cmd_escape_lines(struct clawmd_buf *out, const char *s, size_t len);
/* A path as an RFC 3986 URI reference: what is not unreserved, a
 * sub-delimiter, ':', '@' or '/' is percent-encoded, so every byte of the
 * name survives exactly (caller frees). */
char *cmd_uri_encode(const char *path);
/* A path as shown from the current directory (see clawmd_layout_shown);
 * `rel` relative to `base` when not absolute (caller frees). */
char *cmd_shown(const struct clawmd_layout *lay, const char *base, const char *rel);


/*
 * JSON documents (built with clawmd/json.h): every one starts {"tool":
 * "clawmd", "version": ...}; an error, of the whole run or of one group,
 * is {"status": N, "message": ...} under "error".  cmd_json_error(st,
 * NULL) takes the last message printed.
 */
struct clawmd_json *cmd_json_doc(void);
struct clawmd_json *cmd_json_error(int status, const char *message);
/* Print `doc` on stdout (clawmd_json_text, exact bytes beside) and free
 * it; when cJSON could not be loaded, say which library and exit 4. */
void cmd_json_print(struct clawmd_json *doc);
/* The same for a SARIF log: U+FFFD only (the schema takes no extra
 * members; each artifact's URI holds its exact path, percent-encoded). */
void cmd_sarif_print(struct clawmd_json *doc);
/* Print {"tool", "version", "error"} for a run that failed; returns status. */
int cmd_json_failure(int status);

#endif
