/* check.c - `clawmd check`: lint groups (or a tree) for CI and operators. */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

/* Where the SARIF log says the tool is documented; packagers may set it. */
#ifndef CLAWMD_URL
#define CLAWMD_URL "urn:clawmd"
#endif

static const char usage_text[] =
	"usage: clawmd check [options] [GROUP...]\n"
	"       clawmd check [options] --all\n"
	"       clawmd check [options] --cwd DIR\n"
	"\n"
	"Find what is broken or drifting before an agent sees it: imports that would\n"
	"not load (in the container view, through the mount table), files and groups\n"
	"over the size and token budgets, invalid container.json, unknown skills, a\n"
	"composed CLAUDE.md that is stale or edited by hand, CLAUDE.local.md not\n"
	"ignored by git, rules whose frontmatter does not parse or whose paths: globs\n"
	"match nothing.  Every finding has a stable code (see the README).\n"
	"With no GROUP, every group is checked (as --all).\n"
	"\n"
	"Options:\n"
	"  -a, --all             every group under the groups directory\n"
	"      --cwd DIR         lint the tree at DIR as Claude Code started there\n"
	"                        would load it (host view) instead of groups\n"
	"      --json            the findings as one JSON document\n"
	"      --format FMT      text (default), json, or sarif (a SARIF 2.1.0 log\n"
	"                        for code-scanning tools)\n"
	"      --strict          exit 1 on any finding, not only on errors\n"
	"      --approve-external  the project approved external includes: imports\n"
	"                        leaving the working directory load (no CM105)\n"
	"      --hints           print each finding's hint (default on a terminal)\n"
	"      --no-hints        never print hints\n"
	"  -q, --quiet           no progress, no summary line\n"
	"\n" CMD_LAYOUT_HELP "\n"
	"Text output is one finding a line:  FILE:LINE:COL: SEVERITY: MESSAGE [CODE]\n"
	"\n"
	"Exit status: 0 no error-level finding (none at all with --strict),\n"
	"1 an error-level finding (any finding with --strict), 2 usage,\n"
	"3 unreadable input (a missing group, a missing shared base, an unreadable\n"
	"directory).\n";

enum format { FMT_TEXT, FMT_JSON, FMT_SARIF };

static const char *colour_of(enum clawmd_severity sev)
{
	return sev == CLAWMD_SEV_ERROR ? "\033[1;31m" : sev == CLAWMD_SEV_WARNING ? "\033[1;33m"
										 : "\033[1;36m";
}

static void print_text(const struct clawmd_findings *f, bool hints, bool colour)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct clawmd_finding *x = &f->v[i];
		const char *sev = clawmd_severity_name(x->rule->severity);
		printf("%s:%lu:%lu: %s%s%s: %s [%s]\n", x->file, x->line, x->col,
		       colour ? colour_of(x->rule->severity) : "", sev, colour ? "\033[0m" : "",
		       x->message, x->rule->code);
		if (hints && x->hint[0])
			printf("    hint: %s\n", x->hint);
	}
}

static cJSON *json_doc(const struct clawmd_findings *f, cJSON *errors)
{
	cJSON *doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "tool", "clawmd");
	cJSON_AddStringToObject(doc, "version", CLAWMD_VERSION);
	cJSON *arr = cJSON_AddArrayToObject(doc, "findings");
	for (size_t i = 0; i < f->n; i++) {
		const struct clawmd_finding *x = &f->v[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "code", x->rule->code);
		cJSON_AddStringToObject(o, "name", x->rule->name);
		cJSON_AddStringToObject(o, "severity", clawmd_severity_name(x->rule->severity));
		if (x->group)
			cJSON_AddStringToObject(o, "group", x->group);
		else
			cJSON_AddNullToObject(o, "group");
		cJSON_AddStringToObject(o, "file", x->file);
		cJSON_AddNumberToObject(o, "line", (double)x->line);
		cJSON_AddNumberToObject(o, "column", (double)x->col);
		cJSON_AddStringToObject(o, "message", x->message);
		cJSON_AddStringToObject(o, "hint", x->hint);
		cJSON_AddItemToArray(arr, o);
	}
	cJSON *sum = cJSON_AddObjectToObject(doc, "summary");
	size_t errs = clawmd_findings_count(f, CLAWMD_SEV_ERROR);
	size_t warns = clawmd_findings_count(f, CLAWMD_SEV_WARNING) - errs;
	cJSON_AddNumberToObject(sum, "errors", (double)errs);
	cJSON_AddNumberToObject(sum, "warnings", (double)warns);
	cJSON_AddNumberToObject(sum, "notes", (double)(f->n - errs - warns));
	cJSON_AddItemToObject(doc, "failures", errors);
	return doc;
}

static const char *sarif_level(enum clawmd_severity sev)
{
	return sev == CLAWMD_SEV_ERROR ? "error" : sev == CLAWMD_SEV_WARNING ? "warning" : "note";
}

/* A SARIF 2.1.0 log with one run, as code-scanning tools take it. */
static cJSON *sarif_doc(const struct clawmd_findings *f, cJSON *errors)
{
	size_t nrules;
	const struct clawmd_lint_rule *rules = clawmd_lint_rules(&nrules);
	cJSON *doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
	cJSON_AddStringToObject(doc, "version", "2.1.0");
	cJSON *run = cJSON_CreateObject();
	cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "runs"), run);
	cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
	cJSON_AddStringToObject(driver, "name", "clawmd");
	cJSON_AddStringToObject(driver, "version", CLAWMD_VERSION);
	cJSON_AddStringToObject(driver, "semanticVersion", CLAWMD_VERSION);
	cJSON_AddStringToObject(driver, "informationUri", CLAWMD_URL);
	cJSON *jr = cJSON_AddArrayToObject(driver, "rules");
	for (size_t i = 0; i < nrules; i++) {
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "id", rules[i].code);
		cJSON_AddStringToObject(r, "name", rules[i].name);
		cJSON_AddStringToObject(cJSON_AddObjectToObject(r, "shortDescription"), "text",
					rules[i].summary);
		cJSON_AddStringToObject(cJSON_AddObjectToObject(r, "defaultConfiguration"), "level",
					sarif_level(rules[i].severity));
		cJSON_AddItemToArray(jr, r);
	}
	cJSON *results = cJSON_AddArrayToObject(run, "results");
	for (size_t i = 0; i < f->n; i++) {
		const struct clawmd_finding *x = &f->v[i];
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "ruleId", x->rule->code);
		cJSON_AddNumberToObject(r, "ruleIndex", (double)(x->rule - rules));
		cJSON_AddStringToObject(r, "level", sarif_level(x->rule->severity));
		char *text = NULL;
		if (asprintf(&text, "%s (hint: %s)", x->message, x->hint) < 0)
			abort();
		cJSON_AddStringToObject(cJSON_AddObjectToObject(r, "message"), "text", text);
		free(text);
		cJSON *loc = cJSON_CreateObject();
		cJSON *phys = cJSON_AddObjectToObject(loc, "physicalLocation");
		cJSON *art = cJSON_AddObjectToObject(phys, "artifactLocation");
		cJSON_AddStringToObject(art, "uri", x->file);
		if (x->file[0] != '/')
			cJSON_AddStringToObject(art, "uriBaseId", "%SRCROOT%");
		cJSON *reg = cJSON_AddObjectToObject(phys, "region");
		cJSON_AddNumberToObject(reg, "startLine", (double)x->line);
		cJSON_AddNumberToObject(reg, "startColumn", (double)x->col);
		cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "locations"), loc);
		if (x->group)
			cJSON_AddStringToObject(cJSON_AddObjectToObject(r, "properties"), "group",
						x->group);
		cJSON_AddItemToArray(results, r);
	}
	/* Input that could not be read at all is a tool notification. */
	if (cJSON_GetArraySize(errors)) {
		cJSON *inv = cJSON_CreateObject();
		cJSON_AddBoolToObject(inv, "executionSuccessful", false);
		cJSON *notes = cJSON_AddArrayToObject(inv, "toolExecutionNotifications");
		cJSON *e;
		cJSON_ArrayForEach(e, errors)
		{
			cJSON *n = cJSON_CreateObject();
			cJSON_AddStringToObject(n, "level", "error");
			cJSON_AddStringToObject(cJSON_AddObjectToObject(n, "message"), "text",
						cJSON_GetObjectItem(e, "message")->valuestring);
			cJSON_AddItemToArray(notes, n);
		}
		cJSON_AddItemToArray(cJSON_AddArrayToObject(run, "invocations"), inv);
	}
	cJSON_Delete(errors);
	return doc;
}

int cmd_check(int argc, char **argv)
{
	enum { OPT_CWD = 0x200, OPT_JSON, OPT_FORMAT, OPT_STRICT, OPT_APPROVE, OPT_HINTS,
	       OPT_NO_HINTS };
	static const struct option longopts[] = {
		{"all", no_argument, NULL, 'a'},
		{"cwd", required_argument, NULL, OPT_CWD},
		{"json", no_argument, NULL, OPT_JSON},
		{"format", required_argument, NULL, OPT_FORMAT},
		{"strict", no_argument, NULL, OPT_STRICT},
		{"approve-external", no_argument, NULL, OPT_APPROVE},
		{"hints", no_argument, NULL, OPT_HINTS},
		{"no-hints", no_argument, NULL, OPT_NO_HINTS},
		{"quiet", no_argument, NULL, 'q'},
		CMD_LAYOUT_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct cmd_layout_opts lo = {0};
	struct clawmd_lint_opts opts = {0};
	enum format fmt = FMT_TEXT;
	bool all = false, strict = false, quiet = false;
	int hints = -1;
	const char *cwd = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "+aqC:h", longopts, NULL)) != -1) {
		if (cmd_layout_opt(&lo, c, optarg))
			continue;
		switch (c) {
		case 'a': all = true; break;
		case OPT_CWD: cwd = optarg; break;
		case OPT_JSON: fmt = FMT_JSON; break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "text"))
				fmt = FMT_TEXT;
			else if (!strcmp(optarg, "json"))
				fmt = FMT_JSON;
			else if (!strcmp(optarg, "sarif"))
				fmt = FMT_SARIF;
			else
				return cmd_usage_error("check", "unknown format '%s' (text, json, sarif)",
						       optarg);
			break;
		case OPT_STRICT: strict = true; break;
		case OPT_APPROVE: opts.approve_external = true; break;
		case OPT_HINTS: hints = 1; break;
		case OPT_NO_HINTS: hints = 0; break;
		case 'q': quiet = true; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: return cmd_usage_error("check", "unknown option");
		}
	}
	if (cwd && (all || optind < argc))
		return cmd_usage_error("check", "give --cwd DIR or groups, not both");
	if (all && optind < argc)
		return cmd_usage_error("check", "give GROUP names or --all, not both");
	if (hints < 0)
		hints = isatty(1);

	struct clawmd_findings f;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	cJSON *failures = cJSON_CreateArray();
	int status = 0;
	clawmd_findings_init(&f);
	if (cwd) {
		if (clawmd_lint_tree(&f, cwd, &opts, &err) < 0) {
			fprintf(stderr, "clawmd: %s\n", err.msg);
			cJSON *e = cJSON_CreateObject();
			cJSON_AddStringToObject(e, "message", err.msg);
			cJSON_AddItemToArray(failures, e);
			status = 3;
		}
	} else {
		struct clawmd_layout lay;
		int st = cmd_layout_open(&lay, &lo);
		if (st) {
			cJSON_Delete(failures);
			return st;
		}
		char **groups = argv + optind, **listed = NULL;
		size_t n = (size_t)(argc - optind);
		bool listing = n == 0;
		if (listing && clawmd_groups_list(&listed, &n, &lay, &err) < 0) {
			clawmd_layout_release(&lay);
			cJSON_Delete(failures);
			fprintf(stderr, "clawmd: %s\n", err.msg);
			return 3;
		}
		if (listing)
			groups = listed;
		bool progress = listing && n > 100 && !quiet && isatty(2);
		opts.approve_external |= lay.approve_external; /* clawmd.json's */
		for (size_t i = 0; i < n; i++) {
			clawmd_err_clear(&err);
			if (clawmd_lint_group(&f, &lay, groups[i], &opts, &err) < 0) {
				fprintf(stderr, "%sclawmd: %s\n", progress ? "\r\033[K" : "", err.msg);
				cJSON *e = cJSON_CreateObject();
				cJSON_AddStringToObject(e, "group", groups[i]);
				cJSON_AddStringToObject(e, "message", err.msg);
				cJSON_AddItemToArray(failures, e);
				status = 3;
			}
			if (progress && (i % 64 == 0 || i + 1 == n))
				fprintf(stderr, "\rclawmd: checked %zu/%zu groups%s", i + 1, n,
					i + 1 == n ? "\n" : "");
		}
		clawmd_strv_free(listed, listing ? n : 0);
		clawmd_layout_release(&lay);
	}

	if (fmt == FMT_TEXT) {
		print_text(&f, hints, cmd_use_colour(stdout));
		size_t errs = clawmd_findings_count(&f, CLAWMD_SEV_ERROR);
		if (!quiet && f.n && isatty(2))
			fprintf(stderr, "clawmd: %zu finding(s), %zu error(s)\n", f.n, errs);
		cJSON_Delete(failures);
	} else {
		cJSON *doc = fmt == FMT_JSON ? json_doc(&f, failures) : sarif_doc(&f, failures);
		char *s = cJSON_Print(doc);
		puts(s);
		free(s);
		cJSON_Delete(doc);
	}
	if (!status && (strict ? f.n > 0 : clawmd_findings_count(&f, CLAWMD_SEV_ERROR) > 0))
		status = 1;
	clawmd_findings_release(&f);
	return status;
}
