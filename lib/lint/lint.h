/*
 * lint.h - what the parts of lint share (private to lint/).
 *
 *	rules.c     the rule table
 *	findings.c  adding, placing and sorting findings
 *	loaded.c    what Claude Code would load: imports, sizes, rules
 *	tree.c      a tree, as Claude Code started there loads it (check --cwd)
 *	group.c     a group, as its container sees it (check GROUP)
 *	seed.c      what caliban and chimera lose of a group (check GROUP)
 *	status.c    the per-group summary (status), from a group's lint
 *
 * Reads only: lint never writes and never takes a lock.
 */
#ifndef CLAWMD_LINT_LINT_H
#define CLAWMD_LINT_LINT_H

#include "clawmd.h"
#include "fs/fs.h"
#include "fs/view.h"

#define LARGE_FILE_CHARS 40000
#define MEMORY_READ_MAX (4 * 1024 * 1024)
#define TREE_FILES_MAX 200000
#define TREE_DEPTH_MAX 32
#define RULES_DEPTH_MAX 16
#define RULES_ENTRIES_MAX 100000
#define RULES_DIRS_MAX 4096
#define RULES_STEPS_MAX 2000000 /* path components resolved */

/* ---- findings.c ---- */

/* Add a finding of rule `code` (its severity is the rule's). */
void clawmd_lint_add(struct clawmd_findings *out, const char *code, const char *group,
		     const char *file, unsigned long line, unsigned long col, const char *hint,
		     const char *fmt, ...) __attribute__((format(printf, 8, 9)));
/* Line and column (from 1; columns in bytes) of byte `off` of `text`. */
void clawmd_lint_pos(unsigned long *line, unsigned long *col, const char *text, size_t off);
/* A path as shown in findings: relative to `base` when inside it. */
char *clawmd_lint_shown(const char *base, const char *path);
/* Account one loaded file: CM201 when large; its size into *total. */
void clawmd_lint_size(struct clawmd_findings *out, const char *group, const char *shown,
		      const char *text, size_t len, size_t *total);
/* `path` is `dir` or below it. */
bool clawmd_lint_under(const char *path, const char *dir);
/* The byte offset of the JSON string "s" in `json`, plus one, or 0. */
size_t clawmd_lint_json_find(const char *json, const char *s);

/* ---- group.c: CM403 ---- */

/* CM403 when `dir`/CLAUDE.local.md (shown as `shown`) is not ignored by the
 * git repository at `repo_dir` (the host's; never one inside a group). */
void clawmd_lint_local_ignored(struct clawmd_findings *out, const char *group,
			       const char *repo_dir, const char *dir, const char *shown);
/* The same for another file of the group that holds the memory (an
 * inlined entry): `name` in `dir`. */
void clawmd_lint_ignored(struct clawmd_findings *out, const char *group, const char *repo_dir,
			 const char *dir, const char *name, const char *shown);

/* ---- seed.c: CM606-CM610 ---- */

struct clawmd_lint_group;

/* What caliban or chimera (contract `c`, whose load of the group by `mo`
 * is `m`) would lose or mangle of the group, at the entry `shown`. */
void clawmd_lint_seed(struct clawmd_lint_group *lg, const struct clawmd_contract *c,
		      const char *shown, const struct clawmd_memory_opts *mo,
		      const struct clawmd_memory *m);

/* ---- loaded.c ---- */

struct clawmd_lint_files {
	char **v;
	size_t n, cap;
};

/* Walk the directory open at `dfd` (taken over), never following links. */
void clawmd_lint_list_at(struct clawmd_lint_files *fl, int dfd, const char *rel, int depth);
void clawmd_lint_list(struct clawmd_lint_files *fl, const struct clawmd_view *v, const char *base);
/* CM501, CM502, CM503 for the rules under `base`/.claude/rules (a view path). */
void clawmd_lint_rules_dir(struct clawmd_findings *out, const char *group,
			   const struct clawmd_view *view, const char *base, const char *root);

struct pos_cache;
struct clawmd_lint_view {
	struct clawmd_findings *out;
	const char *group;
	const char *root;  /* findings are shown relative to it (host paths) */
	const char *limit; /* only files below it (view paths); NULL: all */
	struct pos_cache *pos; /* the file import_pos read last */
	const struct clawmd_plan *plan; /* a group's plan: findings in what compose
					   wrote point at the source instead */
	const char *gpath;	/* the group's host directory */
	const struct clawmd_mount *mounts; /* NULL: the host view */
	size_t nmounts;
};

/* Lint what loads at `o->cwd`; the size of every loaded file (CM201) and
 * their total in *chars.  EFS/EINPUT only when the loader cannot start. */
int clawmd_lint_loaded(const struct clawmd_lint_view *V, const struct clawmd_memory_opts *base,
		       size_t *chars, struct clawmd_err *err);

/* ---- group.c ---- */

struct clawmd_lint_group {
	struct clawmd_findings *out;
	const struct clawmd_layout *lay;
	const struct clawmd_lint_opts *opts;
	const char *group;
	char *gpath;	  /* host path of the group */
	struct clawmd_group *grp;
	struct clawmd_dir gd; /* the handle's directory (not owned) */
	char *gshown;	  /* as shown: relative to ROOT */
	char *cfg_shown;  /* container.json as shown */
	char *entry_shown;
	const struct clawmd_buf *cfg_text;	  /* the handle's container.json */
	const struct clawmd_group_config *cfg;
	char *cfg_prefix; /* how the handle names container.json in messages */
	bool cfg_ok;
	struct clawmd_plan plan;
	bool planned;
	enum clawmd_drift drift;
	size_t memory_chars;
	size_t npreserved;
};

/* Lint the group behind `grp` into `out`, keeping what status reports in
 * `lg`; release `lg` with clawmd_lint_group_release() whatever it returns. */
int clawmd_lint_group_run(struct clawmd_lint_group *lg, struct clawmd_findings *out,
			  struct clawmd_group *grp, const struct clawmd_lint_opts *opts,
			  struct clawmd_err *err);
void clawmd_lint_group_release(struct clawmd_lint_group *lg);

#endif
