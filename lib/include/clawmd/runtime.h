/* clawmd/runtime.h - the agent runtimes (nanoclaw's "providers") as data: one contract each (part of clawmd.h, which includes every part). */
#ifndef CLAWMD_API_RUNTIME_H
#define CLAWMD_API_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A group's agent runs in one runtime, or several side by side (nanoclaw's
 * container.json "provider").  Each loads its instructions from its own
 * entry file in the working directory, by its own rules (doc/runtimes.md,
 * each measured against the real CLI where it runs headless here): compose
 * writes that file in the form the runtime loads whole, render reproduces
 * what it sends.
 *
 * What compose and render need to know of a runtime is a contract (struct
 * clawmd_contract): the built-in table below, which clawmd.json's
 * "providers" may extend or override by name (clawmd_layout_contract() in
 * layout.h gives the one in force).  The enum numbers the built-in rows;
 * a provider clawmd.json adds takes the next free number.
 */
enum clawmd_runtime {
	CLAWMD_RUNTIME_CLAUDE = 0, /* Claude Code: CLAUDE.md, @ imports followed */
	CLAWMD_RUNTIME_CODEX,	   /* Codex CLI: AGENTS.md, 32 KiB */
	CLAWMD_RUNTIME_GEMINI,	   /* Gemini CLI: GEMINI.md */
	CLAWMD_RUNTIME_OPENCODE,   /* OpenCode: AGENTS.md */
	CLAWMD_RUNTIME_CURSOR,	   /* Cursor (@cursor/sdk): AGENTS.md, no imports */
	CLAWMD_RUNTIME_COPILOT,	   /* Copilot CLI: CLAUDE.md and AGENTS.md */
	CLAWMD_RUNTIME_OLLAMA,	   /* nanoclaw's ollama: Claude Code at Ollama */
	CLAWMD_RUNTIME_PI,	   /* pi: AGENTS.md, no imports */
	CLAWMD_RUNTIME_QWEN,	   /* Qwen Code: QWEN.md and AGENTS.md */
	CLAWMD_RUNTIME_MOCK,	   /* nanoclaw's test provider: reads nothing */
	CLAWMD_RUNTIME_CALIBAN,	   /* caliban: .caliban.md, CLAUDE.md, AGENTS.md;
				      @ lines spliced, external ones denied */
	CLAWMD_RUNTIME_CHIMERA,	   /* chimera's mink loader: CLAUDE.md,
				      CLAUDE.local.md, @ anywhere inlined */
	CLAWMD_RUNTIME_N,	   /* the built-in rows */
};

/* The most contracts a layout holds: the built-in ones and clawmd.json's. */
#define CLAWMD_RUNTIME_MAX 32

/* A set of runtimes, bit (1 << rt) for each. */
typedef unsigned clawmd_runtimes;

/*
 * One runtime's contract.  Lists are comma-separated file names (none holds
 * a comma); NULL is none.  Strings of the built-in table are static; those
 * of a layout's own contracts belong to the layout.
 */
struct clawmd_contract {
	int rt;		    /* its number (enum clawmd_runtime for a built-in) */
	const char *name;   /* "cursor": how container.json names it */
	const char *title;  /* "Cursor": how messages name it */
	/* The file compose writes for it in the group (NULL: none, e.g.
	 * mock) and where the container sees it (nanoclaw mounts it there
	 * read-only, projectDocument.containerPath). */
	const char *entry;
	const char *container_path;
	/* The bytes of the entry it takes in whole (0: no cap of its own).
	 * Past it compose drops the largest droppable sections (the cap
	 * ladder, doc/compose.md) rather than let the runtime cut the end. */
	size_t cap;
	bool imports;	    /* it follows @ imports in its entry */
	bool inside;	    /* ... only to files beneath the working directory */
	/* Files the agent must not keep memory in, because the runtime reads
	 * them in place of or beside the entry (nanoclaw's
	 * nativeOverrideFiles: they make the base's memory note). */
	const char *overrides;
	/* The group's other files it loads by itself, beside its entry
	 * (Cursor: .cursorrules, CLAUDE.md, CLAUDE.local.md).  compose hands
	 * it no text twice: a part it reads by itself is not inlined for it,
	 * and a group whose files would give it the same text twice is
	 * warned about. */
	const char *reads;
	/* Native skills (nanoclaw's nativeSkills; NULL discovery: none): where
	 * the runtime discovers skills, their read-only source, where the
	 * agent's own go and the roots that persist; `skills_inlined`: skills
	 * whose rules must hold from the start arrive inlined instead. */
	const char *skills_discovery, *skills_source, *skills_home, *skills_roots;
	bool skills_inlined;
	/* "flat": compose writes the entry as one document (doc/compose.md);
	 * NULL or "imports": the layout's "document" decides. */
	const char *document;
	/* The built-in runtime whose loading rules render follows for it. */
	enum clawmd_runtime like;
	/* Where its rules come from, for doc/runtimes.md and status. */
	const char *source;
	/* nanoclaw's pre-contract spec inputs, for the flat document only
	 * (doc/nanoclaw.md, "Legacy specs"): `base`, a host file inlined as
	 * the runtime contract as it is written (its memory-note placeholder
	 * left alone) in place of the layout's base; `sections`, a JSON list
	 * of {"name", "body"}, each a section never dropped, after the base.
	 * NULL: none. */
	const char *base;
	const char *sections;
};

/* The built-in contract of `rt`, or NULL past the table. */
const struct clawmd_contract *clawmd_runtime_contract(enum clawmd_runtime rt);
/* The built-in contract named `name` (case-insensitive, as nanoclaw
 * lowercases its provider), or NULL. */
const struct clawmd_contract *clawmd_runtime_find(const char *name);
/* "claude", "codex", ... for a built-in runtime ("?" past the table). */
const char *clawmd_runtime_name(enum clawmd_runtime rt);
/* "Claude Code", "Codex", ... */
const char *clawmd_runtime_title(enum clawmd_runtime rt);
/* The built-in runtime named (case-insensitive), or -1 with *out untouched. */
int clawmd_runtime_parse(enum clawmd_runtime *out, const char *name);
/* The closest built-in runtime name to an unknown one, for "did you mean",
 * or NULL. */
const char *clawmd_runtime_suggest(const char *name);
/* The built-in entry file ("CLAUDE.md", "AGENTS.md", ...; NULL: none). */
const char *clawmd_runtime_entry(enum clawmd_runtime rt);
/* Where the container sees a built-in runtime's entry
 * ("/workspace/agent/AGENTS.md"; NULL: none). */
const char *clawmd_runtime_container_path(enum clawmd_runtime rt);
bool clawmd_runtime_imports(enum clawmd_runtime rt);
bool clawmd_runtime_imports_inside(enum clawmd_runtime rt);
/* The built-in cap (0: none). */
size_t clawmd_runtime_limit(enum clawmd_runtime rt);
/* What runtime `c` loads of its entry at most (0: all): its cap where
 * the runtime applies it (Codex's project_doc_max_bytes), else its
 * built-in runtime's limit, whatever smaller cap the host gave (a
 * budget: compose drops to it, but the runtime loads past it). */
size_t clawmd_contract_load_limit(const struct clawmd_contract *c);
/* Whether `name` is some built-in runtime's entry file. */
bool clawmd_runtime_entry_name(const char *name);
/* Whether the comma-separated `list` holds `name`. */
bool clawmd_runtime_list_has(const char *list, const char *name);

#ifdef __cplusplus
}
#endif
#endif
