/* clawmd/runtime.h - the agent runtimes clawmd composes for and renders: Claude Code, Codex, Gemini CLI, OpenCode (part of clawmd.h, which includes every part). */
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
 * entry file in the working directory, by its own rules (doc/runtime-*.md,
 * each measured against the real CLI): compose writes that file in the form
 * the runtime loads whole, render reproduces what it sends.
 */
enum clawmd_runtime {
	CLAWMD_RUNTIME_CLAUDE = 0, /* Claude Code: CLAUDE.md, @ imports followed */
	CLAWMD_RUNTIME_CODEX,	   /* Codex CLI: AGENTS.md */
	CLAWMD_RUNTIME_GEMINI,	   /* Gemini CLI: GEMINI.md */
	CLAWMD_RUNTIME_OPENCODE,   /* OpenCode: AGENTS.md */
	CLAWMD_RUNTIME_N,
};

/* A set of runtimes, bit (1 << rt) for each. */
typedef unsigned clawmd_runtimes;
#define CLAWMD_RUNTIMES_ALL ((1u << CLAWMD_RUNTIME_N) - 1)

/* "claude", "codex", "gemini", "opencode". */
const char *clawmd_runtime_name(enum clawmd_runtime rt);
/* "Claude Code", "Codex", "Gemini CLI", "OpenCode". */
const char *clawmd_runtime_title(enum clawmd_runtime rt);
/* The runtime named (case-insensitive, as nanoclaw lowercases its
 * provider), or -1 with *out untouched. */
int clawmd_runtime_parse(enum clawmd_runtime *out, const char *name);
/* The closest runtime name to an unknown one, for "did you mean", or NULL. */
const char *clawmd_runtime_suggest(const char *name);
/* The file compose writes in the group for it: "CLAUDE.md", "AGENTS.md",
 * "GEMINI.md" (Codex and OpenCode share AGENTS.md). */
const char *clawmd_runtime_entry(enum clawmd_runtime rt);
/* Whether it follows @ imports in its entry file: compose writes an
 * import-only entry for it, else one file with every part inlined. */
bool clawmd_runtime_imports(enum clawmd_runtime rt);
/* Whether it follows only imports whose realpath stays beneath the
 * working directory: symlink mode's links to /app are dropped, so only a
 * copy-mode layout can compose for it. */
bool clawmd_runtime_imports_inside(enum clawmd_runtime rt);
/* The most bytes of its entry file it loads (0: no limit of its own): past
 * it the runtime cuts the text off, so compose refuses an inlined entry
 * that large. */
size_t clawmd_runtime_limit(enum clawmd_runtime rt);
/* Whether `name` is some runtime's entry file. */
bool clawmd_runtime_entry_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
