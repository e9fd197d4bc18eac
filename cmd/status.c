/* status.c - `clawmd status`: the fleet at a glance. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static const char help_head[] =
	"usage: clawmd status [options] [GROUP...]\n"
	"\n"
	"The fleet at a glance, one group a row (all when none is given): drift\n"
	"state, skills, fragments, memory size, findings, entries moved aside, then a\n"
	"summary and hints on stderr.  Reads only.\n";

static const char help_foot[] =
	"Exit status: 0 success, 2 usage, 3 invalid input (clawmd.json, a group\n"
	"name, a missing shared base, or a group whose container.json is invalid:\n"
	"the table is printed all the same), 4 a missing or symlinked group\n"
	"directory or groups directory.  Drift does not change it: use 'clawmd\n"
	"compose --check' or 'clawmd check' as a gate.\n";

enum { OPT_JSON = OPT_CMD, OPT_FORMAT };

static const struct cmd_opt options[] = {
	{"format", OPT_FORMAT, "FMT", "table or json (default: table)"},
	{"json", OPT_JSON, NULL, "the same as --format json"},
	{"quiet", 'q', NULL, "no progress"},
	CMD_OPT_END,
};

static const char *drift_colour(enum clawmd_drift d)
{
	return d == CLAWMD_DRIFT_CLEAN ? "\033[32m" : d == CLAWMD_DRIFT_CHANGE ? "\033[33m" : "\033[31m";
}

/* The groups in state `d` (or unreadable when d < 0), up to 5 names. */
static void names_in(struct clawmd_buf *b, const struct clawmd_group_status *st, const int *failed,
		     char **groups, size_t n, int d)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		bool in = d < 0 ? failed[i] != 0 : !failed[i] && (int)st[i].drift == d;
		if (!in)
			continue;
		if (k++ < 5) {
			char *e = cmd_escaped(groups[i]);
			clawmd_buf_printf(b, " %s", e);
			free(e);
		}
	}
	if (k > 5)
		clawmd_buf_printf(b, " ...");
}

/* One summary line and what to do next, on stderr: on a terminal and off. */
static void summary(const struct clawmd_group_status *st, const int *failed, char **groups,
		    size_t n)
{
	size_t by[5] = {0}, bad = 0, findings = 0, errors = 0, preserved = 0;
	for (size_t i = 0; i < n; i++) {
		if (failed[i]) {
			bad++;
			continue;
		}
		if ((unsigned)st[i].drift < 5)
			by[st[i].drift]++;
		findings += st[i].nfindings;
		errors += st[i].nerrors;
		preserved += st[i].npreserved;
	}
	fprintf(stderr, "clawmd: %zu group%s: %zu clean, %zu would change, %zu hand-edited, "
			"%zu never composed, %zu invalid, %zu unreadable; %zu finding%s (%zu error%s), "
			"%zu preserved\n",
		n, n == 1 ? "" : "s", by[CLAWMD_DRIFT_CLEAN], by[CLAWMD_DRIFT_CHANGE],
		by[CLAWMD_DRIFT_HAND_EDITED], by[CLAWMD_DRIFT_NEVER], by[CLAWMD_DRIFT_INVALID], bad,
		findings, findings == 1 ? "" : "s", errors, errors == 1 ? "" : "s", preserved);
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	clawmd_buf_put(&b, "", 0);
	if (by[CLAWMD_DRIFT_CHANGE] + by[CLAWMD_DRIFT_NEVER] + by[CLAWMD_DRIFT_HAND_EDITED]) {
		clawmd_buf_clear(&b);
		clawmd_buf_put(&b, "", 0);
		names_in(&b, st, failed, groups, n, CLAWMD_DRIFT_CHANGE);
		names_in(&b, st, failed, groups, n, CLAWMD_DRIFT_NEVER);
		names_in(&b, st, failed, groups, n, CLAWMD_DRIFT_HAND_EDITED);
		fprintf(stderr, "    hint: 'clawmd compose%s' brings them up to date (the runner does "
				"it at the next spawn)\n", b.ptr);
	}
	if (by[CLAWMD_DRIFT_INVALID]) {
		clawmd_buf_clear(&b);
		clawmd_buf_put(&b, "", 0);
		names_in(&b, st, failed, groups, n, CLAWMD_DRIFT_INVALID);
		fprintf(stderr, "    hint: 'clawmd check%s' says what is wrong with their "
				"container.json\n", b.ptr);
	}
	if (findings || preserved)
		fprintf(stderr, "    hint: 'clawmd check' lists the findings%s\n",
			preserved ? ", and the entries compose moved aside (CM404) to review and delete"
				  : "");
	clawmd_buf_release(&b);
}

/* What status read: a row for each group, and what the rows point into. */
struct status_rows {
	const struct clawmd_layout *lay;
	char **groups;
	size_t n;
	struct clawmd_group_status *st;
	int *failed; /* why a group could not be read, as an exit status; else 0 */
	char **why;
	char **od;   /* every on-demand skill */
	size_t nod;
	char **odv;  /* each group's on-demand skills: nod pointers into od a row */
	size_t *nodv;
};

/* The options into `lo`, `*json` and `*quiet`: -1 to go on, else the exit
 * status (0 after --help, 2 on a usage error, said). */
static int status_parse(struct cmd_args *a, struct cmd_layout_opts *lo, bool *json, bool *quiet)
{
	int c;
	while ((c = cmd_args_next(a)) > 0) {
		switch (c) {
		case OPT_JSON: *json = true; break;
		case OPT_FORMAT:
			if (!strcmp(a->arg, "json"))
				*json = true;
			else if (!strcmp(a->arg, "table") || !strcmp(a->arg, "text"))
				*json = false;
			else
				c = (cmd_usage_error("status", "--format: expected table or json, not '%s'",
						     a->arg), -1);
			break;
		case 'q': *quiet = true; break;
		case 'h': cmd_help(help_head, options, help_foot); return 0;
		default:
			c = cmd_args_common(a, c, lo);
		}
		if (c < 0)
			break;
	}
	return c < 0 ? (*json ? cmd_json_failure(2) : 2) : -1;
}

static void rows_init(struct status_rows *r, const struct clawmd_layout *lay, char **groups,
		      size_t n)
{
	r->lay = lay;
	r->groups = groups;
	r->n = n;
	r->st = clawmd_xcalloc(n ? n : 1, sizeof(*r->st));
	r->failed = clawmd_xcalloc(n ? n : 1, sizeof(int));
	r->why = clawmd_xcalloc(n ? n : 1, sizeof(char *));
	r->nod = clawmd_skills_on_demand(&r->od, lay);
	r->odv = clawmd_xcalloc((n ? n : 1) * (r->nod ? r->nod : 1), sizeof(char *));
	r->nodv = clawmd_xcalloc(n ? n : 1, sizeof(size_t));
}

static void rows_release(struct status_rows *r)
{
	for (size_t i = 0; i < r->n; i++)
		clawmd_group_status_release(&r->st[i]);
	clawmd_strv_free(r->od, r->nod);
	free(r->odv);
	free(r->nodv);
	free(r->st);
	free(r->failed);
	for (size_t i = 0; i < r->n; i++)
		free(r->why[i]);
	free(r->why);
}

/* Each group's status, in one pass (the host's sources are read once for
 * every group): 0, or the exit status of the first group that could not
 * be read, else 3 for an invalid container.json. */
static int rows_read(struct status_rows *r, struct clawmd_root *root, bool progress)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_lint_opts opts = CLAWMD_LINT_OPTS_INIT;
	int status = 0;
	size_t n = r->n, nod = r->nod;
	root->pass = clawmd_pass_new();
	for (size_t i = 0; i < n; i++) {
		struct clawmd_group *g;
		clawmd_err_clear(&err);
		if (clawmd_group_open(&g, root, r->groups[i], &err) < 0 ||
		    clawmd_group_status_get(&r->st[i], g, &opts, &err) < 0) {
			if (progress)
				fputs("\r\033[K", stderr);
			cmd_put_error(err.msg);
			r->failed[i] = clawmd_exit_status(err.code);
			r->failed[i] = r->failed[i] ? r->failed[i] : 4;
			r->why[i] = clawmd_xstrdup(err.msg);
			if (!status)
				status = r->failed[i];
		} else if (nod) {
			r->nodv[i] = clawmd_group_on_demand(r->odv + i * nod, g, r->od, nod);
		}
		if (progress && (i % 64 == 0 || i + 1 == n))
			fprintf(stderr, "\rclawmd: read %zu/%zu groups%s", i + 1, n,
				i + 1 == n ? "\n" : "");
		clawmd_group_free(g);
	}
	/* An invalid container.json is invalid input, as in every other
	 * command: the table shows it, and the status says it (3). */
	for (size_t i = 0; i < n && !status; i++)
		if (!r->failed[i] && r->st[i].drift == CLAWMD_DRIFT_INVALID)
			status = 3;
	return status;
}

static void print_json(const struct status_rows *r)
{
	struct clawmd_json *doc = cmd_json_doc();
	clawmd_json_add_string(doc, "root", r->lay->root);
	clawmd_json_add_number(doc, "token_budget", (double)r->lay->token_budget);
	struct clawmd_json *arr = clawmd_json_add_array(doc, "groups");
	for (size_t i = 0; i < r->n; i++) {
		const struct clawmd_group_status *s = &r->st[i];
		struct clawmd_json *json_group = clawmd_json_object();
		clawmd_json_add_string(json_group, "group", r->groups[i]);
		if (r->failed[i]) {
			clawmd_json_add_string(json_group, "drift", "unreadable");
			clawmd_json_add(json_group, "error", cmd_json_error(r->failed[i], r->why[i]));
			clawmd_json_add(arr, NULL, json_group);
			continue;
		}
		clawmd_json_add_string(json_group, "drift", clawmd_drift_name(s->drift));
		clawmd_json_add_bool(json_group, "all_skills", s->all_skills);
		clawmd_json_add_strings(json_group, "skills", s->skills, s->nskills);
		clawmd_json_add_strings(json_group, "on_demand", r->odv + i * r->nod, r->nodv[i]);
		clawmd_json_add_strings(json_group, "fragments", s->fragments, s->nfragments);
		clawmd_json_add_number(json_group, "memory_chars", (double)s->memory_chars);
		clawmd_json_add_number(json_group, "tokens", (double)s->tokens);
		clawmd_json_add_number(json_group, "findings", (double)s->nfindings);
		clawmd_json_add_number(json_group, "errors", (double)s->nerrors);
		clawmd_json_add_number(json_group, "preserved", (double)s->npreserved);
		struct clawmd_json *rts = clawmd_json_add_array(json_group, "runtimes");
		for (int rt = 0; rt < clawmd_layout_nruntimes(r->lay); rt++)
			if (s->runtimes & (1u << rt))
				clawmd_json_add_string(rts, NULL, 
					clawmd_layout_contract(r->lay, rt)->name);
		clawmd_json_add(arr, NULL, json_group);
	}
	cmd_json_print(doc);
}

/* One group's line of the table, `w` the width of the GROUP column. */
static void print_row(const struct status_rows *r, size_t i, size_t w, bool colour)
{
	const struct clawmd_group_status *s = &r->st[i];
	const char *state = r->failed[i] ? "unreadable" : clawmd_drift_name(s->drift);
	/* Pad before colouring so the escapes do not skew columns. */
	char *name = cmd_escaped(r->groups[i]);
	printf("%-*s  %s%-14s%s  %6zu  %9zu  %8zu  %7zu  %8zu  %9zu  ", (int)w, name,
	       colour ? (r->failed[i] ? "\033[31m" : drift_colour(s->drift)) : "", state,
	       colour ? "\033[0m" : "", s->nskills, s->nfragments, s->memory_chars,
	       s->tokens, s->nfindings, s->npreserved);
	free(name);
	struct clawmd_buf rts = CLAWMD_BUF_INIT;
	clawmd_buf_put(&rts, "", 0);
	for (int rt = 0; rt < clawmd_layout_nruntimes(r->lay); rt++)
		if (s->runtimes & (1u << rt))
			clawmd_buf_printf(&rts, "%s%s", rts.len ? "," : "",
					  clawmd_layout_contract(r->lay, rt)->name);
	printf("%-15s  ", rts.len ? rts.ptr : "-");
	clawmd_buf_release(&rts);
	/* In words: the skills composed into the entry ("all: " when the
	 * group selects every skill), then those Claude Code reads on demand
	 * (SKILL.md alone: no fragment); "none" rather than a bare "-". */
	if (s->nskills || !r->nodv[i])
		printf("%s", s->all_skills ? "all: " : "");
	else
		printf("%s", s->all_skills ? "all, " : "");
	for (size_t k = 0; k < s->nskills; k++) {
		printf("%s", k ? "," : "");
		cmd_put_escaped(stdout, s->skills[k]);
	}
	if (!s->nskills && !r->nodv[i])
		printf("none");
	for (size_t k = 0; k < r->nodv[i]; k++) {
		printf("%s", k ? "," : s->nskills ? "; on demand: " : "on demand: ");
		cmd_put_escaped(stdout, r->odv[i * r->nod + k]);
	}
	printf("\n");
}

static void print_table(const struct status_rows *r, bool quiet)
{
	bool colour = cmd_use_colour(stdout);
	size_t w = 5;
	for (size_t i = 0; i < r->n; i++)
		if (strlen(r->groups[i]) > w)
			w = strlen(r->groups[i]);
	printf("%-*s  %-14s  %6s  %9s  %8s  %7s  %8s  %9s  %-15s  %s\n", (int)w, "GROUP",
	       "STATE", "SKILLS", "FRAGMENTS", "CHARS", "TOKENS", "FINDINGS", "PRESERVED",
	       "RUNTIMES", "SKILL NAMES");
	for (size_t i = 0; i < r->n; i++)
		print_row(r, i, w, colour);
	if (!quiet)
		summary(r->st, r->failed, r->groups, r->n);
}

int cmd_status(int argc, char **argv)
{
	struct cmd_layout_opts lo = cmd_layout_global;
	struct cmd_args a;
	bool json = false, quiet = cmd_quiet;
	cmd_args_init(&a, "status", options, true, argc, argv);
	int status = status_parse(&a, &lo, &json, &quiet);
	if (status >= 0) {
		cmd_args_release(&a);
		return status;
	}
	struct clawmd_root root;
	char **groups, **listed;
	size_t n;
	if ((status = cmd_fleet_open(&root, &lo, quiet, &a, &groups, &listed, &n))) {
		cmd_args_release(&a);
		return json ? cmd_json_failure(status) : status;
	}
	struct status_rows rows;
	rows_init(&rows, &root.lay, groups, n);
	status = rows_read(&rows, &root, n > 100 && !quiet && !json && isatty(2));
	if (json)
		print_json(&rows);
	else
		print_table(&rows, quiet);
	rows_release(&rows);
	clawmd_strv_free(listed, listed ? n : 0);
	clawmd_root_release(&root);
	cmd_args_release(&a);
	return status;
}
