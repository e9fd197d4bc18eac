/* migrate.c - `clawmd migrate`: the one-shot legacy cutover. */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

/* Exit status: the run completed, but some groups failed (listed). */
#define CMD_MIGRATE_PARTIAL 6

static const char usage_text[] =
	"usage: clawmd migrate [options]\n"
	"\n"
	"Cut a legacy layout (groups/global/CLAUDE.md, and in each group a hand-owned\n"
	"CLAUDE.md plus a .claude-global.md symlink) over to the composed model, once,\n"
	"losing nothing:\n"
	"  - each group's .claude-global.md symlink is removed (a regular file of that\n"
	"    name is kept);\n"
	"  - a CLAUDE.md clawmd did not compose becomes CLAUDE.local.md (when that is\n"
	"    missing or empty) or is appended to it under a marker, without the\n"
	"    '@./.claude-global.md' line; the next compose writes the new CLAUDE.md;\n"
	"  - what groups/global/CLAUDE.md has that the shared base lacks is appended\n"
	"    to the base under a marker, and groups/global/ is moved to\n"
	"    STATE/archive/global-<UTC time>/ (never deleted);\n"
	"  - STATE/migrated.json is written last.  While it exists, migrate does\n"
	"    nothing (run it at every host start); --force runs it again.\n"
	"Symlinked group directories are reported and skipped.  Killed at any point,\n"
	"a second run finishes the job without losing or duplicating anything.\n"
	"\n"
	"Options:\n"
	"  -n, --dry-run         list every action per group; change nothing\n"
	"      --json            print the plan (or the result) as one JSON document\n"
	"  -f, --force           run even when the completion record exists\n"
	"  -q, --quiet           print only errors and warnings\n"
	"\n" CMD_LAYOUT_HELP "\n"
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

static cJSON *result_json(const struct clawmd_migrate_result *res)
{
	cJSON *doc = cJSON_CreateObject();
	cJSON_AddBoolToObject(doc, "dry_run", res->dry_run);
	cJSON_AddBoolToObject(doc, "already_migrated", res->already);
	cJSON_AddBoolToObject(doc, "legacy_left", res->legacy_left);
	cJSON_AddStringToObject(doc, "record", res->record ? res->record : "");
	cJSON *g = cJSON_AddArrayToObject(doc, "groups");
	for (size_t i = 0; i < res->ngroups; i++)
		cJSON_AddItemToArray(g, cJSON_CreateString(res->groups[i]));
	cJSON *f = cJSON_AddArrayToObject(doc, "failed");
	for (size_t i = 0; i < res->n; i++) {
		const struct clawmd_migrate_action *a = &res->v[i];
		if (a->step != CLAWMD_MIGRATE_ERROR)
			continue;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "group", a->group ? a->group : "");
		cJSON_AddStringToObject(o, "message", a->note ? a->note : "");
		cJSON_AddItemToArray(f, o);
	}
	cJSON *arr = cJSON_AddArrayToObject(doc, "actions");
	for (size_t i = 0; i < res->n; i++) {
		const struct clawmd_migrate_action *a = &res->v[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "action", clawmd_migrate_step_name(a->step));
		if (a->group)
			cJSON_AddStringToObject(o, "group", a->group);
		else
			cJSON_AddNullToObject(o, "group");
		if (a->path)
			cJSON_AddStringToObject(o, "path", a->path);
		if (a->dest)
			cJSON_AddStringToObject(o, "dest", a->dest);
		if (a->note)
			cJSON_AddStringToObject(o, "note", a->note);
		if (a->bytes)
			cJSON_AddNumberToObject(o, "bytes", (double)a->bytes);
		cJSON_AddItemToArray(arr, o);
	}
	return doc;
}

static void print_action(const struct clawmd_migrate_action *a)
{
	printf("%-13s %s", clawmd_migrate_step_name(a->step), a->path ? a->path : "");
	if (a->dest)
		printf(" -> %s", a->dest);
	if (a->bytes && a->step != CLAWMD_MIGRATE_WRITE_RECORD)
		printf(" (%zu bytes)", a->bytes);
	if (a->note)
		printf(" (%s)", a->note);
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
	static const struct option longopts[] = {
		{"dry-run", no_argument, NULL, 'n'},
		{"json", no_argument, NULL, 'j'},
		{"force", no_argument, NULL, 'f'},
		{"quiet", no_argument, NULL, 'q'},
		CMD_LAYOUT_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct cmd_layout_opts lo = {0};
	struct clawmd_migrate_opts opts = {0};
	bool json = false, quiet = false;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "C:nfqh", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			opts.dry_run = true;
			break;
		case 'j':
			json = true;
			break;
		case 'f':
			opts.force = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case '?':
			return cmd_usage_error("migrate", "unknown option '%s'", argv[optind - 1]);
		case ':':
			return cmd_usage_error("migrate", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			if (!cmd_layout_opt(&lo, c, optarg))
				return cmd_usage_error("migrate", "unknown option");
		}
	}
	if (optind < argc)
		return cmd_usage_error("migrate", "unexpected argument '%s'", argv[optind]);

	struct clawmd_layout lay;
	int st = cmd_layout_open(&lay, &lo);
	if (st) {
		clawmd_layout_release(&lay);
		return st;
	}
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_migrate_result res;
	int rc = clawmd_migrate(&res, &lay, &opts, &err);
	int status = rc < 0 ? clawmd_err_exit_status(rc) : res.nfailed ? CMD_MIGRATE_PARTIAL : 0;
	if (rc < 0 && !status)
		status = 4;

	/* Every failed group on stderr, then the whole-run failure (the lock,
	 * the record), which has no action, only err. */
	for (size_t i = 0; i < res.n; i++)
		if (res.v[i].step == CLAWMD_MIGRATE_ERROR)
			fprintf(stderr, "clawmd: %s: %s\n", res.v[i].group, res.v[i].note);
	if (rc < 0)
		fprintf(stderr, "clawmd: %s\n", err.msg[0] ? err.msg : "migrate failed");
	if (rc < 0)
		fprintf(stderr, "clawmd: migration not complete: fix the above and run clawmd "
				"migrate again (done steps are not repeated)\n");
	else if (res.nfailed && !opts.dry_run)
		fprintf(stderr, "clawmd: migrated all but %zu group(s); %s lists them and the "
				"next run retries them\n", res.nfailed, res.record);
	if (res.legacy_left)
		fprintf(stderr, "clawmd: warning: %s/global exists again after the cutover; "
				"'clawmd migrate --force' carries it over\n", lay.groups);

	if (json) {
		cJSON *doc = result_json(&res);
		if (rc < 0) {
			cJSON *e = cJSON_AddObjectToObject(doc, "error");
			cJSON_AddNumberToObject(e, "status", status);
			cJSON_AddStringToObject(e, "message", err.msg);
		}
		char *s = cJSON_Print(doc);
		if (s)
			printf("%s\n", s);
		free(s);
		cJSON_Delete(doc);
	} else {
		print_text(&res, &lay, quiet);
	}
	clawmd_migrate_result_release(&res);
	clawmd_layout_release(&lay);
	return status;
}
