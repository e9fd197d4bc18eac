/* clawmd/migrate.h - the one-shot legacy cutover (part of clawmd.h, which includes every part). */
#ifndef CLAWMD_API_MIGRATE_H
#define CLAWMD_API_MIGRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clawmd/base.h"
#include "clawmd/fs.h"
#include "clawmd/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- migrate: the one-shot legacy cutover ------------------------------ */

/*
 * clawmd_migrate() cuts a legacy layout over to the composed model, once:
 *
 *	struct clawmd_migrate_opts opts = CLAWMD_MIGRATE_OPTS_INIT;
 *	struct clawmd_migrate_result res;
 *	clawmd_migrate(&res, &root, &opts, &err);  // fills res even on error
 *	for (size_t i = 0; i < res.n; i++) ... res.v[i] ...
 *	clawmd_migrate_result_release(&res);
 *
 * Legacy layout: groups/global/CLAUDE.md (plus any other files), and in each
 * group a hand-owned CLAUDE.md (often starting with "@./.claude-global.md")
 * and a .claude-global.md symlink.  What it does, under a migrate lock and
 * each group's lock:
 *  1. groups are the real directories under groups/ not starting with '.',
 *     except global; symlinked ones are reported (SKIP) and never followed;
 *  2. per group: the .claude-global.md symlink is removed (anything else of
 *     that name is kept); a CLAUDE.md clawmd did not compose becomes
 *     CLAUDE.local.md when that is missing or empty, else is appended to it
 *     under a marker, minus the legacy import line; then CLAUDE.md is
 *     removed and the next compose writes the new entry;
 *  3. the blocks of groups/global/CLAUDE.md not already in the shared base
 *     are appended to the base under a marker, unless ROOT's git repository
 *     tracks the base: a run at host start changes no file git tracks, so
 *     they go to the untracked review file beside it (the base's name plus
 *     CLAWMD_MIGRATE_REVIEW_SUFFIX) and a warning says where; then
 *     groups/global/ is moved to STATE/archive/global-<UTC time>/, never
 *     deleted;
 *  4. the completion record STATE/migrated.json is written last.  When it
 *     exists, clawmd_migrate() does nothing (res.already) unless opts.force,
 *     which runs every step again (each is idempotent) and rewrites the
 *     record only when its content changes.
 *
 * Crash safety: every step is idempotent and detectable from the disk, so a
 * run killed anywhere and run again ends in the state an uninterrupted run
 * reaches.  Appended text starts with a marker carrying the FNV-1a digest of
 * what was carried, so a re-run sees it is there; files are written with
 * the atomic replace (staged, fsynced, renamed, directory fsynced) and a
 * source is removed only after its destination is durable.
 *
 * Errors: one bad group never stops the others.  A group that fails (e.g.
 * a CLAUDE.md or CLAUDE.local.md over the size cap, which is refused by its
 * size and never read, or its lock held too long) is left as it was,
 * reported as a CLAWMD_MIGRATE_ERROR action and listed in res.failed; the
 * other groups migrate, and the record is still written, with the failed
 * groups in its "failed" list.  clawmd_migrate() then returns 0: check
 * res.nfailed.  A later run that finds a record with failed groups retries
 * just those (and rewrites the record); one without does nothing.  A
 * negative return is a failure of the whole run (the migrate lock, the
 * groups directory, the record itself), with no record written.
 */

#define CLAWMD_MIGRATE_RECORD "migrated.json"	  /* in lay->state */
#define CLAWMD_MIGRATE_ARCHIVE "archive"	  /* in lay->state */
#define CLAWMD_MIGRATE_FILE_MAX (4 * 1024 * 1024) /* cap on every file read */
#define CLAWMD_LEGACY_LINK_NAME ".claude-global.md"
#define CLAWMD_LEGACY_GLOBAL "global"
/* Beside a base git tracks: what migrate would have appended to it. */
#define CLAWMD_MIGRATE_REVIEW_SUFFIX ".clawmd-review"
/* The marker line in front of carried text: prefix, source, digest, suffix. */
#define CLAWMD_MIGRATE_MARKER "<!-- clawmd migrate: carried from "

enum clawmd_migrate_step {
	CLAWMD_MIGRATE_REMOVE_LINK,   /* the .claude-global.md symlink */
	CLAWMD_MIGRATE_KEEP,	      /* .claude-global.md that is no symlink: kept */
	CLAWMD_MIGRATE_MOVE_ASIDE,    /* wrong type at CLAUDE.md/CLAUDE.local.md */
	CLAWMD_MIGRATE_MOVE,	      /* CLAUDE.md becomes CLAUDE.local.md */
	CLAWMD_MIGRATE_APPEND,	      /* CLAUDE.md appended to CLAUDE.local.md */
	CLAWMD_MIGRATE_REMOVE_ENTRY,  /* CLAUDE.md with nothing (more) to carry */
	CLAWMD_MIGRATE_APPEND_BASE,   /* global's missing blocks into the base */
	CLAWMD_MIGRATE_BASE_HAS,      /* global's content is already in the base */
	CLAWMD_MIGRATE_ARCHIVE_DIR,   /* groups/global moved to the archive */
	CLAWMD_MIGRATE_SKIP,	      /* not a group: symlinked, invalid name */
	CLAWMD_MIGRATE_REMOVE_TEMP,   /* a temp left by an interrupted run */
	CLAWMD_MIGRATE_WRITE_RECORD,  /* the completion record */
	CLAWMD_MIGRATE_ERROR,	      /* the group failed; note holds why */
	/* global's missing blocks into the review file beside a base git
	 * tracks (CLAWMD_MIGRATE_REVIEW_SUFFIX): the base is left as it is */
	CLAWMD_MIGRATE_REVIEW_BASE,
};

struct clawmd_migrate_action {
	enum clawmd_migrate_step step;
	char *group; /* the group ("global" for groups/global), NULL: record */
	char *path;  /* what it acts on, relative to ROOT when inside */
	char *dest;  /* where the content goes, or NULL */
	char *note;  /* why (skips, keeps, errors), or NULL */
	size_t bytes; /* bytes carried (MOVE, APPEND, APPEND_BASE) */
	/* REVIEW_BASE: the base is tracked, so the text went to the review
	 * file (dest) instead; this says where, for the owner.
	 * MOVE, APPEND, REMOVE_ENTRY: the CLAUDE.md was tracked by ROOT's git
	 * repository, and its move to CLAUDE.local.md (ignored by init's
	 * .gitignore) was staged, so that its text stays in git; this says
	 * so, or (git_failed) that it could not be and the commands to run.
	 * NULL when it was not tracked. */
	char *git;
	bool git_failed;
};

struct clawmd_migrate_result {
	bool dry_run;
	bool already;	/* a record was found and !force: nothing done */
	bool legacy_left; /* already, yet groups/global exists again */
	char *record;	/* the record's path */
	char **groups;	/* the groups examined, sorted */
	size_t ngroups;
	struct clawmd_migrate_action *v; /* in the order done (or to do) */
	size_t n;
	char **failed;	/* groups that failed ("global" too), in order */
	size_t nfailed;
	bool retry;	/* a record listed failed groups: only those were run */
	/* When ROOT is in a git work tree whose .gitignore files do not ignore
	 * the groups' CLAUDE.local.md: the message naming the line to add
	 * (migrate never edits the user's .gitignore); else NULL. */
	char *ignore_hint;
	/* Every warning of the run, in the words the command prints (without
	 * its "clawmd: warning: "): groups/global back after the cutover, the
	 * .gitignore hint, each moved text git tracked (the actions' `git`).
	 * The Node binding returns the same list. */
	char **warnings;
	size_t nwarnings;
};

/* Start from CLAWMD_MIGRATE_OPTS_INIT (the version: see
 * clawmd_compose_opts). */
#define CLAWMD_MIGRATE_OPTS_VERSION 1
#define CLAWMD_MIGRATE_OPTS_INIT {CLAWMD_MIGRATE_OPTS_VERSION}
struct clawmd_migrate_opts {
	unsigned int version; /* CLAWMD_MIGRATE_OPTS_VERSION */
	bool dry_run; /* decide and report only: no lock, no write */
	bool force;   /* run even when the record exists */
};

void clawmd_migrate_result_init(struct clawmd_migrate_result *res);
int clawmd_migrate(struct clawmd_migrate_result *out, const struct clawmd_root *root,
		   const struct clawmd_migrate_opts *opts, struct clawmd_err *err);
void clawmd_migrate_result_release(struct clawmd_migrate_result *res);
/* "remove-link", "keep", "move-aside", ... : a stable word per step. */
const char *clawmd_migrate_step_name(enum clawmd_migrate_step step);

/*
 * Whether the tree at `top` (a ROOT not loaded yet: its groups/ beneath it)
 * holds a legacy layout clawmd_migrate() would cut over: groups/global/, a
 * group's .claude-global.md, or a CLAUDE.md clawmd did not compose.
 * Bounded: the first CLAWMD_LEGACY_LOOK_MAX entries of groups/ are looked
 * at.  *any_group is set when groups/ holds a group at all (a directory,
 * no symlink followed).  Nothing is written; what cannot be read is no
 * legacy.
 */
#define CLAWMD_LEGACY_LOOK_MAX 10000
bool clawmd_migrate_legacy_seen(const struct clawmd_dir *top, bool *any_group);

/*
 * The pure part, for tests and other hosts (the carry is
 * clawmd_entry_carry(), in clawmd/group.h).

 * The blocks (runs of non-blank lines) of `global` that are not in `base`
 * as a run of whole lines (trailing blanks ignored), in order, separated by
 * a blank line and ending with a newline.  Empty when all are contained.
 */
void clawmd_migrate_missing(struct clawmd_buf *out, const char *global, size_t glen,
			    const char *base, size_t blen);

#ifdef __cplusplus
}
#endif
#endif
