/* opt.c - the option parser every subcommand shares, the layout options,
 * help formatting, and printing helpers (errors, colour; escaping is
 * cmd/escape.c's). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

struct cmd_layout_opts cmd_layout_global;
bool cmd_quiet;
/* Defined true by cmd/front.c, which only the front links. */
__attribute__((weak)) bool cmd_front;
char **cmd_argv;
/* The last error printed, for a JSON document's "error". */
static char last_error[1024];

static void eprint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void eprint(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	fprintf(stderr, "clawmd: %s\n", last_error);
}

enum cmd_color cmd_color = CMD_COLOR_AUTO;

/* The keys clawmd_layout_set() takes, in the order of the OPT_LAYOUT keys. */
static const char *const layout_keys[] = {"preset", "base",  "skills",	     "groups",	    "modules",
					  "state",  "mode", "lock_timeout", "import_local"};

const struct cmd_opt cmd_layout_options[] = {
	{"root", 'C', "DIR",
	 "the host root (default: $CLAWMD_ROOT, else the nearest\n"
	 "directory above holding clawmd.json, else the git work\n"
	 "tree; never one inside the groups directory)"},
	{"preset", OPT_LAYOUT + 0, "NAME", "start from a preset layout: default or nanoclaw"},
	{"base", OPT_LAYOUT + 1, "FILE", "shared base (default: ROOT/container/CLAUDE.md)"},
	{"skills", OPT_LAYOUT + 2, "DIR", "skills directory (default: ROOT/skills)"},
	{"groups", OPT_LAYOUT + 3, "DIR", "groups directory (default: ROOT/groups)"},
	{"modules", OPT_LAYOUT + 4, "DIR", "module fragments directory (default: none)"},
	{"state", OPT_LAYOUT + 5, "DIR", "host-only state: locks, records\n(default: ROOT/.clawmd)"},
	{"mode", OPT_LAYOUT + 6, "MODE", "fragments as 'copy' or 'symlink' (default: copy)"},
	{"lock-timeout", OPT_LAYOUT + 7, "S", "seconds to wait for a group's lock (default: 30)"},
	{"import-local", OPT_LAYOUT + 8, NULL, "also import CLAUDE.local.md from the composed entry"},
	CMD_OPT_END,
};

/* Accepted by every subcommand, layout or not. */
static const struct cmd_opt common_options[] = {
	{"color", OPT_COLOR, "WHEN", "colour: auto (on a terminal, not with TERM=dumb\nor NO_COLOR), always or never (default: auto)"},
	{"help", 'h', NULL, "this help"},
	CMD_OPT_END,
};

/* ---- parsing ------------------------------------------------------------ */

void cmd_args_init(struct cmd_args *a, const char *cmd, const struct cmd_opt *opts, bool layout,
		   int argc, char **argv)
{
	memset(a, 0, sizeof(*a));
	a->cmd = cmd;
	a->opts = opts;
	a->layout = layout;
	a->argc = argc;
	a->argv = argv;
	a->i = 1;
	a->operands = clawmd_xcalloc((size_t)argc + 1, sizeof(char *));
}

void cmd_args_release(struct cmd_args *a)
{
	free(a->operands);
	a->operands = NULL;
}

static const struct cmd_opt *tables(const struct cmd_args *a, int t)
{
	return t == 0 ? a->opts : t == 1 ? (a->layout ? cmd_layout_options : NULL) : t == 2 ? common_options : NULL;
}

static const struct cmd_opt *find_long(const struct cmd_args *a, const char *name, size_t len)
{
	for (int t = 0; t < 3; t++)
		for (const struct cmd_opt *o = tables(a, t); o && o->name; o++)
			if (o->name[0] == name[0] && strlen(o->name) == len && !strncmp(o->name, name, len))
				return o;
	return NULL;
}

static const struct cmd_opt *find_short(const struct cmd_args *a, int c)
{
	for (int t = 0; t < 3; t++)
		for (const struct cmd_opt *o = tables(a, t); o && o->name; o++)
			if (o->key == c && c < 0x100)
				return o;
	return NULL;
}

static int unknown_long(struct cmd_args *a, const char *name, size_t len)
{
	const char *cands[256];
	char word[80];
	size_t n = 0;
	snprintf(word, sizeof(word), "%.*s", (int)(len < 70 ? len : 70), name);
	for (int t = 0; t < 3; t++)
		for (const struct cmd_opt *o = tables(a, t); o && o->name && n < 256; o++)
			cands[n++] = o->name;
	const char *near = clawmd_spell_nearest(word, cands, n);
	char *w = cmd_escaped(word);
	if (near)
		cmd_usage_error(a->cmd, "unknown option '--%s'; did you mean '--%s'?", w, near);
	else
		cmd_usage_error(a->cmd, "unknown option '--%s'", w);
	free(w);
	return -1;
}

int cmd_args_next(struct cmd_args *a)
{
	const struct cmd_opt *o;
	a->arg = NULL;
	if (a->bundle && *a->bundle) {
		int c = (unsigned char)*a->bundle++;
		snprintf(a->spelled, sizeof(a->spelled), "-%c", c);
		if (!(o = find_short(a, c))) {
			char *w = cmd_escaped(a->spelled);
			cmd_usage_error(a->cmd, "unknown option '%s'", w);
			free(w);
			return -1;
		}
		if (o->arg) {
			if (*a->bundle) {
				a->arg = a->bundle;
			} else if (a->i < a->argc) {
				a->arg = a->argv[a->i++];
			} else {
				return cmd_usage_error(a->cmd, "option '-%c' needs a value (%s)", c,
						       o->arg), -1;
			}
			a->bundle = NULL;
		}
		return o->key;
	}
	while (a->i < a->argc) {
		char *s = a->argv[a->i++];
		if (a->done || s[0] != '-' || !s[1]) {
			a->operands[a->noperands++] = s;
			continue;
		}
		if (!strcmp(s, "--")) {
			a->done = true;
			continue;
		}
		if (s[1] != '-') {
			a->bundle = s + 1;
			return cmd_args_next(a);
		}
		const char *name = s + 2, *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		if (!(o = find_long(a, name, len)))
			return unknown_long(a, name, len);
		snprintf(a->spelled, sizeof(a->spelled), "--%s", o->name);
		if (!o->arg && eq)
			return cmd_usage_error(a->cmd, "option '--%s' takes no value", o->name), -1;
		if (o->arg) {
			if (eq)
				a->arg = eq + 1;
			else if (a->i < a->argc)
				a->arg = a->argv[a->i++];
			else
				return cmd_usage_error(a->cmd, "option '--%s' needs a value (%s)",
						       o->name, o->arg), -1;
		}
		return o->key;
	}
	return 0;
}

int cmd_args_common(struct cmd_args *a, int key, struct cmd_layout_opts *lo)
{
	if (key == OPT_COLOR) {
		if (!strcmp(a->arg, "auto"))
			cmd_color = CMD_COLOR_AUTO;
		else if (!strcmp(a->arg, "always"))
			cmd_color = CMD_COLOR_ALWAYS;
		else if (!strcmp(a->arg, "never"))
			cmd_color = CMD_COLOR_NEVER;
		else
			return cmd_usage_error(a->cmd, "%s: expected auto, always or never, not '%s'",
					       a->spelled, a->arg), -1;
		return key;
	}
	/* cmd_args_next() gives no other key: a layout option when the
	 * command takes them, else none reaches here. */
	if (a->layout && lo)
		cmd_layout_opt(lo, key, a->arg, a->spelled);
	return key;
}

/* ---- help --------------------------------------------------------------- */

static void help_table(const struct cmd_opt *o)
{
	for (; o && o->name; o++) {
		char left[80];
		int n;
		if (o->key < 0x100)
			n = snprintf(left, sizeof(left), "  -%c, --%s%s%s", o->key, o->name,
				     o->arg ? " " : "", o->arg ? o->arg : "");
		else
			n = snprintf(left, sizeof(left), "      --%s%s%s", o->name, o->arg ? " " : "",
				     o->arg ? o->arg : "");
		fputs(left, stdout);
		if (n > 22) {
			fputc('\n', stdout);
			n = 0;
		}
		printf("%*s", 24 - n, "");
		for (const char *p = o->help; *p; p++) {
			fputc(*p, stdout);
			if (*p == '\n')
				printf("%24s", "");
		}
		fputc('\n', stdout);
	}
}

/* "See 'man clawmd-NAME'", NAME from the head's "usage: clawmd NAME". */
static void see_man(const char *head)
{
	const char *p = strstr(head, "clawmd ");
	size_t n = p ? strcspn(p + 7, " \n") : 0;
	if (n)
		printf("\nSee 'man clawmd-%.*s' for the details.\n", (int)n, p + 7);
}

void cmd_help_own(const char *head, const struct cmd_opt *opts, const char *foot)
{
	fputs(head, stdout);
	printf("\nOptions:\n");
	help_table(opts);
	help_table(common_options);
	if (foot)
		printf("\n%s", foot);
	see_man(head);
}

/* A command's page names the layout options in a few lines; 'clawmd
 * --help' describes them (cmd_help_layout), once. */
void cmd_help(const char *head, const struct cmd_opt *opts, const char *foot)
{
	fputs(head, stdout);
	printf("\nOptions:\n");
	help_table(opts);
	help_table(common_options);
	printf("\nLayout options, before or after the command (see 'clawmd --help'):\n ");
	int col = 1;
	for (const struct cmd_opt *o = cmd_layout_options; o->name; o++) {
		char w[64];
		int n = o->key < 0x100 ? snprintf(w, sizeof(w), " -%c %s%s", o->key, o->arg ? o->arg : "",
						  o[1].name ? "," : "")
				       : snprintf(w, sizeof(w), " --%s%s%s%s", o->name, o->arg ? " " : "",
						  o->arg ? o->arg : "", o[1].name ? "," : "");
		if (col + n > 78) {
			printf("\n ");
			col = 1;
		}
		fputs(w, stdout);
		col += n;
	}
	putchar('\n');
	if (foot)
		printf("\n%s", foot);
	see_man(head);
}

void cmd_help_layout(void)
{
	printf("\nLayout options (every command but init, before or after it; also clawmd.json):\n");
	help_table(cmd_layout_options);
	help_table(common_options);
}

/* ---- layout ------------------------------------------------------------- */

static char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a);
	while (la > 1 && a[la - 1] == '/')
		la--;
	return clawmd_xasprintf("%.*s/%s", (int)la, a, b);
}

bool cmd_layout_opt(struct cmd_layout_opts *o, int key, const char *arg, const char *spelled)
{
	if (key == 'C') {
		o->root = arg;
		return true;
	}
	if (key < OPT_LAYOUT || key >= OPT_LAYOUT + (int)(sizeof(layout_keys) / sizeof(layout_keys[0])))
		return false;
	if (o->n == (int)(sizeof(o->keys) / sizeof(o->keys[0]))) {
		fprintf(stderr, "clawmd: too many layout options\n");
		exit(2);
	}
	o->keys[o->n] = layout_keys[key - OPT_LAYOUT];
	o->values[o->n] = arg ? arg : "true";
	/* The flag as messages name it: its long name (static). */
	o->spelled[o->n] = NULL;
	for (const struct cmd_opt *t = cmd_layout_options; t->name; t++)
		if (t->key == key)
			o->spelled[o->n] = t->name;
	o->n++;
	return true;
}

/* A flag's value was refused: name the flag as typed, not the key. */
static int flag_fail(const char *spelled, const char *key, const struct clawmd_err *err)
{
	const char *msg = err->msg;
	size_t kl = strlen(key);
	if (!strncmp(msg, key, kl) && msg[kl] == ':')
		msg += kl + 1;
	while (*msg == ' ')
		msg++;
	char *e = cmd_escaped(msg);
	eprint("%s%s: %s", spelled ? "--" : "", spelled ? spelled : key, e);
	free(e);
	return 2;
}

int cmd_root_open(struct clawmd_root *root, const struct cmd_layout_opts *o, bool quiet)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_layout *lay = &root->lay;
	clawmd_root_init(root);
	int rc = clawmd_root_load(root, o->root, &err);
	if (rc < 0) {
		clawmd_root_release(root);
		return cmd_fail(&err);
	}
	/* A preset goes first so that later flags refine it. */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < o->n; i++) {
			if ((pass == 0) != !strcmp(o->keys[i], "preset"))
				continue;
			if (clawmd_layout_set(lay, o->keys[i], o->values[i], &err) < 0) {
				clawmd_root_release(root);
				return flag_fail(o->spelled[i], o->keys[i], &err);
			}
		}
	if (!quiet)
		cmd_layout_warn(lay);
	return 0;
}

void cmd_layout_warn(const struct clawmd_layout *lay)
{
	for (size_t i = 0; i < lay->nunknown_keys; i++) {
		char *m = clawmd_layout_unknown_message(lay, i), *e = cmd_escaped(m);
		fprintf(stderr, "clawmd: warning: %s\n", e);
		free(e);
		free(m);
	}
}

int cmd_groups_check(const struct clawmd_root *root, char **groups, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct clawmd_group *g;
		struct clawmd_err err = CLAWMD_ERR_INIT;
		/* The library's one check of a name: every operand before any
		 * group is touched. */
		if (clawmd_group_open(&g, root, groups[i], &err) < 0)
			return cmd_fail(&err);
		clawmd_group_free(g);
		if (clawmd_group_present(root, groups[i], &err) < 0)
			return cmd_fail(&err);
	}
	return 0;
}

int cmd_fleet_open(struct clawmd_root *root, const struct cmd_layout_opts *lo, bool quiet,
		   const struct cmd_args *a, char ***groups, char ***listed, size_t *n)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	int st = cmd_root_open(root, lo, quiet);
	*listed = NULL;
	*groups = a->operands;
	*n = a->noperands;
	if (st)
		return st;
	if (a->noperands)
		st = cmd_groups_check(root, a->operands, a->noperands);
	else if (clawmd_groups_list(listed, n, &root->lay, &err) < 0)
		st = cmd_fail(&err);
	else
		*groups = *listed;
	if (st)
		clawmd_root_release(root);
	return st;
}

/* ---- printing ----------------------------------------------------------- */

void cmd_put_error(const char *msg)
{
	char *e = cmd_escaped(msg);
	eprint("%s", e);
	free(e);
}

void cmd_put_warning(const char *msg)
{
	char *e = cmd_escaped(msg);
	fprintf(stderr, "clawmd: warning: %s\n", e);
	free(e);
}

int cmd_fail(const struct clawmd_err *err)
{
	char *e = cmd_escaped(err->msg[0] ? err->msg : "unknown error");
	eprint("%s", e);
	free(e);
	int st = clawmd_exit_status(err->code);
	return st ? st : 4;
}

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	char msg[900];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(last_error, sizeof(last_error), "%s%s%s", cmd ? cmd : "", cmd ? ": " : "", msg);
	fprintf(stderr, "clawmd%s%s: %s (see 'clawmd %s%s--help')\n", cmd ? " " : "",
		cmd ? cmd : "", msg, cmd ? cmd : "", cmd ? " " : "");
	return 2;
}

bool cmd_use_colour(FILE *f)
{
	if (cmd_color != CMD_COLOR_AUTO)
		return cmd_color == CMD_COLOR_ALWAYS;
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
	if ((nc && *nc) || (term && !strcmp(term, "dumb")))
		return false;
	return isatty(fileno(f));
}

char *cmd_shown(const struct clawmd_layout *lay, const char *base, const char *rel)
{
	if (rel[0] == '/')
		return clawmd_layout_shown(lay, rel);
	char *full = path_join(base, rel);
	char *s = clawmd_layout_shown(lay, full);
	free(full);
	return s;
}

/* ---- JSON --------------------------------------------------------------- */

const char *cmd_last_error(void)
{
	return last_error;
}

struct clawmd_json *cmd_json_doc(void)
{
	struct clawmd_json *doc = clawmd_json_object();
	clawmd_json_add_string(doc, "tool", "clawmd");
	clawmd_json_add_string(doc, "version", CLAWMD_VERSION);
	return doc;
}

struct clawmd_json *cmd_json_error(int status, const char *message)
{
	struct clawmd_json *e = clawmd_json_object();
	clawmd_json_add_number(e, "status", status);
	clawmd_json_add_string(e, "message", message ? message : last_error);
	return e;
}

/* `doc` on stdout, then freed; no text means cJSON could not be loaded
 * (the library aborts when memory runs out): say which, exit 4. */
static void json_print(struct clawmd_json *doc, enum clawmd_json_strings how)
{
	char *s = clawmd_json_text(doc, how);
	if (!s) {
		fprintf(stderr, "clawmd: could not load %s (install cJSON and md4c: libcjson1, "
				"libmd4c0)\n", clawmd_libraries_missing());
		exit(clawmd_exit_status(CLAWMD_EFS));
	}
	puts(s);
	free(s);
	clawmd_json_free(doc);
}

void cmd_json_print(struct clawmd_json *doc)
{
	json_print(doc, CLAWMD_JSON_EXACT);
}

void cmd_sarif_print(struct clawmd_json *doc)
{
	json_print(doc, CLAWMD_JSON_REPLACE);
}

int cmd_json_failure(int status)
{
	struct clawmd_json *doc = cmd_json_doc();
	clawmd_json_add(doc, "error", cmd_json_error(status, NULL));
	cmd_json_print(doc);
	return status;
}

/*
 * The full program lives at BINDIR/../libexec/clawmd/clawmd wherever the
 * front was installed (and at build/libexec/clawmd/clawmd beside
 * build/bin/clawmd), so it is found from the front's own path, with no
 * directory compiled in and nothing taken from the environment.
 */
void cmd_handover(void)
{
	char self[PATH_MAX], *full;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0 || n >= (ssize_t)sizeof(self) - 1 || self[0] != '/') {
		eprint("cannot find the full program: readlink /proc/self/exe: %s",
		       n < 0 ? strerror(errno) : "not a path");
		exit(4);
	}
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	full = clawmd_xasprintf("%s/../libexec/clawmd/clawmd", self);
	execv(full, cmd_argv);
	eprint("cannot run the full program '%s': %s", full, strerror(errno));
	exit(4);
}

/*
 * The root the --cwd tree is in (check --cwd, render --cwd), so that a
 * directory in a group is read as its agent's container reads it
 * (clawmd_layout_group_of): -C or $CLAWMD_ROOT, else ROOT found from DIR
 * as the commands find it from the current directory (never inside a
 * groups directory), else the usual discovery from the current directory.
 * Quiet: no root is no error here (the tree is then only confined to
 * itself).
 */
bool cmd_tree_root(struct clawmd_root *root, const struct cmd_layout_opts *lo, const char *dir)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	const char *env = getenv("CLAWMD_ROOT");
	/* Found as clawmd_layout_load() finds ROOT (a clawmd.json an agent
	 * planted in its group is never ROOT), from DIR as written. */
	char *up = !lo->root && !(env && *env) ? clawmd_layout_find_root(dir, NULL) : NULL;
	clawmd_root_init(root);
	int rc = clawmd_root_load(root, lo->root ? lo->root : up, &err);
	free(up);
	for (int i = 0; rc == 0 && i < lo->n; i++) /* a preset first, as cmd_root_open */
		if (!strcmp(lo->keys[i], "preset"))
			rc = clawmd_layout_set(&root->lay, lo->keys[i], lo->values[i], &err);
	for (int i = 0; rc == 0 && i < lo->n; i++)
		if (strcmp(lo->keys[i], "preset"))
			rc = clawmd_layout_set(&root->lay, lo->keys[i], lo->values[i], &err);
	if (rc < 0)
		clawmd_root_release(root);
	return rc == 0;
}
