/* clawmd/layout.h - where everything lives: ROOT, clawmd.json, the mount table, the groups (part of clawmd.h, which includes every part). */
#ifndef CLAWMD_API_LAYOUT_H
#define CLAWMD_API_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clawmd/base.h"
#include "clawmd/claude.h"
#include "clawmd/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

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
	/* A field the plan depends on is a row of layout_keys in
	 * lib/layout/layout.c (the key that sets it): the no-op record is
	 * trusted only under the layout whose digest that table gives. */
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
	/* Files of the group the entry imports, in this order, each only
	 * while it is a regular file there ("optional_imports"; default and
	 * nanoclaw: CLAUDE.role.md).  Valid names, none of clawmd's own. */
	char **optional;
	size_t noptional;
	/* The group's standing instructions ("persona"; on with the nanoclaw
	 * preset): instructions.prepend.md, then every other *.prepend.md in
	 * bytewise order, inlined into .claude-fragments/persona.md and
	 * imported first, before the shared base. */
	bool persona;
	/* The runtimes a group runs when its container.json names none
	 * ("runtimes"; default: Claude Code alone), the first the one render
	 * --group follows. */
	clawmd_runtimes runtimes;
	enum clawmd_runtime runtime;
	/* clawmd.json's "providers": contracts added to the built-in table
	 * or laid over a built-in one by name (clawmd_layout_contract()). */
	struct clawmd_contract *providers;
	size_t nproviders;
	/* "document": "flat" composes each provider's entry as one document,
	 * no imports (doc/compose.md, "The flat document"); a contract's own
	 * "document" decides for its groups. */
	bool flat;
	struct clawmd_release claude; /* the agents' Claude Code ("claude_version") */
	/* Whether clawmd.json (or a flag) set claude_version and
	 * setting_sources: else render may take them from the host's tree
	 * (the nanoclaw preset: container/cli-tools.json's pin, the agent
	 * runner's sources; doc/render.md). */
	bool claude_set, sources_set;
	bool nanoclaw;		/* the nanoclaw preset is in effect */
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
	/* private: clawmd_layout_digest()'s answer, 0 until it is asked;
	 * the functions below that change the layout forget it */
	uint64_t digest_memo;
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
/* ROOT as clawmd_layout_load() finds it, walking up from `dir` (relative to
 * the current directory or absolute, taken as written: a link the agent
 * made inside its group is not followed to somewhere else) instead of the
 * current directory; NULL when there is none (caller frees). */
char *clawmd_layout_find_root(const char *dir, struct clawmd_err *err);
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
/* A digest of every field the plan depends on (the no-op record's check
 * that it was made under this layout).  Made once and remembered: a
 * watched no-op asks at every call.  So a field of the table is changed
 * only through the functions here (clawmd_layout_set() and the like),
 * never by hand once a digest was asked for. */
uint64_t clawmd_layout_digest(const struct clawmd_layout *lay);
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
/*
 * The group a host directory is in, and where the group's container sees
 * it: *group (caller frees) is NULL when `dir` is in no group of the
 * layout, else its name and *ct (caller frees) the container path
 * (ct_group, then what follows the group's directory).  `dir` is taken as
 * written first (relative to the current directory, "." and ".." removed,
 * no link followed below the groups directory: groups/main/sub is in group
 * main whatever the agent made sub), then by its realpath (a host link
 * into a group).  What loads in a directory inside a group is what loads
 * in the group's container, read through its mount table
 * (clawmd_layout_mounts), never the host's view of the agent's links:
 * check --cwd and render --cwd (or render from a group) take this one path.
 */
void clawmd_layout_group_of(char **group, char **ct, const struct clawmd_layout *lay,
			    const char *dir);
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

/*
 * The contract in force for runtime `rt` under this layout: clawmd.json's
 * own for that number, else the built-in one; NULL for a number neither
 * knows.  The number of a name (case-insensitive), or -1; how many numbers
 * are in use; the nearest name to an unknown one (or NULL).
 */
const struct clawmd_contract *clawmd_layout_contract(const struct clawmd_layout *lay, int rt);
/* Whether the layout or one of its providers composes the flat document. */
bool clawmd_layout_flat_possible(const struct clawmd_layout *lay);
int clawmd_layout_runtime(const struct clawmd_layout *lay, const char *name);
int clawmd_layout_nruntimes(const struct clawmd_layout *lay);
const char *clawmd_layout_suggest(const struct clawmd_layout *lay, const char *name);

/* Whether group `name`'s directory is ROOT or holds it (a groups
 * directory above ROOT): never a group, neither listed nor opened. */
bool clawmd_layout_holds_root(const struct clawmd_layout *lay, const char *name);
/* The groups: real directories under groups/ not starting with '.', sorted;
 * EUSAGE for a groups directory above ROOT, whose groups are only named. */
int clawmd_groups_list(char ***out, size_t *n, const struct clawmd_layout *lay,
		       struct clawmd_err *err);
/* The symlinks among the groups directory's valid names, which the listing
 * skips (and a GROUP naming one is refused): for a command over every
 * group to say so.  In directory order; none when it cannot be read.
 * Free with clawmd_strv_free(*out, n). */
size_t clawmd_groups_symlinked(char ***out, const struct clawmd_layout *lay);

/* ---- the root handle ------------------------------------------------------ */

/*
 * One root: its layout, and the pass that every group opened from it
 * shares (struct clawmd_pass in clawmd/compose.h).  A host that links the
 * library keeps one for its lifetime; the command line makes one a run.
 *
 *	struct clawmd_root root;
 *	clawmd_root_init(&root);
 *	if (clawmd_root_load(&root, dir, &err) < 0) ...  // clawmd_layout_load()
 *	clawmd_layout_set(&root.lay, "mode", "copy", &err);  // flags, before groups
 *	root.pass = clawmd_pass_watch();                      // optional
 *	... clawmd_group_open(&g, &root, "main", &err) ...
 *	clawmd_root_release(&root);                           // frees the pass
 */
struct clawmd_pass;
struct clawmd_root {
	struct clawmd_layout lay;
	struct clawmd_pass *pass; /* NULL, clawmd_pass_new() or clawmd_pass_watch() */
};

void clawmd_root_init(struct clawmd_root *root);
int clawmd_root_load(struct clawmd_root *root, const char *dir, struct clawmd_err *err);
void clawmd_root_release(struct clawmd_root *root);

#ifdef __cplusplus
}
#endif
#endif
