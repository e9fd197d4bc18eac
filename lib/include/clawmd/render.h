/* clawmd/render.h - Claude Code's memory loading: what the agent will read (part of clawmd.h, which includes every part). */
#ifndef CLAWMD_API_RENDER_H
#define CLAWMD_API_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clawmd/base.h"
#include "clawmd/claude.h"
#include "clawmd/group.h"
#include "clawmd/layout.h"
#include "clawmd/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- memory loading: what Claude Code will read (render) --------------- */

/*
 * clawmd_memory_load() reproduces Claude Code's startup memory loading
 * (claude-code-memory.md beside DESIGN.md): the managed file and rules, the
 * user file and rules, then the walk from just below / down to the realpath
 * of the working directory (CLAUDE.md, .claude/CLAUDE.md, .claude/rules,
 * CLAUDE.local.md per directory), each file followed by its @-imports,
 * depth-first, as opts.release loads it (section 15 of that file: rules
 * sorted up to 2.1.112, in readdir(3) order from 2.1.113; the realpath gate
 * on imports and symlinked rules from 2.1.232; from 2.1.281 AGENTS.md and
 * .claude/AGENTS.md where no CLAUDE.md applies, as instructionFiles says):
 *
 *	struct clawmd_memory_opts o = CLAWMD_MEMORY_OPTS_INIT;
 *	o.cwd = ".", o.home = getenv("HOME");
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
	CLAWMD_IMPORT_TOO_LARGE,   /* over the runtime's size for an import, or
				      past its budget for all of them (caliban) */
	CLAWMD_IMPORT_NOT_FOLLOWED, /* a scheme the runtime does not follow (caliban:
				       http, https) */
};

struct clawmd_mem_file {
	enum clawmd_mem_type type;
	char *path;	/* as Claude Code shows it */
	char *parent;	/* the importing file, NULL at top level */
	char *root;	/* the top-level file its chain of imports starts at
			   (its own path at top level) */
	char *content;	/* after frontmatter and comment stripping, untrimmed */
	size_t len;
	size_t size;	/* bytes read */
	char **globs;	/* paths: of a conditional rule, else NULL */
	size_t nglobs;
	int depth;
	const char *source; /* how the runtime names its part (caliban: "global",
			       "walk", "import", "rule"); NULL elsewhere; static */
};

struct clawmd_mem_import {
	char *from;	/* the importing file's path */
	char *raw;	/* as written after '@' (post-processed) */
	char *path;	/* resolved, absolute */
	enum clawmd_import_status status;
};

/*
 * Claude Code's instructionFiles option (2.1.281 on; the setting
 * pluginConfigs["cc-plugin-agents-md@builtin"].options.instructionFiles of
 * the user's settings.json): which project instructions load at startup.
 */
enum clawmd_instruction_files {
	CLAWMD_IF_UNSET = 0,	/* opts: as the user's settings say; result: the
				   release has no AGENTS.md loading (< 2.1.281) */
	CLAWMD_IF_CLAUDE_MD,	/* "claude-md": CLAUDE.md files, never AGENTS.md */
	CLAWMD_IF_FALLBACK,	/* "claude-md-or-agents-md", the default:
				   AGENTS.md where no CLAUDE.md applies */
	CLAWMD_IF_BOTH,		/* "claude-md-and-agents-md": both */
	CLAWMD_IF_MANAGED_ONLY, /* "managed-only": only the managed tier */
};
/* Parse a value as Claude Code spells it; -1 for any other. */
int clawmd_instruction_files_parse(enum clawmd_instruction_files *out, const char *text);
/* "claude-md", ...; "" for CLAWMD_IF_UNSET. */
const char *clawmd_instruction_files_name(enum clawmd_instruction_files v);

/* A top-level AGENTS.md (or .claude/AGENTS.md) of the walk that has text. */
struct clawmd_mem_agents {
	char *path;
	bool loaded; /* sent: by the fallback, beside CLAUDE.md, imported by
			a loaded file, or its text sent as another file's */
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
	enum clawmd_instruction_files instruction_files; /* in effect */
	bool instruction_files_set; /* by opts or the user's settings */
	struct clawmd_mem_agents *agents; /* the AGENTS.md files of the walk
					     (2.1.281 on), top down */
	size_t nagents;
	char *agents_off_by; /* the CLAUDE.md or CLAUDE.local.md that turned
				the fallback off; NULL: it did not */
	char *failed;	     /* the runtime's loader fails on these files and
				sends nothing: why (chimera: a file that is not
				UTF-8; caliban: its cut inside a character);
				NULL: it does not */
};

/* Start from CLAWMD_MEMORY_OPTS_INIT (the version: see
 * clawmd_compose_opts). */
#define CLAWMD_MEMORY_OPTS_VERSION 1
#define CLAWMD_MEMORY_OPTS_INIT {CLAWMD_MEMORY_OPTS_VERSION}
struct clawmd_memory_opts {
	unsigned int version;	 /* CLAWMD_MEMORY_OPTS_VERSION */
	const char *cwd;	 /* default "." */
	const char *home;	 /* the user tier is HOME/.claude; NULL: none */
	const char *managed_dir; /* default /etc/claude-code */
	bool approve_external;	 /* hasClaudeMdExternalIncludesApproved */
	bool no_user, no_project, no_local; /* setting sources left out */
	enum clawmd_instruction_files instruction_files; /* UNSET: as
				    HOME/.claude/settings.json says */
	struct clawmd_release release; /* the agents' Claude Code; zero: the
					  default (clawmd_release_default) */
	const char *target;	 /* nested memory for a first read of this file */
	const struct clawmd_mount *mounts; /* group mode: container view */
	size_t nmounts;
	bool list_external;	 /* also fill clawmd_memory.external (a second,
				    forced load: only json output needs it) */
	enum clawmd_runtime runtime; /* whose loading rules: Claude Code's
					(0), or another runtime's, each in
					render/<name>.c (doc/runtime-<name>.md) */

	/* ---- Codex (render/codex.c, doc/runtime-codex.md) ---- */
	const char *codex_home;	     /* its global directory (CODEX_HOME);
					NULL: HOME/.codex */
	bool codex_max_bytes_set;    /* codex_max_bytes was given; else the
					default, 32768 */
	size_t codex_max_bytes;	     /* project_doc_max_bytes: the project
					files' budget in bytes; 0: none read */
	const char *const *codex_fallback; /* project_doc_fallback_filenames,
					      tried after AGENTS.md, in order */
	size_t ncodex_fallback;
	bool codex_markers_set;	     /* codex_markers was given (even empty);
					else [".git"] */
	const char *const *codex_markers; /* project_root_markers: names whose
					     presence makes a directory the
					     project root; none: the cwd alone */
	size_t ncodex_markers;

	/* OpenCode (render/opencode.c, doc/runtime-opencode.md) */
	const char *const *opencode_instructions; /* its config's
						      `instructions`, in
						      order (URLs skipped) */
	size_t nopencode_instructions;
	bool opencode_no_claude; /* OPENCODE_DISABLE_CLAUDE_CODE_PROMPT: no
				    CLAUDE.md fallback, project or global */
	/* ---- Gemini CLI (render/gemini.c, doc/runtime-gemini.md) ---- */
	const char *const *gemini_names; /* context.fileName: file names (no
					    '/'), loaded in this order with
					    GEMINI.md after them unless listed;
					    none: GEMINI.md alone */
	size_t ngemini_names;
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

/* ---- a nanoclaw host's session start (render/nanoclaw.c) ---------------- */

/*
 * nanoclaw's agent runner (since its pull request 3012) delivers a group's
 * memory by a SessionStart hook, `bun /app/src/memory/hook.ts`, on startup,
 * clear and compact: memory/index.md and memory/system/definition.md of
 * the group, each trimmed and cut at CLAWMD_HOOK_MEMORY_CHARS UTF-16 code
 * units with a notice line after the cut.  clawmd_session_hook_load() says
 * whether the container has that script (out->present) and, if so, what
 * the hook injects of each file, read through the mount table (`group` is
 * the container's group directory).  A file that cannot be read is
 * !available, as the hook says it is unavailable.  Nothing fails: the
 * load only reports.
 */
#define CLAWMD_HOOK_SCRIPT "/app/src/memory/hook.ts"
#define CLAWMD_HOOK_MEMORY_CHARS 16000

struct clawmd_hook_file {
	char *path;	/* the container path */
	bool available; /* a regular file the hook could read */
	char *text;	/* what the hook injects of it (NULL when !available) */
	size_t len;
	size_t chars;	/* the trimmed file's length in UTF-16 code units */
	bool truncated; /* over CLAWMD_HOOK_MEMORY_CHARS: cut, notice added */
};

struct clawmd_session_hook {
	bool present;	/* the container has CLAWMD_HOOK_SCRIPT */
	struct clawmd_hook_file files[2]; /* index.md, system/definition.md */
};

void clawmd_session_hook_load(struct clawmd_session_hook *out, const struct clawmd_mount *mounts,
			      size_t nmounts, const char *group);
void clawmd_session_hook_release(struct clawmd_session_hook *h);
/* The pure part: what the hook injects of a file holding `data`. */
void clawmd_hook_memory_text(struct clawmd_buf *out, const char *data, size_t len, size_t *units,
			     bool *truncated);

/*
 * The Claude Code release a nanoclaw host's image installs: the version of
 * "@anthropic-ai/claude-code" in ROOT/container/cli-tools.json (a JSON
 * array of {name, version, ...}).  1 with *out set, 0 when the file or the
 * entry is absent, negative when the file is not such an array or the
 * version is no X.Y.Z release (EINPUT, the message names the file).
 * *file is the file's path as shown (caller frees), in every case.
 */
int clawmd_nanoclaw_pinned_release(struct clawmd_release *out, char **file,
				   const struct clawmd_layout *lay, struct clawmd_err *err);

/* ---- a group's render: what it loads with (render/setup.c) ------------- */

/*
 * What a group's agent loads depends on more than its files: its container's
 * mount table, its runtime, the Claude Code release, the setting sources,
 * and on a nanoclaw host what the agent runner adds.  clawmd_render_setup()
 * decides all of it in one place, for render --group and the Node binding's
 * render() alike, so the two never show different things:
 *
 *	struct clawmd_render_opts ro = CLAWMD_RENDER_OPTS_INIT;
 *	ro.memory.home = "/home/node";              // what the caller was told
 *	struct clawmd_render_setup s;
 *	if (clawmd_render_setup(&s, g, &ro, &err) < 0) ...  // container.json,
 *	                                                    // cli-tools.json
 *	clawmd_memory_load(&m, &s.memory, &err);            // as the agent loads
 *	... s.release_from, s.sources_from, s.hook: what to say beside it ...
 *	clawmd_render_setup_release(&s);
 *
 * From the caller: ro.memory as it was told (cwd a container path, home,
 * managed_dir, target, list_external, each runtime's own settings), and
 * with runtime_set, release_set or sources_set the runtime, the release or
 * the setting sources it was given, which then stand.  The rest is the
 * group's:
 *  - the mounts: clawmd_group_mounts(); every path is a container path,
 *    and the working directory, unless given, the container's group;
 *  - the runtime: the group's first provider (container.json), loaded by
 *    the rules of the built-in runtime its contract is "like" (a provider
 *    clawmd.json defines included); with a target, Claude Code's;
 *  - the release, the setting sources and approve_external: clawmd.json's
 *    (approve_external is or-ed with the caller's);
 *  - on a nanoclaw host (the preset), unless a target is asked for:
 *    for Claude Code the release container/cli-tools.json pins where
 *    neither the caller nor clawmd.json says one, and the sources
 *    project,user,local where the container has the memory hook and
 *    neither says them; for Claude Code and Codex the memory that hook
 *    injects (clawmd_session_hook_load()).  release_from and sources_from
 *    say where each came from, in the words render prints.
 * Errors: an options struct not from CLAWMD_RENDER_OPTS_INIT (EUSAGE), the
 * group's container.json (EINPUT), its mounts, and on a nanoclaw host a
 * cli-tools.json that is no such file (EINPUT, naming it) or cannot be
 * read (EFS), unless the release came from the caller or clawmd.json: the
 * pin is then only noted, and a broken one is not an error.  With
 * broken_pin_noted, a broken pin is no error either: the release is
 * clawmd.json's or the default, and release_from says why (check, status
 * and report look at the group all the same; check reports the pin as
 * CM307).
 * `out` is always safe to release.  out->memory points into `out` (the
 * mounts) and at what ro.memory points to: it lives as long as both.
 */
#define CLAWMD_RENDER_OPTS_VERSION 1
#define CLAWMD_RENDER_OPTS_INIT {CLAWMD_RENDER_OPTS_VERSION, CLAWMD_MEMORY_OPTS_INIT, false, false, false, false}
struct clawmd_render_opts {
	unsigned int version; /* CLAWMD_RENDER_OPTS_VERSION */
	struct clawmd_memory_opts memory; /* the caller's, from CLAWMD_MEMORY_OPTS_INIT */
	bool runtime_set; /* memory.runtime stands */
	bool release_set; /* memory.release stands (--claude-version) */
	bool sources_set; /* memory.no_user, no_project, no_local stand */
	bool broken_pin_noted; /* a cli-tools.json the host broke is noted, not an error */
};

struct clawmd_render_setup {
	struct clawmd_memory_opts memory; /* for clawmd_memory_load() */
	struct clawmd_mount *mounts;	  /* the group's container view */
	size_t nmounts;
	bool nanoclaw;	    /* the nanoclaw preset, no target: what follows
			       is said beside the load */
	char *release_from; /* where memory.release came from ("pinned by
			       container/cli-tools.json", ...); NULL: not
			       said (not nanoclaw, or not Claude Code) */
	char *sources_from; /* where the setting sources came from; NULL: as
			       release_from */
	struct clawmd_session_hook hook; /* what nanoclaw's SessionStart hook
					    injects (!present: none) */
};

int clawmd_render_setup(struct clawmd_render_setup *out, struct clawmd_group *g,
			const struct clawmd_render_opts *opts, struct clawmd_err *err);
void clawmd_render_setup_release(struct clawmd_render_setup *s);
/* "2.1.330": memory.release, or the default when it is zero (caller frees). */
char *clawmd_render_release(const struct clawmd_memory_opts *o);

#ifdef __cplusplus
}
#endif
#endif
