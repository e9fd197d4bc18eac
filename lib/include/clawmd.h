/*
 * clawmd.h - the whole public API of libclawmd.
 *
 * libclawmd owns the instruction files of container-based agent hosts: it
 * composes each group's import-only CLAUDE.md (compose), cuts legacy layouts
 * over (migrate), reproduces Claude Code's memory loading (render) and lints
 * the result (check).  The clawmd command is a thin shell over this header.
 *
 * Calling sequence for the per-spawn job:
 *
 *	struct clawmd_err err = CLAWMD_ERR_INIT;
 *	struct clawmd_layout lay;
 *	struct clawmd_plan plan;
 *	struct clawmd_changes changes;
 *	struct clawmd_compose_opts opts = {0};
 *	clawmd_layout_init(&lay);
 *	if (clawmd_layout_load(&lay, root, &err) < 0 ||
 *	    clawmd_compose(&plan, &changes, &lay, "main", &opts, &err) < 0)
 *		... err.msg names the file, key or path; err.code is the status ...
 *	clawmd_changes_release(&changes);
 *	clawmd_plan_release(&plan);
 *	clawmd_layout_release(&lay);
 *
 * Errors: every action returns 0 or a negative enum clawmd_code and fills the
 * caller's struct clawmd_err, which keeps the *first* error: its code, the
 * saved errno and a message that names the file, key or path.  Predicates
 * return bool.  The library never prints and never exits.  The one exception
 * is memory exhaustion, which aborts (as git's xmalloc does): every caller
 * would have to give up anyway, and the code stays readable.
 *
 * Ownership: structs are caller-allocated.  _init sets one up without
 * allocating, _release frees what it holds, _free frees it and the struct.
 * Passing NULL to _release or _free is a no-op.  Strings handed back are
 * owned by the struct that holds them.
 */
#ifndef CLAWMD_H
#define CLAWMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CLAWMD_VERSION "0.1.0"

/* ---- errors ------------------------------------------------------------ */

/*
 * Codes are the negated exit statuses of the command line, so the CLI maps
 * them without a table: 2 usage, 3 invalid input, 4 filesystem or safety
 * refusal, 5 lock timeout.
 */
enum clawmd_code {
	CLAWMD_OK = 0,
	CLAWMD_EUSAGE = -2,
	CLAWMD_EINPUT = -3,
	CLAWMD_EFS = -4,
	CLAWMD_ELOCK = -5,
};

#define CLAWMD_ERR_MSG_MAX 1024

struct clawmd_err {
	int code;	/* 0 until the first error */
	int sys_errno;	/* errno at the failure, 0 when not a system error */
	char msg[CLAWMD_ERR_MSG_MAX];
};

#define CLAWMD_ERR_INIT {0, 0, {0}}

/* Record an error unless one is already recorded; returns `code`. */
int clawmd_err_set(struct clawmd_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same, appending ": strerror(errno)" and saving errno. */
int clawmd_err_sys(struct clawmd_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void clawmd_err_clear(struct clawmd_err *err);
/* Exit status for a code: 0, or 2..5. */
int clawmd_err_exit_status(int code);

/* ---- growable buffer --------------------------------------------------- */

/* Always NUL-terminated when ptr != NULL; len excludes the NUL. */
struct clawmd_buf {
	char *ptr;
	size_t len;
	size_t cap;
};

#define CLAWMD_BUF_INIT {NULL, 0, 0}

void clawmd_buf_grow(struct clawmd_buf *buf, size_t extra);
void clawmd_buf_put(struct clawmd_buf *buf, const void *data, size_t len);
void clawmd_buf_puts(struct clawmd_buf *buf, const char *s);
void clawmd_buf_putc(struct clawmd_buf *buf, char c);
void clawmd_buf_printf(struct clawmd_buf *buf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void clawmd_buf_clear(struct clawmd_buf *buf);
/* Hand the string over to the caller (never NULL) and reset the buffer. */
char *clawmd_buf_detach(struct clawmd_buf *buf);
void clawmd_buf_release(struct clawmd_buf *buf);

/* ---- Claude Code releases --------------------------------------------- */

/*
 * The agents' Claude Code release decides how memory loads
 * (claude-code-memory.md section 15): releases up to 2.1.112 are JavaScript
 * builds that list .claude/rules sorted; 2.1.113 and later are native builds
 * that list them in raw readdir(3) order; 2.1.232 and later also drop an
 * import, or a rules entry, whose realpath leaves the project unless external
 * includes are approved (so symlinked fragments vanish).  The managed
 * description (2.1.136) and the realpath dedup (2.1.142) were bisected by
 * make e2e (tests/e2e/measured.md).
 */
struct clawmd_release {
	unsigned major, minor, patch;
};

/* The newest release whose rules clawmd knows: the default claude_version. */
extern const struct clawmd_release clawmd_release_default;
/* Parse "2.1.330" (or "latest"); EUSAGE naming claude_version otherwise. */
int clawmd_release_parse(struct clawmd_release *out, const char *text, struct clawmd_err *err);
int clawmd_release_cmp(const struct clawmd_release *a, const struct clawmd_release *b);
/* 2.1.113 and later: the native build (raw readdir order for rules). */
bool clawmd_release_native(const struct clawmd_release *r);
/* 2.1.136 and later: the managed tier has its own description,
 * "(organization-managed policy instructions)" (2.1.133 has the user one;
 * 2.1.134 and 2.1.135 were not published). */
bool clawmd_release_managed_policy(const struct clawmd_release *r);
/* 2.1.142 and later: a file whose realpath was already processed is not
 * loaded again (a second symlink to it); 2.1.141 loads it twice. */
bool clawmd_release_realpath_dedup(const struct clawmd_release *r);
/* 2.1.232 and later: imports and rules whose realpath leaves the project are
 * dropped unless external includes are approved. */
bool clawmd_release_realpath_gate(const struct clawmd_release *r);

/* ---- layout: where everything lives ------------------------------------ */

enum clawmd_mode {
	CLAWMD_MODE_SYMLINK = 0, /* fragments are symlinks to container paths */
	CLAWMD_MODE_COPY,	 /* fragments are regular files with the content */
};

/* One bind mount: the container sees host path `host` at `container`. */
struct clawmd_mount {
	char *container;
	char *host;
};

/*
 * The host layout and the container's view of it.  Host paths are absolute.
 * Defaults: base ROOT/container/CLAUDE.md, skills ROOT/skills, groups
 * ROOT/groups, no modules, state ROOT/.clawmd; in the container the base is
 * /app/CLAUDE.md, skills /app/skills, modules /app/src/mcp-tools and the
 * group /workspace/agent.
 */
struct clawmd_layout {
	/* A field the plan depends on must also go into layout_digest() in
	 * state.c: the no-op record is trusted only under the same layout. */
	char *root;
	char *base;
	char *skills;
	char *groups;
	char *modules;		/* NULL: no module fragments */
	char *state;		/* host-only: locks, migration record, archive */
	char *ct_base;
	char *ct_skills;
	char *ct_modules;
	char *ct_group;
	enum clawmd_mode mode;
	bool import_local;	/* add @./CLAUDE.local.md to the composed entry */
	struct clawmd_release claude; /* the agents' Claude Code ("claude_version") */
	bool approve_external;	/* the host approved external includes for the
				   agents' project ("approve_external") */
	long token_budget;	/* check: total memory budget in tokens (chars/4) */
	double lock_timeout;	/* seconds to wait for a group's lock */
	struct clawmd_mount *mounts; /* extra mounts: the preset's, then clawmd.json's */
	size_t nmounts;
	size_t npreset_mounts;	/* the first ones came with the preset */
	/* The setting sources the agents' host passes ("setting_sources", e.g.
	 * "project,user" for nanoclaw's agent runner): a source left out is not
	 * loaded natively (no_local: CLAUDE.local.md is not read unless the
	 * composed entry imports it, see import_local).  render --group and
	 * check load memory with them. */
	bool no_user, no_project, no_local;
	char *shown_from;	/* messages show paths relative to it: the current
				   directory, or ROOT when it was given (-C) */
	char **unknown_keys;	/* keys of clawmd.json clawmd does not know ("a.b") */
	size_t nunknown_keys;
	struct clawmd_buf json_cache; /* private: see clawmd_layout_keep() */
};

void clawmd_layout_init(struct clawmd_layout *lay);
/*
 * Find ROOT (`root` if not NULL, else $CLAWMD_ROOT, else the nearest ancestor
 * of the current directory holding a clawmd.json, else the nearest one holding
 * a .git; never a directory inside the groups directory: an agent's own
 * `git init` or clawmd.json in its group is skipped), apply the defaults, then
 * ROOT/clawmd.json when it exists.  Flags that override the file are applied
 * by the caller afterwards with clawmd_layout_set().  Unknown keys of
 * clawmd.json are not errors: they are listed in lay->unknown_keys (see
 * clawmd_layout_unknown_message()).  Finding ROOT reads no git data.
 */
int clawmd_layout_load(struct clawmd_layout *lay, const char *root, struct clawmd_err *err);
/*
 * Keep what ROOT/clawmd.json was parsed into in ROOT/.clawmd/layout, so
 * that the next clawmd_layout_load() of the unchanged file skips the JSON
 * parser (loading cJSON alone costs more than a no-op compose's own work).
 * Writes nothing when the load used the kept copy, found no clawmd.json,
 * or found one changed too recently to be told apart from a later edit;
 * and nothing when ROOT/.clawmd does not exist.  compose calls it after its
 * groups; read-only commands never do.  Failures are ignored: it is a cache.
 */
void clawmd_layout_keep(const struct clawmd_layout *lay);
/*
 * Set one key as clawmd.json would ("preset", "base", "skills", "groups",
 * "modules", "state", "mode", "import_local", "container.base", ...).
 * Relative host paths are taken relative to ROOT.
 */
int clawmd_layout_set(struct clawmd_layout *lay, const char *key, const char *value,
		      struct clawmd_err *err);
/*
 * The container's mount table for group `group`, most specific first:
 * ct_group -> groups/<group>, ct_base -> base, ct_skills -> skills,
 * ct_modules -> modules, then the extra mounts.  The caller releases it
 * with clawmd_mounts_free().
 */
int clawmd_layout_mounts(struct clawmd_mount **out, size_t *n, const struct clawmd_layout *lay,
			 const char *group, struct clawmd_err *err);
void clawmd_mounts_free(struct clawmd_mount *mounts, size_t n);
/* Map a container path to the host through a mount table; NULL if unmapped. */
char *clawmd_mounts_to_host(const struct clawmd_mount *mounts, size_t n, const char *ct_path);
/* Map a host path back to the container view; NULL if no mount covers it. */
char *clawmd_mounts_to_container(const struct clawmd_mount *mounts, size_t n,
				 const char *host_path);
void clawmd_layout_release(struct clawmd_layout *lay);
/* `path` as messages show it: relative to lay->shown_from (with "../" when
 * needed), else as it is (caller frees). */
char *clawmd_layout_shown(const struct clawmd_layout *lay, const char *path);
/* "clawmd.json: unknown key 'grups' (did you mean 'groups'?); it is ignored"
 * for lay->unknown_keys[i], the file named as messages show it (caller frees). */
char *clawmd_layout_unknown_message(const struct clawmd_layout *lay, size_t i);

/* The nearest spelling of `word` among `cands` (case-insensitive, a few
 * edits or a prefix), or NULL when none is close enough to be a typo. */
const char *clawmd_spell_nearest(const char *word, const char *const *cands, size_t n);

/* True for names matching [A-Za-z0-9][A-Za-z0-9._-]{0,63}. */
bool clawmd_name_valid(const char *name, size_t len);

/* The groups: real directories under groups/ not starting with '.', sorted. */
int clawmd_groups_list(char ***out, size_t *n, const struct clawmd_layout *lay,
		       struct clawmd_err *err);
void clawmd_strv_free(char **v, size_t n);

/* ---- the group's container.json ---------------------------------------- */

#define CLAWMD_CONFIG_MAX (1024 * 1024)	     /* container.json size cap */
#define CLAWMD_INSTRUCTIONS_MAX (64 * 1024) /* inline MCP instructions cap */

struct clawmd_mcp {
	char *name;
	char *instructions; /* NULL: the server has none, so no fragment */
};

struct clawmd_group_config {
	bool all_skills;	/* "all", or no "skills" key */
	char **skills;		/* the listed names, in file order */
	size_t nskills;
	struct clawmd_mcp *mcp; /* sorted bytewise by name */
	size_t nmcp;
	bool cli_disabled;	/* cli_scope == "disabled" */
	/* Top-level keys that look like a misspelt key clawmd reads ("skils"):
	 * ignored, but worth a warning.  Keys far from any of clawmd's are other
	 * tools' and pass silently.  unknown_keys are as written (hostile: escape
	 * before printing); warnings are ready-made, escaped messages. */
	char **unknown_keys;
	char **warnings;
	size_t nunknown;
};

void clawmd_config_init(struct clawmd_group_config *cfg);
/*
 * Parse and validate `len` bytes of container.json.  `path` is only used in
 * messages.  Every value is hostile: names, types, sizes and encodings are
 * checked, and the first violation is reported with its key, e.g.
 * "groups/a/container.json: skills[2]: invalid name '../x'".  CLAWMD_EINPUT.
 */
int clawmd_config_parse(struct clawmd_group_config *out, const char *json, size_t len,
			const char *path, struct clawmd_err *err);
void clawmd_config_release(struct clawmd_group_config *cfg);

/*
 * Call fn for each @-import token Claude Code would follow in `text`, in
 * document order, with the byte offset and length of the token in `text`
 * (from the '@' to the end of the raw path) and the post-processed path.
 * Return non-zero from fn to stop.  Returns 0, or fn's non-zero value.
 */
typedef int (*clawmd_import_fn)(size_t off, size_t len, const char *path, void *payload);
int clawmd_md_imports(const char *text, size_t len, clawmd_import_fn fn, void *payload);

/*
 * Defuse every @path directive Claude Code would import from inline text, by
 * wrapping it in a code span.  The output is scanned again with
 * clawmd_md_imports and never holds a live import: when the code spans
 * leave one (backticks of the text around them), a backslash goes before
 * each '@' instead, and failing that every '@' becomes "&#64;".  Returns the
 * number of directives defused.
 */
size_t clawmd_defuse_imports(struct clawmd_buf *out, const char *text, size_t len);

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

/* Names clawmd owns inside a group directory. */
#define CLAWMD_ENTRY_NAME "CLAUDE.md"
#define CLAWMD_LOCAL_NAME "CLAUDE.local.md"
#define CLAWMD_ROLE_NAME "CLAUDE.role.md"
#define CLAWMD_SHARED_NAME ".claude-shared.md"
#define CLAWMD_FRAGMENTS_DIR ".claude-fragments"
#define CLAWMD_CONFIG_NAME "container.json"

/* The first line of every composed CLAUDE.md; the line ends with the digest
 * of the rest of the file, which tells clawmd's output from a hand edit. */
#define CLAWMD_HEADER                                                                              \
	"<!-- Composed at spawn \xe2\x80\x94 do not edit. Edit CLAUDE.local.md for per-group "     \
	"content. clawmd:fnv1a64="

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
	struct clawmd_entry *entries; /* fragments in import order, CLAUDE.md last */
	size_t n;
	char **warnings; /* e.g. an unknown skill; compose prints them.  Warnings
			    about the layout (symlink mode under a release that
			    drops symlinked imports, a nanoclaw tree without the
			    preset) are the same text in every group's plan, so
			    a caller composing many groups prints each once. */
	size_t nwarnings;
	size_t ndefused;  /* @ directives defused in inline MCP instructions */
};

/* True when `data` is a CLAUDE.md that clawmd composed and nobody edited,
 * or one that nanoclaw's own composer wrote (its header, then only
 * @./.claude-shared.md and @./.claude-fragments/NAME.md lines): either is
 * replaced without carrying or preserving anything. */
bool clawmd_composed_is_ours(const char *data, size_t len);

void clawmd_plan_init(struct clawmd_plan *plan);
/*
 * Build the plan for `group`: reads ROOT/groups/<group>/container.json
 * (without following symlinks), lists the skills and modules, and in copy
 * mode reads the sources, with the files a fragment imports from inside its
 * skill or module directory (a CLAWMD_FT_DIR entry, see struct
 * clawmd_entry).  EINPUT for an invalid container.json or name, EFS for an
 * unreadable or symlinked group directory.
 */
int clawmd_plan_build(struct clawmd_plan *out, const struct clawmd_layout *lay,
		      const char *group, struct clawmd_err *err);
void clawmd_plan_release(struct clawmd_plan *plan);

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
	size_t n;
};

void clawmd_changes_init(struct clawmd_changes *ch);
/* Drift for a gate (compose --check, check's CM402): any change except
 * creating the missing empty CLAUDE.local.md, which a fresh clone where it
 * is gitignored always lacks. */
bool clawmd_changes_drift(const struct clawmd_changes *ch);
/* Compare the plan with the group directory; reads only. */
int clawmd_changes_compute(struct clawmd_changes *out, const struct clawmd_layout *lay,
			   const struct clawmd_plan *plan, struct clawmd_err *err);
/* Apply the changes; the caller holds the group's lock. */
int clawmd_changes_apply(struct clawmd_changes *ch, const struct clawmd_layout *lay,
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
 * plans, check and status through clawmd_lint_opts.pass).
 * A source changed while the pass runs may be seen by some groups of the
 * pass and not others; the next pass sees it everywhere.  Create one
 * before the first group and free it after the last; NULL is no pass.
 */
struct clawmd_pass;
struct clawmd_pass *clawmd_pass_new(void);
void clawmd_pass_free(struct clawmd_pass *pass);

/*
 * A watched pass, for a long-lived host that links the library: create one
 * at startup, hand it to every clawmd_compose() (opts.pass) and free it at
 * exit.  Once a compose of a group has verified the group's record (the
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

struct clawmd_compose_opts {
	bool dry_run; /* compute only: no lock, no write */
	bool record_only; /* only what the record (below) proves: no plan, no write */
	struct clawmd_pass *pass; /* NULL, or the pass this compose is part of */
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
		   const struct clawmd_layout *lay, const char *group,
		   const struct clawmd_compose_opts *opts, struct clawmd_err *err);
/* Take a group's lock as compose does; close(*fd) releases it. */
int clawmd_group_lock(int *fd, const struct clawmd_layout *lay, const char *group,
		      struct clawmd_err *err);

/* ---- migrate: the one-shot legacy cutover ------------------------------ */

/*
 * clawmd_migrate() cuts a legacy layout over to the composed model, once:
 *
 *	struct clawmd_migrate_opts opts = {.dry_run = false};
 *	struct clawmd_migrate_result res;
 *	clawmd_migrate(&res, &lay, &opts, &err);   // fills res even on error
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
 *     are appended to the base under a marker; then groups/global/ is moved
 *     to STATE/archive/global-<UTC time>/, never deleted;
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
};

struct clawmd_migrate_action {
	enum clawmd_migrate_step step;
	char *group; /* the group ("global" for groups/global), NULL: record */
	char *path;  /* what it acts on, relative to ROOT when inside */
	char *dest;  /* where the content goes, or NULL */
	char *note;  /* why (skips, keeps, errors), or NULL */
	size_t bytes; /* bytes carried (MOVE, APPEND, APPEND_BASE) */
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
};

struct clawmd_migrate_opts {
	bool dry_run; /* decide and report only: no lock, no write */
	bool force;   /* run even when the record exists */
};

void clawmd_migrate_result_init(struct clawmd_migrate_result *res);
int clawmd_migrate(struct clawmd_migrate_result *out, const struct clawmd_layout *lay,
		   const struct clawmd_migrate_opts *opts, struct clawmd_err *err);
void clawmd_migrate_result_release(struct clawmd_migrate_result *res);
/* "remove-link", "keep", "move-aside", ... : a stable word per step. */
const char *clawmd_migrate_step_name(enum clawmd_migrate_step step);

/*
 * The pure parts, for tests and other hosts.  carry: `text` minus the
 * legacy import lines ("@./.claude-global.md", "@.claude-global.md" and
 * "@<ct_group>/.claude-global.md" alone on a line; ct_group may be NULL)
 * and the blank lines that led the text after a removed import.
 */
void clawmd_migrate_carry(struct clawmd_buf *out, const char *text, size_t len,
			  const char *ct_group);
/*
 * The blocks (runs of non-blank lines) of `global` that are not in `base`
 * as a run of whole lines (trailing blanks ignored), in order, separated by
 * a blank line and ending with a newline.  Empty when all are contained.
 */
void clawmd_migrate_missing(struct clawmd_buf *out, const char *global, size_t glen,
			    const char *base, size_t blen);

/* ---- lint: findings for CI, and the fleet at a glance ------------------ */

/*
 * check and status are built on this section.  Lint a group as the
 * container sees it, or an arbitrary directory tree as a host sees it:
 *
 *	struct clawmd_findings f;
 *	struct clawmd_lint_opts opts = {0};
 *	clawmd_findings_init(&f);
 *	if (clawmd_lint_group(&f, &lay, "main", &opts, &err) < 0) ...  // unreadable
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

struct clawmd_lint_opts {
	/* The host approved external includes for the agent's project (as
	 * render --approve-external): imports leaving the working directory
	 * load, so CM105 is not reported. */
	bool approve_external;
	/* NULL, or the pass over many groups this lint is part of: the
	 * host's sources are read once for all of them (struct clawmd_pass). */
	struct clawmd_pass *pass;
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
int clawmd_lint_group(struct clawmd_findings *out, const struct clawmd_layout *lay,
		      const char *group, const struct clawmd_lint_opts *opts,
		      struct clawmd_err *err);
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
};

void clawmd_group_status_init(struct clawmd_group_status *st);
/* Everything status shows for one group (it lints the group to count). */
int clawmd_group_status_get(struct clawmd_group_status *out, const struct clawmd_layout *lay,
			    const char *group, const struct clawmd_lint_opts *opts,
			    struct clawmd_err *err);
void clawmd_group_status_release(struct clawmd_group_status *st);

/* ---- memory loading: what Claude Code will read (render) --------------- */

/*
 * clawmd_memory_load() reproduces Claude Code's startup memory loading
 * (claude-code-memory.md beside DESIGN.md): the managed file and rules, the
 * user file and rules, then the walk from just below / down to the realpath
 * of the working directory (CLAUDE.md, .claude/CLAUDE.md, .claude/rules,
 * CLAUDE.local.md per directory), each file followed by its @-imports,
 * depth-first, as opts.release loads it (section 15 of that file: rules
 * sorted up to 2.1.112, in readdir(3) order from 2.1.113; the realpath gate
 * on imports and symlinked rules from 2.1.232):
 *
 *	struct clawmd_memory_opts o = {.cwd = ".", .home = getenv("HOME")};
 *	struct clawmd_memory m;
 *	clawmd_memory_init(&m);
 *	if (clawmd_memory_load(&m, &o, &err) < 0) ...   // cwd unreadable, ...
 *	struct clawmd_buf s = CLAWMD_BUF_INIT;
 *	clawmd_memory_text(&s, &m, &o);                  // the exact string
 *	clawmd_memory_release(&m);
 *
 * With opts.target, the result is instead the nested-memory attachments a
 * first read of that file adds.  With opts.mounts, every path (cwd, home,
 * managed dir, target, and what is shown) is a container path: files are
 * reached through the mount table, and symlink targets are resolved in the
 * container's view.  Missing, unreadable or odd files are never errors:
 * they are what Claude Code skips silently, and their imports say why.
 *
 * Every file is reached through one fd-based resolver (the container view:
 * no host path string is opened after resolution), only regular files are
 * opened for reading, and a load is bounded: files over 4 MiB are skipped
 * unread (as Claude Code skips them), at most 64 MiB are read, 50,000 paths
 * tried and 200,000 rules entries listed (65,536 per directory, 32 levels
 * deep); past a bound the rest is skipped as missing.
 */

enum clawmd_mem_type {
	CLAWMD_MEM_MANAGED = 0,
	CLAWMD_MEM_USER,
	CLAWMD_MEM_PROJECT,
	CLAWMD_MEM_LOCAL,
};

enum clawmd_import_status {
	CLAWMD_IMPORT_LOADED = 0,
	CLAWMD_IMPORT_EMPTY,	   /* read, but empty after transformations */
	CLAWMD_IMPORT_MISSING,	   /* cannot be read: absent, a directory, ... */
	CLAWMD_IMPORT_CYCLE,	   /* already on the chain of imports above */
	CLAWMD_IMPORT_DUPLICATE,   /* already processed elsewhere */
	CLAWMD_IMPORT_TOO_DEEP,	   /* would be depth 5 */
	CLAWMD_IMPORT_NOT_TEXT,	   /* extension not in the text whitelist */
	CLAWMD_IMPORT_EXTERNAL,	   /* outside the cwd, external not approved */
	CLAWMD_IMPORT_CONDITIONAL, /* loaded but dropped: it has paths: */
	CLAWMD_IMPORT_INSIDE_CODE, /* written inside code: never followed */
};

struct clawmd_mem_file {
	enum clawmd_mem_type type;
	char *path;	/* as Claude Code shows it */
	char *parent;	/* the importing file, NULL at top level */
	char *content;	/* after frontmatter and comment stripping, untrimmed */
	size_t len;
	size_t size;	/* bytes read */
	char **globs;	/* paths: of a conditional rule, else NULL */
	size_t nglobs;
	int depth;
};

struct clawmd_mem_import {
	char *from;	/* the importing file's path */
	char *raw;	/* as written after '@' (post-processed) */
	char *path;	/* resolved, absolute */
	enum clawmd_import_status status;
};

struct clawmd_memory {
	struct clawmd_mem_file *files; /* in prompt order */
	size_t nfiles, capfiles;
	struct clawmd_mem_import *imports; /* in the order they were met */
	size_t nimports, capimports;
	char **external; /* what an approval prompt would list */
	size_t nexternal;
	char *cwd;	 /* the realpath the walk ended at */
	bool external_met; /* an import or a rules entry led outside the
			      working directory (by path, or by realpath from
			      2.1.232): only then can a load without approved
			      external includes differ from one with them */
};

struct clawmd_memory_opts {
	const char *cwd;	 /* default "." */
	const char *home;	 /* the user tier is HOME/.claude; NULL: none */
	const char *managed_dir; /* default /etc/claude-code */
	bool approve_external;	 /* hasClaudeMdExternalIncludesApproved */
	bool no_user, no_project, no_local; /* setting sources left out */
	struct clawmd_release release; /* the agents' Claude Code; zero: the
					  default (clawmd_release_default) */
	const char *target;	 /* nested memory for a first read of this file */
	const struct clawmd_mount *mounts; /* group mode: container view */
	size_t nmounts;
	bool list_external;	 /* also fill clawmd_memory.external (a second,
				    forced load: only json output needs it) */
};

void clawmd_memory_init(struct clawmd_memory *m);
int clawmd_memory_load(struct clawmd_memory *out, const struct clawmd_memory_opts *opts,
		       struct clawmd_err *err);
/* The memory string (empty when nothing loads); with a target, the
 * attachments as <system-reminder> blocks. */
void clawmd_memory_text(struct clawmd_buf *out, const struct clawmd_memory *m,
			const struct clawmd_memory_opts *opts);
void clawmd_memory_release(struct clawmd_memory *m);
/* "Managed", "User", "Project", "Local". */
const char *clawmd_mem_type_name(enum clawmd_mem_type type);
/* "loaded", "missing", "cycle", "too deep", "not text", ... */
const char *clawmd_import_status_name(enum clawmd_import_status status);
/* True when the lower-cased extension of `path` is in Claude Code's list
 * of 107 text extensions, or when it has none. */
bool clawmd_text_extension(const char *path);

#ifdef __cplusplus
}
#endif
#endif
