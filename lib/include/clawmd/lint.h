/* clawmd/lint.h - findings for CI (check) and the fleet at a glance (status) (part of clawmd.h, which includes every part). */
#ifndef CLAWMD_API_LINT_H
#define CLAWMD_API_LINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clawmd/base.h"
#include "clawmd/layout.h"
#include "clawmd/group.h"
#include "clawmd/compose.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- lint: findings for CI, and the fleet at a glance ------------------ */

/*
 * check and status are built on this section.  Lint a group as the
 * container sees it, or an arbitrary directory tree as a host sees it:
 *
 *	struct clawmd_findings f;
 *	struct clawmd_lint_opts opts = CLAWMD_LINT_OPTS_INIT;
 *	clawmd_findings_init(&f);
 *	if (clawmd_lint_group(&f, g, &opts, &err) < 0) ...  // unreadable
 *	for (size_t i = 0; i < f.n; i++) ... f.v[i].rule->code, f.v[i].file ...
 *	clawmd_findings_release(&f);
 *
 * A finding is not an error: a broken container.json is finding CM302 and
 * the function still returns 0.  Only input that cannot be read at all (a
 * missing or symlinked group directory, a missing shared base, an
 * unreadable --cwd directory) returns a negative code.  Findings are
 * appended, so one struct can collect a whole fleet; each carries a rule
 * from a static table whose codes never change meaning (doc/check.md
 * lists them).  Paths in findings are relative to ROOT for groups and to the
 * linted directory for trees; lines and columns count from 1, columns in
 * bytes.  Findings come in the order they were found; the CLI sorts them
 * with clawmd_findings_sort() and shows paths from the current directory.
 * Messages and hints may hold text the agent wrote (names, paths, import
 * strings): escape control bytes before printing them as text.
 */

enum clawmd_severity {
	CLAWMD_SEV_NOTE = 0,
	CLAWMD_SEV_WARNING,
	CLAWMD_SEV_ERROR,
};

struct clawmd_lint_rule {
	const char *code;		/* "CM101": stable, documented */
	const char *name;		/* "import-missing" */
	enum clawmd_severity severity;	/* every finding of the rule has it */
	const char *summary;		/* one sentence (SARIF shortDescription) */
	const char *description;	/* what it means (SARIF fullDescription) */
	const char *help;		/* what to do about it (SARIF help) */
};

struct clawmd_finding {
	const struct clawmd_lint_rule *rule;
	char *group;	/* NULL for a tree */
	char *file;	/* relative to ROOT or to the linted directory */
	unsigned long line, col;
	char *message;
	char *hint;	/* what to do; never NULL */
};

struct clawmd_findings {
	struct clawmd_finding *v;
	size_t n;
	size_t cap;
};

/* Start from CLAWMD_LINT_OPTS_INIT (the version: see clawmd_compose_opts);
 * NULL stands for the defaults. */
#define CLAWMD_LINT_OPTS_VERSION 1
#define CLAWMD_LINT_OPTS_INIT {CLAWMD_LINT_OPTS_VERSION}
struct clawmd_lint_opts {
	unsigned int version; /* CLAWMD_LINT_OPTS_VERSION */
	/* The host approved external includes for the agent's project (as
	 * render --approve-external): imports leaving the working directory
	 * load, so CM105 is not reported. */
	bool approve_external;
	/* clawmd_lint_tree only: the layout of the root the tree is in, or
	 * NULL.  A group directory the tree reaches is the agent's: it is
	 * linted as the group's container sees it (its mount table), never
	 * through the host.  Without it the groups are not known, and only
	 * the tree's confinement holds (no link is followed out of it). */
	const struct clawmd_layout *layout;
};

/* The rule table, sorted by code; clawmd_lint_rule() finds one or NULL. */
const struct clawmd_lint_rule *clawmd_lint_rules(size_t *n);
const struct clawmd_lint_rule *clawmd_lint_rule(const char *code);
/* "note", "warning", "error". */
const char *clawmd_severity_name(enum clawmd_severity sev);

void clawmd_findings_init(struct clawmd_findings *f);
void clawmd_findings_release(struct clawmd_findings *f);
/* The number of findings at `sev` or above. */
size_t clawmd_findings_count(const struct clawmd_findings *f, enum clawmd_severity sev);

/* Lint one group: container.json, skills, the composed entry (drift, hand
 * edits), what the container would load, CLAUDE.local.md and git, rules. */
int clawmd_lint_group(struct clawmd_findings *out, struct clawmd_group *g,
		      const struct clawmd_lint_opts *opts, struct clawmd_err *err);
/* Lint the tree at `dir` as Claude Code started there would load it. */
int clawmd_lint_tree(struct clawmd_findings *out, const char *dir,
		     const struct clawmd_lint_opts *opts, struct clawmd_err *err);
/* CM305 for each key of clawmd.json clawmd does not know (once per run). */
void clawmd_lint_layout(struct clawmd_findings *out, const struct clawmd_layout *lay);
/* Sort by file, then line, column, code and message: the order check prints. */
void clawmd_findings_sort(struct clawmd_findings *f);

enum clawmd_drift {
	CLAWMD_DRIFT_CLEAN = 0,	 /* compose would write nothing */
	CLAWMD_DRIFT_CHANGE,	 /* compose would change something */
	CLAWMD_DRIFT_HAND_EDITED, /* CLAUDE.md is not clawmd's output */
	CLAWMD_DRIFT_NEVER,	 /* no CLAUDE.md yet */
	CLAWMD_DRIFT_INVALID,	 /* container.json is invalid: no plan */
};

/* "clean", "would change", "hand-edited", "never composed", "invalid". */
const char *clawmd_drift_name(enum clawmd_drift drift);

struct clawmd_group_status {
	char *group;
	enum clawmd_drift drift;
	bool all_skills;	/* "skills": "all" (or absent) */
	char **skills;		/* the skills that get a fragment, sorted */
	size_t nskills;
	char **fragments;	/* the entry's imports, in order (names in the group) */
	size_t nfragments;
	size_t memory_chars;	/* what the container would load, in UTF-16 units */
	size_t tokens;		/* memory_chars / 4, rounded up */
	size_t nfindings;	/* all of clawmd_lint_group's findings */
	size_t nerrors;		/* those at error level */
	size_t npreserved;	/* *.clawmd-preserved-* entries waiting for review */
	clawmd_runtimes runtimes; /* the runtimes the group runs (0: invalid config) */
};

void clawmd_group_status_init(struct clawmd_group_status *st);
/* Everything status shows for one group (it lints the group to count). */
int clawmd_group_status_get(struct clawmd_group_status *out, struct clawmd_group *g,
			    const struct clawmd_lint_opts *opts, struct clawmd_err *err);
void clawmd_group_status_release(struct clawmd_group_status *st);

/*
 * The skills Claude Code reads on demand alone: each directory of the
 * skills directory with a SKILL.md (a regular file) and no
 * instructions.md.  compose makes no fragment of them (the agent reads
 * SKILL.md itself), so status names them apart.  Sorted, at most
 * CLAWMD_ON_DEMAND_MAX; none when the directory cannot be read.  Free
 * with clawmd_strv_free(*out, n).  Read once for a pass over many groups,
 * then asked of each with clawmd_group_on_demand().
 */
#define CLAWMD_ON_DEMAND_MAX 4096
size_t clawmd_skills_on_demand(char ***out, const struct clawmd_layout *lay);
/* Those of the n `skills` (clawmd_skills_on_demand's) that group `g`
 * selects ("skills": "all", or by name), into out (room for n; pointers
 * into `skills`); none for an invalid container.json. */
size_t clawmd_group_on_demand(char **out, struct clawmd_group *g, char *const *skills, size_t n);

#ifdef __cplusplus
}
#endif
#endif
