/* check.c - `clawmd check`: lint groups (or a tree) for CI and operators. */
#include <cJSON.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static const char help_head[] =
	"usage: clawmd check [options] [GROUP...|--all|--cwd DIR]\n"
	"\n"
	"Find what is broken or drifting before an agent sees it (imports that do not\n"
	"load, budgets, invalid container.json, stale or hand-edited entries, ...),\n"
	"one finding a line: FILE:LINE:COL: SEVERITY: MESSAGE [CODE].  No GROUP: all.\n";

static const char help_foot[] =
	"Exit status: 0 no error-level finding (none at all with --strict),\n"
	"1 an error-level finding (any finding with --strict), 2 usage,\n"
	"3 invalid input (clawmd.json, a group name, a missing shared base, an\n"
	"unreadable --cwd directory), 4 a missing or symlinked group directory.\n";

enum { OPT_CWD = OPT_CMD, OPT_JSON, OPT_FORMAT, OPT_STRICT, OPT_APPROVE, OPT_HINTS, OPT_NO_HINTS };

static const struct cmd_opt options[] = {
	{"all", 'a', NULL, "every group under the groups directory"},
	{"cwd", OPT_CWD, "DIR", "lint the tree at DIR as Claude Code started there\n"
				"would load it (host view, confined to DIR) instead\n"
				"of groups; a group directory in it is linted in\n"
				"its container view, as a group check does"},
	{"json", OPT_JSON, NULL, "the findings as one JSON document (--format json)"},
	{"format", OPT_FORMAT, "FMT", "text, json or sarif (a SARIF 2.1.0 log for\n"
				      "code-scanning tools) (default: text)"},
	{"strict", OPT_STRICT, NULL, "exit 1 on any finding, not only on errors"},
	{"approve-external", OPT_APPROVE, NULL, "the project approved external includes:\n"
						"imports leaving the working directory load (no CM105)\n"
						"(default: approve_external in clawmd.json)"},
	{"hints", OPT_HINTS, NULL, "print each finding's hint (default: on)"},
	{"no-hints", OPT_NO_HINTS, NULL, "never print hints"},
	{"quiet", 'q', NULL, "no progress, no summary line"},
	CMD_OPT_END,
};

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
		cmd_put_escaped(stdout, x->file);
		printf(":%lu:%lu: %s%s%s: ", x->line, x->col, colour ? colour_of(x->rule->severity) : "",
		       sev, colour ? "\033[0m" : "");
		cmd_put_escaped(stdout, x->message);
		printf(" [%s]\n", x->rule->code);
		if (hints && x->hint[0]) {
			printf("    hint: ");
			cmd_put_escaped(stdout, x->hint);
			putchar('\n');
		}
	}
}

static cJSON *json_doc(const struct clawmd_findings *f, cJSON *errors)
{
	cJSON *doc = cmd_json_doc();
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

/* The rule table's own sentences as CommonMark text: punctuation that
 * Markdown would read as emphasis, a link or HTML is backslash-escaped. */
static char *md_escape(const char *s)
{
	char *out = malloc(strlen(s) * 2 + 1), *o = out;
	if (!out)
		abort();
	for (; *s; s++) {
		if (strchr("\\`*_[]<>#|~", *s))
			*o++ = '\\';
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

/* A message as SARIF consumers want it: one sentence ending in a period. */
static void add_message(cJSON *parent, const char *key, const char *text, const char *markdown)
{
	cJSON *m = cJSON_AddObjectToObject(parent, key);
	size_t n = strlen(text);
	char *t = NULL;
	if (asprintf(&t, "%s%s", text, n && text[n - 1] == '.' ? "" : ".") < 0)
		abort();
	cJSON_AddStringToObject(m, "text", t);
	if (markdown)
		cJSON_AddStringToObject(m, "markdown", markdown);
	free(t);
}

/* A SARIF 2.1.0 log with one run, as code-scanning tools take it: every
 * rule documented inside the log itself (descriptions, and help in text
 * and Markdown: what it means and what to do), so a reader needs nothing
 * installed and no link; there is no helpUri because no https page holds
 * the rules (a file:// link would name the machine that wrote the log).
 * Paths are relative to ROOT (%SRCROOT%), which is the repository in CI. */
static cJSON *sarif_doc(const struct clawmd_findings *f, cJSON *errors, const char *srcroot)
{
	size_t nrules;
	const struct clawmd_lint_rule *rules = clawmd_lint_rules(&nrules);
	cJSON *doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "$schema",
				"https://json.schemastore.org/sarif-2.1.0.json");
	cJSON_AddStringToObject(doc, "version", "2.1.0");
	cJSON *run = cJSON_CreateObject();
	cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "runs"), run);
	cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
	cJSON_AddStringToObject(driver, "name", "clawmd");
	cJSON_AddStringToObject(driver, "version", CLAWMD_VERSION);
	cJSON_AddStringToObject(driver, "semanticVersion", CLAWMD_VERSION);
	cJSON *jr = cJSON_AddArrayToObject(driver, "rules");
	for (size_t i = 0; i < nrules; i++) {
		const struct clawmd_lint_rule *r = &rules[i];
		cJSON *o = cJSON_CreateObject();
		char *text = NULL, *md = NULL, *name = NULL;
		char *md_desc = md_escape(r->description), *md_help = md_escape(r->help);
		if (asprintf(&text, "%s\n\nWhat to do: %s", r->description, r->help) < 0 ||
		    asprintf(&md, "**%s %s** (%s)\n\n%s\n\n**What to do:** %s", r->code,
			     r->name, sarif_level(r->severity), md_desc, md_help) < 0)
			abort();
		free(md_desc);
		free(md_help);
		/* SARIF rule names are PascalCase identifiers. */
		name = strdup(r->name);
		if (!name)
			abort();
		size_t k = 0;
		for (const char *p = r->name; *p; p++) {
			if (*p == '-')
				continue;
			name[k++] = (p == r->name || p[-1] == '-') && *p >= 'a' && *p <= 'z'
					    ? (char)(*p - 'a' + 'A') : *p;
		}
		name[k] = '\0';
		cJSON_AddStringToObject(o, "id", r->code);
		cJSON_AddStringToObject(o, "name", name);
		add_message(o, "shortDescription", r->summary, NULL);
		add_message(o, "fullDescription", r->description, NULL);
		add_message(o, "help", text, md);
		cJSON_AddStringToObject(cJSON_AddObjectToObject(o, "defaultConfiguration"), "level",
					sarif_level(r->severity));
		cJSON *props = cJSON_AddObjectToObject(o, "properties");
		cJSON_AddItemToArray(cJSON_AddArrayToObject(props, "tags"),
				     cJSON_CreateString("claude-code-memory"));
		cJSON_AddItemToArray(jr, o);
		free(text);
		free(md);
		free(name);
	}
	if (srcroot) {
		char *uri = NULL, *enc = cmd_uri_encode(srcroot);
		if (asprintf(&uri, "file://%s%s", enc, enc[strlen(enc) - 1] == '/' ? "" : "/") < 0)
			abort();
		free(enc);
		cJSON *base = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "originalUriBaseIds"),
						      "SRCROOT");
		cJSON_AddStringToObject(base, "uri", uri);
		free(uri);
	}
	cJSON *results = cJSON_AddArrayToObject(run, "results");
	for (size_t i = 0; i < f->n; i++) {
		const struct clawmd_finding *x = &f->v[i];
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "ruleId", x->rule->code);
		cJSON_AddNumberToObject(r, "ruleIndex", (double)(x->rule - rules));
		cJSON_AddStringToObject(r, "level", sarif_level(x->rule->severity));
		char *text = NULL;
		size_t ml = strlen(x->message);
		if (asprintf(&text, "%s%s Hint: %s", x->message,
			     ml && x->message[ml - 1] == '.' ? "" : ".", x->hint) < 0)
			abort();
		add_message(r, "message", text, NULL);
		free(text);
		cJSON *loc = cJSON_CreateObject();
		cJSON *phys = cJSON_AddObjectToObject(loc, "physicalLocation");
		cJSON *art = cJSON_AddObjectToObject(phys, "artifactLocation");
		char *enc = cmd_uri_encode(x->file);
		if (x->file[0] == '/') {
			char *abs = NULL;
			if (asprintf(&abs, "file://%s", enc) < 0)
				abort();
			free(enc);
			enc = abs;
		}
		cJSON_AddStringToObject(art, "uri", enc);
		free(enc);
		if (x->file[0] != '/' && srcroot)
			cJSON_AddStringToObject(art, "uriBaseId", "SRCROOT");
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
	cJSON *inv = cJSON_CreateObject();
	cJSON_AddBoolToObject(inv, "executionSuccessful", cJSON_GetArraySize(errors) == 0);
	if (cJSON_GetArraySize(errors)) {
		cJSON *notes = cJSON_AddArrayToObject(inv, "toolExecutionNotifications");
		cJSON *e;
		cJSON_ArrayForEach(e, errors)
		{
			cJSON *n = cJSON_CreateObject();
			cJSON_AddStringToObject(n, "level", "error");
			add_message(n, "message", cJSON_GetObjectItem(cJSON_GetObjectItem(e, "error"),
								      "message")->valuestring, NULL);
			cJSON_AddItemToArray(notes, n);
		}
	}
	cJSON_AddItemToArray(cJSON_AddArrayToObject(run, "invocations"), inv);
	cJSON_Delete(errors);
	return doc;
}

/* A failure to read a group or tree: on stderr now, in the document later. */
static void add_failure(cJSON *failures, const char *group, int status, const char *msg)
{
	cJSON *e = cJSON_CreateObject();
	if (group)
		cJSON_AddStringToObject(e, "group", group);
	else
		cJSON_AddNullToObject(e, "group");
	cJSON_AddItemToObject(e, "error", cmd_json_error(status, msg));
	cJSON_AddItemToArray(failures, e);
	cmd_put_error(msg);
}

/* A run that failed before linting anything still prints one document of
 * its format: SARIF with the failure as a tool notification, else the
 * common JSON error shape. */
static void early_failure(enum format fmt, int status)
{
	if (fmt == FMT_SARIF) {
		struct clawmd_findings none;
		cJSON *failures = cJSON_CreateArray(), *e = cJSON_CreateObject();
		clawmd_findings_init(&none);
		cJSON_AddNullToObject(e, "group");
		cJSON_AddItemToObject(e, "error", cmd_json_error(status, NULL));
		cJSON_AddItemToArray(failures, e);
		cmd_sarif_print(sarif_doc(&none, failures, NULL));
	} else if (fmt == FMT_JSON) {
		cmd_json_failure(status);
	}
}

/* Findings' files as shown from the current directory. */
static void reshow(struct clawmd_findings *f, const struct clawmd_layout *lay, const char *base)
{
	for (size_t i = 0; i < f->n; i++) {
		char *s = cmd_shown(lay, base, f->v[i].file);
		free(f->v[i].file);
		f->v[i].file = s;
	}
}

int cmd_check(int argc, char **argv)
{
	struct cmd_layout_opts lo = cmd_layout_global;
	struct clawmd_lint_opts opts = CLAWMD_LINT_OPTS_INIT;
	struct cmd_args a;
	enum format fmt = FMT_TEXT;
	bool all = false, strict = false, quiet = cmd_quiet, hints = true;
	const char *cwd = NULL;
	int c, status = 0;
	cmd_args_init(&a, "check", options, true, argc, argv);
	while ((c = cmd_args_next(&a)) > 0) {
		switch (c) {
		case 'a': all = true; break;
		case OPT_CWD: cwd = a.arg; break;
		case OPT_JSON: fmt = FMT_JSON; break;
		case OPT_FORMAT:
			if (!strcmp(a.arg, "text"))
				fmt = FMT_TEXT;
			else if (!strcmp(a.arg, "json"))
				fmt = FMT_JSON;
			else if (!strcmp(a.arg, "sarif"))
				fmt = FMT_SARIF;
			else
				c = (cmd_usage_error("check", "--format: expected text, json or sarif, not '%s'",
						    a.arg), -1);
			break;
		case OPT_STRICT: strict = true; break;
		case OPT_APPROVE: opts.approve_external = true; break;
		case OPT_HINTS: hints = true; break;
		case OPT_NO_HINTS: hints = false; break;
		case 'q': quiet = true; break;
		case 'h': cmd_help(help_head, options, help_foot); cmd_args_release(&a); return 0;
		default:
			if (!cmd_args_common(&a, c, &lo))
				c = (cmd_usage_error("check", "%s: expected auto, always or never, not '%s'",
						    a.spelled, a.arg), -1);
		}
		if (c < 0)
			break;
	}
	if (c >= 0 && cwd && (all || a.noperands))
		c = (cmd_usage_error("check", "give --cwd DIR or groups, not both"), -1);
	if (c >= 0 && all && a.noperands)
		c = (cmd_usage_error("check", "give GROUP names or --all, not both"), -1);
	if (c < 0) {
		early_failure(fmt, 2);
		cmd_args_release(&a);
		return 2;
	}

	struct clawmd_findings f;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_root root;
	char *srcroot = NULL;
	cJSON *failures = cJSON_CreateArray();
	size_t ngroups = 0;
	clawmd_root_init(&root);
	clawmd_findings_init(&f);
	if (cwd) {
		struct clawmd_root troot;
		bool have = cmd_tree_root(&troot, &lo, cwd);
		opts.layout = have ? &troot.lay : NULL;
		int trc = clawmd_lint_tree(&f, cwd, &opts, &err);
		if (have)
			clawmd_root_release(&troot);
		if (trc < 0) {
			status = cmd_exit_status(err.code);
			status = status ? status : 3;
			add_failure(failures, NULL, status, err.msg);
		} else {
			/* Shown relative to DIR, as -C shows them relative to ROOT. */
			srcroot = realpath(cwd, NULL);
		}
	} else if ((status = cmd_root_open(&root, &lo, quiet))) {
		early_failure(fmt, status);
		cJSON_Delete(failures);
		cmd_args_release(&a);
		return status;
	} else {
		char **groups = a.operands, **listed = NULL;
		size_t n = a.noperands;
		bool listing = n == 0;
		if (!listing && (status = cmd_groups_check(&root, groups, n))) {
			early_failure(fmt, status);
			clawmd_root_release(&root);
			cJSON_Delete(failures);
			cmd_args_release(&a);
			return status;
		}
		if (listing && clawmd_groups_list(&listed, &n, &root.lay, &err) < 0) {
			status = cmd_fail(&err);
			early_failure(fmt, status);
			clawmd_root_release(&root);
			cJSON_Delete(failures);
			cmd_args_release(&a);
			return status;
		}
		if (listing)
			groups = listed;
		ngroups = n;
		clawmd_lint_layout(&f, &root.lay);
		bool progress = listing && n > 100 && !quiet && isatty(2);
		opts.approve_external |= root.lay.approve_external; /* clawmd.json's */
		root.pass = clawmd_pass_new(); /* the host's sources, read once */
		for (size_t i = 0; i < n; i++) {
			struct clawmd_group *g;
			clawmd_err_clear(&err);
			if (clawmd_group_open(&g, &root, groups[i], &err) < 0 ||
			    clawmd_lint_group(&f, g, &opts, &err) < 0) {
				int st = cmd_exit_status(err.code);
				if (progress)
					fputs("\r\033[K", stderr);
				add_failure(failures, groups[i], st ? st : 4, err.msg);
				if (!status)
					status = st ? st : 4;
			}
			if (progress && (i % 64 == 0 || i + 1 == n))
				fprintf(stderr, "\rclawmd: checked %zu/%zu groups%s", i + 1, n,
					i + 1 == n ? "\n" : "");
			clawmd_group_free(g);
		}
		clawmd_strv_free(listed, listing ? n : 0);
		srcroot = strdup(root.lay.root);
	}

	/* SARIF keeps paths relative to ROOT (the repository); people and
	 * problem matchers get them from where the command ran. */
	if (fmt != FMT_SARIF && root.lay.root)
		reshow(&f, &root.lay, root.lay.root);
	clawmd_findings_sort(&f);
	size_t errs = clawmd_findings_count(&f, CLAWMD_SEV_ERROR);
	size_t warns = clawmd_findings_count(&f, CLAWMD_SEV_WARNING) - errs;
	if (fmt == FMT_TEXT) {
		print_text(&f, hints, cmd_use_colour(stdout));
		cJSON_Delete(failures);
	} else {
		if (fmt == FMT_JSON)
			cmd_json_print(json_doc(&f, failures));
		else
			cmd_sarif_print(sarif_doc(&f, failures, srcroot));
	}
	if (!quiet) {
		fprintf(stderr, "clawmd: %zu error%s, %zu warning%s, %zu note%s", errs,
			errs == 1 ? "" : "s", warns, warns == 1 ? "" : "s", f.n - errs - warns,
			f.n - errs - warns == 1 ? "" : "s");
		if (cwd)
			fprintf(stderr, " in %s\n", cwd);
		else
			fprintf(stderr, " in %zu group%s\n", ngroups, ngroups == 1 ? "" : "s");
	}
	if (!status && (strict ? f.n > 0 : errs > 0))
		status = 1;
	free(srcroot);
	clawmd_findings_release(&f);
	clawmd_root_release(&root);
	cmd_args_release(&a);
	return status;
}
