/* check.c - `clawmd check`: lint groups (or a tree) for CI and operators. */
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
	"unreadable --cwd directory), 4 a missing or symlinked group directory\n"
	"or groups directory (a root without groups/: create it, or give --groups).\n";

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

/* Input that could not be read at all: a group (NULL: the tree or the
 * run), the exit status it means, and why. */
struct failure {
	char *group;
	int status;
	char *message;
};

struct failures {
	struct failure *v;
	size_t n, cap;
};

static void failures_add(struct failures *fs, const char *group, int status, const char *message)
{
	clawmd_xgrow(&fs->v, &fs->cap, fs->n + 1, sizeof(*fs->v));
	fs->v[fs->n++] = (struct failure){clawmd_xstrdup(group), status, clawmd_xstrdup(message)};
}

static void failures_release(struct failures *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->v[i].group);
		free(fs->v[i].message);
	}
	free(fs->v);
	*fs = (struct failures){0};
}

/* The document's "failures": {"group", "error": {"status", "message"}} each. */
static struct clawmd_json *failures_json(const struct failures *fs)
{
	struct clawmd_json *arr = clawmd_json_array();
	for (size_t i = 0; i < fs->n; i++) {
		struct clawmd_json *e = clawmd_json_add_object(arr, NULL);
		if (fs->v[i].group)
			clawmd_json_add_string(e, "group", fs->v[i].group);
		else
			clawmd_json_add_null(e, "group");
		clawmd_json_add(e, "error", cmd_json_error(fs->v[i].status, fs->v[i].message));
	}
	return arr;
}

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

static struct clawmd_json *json_doc(const struct clawmd_findings *f, const struct failures *fs)
{
	struct clawmd_json *doc = cmd_json_doc();
	struct clawmd_json *arr = clawmd_json_add_array(doc, "findings");
	for (size_t i = 0; i < f->n; i++) {
		const struct clawmd_finding *x = &f->v[i];
		struct clawmd_json *o = clawmd_json_object();
		clawmd_json_add_string(o, "code", x->rule->code);
		clawmd_json_add_string(o, "name", x->rule->name);
		clawmd_json_add_string(o, "severity", clawmd_severity_name(x->rule->severity));
		if (x->group)
			clawmd_json_add_string(o, "group", x->group);
		else
			clawmd_json_add_null(o, "group");
		clawmd_json_add_string(o, "file", x->file);
		clawmd_json_add_number(o, "line", (double)x->line);
		clawmd_json_add_number(o, "column", (double)x->col);
		clawmd_json_add_string(o, "message", x->message);
		clawmd_json_add_string(o, "hint", x->hint);
		clawmd_json_add(arr, NULL, o);
	}
	struct clawmd_json *sum = clawmd_json_add_object(doc, "summary");
	size_t errs = clawmd_findings_count(f, CLAWMD_SEV_ERROR);
	size_t warns = clawmd_findings_count(f, CLAWMD_SEV_WARNING) - errs;
	clawmd_json_add_number(sum, "errors", (double)errs);
	clawmd_json_add_number(sum, "warnings", (double)warns);
	clawmd_json_add_number(sum, "notes", (double)(f->n - errs - warns));
	clawmd_json_add(doc, "failures", failures_json(fs));
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
	char *out = clawmd_xmalloc(strlen(s) * 2 + 1), *o = out;
	for (; *s; s++) {
		if (strchr("\\`*_[]<>#|~", *s))
			*o++ = '\\';
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

/* A message as SARIF consumers want it: one sentence ending in a period. */
static void add_message(struct clawmd_json *parent, const char *key, const char *text, const char *markdown)
{
	struct clawmd_json *m = clawmd_json_add_object(parent, key);
	size_t n = strlen(text);
	char *t = clawmd_xasprintf("%s%s", text, n && text[n - 1] == '.' ? "" : ".");
	clawmd_json_add_string(m, "text", t);
	if (markdown)
		clawmd_json_add_string(m, "markdown", markdown);
	free(t);
}

/* SARIF rule names are PascalCase identifiers: "import-missing" is "ImportMissing". */
static char *sarif_name(const char *rule_name)
{
	char *name = clawmd_xstrdup(rule_name);
	size_t k = 0;
	for (const char *p = rule_name; *p; p++) {
		if (*p == '-')
			continue;
		name[k++] = (p == rule_name || p[-1] == '-') && *p >= 'a' && *p <= 'z'
				    ? (char)(*p - 'a' + 'A') : *p;
	}
	name[k] = '\0';
	return name;
}

/* One rule as the log documents it: descriptions, and help in text and
 * Markdown (what it means and what to do). */
static struct clawmd_json *sarif_rule(const struct clawmd_lint_rule *r)
{
	struct clawmd_json *o = clawmd_json_object();
	char *md_desc = md_escape(r->description), *md_help = md_escape(r->help);
	char *text = clawmd_xasprintf("%s\n\nWhat to do: %s", r->description, r->help);
	char *md = clawmd_xasprintf("**%s %s** (%s)\n\n%s\n\n**What to do:** %s", r->code, r->name,
				    sarif_level(r->severity), md_desc, md_help);
	free(md_desc);
	free(md_help);
	char *name = sarif_name(r->name);
	clawmd_json_add_string(o, "id", r->code);
	clawmd_json_add_string(o, "name", name);
	add_message(o, "shortDescription", r->summary, NULL);
	add_message(o, "fullDescription", r->description, NULL);
	add_message(o, "help", text, md);
	clawmd_json_add_string(clawmd_json_add_object(o, "defaultConfiguration"), "level",
				sarif_level(r->severity));
	struct clawmd_json *props = clawmd_json_add_object(o, "properties");
	clawmd_json_add_string(clawmd_json_add_array(props, "tags"), NULL, "claude-code-memory");
	free(text);
	free(md);
	free(name);
	return o;
}

/* The run's tool: clawmd, and every rule it has. */
static void sarif_driver(struct clawmd_json *run, const struct clawmd_lint_rule *rules, size_t nrules)
{
	struct clawmd_json *driver = clawmd_json_add_object(clawmd_json_add_object(run, "tool"), "driver");
	clawmd_json_add_string(driver, "name", "clawmd");
	clawmd_json_add_string(driver, "version", CLAWMD_VERSION);
	clawmd_json_add_string(driver, "semanticVersion", CLAWMD_VERSION);
	struct clawmd_json *jr = clawmd_json_add_array(driver, "rules");
	for (size_t i = 0; i < nrules; i++)
		clawmd_json_add(jr, NULL, sarif_rule(&rules[i]));
}

/* SRCROOT, the directory relative paths are relative to, as a file:// URI. */
static void sarif_srcroot(struct clawmd_json *run, const char *srcroot)
{
	char *enc = cmd_uri_encode(srcroot);
	char *uri = clawmd_xasprintf("file://%s%s", enc, enc[strlen(enc) - 1] == '/' ? "" : "/");
	free(enc);
	struct clawmd_json *base = clawmd_json_add_object(clawmd_json_add_object(run, "originalUriBaseIds"),
					      "SRCROOT");
	clawmd_json_add_string(base, "uri", uri);
	free(uri);
}

/* Where a finding is: its file (relative to SRCROOT, or an absolute
 * file:// URI), line and column. */
static struct clawmd_json *sarif_location(const struct clawmd_finding *x, const char *srcroot)
{
	struct clawmd_json *loc = clawmd_json_object();
	struct clawmd_json *phys = clawmd_json_add_object(loc, "physicalLocation");
	struct clawmd_json *art = clawmd_json_add_object(phys, "artifactLocation");
	char *enc = cmd_uri_encode(x->file);
	if (x->file[0] == '/') {
		char *abs = clawmd_xasprintf("file://%s", enc);
		free(enc);
		enc = abs;
	}
	clawmd_json_add_string(art, "uri", enc);
	free(enc);
	if (x->file[0] != '/' && srcroot)
		clawmd_json_add_string(art, "uriBaseId", "SRCROOT");
	struct clawmd_json *reg = clawmd_json_add_object(phys, "region");
	clawmd_json_add_number(reg, "startLine", (double)x->line);
	clawmd_json_add_number(reg, "startColumn", (double)x->col);
	return loc;
}

/* One finding as a result: its rule, level, message with the hint, and location. */
static struct clawmd_json *sarif_result(const struct clawmd_finding *x, const struct clawmd_lint_rule *rules,
			   const char *srcroot)
{
	struct clawmd_json *r = clawmd_json_object();
	clawmd_json_add_string(r, "ruleId", x->rule->code);
	clawmd_json_add_number(r, "ruleIndex", (double)(x->rule - rules));
	clawmd_json_add_string(r, "level", sarif_level(x->rule->severity));
	size_t ml = strlen(x->message);
	char *text = clawmd_xasprintf("%s%s Hint: %s", x->message,
				      ml && x->message[ml - 1] == '.' ? "" : ".", x->hint);
	add_message(r, "message", text, NULL);
	free(text);
	clawmd_json_add(clawmd_json_add_array(r, "locations"), NULL, sarif_location(x, srcroot));
	if (x->group)
		clawmd_json_add_string(clawmd_json_add_object(r, "properties"), "group",
					x->group);
	return r;
}

/* The invocation: input that could not be read at all is a tool notification. */
static struct clawmd_json *sarif_invocation(const struct failures *fs)
{
	struct clawmd_json *inv = clawmd_json_object();
	clawmd_json_add_bool(inv, "executionSuccessful", fs->n == 0);
	if (fs->n) {
		struct clawmd_json *notes = clawmd_json_add_array(inv, "toolExecutionNotifications");
		for (size_t i = 0; i < fs->n; i++) {
			struct clawmd_json *n = clawmd_json_add_object(notes, NULL);
			clawmd_json_add_string(n, "level", "error");
			add_message(n, "message", fs->v[i].message, NULL);
		}
	}
	return inv;
}

/* A SARIF 2.1.0 log with one run, as code-scanning tools take it: every
 * rule documented inside the log itself (descriptions, and help in text
 * and Markdown: what it means and what to do), so a reader needs nothing
 * installed and no link; there is no helpUri because no https page holds
 * the rules (a file:// link would name the machine that wrote the log).
 * Paths are relative to ROOT (%SRCROOT%), which is the repository in CI. */
static struct clawmd_json *sarif_doc(const struct clawmd_findings *f, const struct failures *fs,
				     const char *srcroot)
{
	size_t nrules;
	const struct clawmd_lint_rule *rules = clawmd_lint_rules(&nrules);
	struct clawmd_json *doc = clawmd_json_object();
	clawmd_json_add_string(doc, "$schema",
				"https://json.schemastore.org/sarif-2.1.0.json");
	clawmd_json_add_string(doc, "version", "2.1.0");
	struct clawmd_json *run = clawmd_json_object();
	clawmd_json_add(clawmd_json_add_array(doc, "runs"), NULL, run);
	sarif_driver(run, rules, nrules);
	if (srcroot)
		sarif_srcroot(run, srcroot);
	struct clawmd_json *results = clawmd_json_add_array(run, "results");
	for (size_t i = 0; i < f->n; i++)
		clawmd_json_add(results, NULL, sarif_result(&f->v[i], rules, srcroot));
	clawmd_json_add(clawmd_json_add_array(run, "invocations"), NULL, sarif_invocation(fs));
	return doc;
}

/* A failure to read a group or tree: on stderr now, in the document later. */
static void add_failure(struct failures *fs, const char *group, int status, const char *msg)
{
	failures_add(fs, group, status, msg);
	cmd_put_error(msg);
}

/* A run that failed before linting anything still prints one document of
 * its format: SARIF with the failure as a tool notification, else the
 * common JSON error shape. */
static void early_failure(enum format fmt, int status)
{
	if (fmt == FMT_SARIF) {
		struct clawmd_findings none;
		struct failures fs = {0};
		clawmd_findings_init(&none);
		failures_add(&fs, NULL, status, cmd_last_error());
		cmd_sarif_print(sarif_doc(&none, &fs, NULL));
		failures_release(&fs);
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

/* One run of check: its options, then what it found and failed to read. */
struct check {
	struct cmd_layout_opts lo;
	struct clawmd_lint_opts opts;
	struct cmd_args a;
	enum format fmt;
	bool all, strict, quiet, hints;
	const char *cwd;	/* --cwd DIR: lint a tree, not groups */
	struct clawmd_findings f;
	struct clawmd_root root;
	struct failures failures; /* what could not be read, for the document */
	char *srcroot;		/* what SARIF paths are relative to */
	size_t ngroups;
	int status;
};

/* The options: 0 to go on, 1 when --help was printed, -1 on a usage error
 * (said). */
static int check_parse(struct check *k, int argc, char **argv)
{
	int c;
	cmd_args_init(&k->a, "check", options, true, argc, argv);
	while ((c = cmd_args_next(&k->a)) > 0) {
		switch (c) {
		case 'a': k->all = true; break;
		case OPT_CWD: k->cwd = k->a.arg; break;
		case OPT_JSON: k->fmt = FMT_JSON; break;
		case OPT_FORMAT:
			if (!strcmp(k->a.arg, "text"))
				k->fmt = FMT_TEXT;
			else if (!strcmp(k->a.arg, "json"))
				k->fmt = FMT_JSON;
			else if (!strcmp(k->a.arg, "sarif"))
				k->fmt = FMT_SARIF;
			else
				c = (cmd_usage_error("check", "--format: expected text, json or sarif, not '%s'",
						    k->a.arg), -1);
			break;
		case OPT_STRICT: k->strict = true; break;
		case OPT_APPROVE: k->opts.approve_external = true; break;
		case OPT_HINTS: k->hints = true; break;
		case OPT_NO_HINTS: k->hints = false; break;
		case 'q': k->quiet = true; break;
		case 'h': cmd_help(help_head, options, help_foot); return 1;
		default:
			c = cmd_args_common(&k->a, c, &k->lo);
		}
		if (c < 0)
			break;
	}
	if (c >= 0 && k->cwd && (k->all || k->a.noperands))
		c = (cmd_usage_error("check", "give --cwd DIR or groups, not both"), -1);
	if (c >= 0 && k->all && k->a.noperands)
		c = (cmd_usage_error("check", "give GROUP names or --all, not both"), -1);
	return c < 0 ? -1 : 0;
}

/* --cwd DIR: the tree at DIR as Claude Code started there would load it. */
static void check_tree(struct check *k)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_root troot;
	bool have = cmd_tree_root(&troot, &k->lo, k->cwd);
	k->opts.layout = have ? &troot.lay : NULL;
	int trc = clawmd_lint_tree(&k->f, k->cwd, &k->opts, &err);
	if (have)
		clawmd_root_release(&troot);
	if (trc < 0) {
		k->status = clawmd_exit_status(err.code);
		k->status = k->status ? k->status : 3;
		add_failure(&k->failures, NULL, k->status, err.msg);
	} else {
		/* Shown relative to DIR, as -C shows them relative to ROOT. */
		k->srcroot = realpath(k->cwd, NULL);
	}
}

/* Lint each of `groups`; a group that cannot be opened or read is a
 * failure of its own and the others go on. */
static void check_each(struct check *k, char **groups, size_t n, bool progress)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	for (size_t i = 0; i < n; i++) {
		struct clawmd_group *g;
		clawmd_err_clear(&err);
		if (clawmd_group_open(&g, &k->root, groups[i], &err) < 0 ||
		    clawmd_lint_group(&k->f, g, &k->opts, &err) < 0) {
			int st = clawmd_exit_status(err.code);
			if (progress)
				fputs("\r\033[K", stderr);
			add_failure(&k->failures, groups[i], st ? st : 4, err.msg);
			if (!k->status)
				k->status = st ? st : 4;
		}
		if (progress && (i % 64 == 0 || i + 1 == n))
			fprintf(stderr, "\rclawmd: checked %zu/%zu groups%s", i + 1, n,
				i + 1 == n ? "\n" : "");
		clawmd_group_free(g);
	}
}

/* The groups named, or every group: 0, or the exit status of a failure
 * before any group was linted. */
static int check_groups(struct check *k)
{
	int st;
	char **groups, **listed;
	size_t n;
	if ((st = cmd_fleet_open(&k->root, &k->lo, k->quiet, &k->a, &groups, &listed, &n)))
		return st;
	k->ngroups = n;
	clawmd_lint_layout(&k->f, &k->root.lay);
	k->opts.approve_external |= k->root.lay.approve_external; /* clawmd.json's */
	k->root.pass = clawmd_pass_new(); /* the host's sources, read once */
	check_each(k, groups, n, listed && n > 100 && !k->quiet && isatty(2));
	clawmd_strv_free(listed, listed ? n : 0);
	k->srcroot = clawmd_xstrdup(k->root.lay.root);
	return 0;
}

/* The findings in their format on stdout, the summary line on stderr. */
static void check_print(struct check *k)
{
	struct clawmd_findings *f = &k->f;
	/* SARIF keeps paths relative to ROOT (the repository); people and
	 * problem matchers get them from where the command ran. */
	if (k->fmt != FMT_SARIF && k->root.lay.root)
		reshow(f, &k->root.lay, k->root.lay.root);
	clawmd_findings_sort(f);
	size_t errs = clawmd_findings_count(f, CLAWMD_SEV_ERROR);
	size_t warns = clawmd_findings_count(f, CLAWMD_SEV_WARNING) - errs;
	if (k->fmt == FMT_TEXT) {
		print_text(f, k->hints, cmd_use_colour(stdout));
	} else {
		if (k->fmt == FMT_JSON)
			cmd_json_print(json_doc(f, &k->failures));
		else
			cmd_sarif_print(sarif_doc(f, &k->failures, k->srcroot));
	}
	failures_release(&k->failures);
	if (!k->quiet) {
		fprintf(stderr, "clawmd: %zu error%s, %zu warning%s, %zu note%s", errs,
			errs == 1 ? "" : "s", warns, warns == 1 ? "" : "s", f->n - errs - warns,
			f->n - errs - warns == 1 ? "" : "s");
		if (k->cwd)
			fprintf(stderr, " in %s\n", k->cwd);
		else
			fprintf(stderr, " in %zu group%s\n", k->ngroups, k->ngroups == 1 ? "" : "s");
	}
	if (!k->status && (k->strict ? f->n > 0 : errs > 0))
		k->status = 1;
}

int cmd_check(int argc, char **argv)
{
	struct check k = {.lo = cmd_layout_global, .opts = CLAWMD_LINT_OPTS_INIT,
			  .fmt = FMT_TEXT, .quiet = cmd_quiet, .hints = true};
	int rc = check_parse(&k, argc, argv);
	if (rc) {
		if (rc < 0)
			early_failure(k.fmt, 2);
		cmd_args_release(&k.a);
		return rc < 0 ? 2 : 0;
	}
	clawmd_root_init(&k.root);
	clawmd_findings_init(&k.f);
	if (k.cwd) {
		check_tree(&k);
	} else if ((rc = check_groups(&k))) {
		early_failure(k.fmt, rc);
		cmd_args_release(&k.a);
		return rc;
	}
	check_print(&k);
	free(k.srcroot);
	clawmd_findings_release(&k.f);
	clawmd_root_release(&k.root);
	cmd_args_release(&k.a);
	return k.status;
}
