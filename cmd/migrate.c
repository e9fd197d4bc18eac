/* migrate.c - `clawmd migrate`: the one-shot legacy cutover. */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

/* Exit status: the run completed, but some groups failed (listed). */
#define CMD_MIGRATE_PARTIAL 6

static const char help_head[] =
	"usage: clawmd migrate [options]\n"
	"\n"
	"Cut a legacy layout (groups/global/, each group's hand-owned CLAUDE.md and\n"
	"its .claude-global.md link) over to the composed model, once, losing nothing;\n"
	"a later run does nothing (run it at every host start).  Killed at any point,\n"
	"the next run finishes the job.  It changes no file git tracks in place: the\n"
	"text of groups/global/CLAUDE.md that a git-tracked shared base lacks goes to\n"
	"BASE.clawmd-review beside it (untracked), and a warning says so.\n";

static const char help_foot[] =
	"One bad group (a file over the 4 MiB cap, which is never read; its lock\n"
	"held too long) is reported and skipped: the other groups migrate, and the\n"
	"record is written with the failed groups in its \"failed\" list.  The next\n"
	"run retries just those; a record without failed groups means nothing to do.\n"
	"\n"
	"Exit status:\n"
	"  0  migrated (or already migrated)\n"
	"  6  migrated, except the groups listed on stderr and in the record; the\n"
	"     host may start (those groups keep their files as they were)\n"
	"  2  usage\n"
	"  3, 4, 5  nothing completed: invalid input, a filesystem or safety refusal\n"
	"     (e.g. the state directory cannot be written), the migrate lock held;\n"
	"     no record is written and the next run starts over\n";

enum { OPT_JSON = OPT_CMD };

static const struct cmd_opt options[] = {
	{"dry-run", 'n', NULL, "list every action per group; change nothing"},
	{"json", OPT_JSON, NULL, "print the plan (or the result) as one JSON document"},
	{"force", 'f', NULL, "run even when the completion record exists"},
	{"quiet", 'q', NULL, "print only errors and warnings"},
	CMD_OPT_END,
};

static struct clawmd_json *result_json(const struct clawmd_migrate_result *res)
{
	struct clawmd_json *doc = cmd_json_doc();
	clawmd_json_add_bool(doc, "dry_run", res->dry_run);
	clawmd_json_add_bool(doc, "already_migrated", res->already);
	clawmd_json_add_bool(doc, "legacy_left", res->legacy_left);
	clawmd_json_add_string(doc, "record", res->record ? res->record : "");
	if (res->ignore_hint)
		clawmd_json_add_string(doc, "gitignore_hint", res->ignore_hint);
	else
		clawmd_json_add_null(doc, "gitignore_hint");
	struct clawmd_json *names = clawmd_json_add_array(doc, "groups");
	for (size_t i = 0; i < res->ngroups; i++)
		clawmd_json_add_string(names, NULL, res->groups[i]);
	struct clawmd_json *f = clawmd_json_add_array(doc, "failed");
	for (size_t i = 0; i < res->n; i++) {
		const struct clawmd_migrate_action *a = &res->v[i];
		if (a->step != CLAWMD_MIGRATE_ERROR)
			continue;
		struct clawmd_json *o = clawmd_json_object();
		clawmd_json_add_string(o, "group", a->group ? a->group : "");
		clawmd_json_add_string(o, "message", a->note ? a->note : "");
		clawmd_json_add(f, NULL, o);
	}
	struct clawmd_json *arr = clawmd_json_add_array(doc, "actions");
	for (size_t i = 0; i < res->n; i++) {
		const struct clawmd_migrate_action *a = &res->v[i];
		struct clawmd_json *o = clawmd_json_object();
		clawmd_json_add_string(o, "action", clawmd_migrate_step_name(a->step));
		if (a->group)
			clawmd_json_add_string(o, "group", a->group);
		else
			clawmd_json_add_null(o, "group");
		if (a->path)
			clawmd_json_add_string(o, "path", a->path);
		if (a->dest)
			clawmd_json_add_string(o, "dest", a->dest);
		if (a->note)
			clawmd_json_add_string(o, "note", a->note);
		if (a->bytes)
			clawmd_json_add_number(o, "bytes", (double)a->bytes);
		if (a->git) {
			clawmd_json_add_string(o, "git", a->git);
			clawmd_json_add_bool(o, "git_failed", a->git_failed);
		}
		clawmd_json_add(arr, NULL, o);
	}
	return doc;
}

static void print_action(const struct clawmd_migrate_action *a)
{
	printf("%-13s ", clawmd_migrate_step_name(a->step));
	cmd_put_escaped(stdout, a->path ? a->path : "");
	if (a->dest) {
		printf(" -> ");
		cmd_put_escaped(stdout, a->dest);
	}
	if (a->bytes && a->step != CLAWMD_MIGRATE_WRITE_RECORD)
		printf(" (%zu bytes)", a->bytes);
	if (a->note) {
		printf(" (");
		cmd_put_escaped(stdout, a->note);
		printf(")");
	}
	printf("\n");
}

/* Actions of `group` (NULL: those of no group), errors aside (on stderr);
 * returns how many. */
static size_t print_group(const struct clawmd_migrate_result *res, const char *group,
			  bool skips)
{
	size_t k = 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct clawmd_migrate_action *a = &res->v[i];
		bool mine = group ? a->group && !strcmp(a->group, group) : !a->group;
		if (!mine || (a->step == CLAWMD_MIGRATE_SKIP) != skips)
			continue;
		k++;
		if (a->step != CLAWMD_MIGRATE_ERROR)
			print_action(a);
	}
	return k;
}

/* What was skipped, then group by group (a line for a group with nothing
 * to do), then groups/global, then the record. */
static void print_text(const struct clawmd_migrate_result *res, const struct clawmd_layout *lay,
		       bool quiet)
{
	size_t rl = strlen(lay->root);
	const char *gdir = lay->groups;
	if (!strncmp(gdir, lay->root, rl) && gdir[rl] == '/')
		gdir += rl + 1;
	if (res->already) {
		if (!quiet)
			printf("already migrated (%s); nothing to do\n", res->record);
		return;
	}
	if (quiet)
		return;
	if (res->dry_run)
		printf("dry run: nothing is changed; a run would do this:\n");
	print_group(res, NULL, true);
	for (size_t i = 0; i < res->ngroups; i++)
		if (!print_group(res, res->groups[i], false))
			printf("%-13s %s/%s (nothing to migrate)\n", "ok", gdir, res->groups[i]);
	print_group(res, "global", false);
	print_group(res, NULL, false);
}

int cmd_migrate(int argc, char **argv)
{
	struct cmd_layout_opts lo = cmd_layout_global;
	struct clawmd_migrate_opts opts = CLAWMD_MIGRATE_OPTS_INIT;
	struct cmd_args a;
	bool json = false, quiet = cmd_quiet;
	int c;
	cmd_args_init(&a, "migrate", options, true, argc, argv);
	while ((c = cmd_args_next(&a)) > 0) {
		switch (c) {
		case 'n': opts.dry_run = true; break;
		case OPT_JSON: json = true; break;
		case 'f': opts.force = true; break;
		case 'q': quiet = true; break;
		case 'h': cmd_help(help_head, options, help_foot); cmd_args_release(&a); return 0;
		default:
			c = cmd_args_common(&a, c, &lo);
		}
		if (c < 0)
			break;
	}
	if (c >= 0 && a.noperands)
		c = (cmd_usage_error("migrate", "unexpected argument '%s'", a.operands[0]), -1);
	cmd_args_release(&a);
	if (c < 0)
		return json ? cmd_json_failure(2) : 2;

	struct clawmd_root root;
	int st = cmd_root_open(&root, &lo, false);
	if (st)
		return json ? cmd_json_failure(st) : st;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_migrate_result res;
	int rc = clawmd_migrate(&res, &root, &opts, &err);
	int status = rc < 0 ? clawmd_exit_status(rc) : res.nfailed ? CMD_MIGRATE_PARTIAL : 0;
	if (rc < 0 && !status)
		status = 4;

	/* Every failed group on stderr, then the whole-run failure (the lock,
	 * the record), which has no action, only err. */
	for (size_t i = 0; i < res.n; i++)
		if (res.v[i].step == CLAWMD_MIGRATE_ERROR) {
			struct clawmd_buf msg = CLAWMD_BUF_INIT;
			clawmd_buf_printf(&msg, "%s: %s", res.v[i].group, res.v[i].note);
			cmd_put_error(msg.ptr);
			clawmd_buf_release(&msg);
		}
	if (rc < 0)
		cmd_put_error(err.msg[0] ? err.msg : "migrate failed");
	if (rc < 0)
		fprintf(stderr, "clawmd: migration not complete: fix the above and run clawmd "
				"migrate again (done steps are not repeated)\n");
	else if (res.nfailed && !opts.dry_run)
		fprintf(stderr, "clawmd: migrated all but %zu group(s); %s lists them and the "
				"next run retries them\n", res.nfailed, res.record);
	for (size_t i = 0; i < res.nwarnings; i++) /* the library's words, as the binding's */
		cmd_put_warning(res.warnings[i]);

	if (json) {
		struct clawmd_json *doc = result_json(&res);
		if (rc < 0)
			clawmd_json_add(doc, "error", cmd_json_error(status, err.msg));
		cmd_json_print(doc);
	} else {
		print_text(&res, &root.lay, quiet);
	}
	clawmd_migrate_result_release(&res);
	clawmd_root_release(&root);
	return status;
}
