/* status.c - `clawmd status`: the fleet at a glance. */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static const char usage_text[] =
	"usage: clawmd status [options] [GROUP...]\n"
	"\n"
	"The fleet at a glance: for each group (all of them when none is given) its\n"
	"drift state (clean, would change, hand-edited, never composed, invalid),\n"
	"the skills it gets, its fragments, the memory the container would load\n"
	"(characters and a token estimate, characters / 4) and its findings count\n"
	"(see 'clawmd check').  Reads only.\n"
	"\n"
	"Options:\n"
	"      --json            one JSON document instead of the table\n"
	"  -q, --quiet           no progress\n"
	"\n" CMD_LAYOUT_HELP "\n"
	"Exit status: 0 success, 2 usage, 3 unreadable input (no groups directory,\n"
	"a missing group, a missing shared base).  Drift does not change it: use\n"
	"'clawmd compose --check' or 'clawmd check' as a gate.\n";

static cJSON *strv_json(char **v, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
	return a;
}

static const char *drift_colour(enum clawmd_drift d)
{
	return d == CLAWMD_DRIFT_CLEAN ? "\033[32m" : d == CLAWMD_DRIFT_CHANGE ? "\033[33m" : "\033[31m";
}

int cmd_status(int argc, char **argv)
{
	enum { OPT_JSON = 0x200 };
	static const struct option longopts[] = {
		{"json", no_argument, NULL, OPT_JSON},
		{"quiet", no_argument, NULL, 'q'},
		CMD_LAYOUT_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct cmd_layout_opts lo = {0};
	bool json = false, quiet = false;
	int c;
	while ((c = getopt_long(argc, argv, "+qC:h", longopts, NULL)) != -1) {
		if (cmd_layout_opt(&lo, c, optarg))
			continue;
		switch (c) {
		case OPT_JSON: json = true; break;
		case 'q': quiet = true; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: return cmd_usage_error("status", "unknown option");
		}
	}
	struct clawmd_layout lay;
	int status = cmd_layout_open(&lay, &lo);
	if (status)
		return status;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	char **groups = argv + optind, **listed = NULL;
	size_t n = (size_t)(argc - optind);
	bool listing = n == 0;
	if (listing && clawmd_groups_list(&listed, &n, &lay, &err) < 0) {
		clawmd_layout_release(&lay);
		fprintf(stderr, "clawmd: %s\n", err.msg);
		return 3;
	}
	if (listing)
		groups = listed;

	struct clawmd_group_status *st = calloc(n ? n : 1, sizeof(*st));
	bool *failed = calloc(n ? n : 1, sizeof(bool));
	if (!st || !failed)
		abort();
	bool progress = n > 100 && !quiet && !json && isatty(2);
	for (size_t i = 0; i < n; i++) {
		clawmd_err_clear(&err);
		if (clawmd_group_status_get(&st[i], &lay, groups[i], NULL, &err) < 0) {
			fprintf(stderr, "%sclawmd: %s\n", progress ? "\r\033[K" : "", err.msg);
			failed[i] = true;
			status = 3;
		}
		if (progress && (i % 64 == 0 || i + 1 == n))
			fprintf(stderr, "\rclawmd: read %zu/%zu groups%s", i + 1, n,
				i + 1 == n ? "\n" : "");
	}

	if (json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "root", lay.root);
		cJSON_AddNumberToObject(doc, "token_budget", (double)lay.token_budget);
		cJSON *arr = cJSON_AddArrayToObject(doc, "groups");
		for (size_t i = 0; i < n; i++) {
			cJSON *g = cJSON_CreateObject();
			cJSON_AddStringToObject(g, "group", groups[i]);
			if (failed[i]) {
				cJSON_AddStringToObject(g, "drift", "unreadable");
			} else {
				cJSON_AddStringToObject(g, "drift", clawmd_drift_name(st[i].drift));
				cJSON_AddBoolToObject(g, "all_skills", st[i].all_skills);
				cJSON_AddItemToObject(g, "skills", strv_json(st[i].skills, st[i].nskills));
				cJSON_AddItemToObject(g, "fragments",
						      strv_json(st[i].fragments, st[i].nfragments));
				cJSON_AddNumberToObject(g, "memory_chars", (double)st[i].memory_chars);
				cJSON_AddNumberToObject(g, "tokens", (double)st[i].tokens);
				cJSON_AddNumberToObject(g, "findings", (double)st[i].nfindings);
				cJSON_AddNumberToObject(g, "errors", (double)st[i].nerrors);
			}
			cJSON_AddItemToArray(arr, g);
		}
		char *s = cJSON_Print(doc);
		puts(s);
		free(s);
		cJSON_Delete(doc);
	} else {
		bool colour = cmd_use_colour(stdout);
		size_t w = 5;
		for (size_t i = 0; i < n; i++)
			if (strlen(groups[i]) > w)
				w = strlen(groups[i]);
		printf("%-*s  %-14s  %6s  %9s  %8s  %7s  %8s  %s\n", (int)w, "GROUP", "STATE",
		       "SKILLS", "FRAGMENTS", "CHARS", "TOKENS", "FINDINGS", "SKILL NAMES");
		for (size_t i = 0; i < n; i++) {
			const struct clawmd_group_status *s = &st[i];
			const char *state = failed[i] ? "unreadable" : clawmd_drift_name(s->drift);
			/* Pad before colouring so the escapes do not skew columns. */
			printf("%-*s  %s%-14s%s  %6zu  %9zu  %8zu  %7zu  %8zu  ", (int)w, groups[i],
			       colour ? (failed[i] ? "\033[31m" : drift_colour(s->drift)) : "", state,
			       colour ? "\033[0m" : "", s->nskills, s->nfragments, s->memory_chars,
			       s->tokens, s->nfindings);
			if (s->all_skills)
				printf("all: ");
			for (size_t k = 0; k < s->nskills; k++)
				printf("%s%s", k ? "," : "", s->skills[k]);
			if (!s->nskills)
				printf("-");
			printf("\n");
		}
	}
	for (size_t i = 0; i < n; i++)
		clawmd_group_status_release(&st[i]);
	free(st);
	free(failed);
	clawmd_strv_free(listed, listing ? n : 0);
	clawmd_layout_release(&lay);
	return status;
}
