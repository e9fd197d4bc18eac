/* clawmd/group.h - one group: its container.json and the names clawmd owns in it (part of clawmd.h, which includes every part). */
#ifndef CLAWMD_API_GROUP_H
#define CLAWMD_API_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clawmd/base.h"
#include "clawmd/layout.h"
#include "clawmd/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

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
	bool all_modules;	/* "all", or no "modules" key */
	char **modules;		/* the listed module names, in file order */
	size_t nmodules;
	bool cli_disabled;	/* cli_scope == "disabled" */
	/* The runtimes the group runs, as it names them: "provider"
	 * (nanoclaw's: one name) first, then "runtimes" (a list); none: the
	 * layout's "runtimes".  Hostile text: names are looked up in the
	 * layout's contracts (clawmd_group_runtimes()), and one no contract
	 * knows gives the group the default (Claude) surfaces and a warning
	 * (clawmd_group_unknown_runtime()), never a failed spawn. */
	char **runtime_names;
	size_t nruntime_names;
	bool provider_given; /* runtime_names[0] is "provider" */
	/* Top-level keys that look like a misspelt key clawmd reads ("skils"):
	 * ignored, but worth a warning.  Keys far from any of clawmd's are other
	 * tools' and pass silently.  unknown_keys are as written (hostile: escape
	 * before printing); warnings are ready-made, escaped messages. */
	char **unknown_keys;
	char **warnings;
	size_t nunknown;
	/* A key given twice (at any depth): read as nanoclaw's runner reads
	 * it (JSON.parse: the last one, at the first one's place), and said
	 * in this ready-made message; NULL when none was. */
	char *dup_warning;
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

/* Names clawmd owns inside a group directory. */
#define CLAWMD_ENTRY_NAME "CLAUDE.md"
#define CLAWMD_LOCAL_NAME "CLAUDE.local.md"
#define CLAWMD_ROLE_NAME "CLAUDE.role.md" /* the default optional import */
#define CLAWMD_PERSONA_NAME "instructions.prepend.md" /* first of the persona files */
#define CLAWMD_PREPEND_SUFFIX ".prepend.md"	      /* the persona files' suffix */
#define CLAWMD_PERSONA_FRAGMENT "persona.md"	      /* in CLAWMD_FRAGMENTS_DIR */
#define CLAWMD_OPTIONAL_MAX 32 		      /* optional_imports entries */
#define CLAWMD_SHARED_NAME ".claude-shared.md" /* copy mode's copy of the base */
#define CLAWMD_FRAGMENTS_DIR ".claude-fragments"
/* Symlink mode's link to the base: inside the fragments directory, which a
 * container runner mounts read-only (a link in the group itself is no
 * mount point, and the agent could replace it). */
#define CLAWMD_SHARED_LEAF "shared.md"
#define CLAWMD_SHARED_LINK CLAWMD_FRAGMENTS_DIR "/" CLAWMD_SHARED_LEAF
#define CLAWMD_CONFIG_NAME "container.json"

/* The first line of every composed CLAUDE.md; the line ends with the digest
 * of the rest of the file, which tells clawmd's output from a hand edit. */
#define CLAWMD_HEADER                                                                              \
	"<!-- Composed at spawn \xe2\x80\x94 do not edit. Edit CLAUDE.local.md for per-group "     \
	"content. clawmd:fnv1a64="

/* ---- the group handle ---------------------------------------------------- */

/*
 * A group of a root, as libgit2 has its repository: every per-group call
 * (clawmd_plan_build, clawmd_changes_compute, clawmd_changes_apply,
 * clawmd_compose, clawmd_lint_group, clawmd_group_status_get) takes one.
 *
 *	struct clawmd_group *g;
 *	if (clawmd_group_open(&g, &root, "main", &err) < 0) ...  // EINPUT: name
 *	... clawmd_compose(&plan, &changes, g, &opts, &err) ...
 *	clawmd_group_free(g);
 *
 * The name is checked once, here ([A-Za-z0-9][A-Za-z0-9._-]{0,63}).  The
 * handle owns what the steps share: the group directory, opened without
 * following a symlink when a step first needs it and then the same
 * directory for every step (a missing or symlinked group is EFS there);
 * container.json, read and parsed once, or the config the host gave with
 * clawmd_group_set_config(); and the group's lock while it is held.  The root must outlive the handle.  One thread at a
 * time per handle; handles of different groups are independent.
 */
struct clawmd_group;

int clawmd_group_open(struct clawmd_group **out, const struct clawmd_root *root,
		      const char *name, struct clawmd_err *err);
/* Whether group `name` (a valid name, as clawmd_group_open() takes it) is
 * a real directory under the groups directory: 0, else EFS saying "no
 * group 'NAME': 'PATH' does not exist", or that PATH is a symlink
 * (refused: it could lead anywhere) or not a directory, PATH as the user
 * sees it.  For a command to refuse every GROUP before it touches one. */
int clawmd_group_present(const struct clawmd_root *root, const char *name, struct clawmd_err *err);
void clawmd_group_free(struct clawmd_group *g);
const char *clawmd_group_name(const struct clawmd_group *g);
/* The group directory on the host (absolute). */
const char *clawmd_group_path(const struct clawmd_group *g);
/* The container's mount table for this group, most specific first (what
 * render --group and check read through; see clawmd_layout_mounts()). */
int clawmd_group_mounts(struct clawmd_mount **out, size_t *n, const struct clawmd_group *g,
			struct clawmd_err *err);
/* The group's container.json, read and parsed on first use: 0, or the
 * same error at every call (EINPUT for an invalid one, EFS when the group
 * cannot be opened).  A missing file is all defaults.  clawmd_compose()
 * plans from the file as it is when it begins: when it changed since the
 * handle read it, the handle reads it again, and *out then holds the new
 * config (what was taken from the old one stays valid until the handle
 * reads the file once more, or clawmd_group_free()). */
int clawmd_group_config(const struct clawmd_group_config **out, struct clawmd_group *g,
			struct clawmd_err *err);
/* Use `len` bytes of JSON given by the host as the group's container.json
 * (a host that keeps the config elsewhere need not write the file first).
 * EINPUT when invalid; the handle keeps its previous config then. */
int clawmd_group_set_config(struct clawmd_group *g, const char *json, size_t len,
			    struct clawmd_err *err);
/* Take the group's lock (STATE/locks/<name>, waiting lay->lock_timeout
 * seconds, else ELOCK), as migrate does; it is held until
 * clawmd_group_free().  clawmd_compose() takes it and lets it go itself,
 * unless the handle holds it already: then it composes under that lock and
 * leaves it held (the lock file lives in the host-only state directory,
 * never in the group, which the agent could hold forever). */
int clawmd_group_lock(struct clawmd_group *g, struct clawmd_err *err);
/* The warning for container.json's i-th runtime name when no contract
 * knows it ("... unknown provider 'x' ...; composing the default (Claude
 * Code) surfaces"), else NULL (caller frees). */
char *clawmd_group_unknown_runtime(struct clawmd_group *g, size_t i);
/* The runtimes the group runs (its container.json's, else the layout's;
 * only unknown names: Claude Code's surfaces) and the first of them, the
 * one render --group follows.  Errors as clawmd_group_config(). */
int clawmd_group_runtimes(clawmd_runtimes *set, enum clawmd_runtime *first, struct clawmd_group *g,
			  struct clawmd_err *err);

/* ---- the runner's mounts -------------------------------------------------- */

/*
 * What a container runner mounts for the group (clawmd mounts, the Node
 * binding's mounts()): the group read-write at the layout's container
 * group (/workspace/agent), then, read-only over it, everything compose
 * writes there that the agent must not change during its session (each
 * composed entry file, copy mode's .claude-shared.md, .claude-fragments),
 * then the layout's sources read-only (the base, skills, modules and the
 * extra mounts, under /app by default), parents before what they hold.
 *
 * The list comes from the group's plan (what compose writes, whether or
 * not it has run), so it holds in both modes.  A symlink can be no mount
 * point (symlink mode's .claude-shared.md): it is left out, and what it
 * points at is a source, read-only.  A source missing on the host is left
 * out (an engine would create it).  A mount's `present` says whether its
 * host path exists now as the type it will have; a runner binds after
 * compose, when every one is.
 */
enum clawmd_bind_what {
	CLAWMD_BIND_GROUP = 0, /* the group directory, read-write */
	CLAWMD_BIND_ENTRY,     /* a composed entry file: CLAUDE.md, AGENTS.md, ... */
	CLAWMD_BIND_SHARED,    /* copy mode's .claude-shared.md */
	CLAWMD_BIND_FRAGMENTS, /* .claude-fragments */
	CLAWMD_BIND_SOURCE,    /* the base, skills, modules, an extra mount */
};

struct clawmd_bind {
	enum clawmd_bind_what what;
	char *host;	 /* absolute */
	char *container; /* absolute */
	/* The path inside its volume, for runners that mount volumes
	 * (Kubernetes' subPath): relative to the group directory for the
	 * group's own ("" for the group itself), relative to ROOT for a
	 * source ("." for ROOT itself), NULL for a source outside ROOT. */
	char *sub;
	bool readonly;
	bool dir;     /* a directory, else a file */
	bool present; /* the host path is there now, as that type */
	/* docker's short form (-v HOST:CONTAINER[:ro], what nanoclaw's
	 * runner builds) can say it: neither path holds ':' or ',' (the
	 * form's separators), a control character (C0, DEL, C1), U+2028,
	 * U+2029 or invalid UTF-8.  Otherwise a runner must use the long
	 * form (docker's --mount with the JSON's paths) or refuse, as
	 * `clawmd mounts --format docker` does. */
	bool short_form;
};

/* The list described above; EFS for a missing or symlinked group, EINPUT
 * for an invalid container.json (as compose).  Free with
 * clawmd_binds_free(). */
int clawmd_group_binds(struct clawmd_bind **out, size_t *n, struct clawmd_group *g,
		       struct clawmd_err *err);
void clawmd_binds_free(struct clawmd_bind *binds, size_t n);
/* "group", "entry", "shared", "fragments", "source". */
const char *clawmd_bind_what_name(enum clawmd_bind_what what);

/* ---- the composed entry -------------------------------------------------- */

/* True when `data` is a CLAUDE.md that clawmd composed and nobody edited,
 * or one that nanoclaw's own composer wrote (its header, then only
 * @./.claude-shared.md and @./.claude-fragments/NAME.md lines): either is
 * replaced without carrying or preserving anything. */
bool clawmd_entry_ours(const char *data, size_t len);

/*
 * What is carried out of a CLAUDE.md clawmd did not compose (into
 * CLAUDE.local.md, by compose and by migrate): `text` minus the legacy
 * import lines ("@./.claude-global.md", "@.claude-global.md" and
 * "@<ct_group>/.claude-global.md" alone on a line; ct_group may be NULL)
 * and the blank lines that led the text after a removed import.
 */
void clawmd_entry_carry(struct clawmd_buf *out, const char *text, size_t len, const char *ct_group);

#ifdef __cplusplus
}
#endif
#endif
