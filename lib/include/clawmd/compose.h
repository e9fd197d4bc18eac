/* clawmd/compose.h - the per-spawn job: plan, changes, apply, and passes over many groups (part of clawmd.h, which includes every part). */
#ifndef CLAWMD_API_COMPOSE_H
#define CLAWMD_API_COMPOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clawmd/base.h"
#include "clawmd/layout.h"
#include "clawmd/group.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- compose: plan, changes, apply ------------------------------------- */

/*
 * compose works in three steps, each usable on its own:
 *  1. clawmd_plan_build: the desired state of a group, a pure function of
 *     the layout, the sources and the group's container.json;
 *  2. clawmd_changes_compute: the difference between the plan and the disk
 *     (read only; this is what --dry-run and --check print);
 *  3. clawmd_changes_apply: make the disk match, atomically per entry, with
 *     every new file staged before anything becomes visible.
 * clawmd_compose() runs all three under the group's lock.
 */

enum clawmd_ftype {
	CLAWMD_FT_NONE = 0, /* nothing there */
	CLAWMD_FT_FILE,
	CLAWMD_FT_LINK,
	CLAWMD_FT_DIR,
	CLAWMD_FT_OTHER, /* FIFO, socket, device */
};

struct clawmd_entry {
	char *name;		/* relative to the group dir */
	enum clawmd_ftype type; /* CLAWMD_FT_FILE, CLAWMD_FT_LINK, or CLAWMD_FT_DIR */
	char *data;		/* file content, or link target */
	size_t len;
	char *source;		/* copy mode: the host file it was copied from */
	/* CLAWMD_FT_DIR (copy mode, a fragment with relative imports): the
	 * directory's files, names relative to it, the fragment itself first,
	 * then the files it imports from inside its skill or module
	 * directory, at the same relative paths. */
	struct clawmd_entry *files;
	size_t nfiles;
	/* The same: the host paths of files it imports that were looked for
	 * and not copied (missing, unreadable, past the size bound), whose
	 * appearance or change would change the directory. */
	char **probed;
	size_t nprobed;
};

struct clawmd_plan {
	char *group;
	struct clawmd_entry *entries; /* fragments in import order, CLAUDE.md, then
					 the other runtimes' entry files */
	size_t n, cap; /* cap: the room `entries` has */
	char **warnings; /* e.g. an unknown skill; compose prints them.  Warnings
			    about the layout (symlink mode under a release that
			    drops symlinked imports, a nanoclaw tree without the
			    preset) are the same text in every group's plan, so
			    a caller composing many groups prints each once. */
	size_t nwarnings;
	size_t ndefused;  /* @ directives defused in inline MCP instructions */
	/* An entry holds the parts' text (a runtime that does not follow
	 * imports): the group's optional files and memory count by content.
	 * In symlink mode, `read` are the sources read for it, as copy mode
	 * reads them (entries named as copy mode names them). */
	bool inlined;
	struct clawmd_entry *read;
	size_t nread;
	/* The flat document (doc/compose.md): the entries are each provider's
	 * one file, and nothing of the import layout is wanted. */
	bool flat;
	/* The flat document: the skills whose sections its first entry holds,
	 * after the cap ladder, in its order (the import layout names them by
	 * their fragments). */
	char **skills;
	size_t nskills;
};

void clawmd_plan_init(struct clawmd_plan *plan);
/*
 * Build the plan for the group: takes its container.json from the handle
 * (read without following symlinks, or the host's), lists the skills and modules, and in copy
 * mode reads the sources, with the files a fragment imports from inside its
 * skill or module directory (a CLAWMD_FT_DIR entry, see struct
 * clawmd_entry).  EINPUT for an invalid container.json, EFS for an
 * unreadable or symlinked group directory.  Within the root's pass, the
 * host's sources are read once for all its groups.
 */
int clawmd_plan_build(struct clawmd_plan *out, struct clawmd_group *g, struct clawmd_err *err);
void clawmd_plan_release(struct clawmd_plan *plan);
/* The start of the last part of an inlined entry the cap ladder cut: the
 * comment names what was left out ("... omitted for size: a, b -->"). */
#define CLAWMD_INLINE_OMITTED_MARK "<!-- omitted for size: "
/* The entry file of `plan`, other than runtime `c`'s own, that hands `c`
 * the same text again (Copilot CLI reads AGENTS.md and CLAUDE.md in one
 * directory), or NULL. */
const char *clawmd_plan_twice(const struct clawmd_plan *plan, const struct clawmd_contract *c);

enum clawmd_action {
	CLAWMD_WRITE,	 /* create or replace a file or symlink with `want` */
	CLAWMD_REMOVE,	 /* a stale fragment */
	CLAWMD_PRESERVE, /* move content clawmd did not write out of the way */
	CLAWMD_MKDIR,	 /* create .claude-fragments */
	CLAWMD_CREATE_LOCAL, /* create an empty CLAUDE.local.md */
};

struct clawmd_change {
	enum clawmd_action action;
	char *name;		    /* relative to the group dir */
	enum clawmd_ftype old_type; /* what is there now */
	struct clawmd_buf old;	    /* its content or link target, when read */
	const struct clawmd_entry *want; /* CLAWMD_WRITE: the plan's entry */
	bool old_unread;	    /* a file whose content was not read (too large, or
				       nothing needs it): no diff is shown */
	bool into_local;	    /* PRESERVE: carried into CLAUDE.local.md */
	struct clawmd_buf carry;    /* PRESERVE into_local: the text carried over (the
				       entry without clawmd's header and imports) */
	char *moved_to;		    /* PRESERVE, after apply: where it went; WRITE of
				       CLAUDE.md: where an edit made while compose ran
				       went */
};

struct clawmd_changes {
	char *group;
	char *path; /* the group directory as shown: relative to ROOT when inside */
	struct clawmd_change *v;
	size_t n, cap; /* cap: the room `v` has */
};

void clawmd_changes_init(struct clawmd_changes *ch);
/* Drift for a gate (compose --check, check's CM402): any change except
 * creating the missing empty CLAUDE.local.md, which a fresh clone where it
 * is gitignored always lacks. */
bool clawmd_changes_drift(const struct clawmd_changes *ch);
/* Compare the plan with the group directory; reads only. */
int clawmd_changes_compute(struct clawmd_changes *out, struct clawmd_group *g,
			   const struct clawmd_plan *plan, struct clawmd_err *err);
/* Apply the changes; the caller holds the group's lock. */
int clawmd_changes_apply(struct clawmd_changes *ch, struct clawmd_group *g,
			 struct clawmd_err *err);
/*
 * Describe the changes for people: a unified diff per file whose content
 * changes (libgit2's buffer diff, paths "a/groups/<g>/<name>") and one line
 * per symlink added, retargeted or removed and per preserved entry.
 */
int clawmd_changes_format(struct clawmd_buf *out, const struct clawmd_changes *ch,
			  struct clawmd_err *err);
/* The unified diff of one change (empty for symlink-only changes). */
int clawmd_change_diff(struct clawmd_buf *out, const struct clawmd_change *c, const char *dir,
		       struct clawmd_err *err);
void clawmd_changes_release(struct clawmd_changes *ch);

/*
 * A pass over many groups (compose --all, check, status): the host's
 * sources (the shared base, skills, modules) are looked at once for the
 * whole pass instead of once per group: stat'ed by every compose that finds
 * its group's record intact, listed and read by every plan (a compose that
 * plans, check and status).  It belongs to a root (struct clawmd_root):
 * every group opened from the root shares it.
 * A source changed while the pass runs may be seen by some groups of the
 * pass and not others; the next pass sees it everywhere.  Create one
 * before the first group and free it after the last; NULL is no pass.
 */
struct clawmd_pass;
struct clawmd_pass *clawmd_pass_new(void);
void clawmd_pass_free(struct clawmd_pass *pass);

/*
 * A watched pass, for a long-lived host that links the library: create one
 * at startup, give it to the root (root.pass) whose groups it composes;
 * clawmd_root_release() frees it.  Once a compose of a group has verified the group's record (the
 * second no-op in a row, see clawmd_compose()), the pass holds inotify
 * watches on everything that verification rested on: the group directory
 * (for the names clawmd owns there: CLAUDE.md, CLAUDE.local.md,
 * CLAUDE.role.md, container.json, .claude-shared.md, .claude-fragments),
 * the fragments directory and each file compose wrote, the shared base, the
 * skills and modules directories and each source, and every directory from
 * ROOT down to them.  The next compose of the group reads the queued events
 * (one system call) and, when none touched what the group rests on, returns
 * the no-op (empty changes; the plan holds the group, its warnings and
 * ndefused) without opening, locking or stat'ing anything.  Any event that
 * does sends the group back through the record, as without a watched pass.
 * The agent writing its own files in its group directory does not count.
 * It also keeps the bytes of each host source a compose read (a skill's,
 * a module's, the shared base), used for the next group only after a stat
 * finds the file as it was: a new group's first compose stats its sources
 * instead of reading them.
 *
 * It is a cache and never an error: without inotify, with no watch left
 * (fs.inotify.max_user_watches), or where inotify cannot be trusted, the
 * group is verified by stats at every call as with no pass.  It trusts
 * inotify only on local filesystems (ext2/3/4, xfs, btrfs, tmpfs, ramfs,
 * f2fs, zfs): not on NFS, CIFS, 9p, FUSE (virtiofs) or overlayfs, whose
 * files can change without the kernel reporting it, and not for a source
 * reached through a symlink below ROOT.  What it cannot see: a filesystem
 * mounted over a watched directory after it was watched, a write through a
 * shared writable mmap(2), and anything above ROOT (or above a layout
 * directory outside ROOT) being swapped.  Changes through another mount or
 * hard link of the same file are seen.
 *
 * One thread at a time; not across fork() (parent and child would share the
 * event queue: each would miss the other's events).  A watched pass keeps
 * no stats between calls, unlike a plain pass, so it can live indefinitely.
 * Each group it verified holds a few watches (one per file in copy mode).
 */
struct clawmd_pass *clawmd_pass_watch(void);

/* Options a caller fills start from CLAWMD_COMPOSE_OPTS_INIT: the version
 * tells the library which struct the caller was compiled against (as
 * libgit2's do); a version it does not know is refused with EUSAGE. */
#define CLAWMD_COMPOSE_OPTS_VERSION 1
#define CLAWMD_COMPOSE_OPTS_INIT {CLAWMD_COMPOSE_OPTS_VERSION}
struct clawmd_compose_opts {
	unsigned int version; /* CLAWMD_COMPOSE_OPTS_VERSION */
	bool dry_run; /* compute only: no lock, no write */
	bool record_only; /* only what the record (below) proves: no plan, no write */
};

/*
 * Lock the group (ROOT/.clawmd/locks/<group>, waiting lay->lock_timeout
 * seconds, else ELOCK), plan, compute the changes and, unless dry_run,
 * apply them.  The plan and changes are handed back for printing.
 *
 * A compose that finds nothing to do records what it verified in the lock
 * file; while every recorded identity (device, inode, mode, size, mtime,
 * ctime of container.json, the group's own files, the fragments directory
 * and each source) still matches, the next non-dry-run compose stops
 * there: the changes are empty and the plan holds the group, its warnings
 * and ndefused but no entries (plan->n == 0).  Any mismatch means the full
 * compose.  With record_only, it means returning 1 instead: the group may
 * need writing, and nothing was read beyond the record's facts, nothing
 * written and no lock waited for (the question the static `clawmd` asks
 * before it hands a run to the full program, cmd/front.c).
 */
int clawmd_compose(struct clawmd_plan *plan, struct clawmd_changes *changes,
		   struct clawmd_group *g, const struct clawmd_compose_opts *opts,
		   struct clawmd_err *err);


/*
 * What a compose says, in the library so that the command and a binding
 * say the same.  The stable word of an action ("write", "remove",
 * "preserve", "mkdir", "create") and of a file type ("none", "file",
 * "symlink", "directory", "other"): the JSON output's and the binding's.
 */
const char *clawmd_action_name(enum clawmd_action a);
const char *clawmd_ftype_name(enum clawmd_ftype t);
/*
 * Every warning of one compose, in the order to show them: the plan's
 * (several groups' plans share the layout's: show each text once), that
 * @ directives were defused, and each file moved out of the way with
 * where it went.  Messages without a "warning:" prefix; names in them come
 * from the group directory, so escape them before a terminal shows them.
 * Returns the count; *out is freed with clawmd_strv_free(*out, count).
 */
size_t clawmd_compose_warnings(char ***out, const struct clawmd_plan *plan,
			       const struct clawmd_changes *ch);

/*
 * Defuse every @path directive a runtime would import from inline text:
 * Claude Code's (clawmd_md_imports), wrapped in a code span, and Gemini
 * CLI's, which follows an '@' after whitespace anywhere outside backticks
 * (a ~~~ fence, HTML, an indented block).  The output is scanned again by
 * both rules and never holds a live import: when the code spans leave one
 * (backticks of the text around them, a directive only Gemini CLI would
 * follow), a backslash goes before each '@' instead, and failing that
 * every '@' becomes "&#64;".  Returns the number of directives defused
 * (those either runtime would have followed).
 */
size_t clawmd_defuse_imports(struct clawmd_buf *out, const char *text, size_t len);

#ifdef __cplusplus
}
#endif
#endif
