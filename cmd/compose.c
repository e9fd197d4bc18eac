/* compose.c - `clawmd compose`: the per-spawn job, and its drift gate. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static const char help_head[] =
	"usage: clawmd compose [options] GROUP...\n"
	"       clawmd compose [options] --all\n"
	"\n"
	"Compose each group's CLAUDE.md (and AGENTS.md, GEMINI.md for the runtimes it\n"
	"runs) from the shared base, its skills, modules and inline MCP instructions;\n"
	"write nothing when nothing changed.  A CLAUDE.md clawmd did not write is\n"
	"carried into CLAUDE.local.md or moved aside, never lost.  Run at every spawn.\n";

static const char help_foot[] =
	"Exit status: 0 success (or clean, with --check), 1 drift with --check,\n"
	"2 usage, 3 invalid input (container.json, clawmd.json, names), 4 filesystem\n"
	"or safety refusal (a missing or symlinked group directory), 5 lock timeout.\n";

enum { OPT_CHECK = OPT_CMD, OPT_JSON };

static const struct cmd_opt options[] = {
	{"all", 'a', NULL, "every group: the real directories under the groups\n"
			   "directory (a symlink is skipped with a warning; none\n"
			   "there is said on stderr, exit 0)"},
	{"dry-run", 'n', NULL, "print what would change (unified diffs, one line per\n"
			       "symlink or moved entry; control bytes in the text\n"
			       "escaped: \\r, \\t, \\xNN); change nothing"},
	{"check", OPT_CHECK, NULL, "like --dry-run, and exit 1 when anything would change\n"
				   "(creating a missing empty CLAUDE.local.md does not)"},
	{"json", OPT_JSON, NULL, "print the changes as one JSON document"},
	{"quiet", 'q', NULL, "do not print warnings"},
	CMD_OPT_END,
};

struct compose_run {
	bool dry_run, check, json, quiet, progress;
	struct clawmd_json *doc, *groups; /* --json: the document, its "groups" */
	struct clawmd_buf text;
	bool drift;
	int status; /* the first failure's exit status */
	char **said; /* warnings printed so far: a layout warning, the same for */
	size_t nsaid, capsaid; /* every group, is printed once per run */
};

static bool said_before(struct compose_run *run, const char *w)
{
	for (size_t i = 0; i < run->nsaid; i++)
		if (!strcmp(run->said[i], w))
			return true;
	clawmd_xgrow(&run->said, &run->capsaid, run->nsaid + 1, sizeof(*run->said));
	run->said[run->nsaid++] = clawmd_xstrdup(w);
	return false;
}

static struct clawmd_json *changes_json(const struct clawmd_changes *ch)
{
	struct clawmd_json *arr = clawmd_json_array();
	struct clawmd_err err = CLAWMD_ERR_INIT;
	for (size_t i = 0; i < ch->n; i++) {
		const struct clawmd_change *c = &ch->v[i];
		struct clawmd_json *o = clawmd_json_object();
		char *path = clawmd_xasprintf("%s/%s", ch->path, c->name);
		struct clawmd_buf diff = CLAWMD_BUF_INIT;
		clawmd_json_add_string(o, "action", clawmd_action_name(c->action));
		clawmd_json_add_string(o, "path", path);
		clawmd_json_add_string(o, "old_type", clawmd_ftype_name(c->old_type));
		if (c->old_type == CLAWMD_FT_LINK && c->old.ptr)
			clawmd_json_add_string(o, "old_target", c->old.ptr);
		if (c->action == CLAWMD_WRITE) {
			clawmd_json_add_string(o, "type", clawmd_ftype_name(c->want->type));
			if (c->want->type == CLAWMD_FT_LINK)
				clawmd_json_add_string(o, "target", c->want->data);
			if (c->want->type == CLAWMD_FT_DIR) { /* a copied fragment's directory */
				struct clawmd_json *files = clawmd_json_add_array(o, "files");
				for (size_t k = 0; k < c->want->nfiles; k++)
					clawmd_json_add_string(files, NULL, c->want->files[k].name);
			}
		}
		if (c->action == CLAWMD_PRESERVE)
			clawmd_json_add_string(o, "moved_to", c->moved_to ? c->moved_to
							       : c->into_local ? "CLAUDE.local.md"
									       : "");
		if (clawmd_change_diff(&diff, c, ch->path, &err) == 0 && diff.len)
			clawmd_json_add_string(o, "diff", diff.ptr);
		clawmd_buf_release(&diff);
		free(path);
		clawmd_json_add(arr, NULL, o);
	}
	return arr;
}

static void compose_one(struct compose_run *run, const struct clawmd_root *root,
			const char *group)
{
	const struct clawmd_layout *lay = &root->lay;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	struct clawmd_compose_opts opts = {.version = CLAWMD_COMPOSE_OPTS_VERSION,
					   .dry_run = run->dry_run || run->check,
					   .record_only = cmd_front};
	struct clawmd_group *g;
	int rc = clawmd_group_open(&g, root, group, &err);
	if (rc == 0) {
		rc = clawmd_compose(&plan, &ch, g, &opts, &err);
	} else {
		clawmd_plan_init(&plan);
		clawmd_changes_init(&ch);
	}
	/* The front answers only a no-op the record vouches for.  1 (only
	 * with record_only, the front's) is a group the record cannot vouch
	 * for, which may need writing; it, and an error, are the full
	 * program's to say, from the start (cmd_handover). */
	if (rc > 0 || (cmd_front && rc < 0))
		cmd_handover();
	if (cmd_front && !run->quiet)
		cmd_layout_warn(lay); /* held back until the front knew it answers */

	struct clawmd_json *json_group = NULL;

	if (run->json) {
		json_group = clawmd_json_object();
		clawmd_json_add_string(json_group, "group", group);
		clawmd_json_add(run->groups, NULL, json_group);
	}
	if (rc < 0) {
		if (!run->status)
			run->status = clawmd_exit_status(rc);
		if (json_group)
			clawmd_json_add(json_group, "error", cmd_json_error(clawmd_exit_status(rc), err.msg));
		cmd_put_error(err.msg);
		goto out;
	}
	if (clawmd_changes_drift(&ch))
		run->drift = true;
	/* The library's words, as the Node binding's (clawmd_compose_warnings);
	 * the layout's, in every group's plan, once a run. */
	char **warn;
	size_t nwarn = clawmd_compose_warnings(&warn, &plan, &ch);
	for (size_t i = 0; i < nwarn && !run->quiet; i++)
		if (!said_before(run, warn[i]))
			cmd_put_warning(warn[i]); /* escaped: the names are found on disk */
	if (json_group) {
		clawmd_json_add_string(json_group, "path", ch.path);
		clawmd_json_add_bool(json_group, "changed", ch.n > 0);
		clawmd_json_add(json_group, "changes", changes_json(&ch));
		clawmd_json_add_strings(json_group, "warnings", warn, nwarn);
	} else if (opts.dry_run && (rc = clawmd_changes_format(&run->text, &ch, &err)) < 0) {
		cmd_put_error(err.msg);
		if (!run->status)
			run->status = clawmd_exit_status(rc);
	}
	clawmd_strv_free(warn, nwarn);
out:
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
	clawmd_group_free(g);
}

/* --all takes real directories only; say which symlinks it passed over,
 * since naming one as GROUP is refused (exit 4). */
static void warn_symlinked_groups(const struct clawmd_layout *lay)
{
	char **links;
	size_t n = clawmd_groups_symlinked(&links, lay);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "clawmd: warning: skipped '%s/%s': a symlinked group directory\n",
			lay->groups, links[i]);
	clawmd_strv_free(links, n);
}

/*
 * The diff as git colours it (--color always, or auto on a terminal):
 * headers bold, hunks cyan, removed lines red, added green.  The lines
 * were escaped first, so no byte of the agent's text can end a colour or
 * start another.
 */
static void put_coloured_diff(const char *s, size_t len)
{
	for (const char *p = s, *end = s + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *c = !strncmp(p, "diff ", 5) || !strncmp(p, "index ", 6) ||
					!strncmp(p, "--- ", 4) || !strncmp(p, "+++ ", 4)
				? "\033[1m"
			: *p == '@' && n > 1 && p[1] == '@' ? "\033[36m"
			: *p == '-' ? "\033[31m"
			: *p == '+' ? "\033[32m"
				    : NULL;
		if (c && n)
			printf("%s%.*s\033[0m", c, (int)n, p);
		else
			fwrite(p, 1, n, stdout);
		if (nl)
			putchar('\n');
		p += n + (nl != NULL);
	}
}

/* The options into `run`, `lo` and `*all`: -1 to go on, else the exit
 * status (0 after --help, 2 on a usage error, said). */
static int compose_parse(struct compose_run *run, struct cmd_layout_opts *lo, struct cmd_args *a,
			 bool *all)
{
	int c;
	while ((c = cmd_args_next(a)) > 0) {
		switch (c) {
		case 'a': *all = true; break;
		case 'n': run->dry_run = true; break;
		case OPT_CHECK: run->check = true; break;
		case OPT_JSON: run->json = true; break;
		case 'q': run->quiet = true; break;
		case 'h': cmd_help(help_head, options, help_foot); return 0;
		default:
			c = cmd_args_common(a, c, lo);
		}
		if (c < 0)
			break;
	}
	return c < 0 ? 2 : -1;
}

/* --all: every group under the groups directory, into `*listed`. */
static int compose_list(struct compose_run *run, const struct clawmd_root *root, char ***listed,
			size_t *n)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	if (clawmd_groups_list(listed, n, &root->lay, &err) < 0)
		return cmd_fail(&err);
	run->progress = *n > 100 && !run->json && isatty(2);
	if (!*n && !run->quiet) {
		char *shown = clawmd_layout_shown(&root->lay, root->lay.groups);
		char *e = cmd_escaped(shown);
		fprintf(stderr, "clawmd: no groups under %s/: nothing to compose (a group is a "
				"directory there)\n", e);
		free(e);
		free(shown);
	}
	if (!run->quiet)
		warn_symlinked_groups(&root->lay);
	return 0;
}

/* What the run did: the JSON document, or the diffs on stdout. */
static void compose_print(struct compose_run *run)
{
	if (run->json) {
		clawmd_json_add_bool(run->doc, "changed", run->drift);
		cmd_json_print(run->doc);
	} else if (run->text.len) {
		/* Diffs carry the agent's text (CLAUDE.local.md carried over, MCP
		 * instructions): escaped line by line as check escapes it. */
		struct clawmd_buf shown = CLAWMD_BUF_INIT;
		cmd_escape_lines(&shown, run->text.ptr, run->text.len);
		if (cmd_use_colour(stdout))
			put_coloured_diff(shown.ptr, shown.len);
		else
			fwrite(shown.ptr, 1, shown.len, stdout);
		clawmd_buf_release(&shown);
	}
}

int cmd_compose(int argc, char **argv)
{
	struct cmd_layout_opts lo = cmd_layout_global;
	struct compose_run run = {.quiet = cmd_quiet};
	struct cmd_args a;
	bool all = false;
	int st;
	cmd_args_init(&a, "compose", options, true, argc, argv);
	if ((st = compose_parse(&run, &lo, &a, &all)) >= 0)
		goto out_args;
	st = 0;
	/* The front answers only the per-spawn run: one group, composed for
	 * real, that turns out to be a no-op (compose_one()). */
	if (cmd_front && (all || a.noperands != 1 || run.dry_run || run.check || run.json))
		cmd_handover();
	if (all == (a.noperands > 0)) {
		st = cmd_usage_error("compose", all ? "give GROUP names or --all, not both"
						    : "no group given (GROUP... or --all)");
		goto out_args;
	}
	struct clawmd_root root;
	if ((st = cmd_root_open(&root, &lo, run.quiet || cmd_front)))
		goto out_args;

	char **groups = a.operands, **listed = NULL;
	size_t n = a.noperands;
	if (all) {
		if ((st = compose_list(&run, &root, &listed, &n)))
			goto out_layout;
		groups = listed;
	} else if (!cmd_front && (st = cmd_groups_check(&root, groups, n))) {
		/* Nothing is written unless every GROUP is one.  The front skips
		 * the look: clawmd_compose() refuses the same, and the front
		 * hands the refusal to the full program, which says it. */
		goto out_layout;
	}
	if (run.json) {
		run.doc = cmd_json_doc();
		run.groups = clawmd_json_add_array(run.doc, "groups");
	}
	if (n > 1)
		root.pass = clawmd_pass_new(); /* the host's sources, looked at once */
	for (size_t i = 0; i < n; i++) {
		compose_one(&run, &root, groups[i]);
		if (run.progress && (i % 64 == 0 || i + 1 == n))
			fprintf(stderr, "\rclawmd: composed %zu/%zu groups%s", i + 1, n,
				i + 1 == n ? "\n" : "");
	}
	compose_print(&run);
	if (!run.dry_run && !run.check)
		clawmd_layout_keep(&root.lay);
	clawmd_buf_release(&run.text);
	clawmd_strv_free(run.said, run.nsaid);
	clawmd_strv_free(listed, all ? n : 0);
	st = run.status ? run.status : run.check && run.drift ? 1 : 0;
out_layout:
	if (st && run.json && !run.doc)
		cmd_json_failure(st);
	clawmd_root_release(&root);
	cmd_args_release(&a);
	return st;
out_args:
	if (st && run.json)
		cmd_json_failure(st);
	cmd_args_release(&a);
	return st;
}
