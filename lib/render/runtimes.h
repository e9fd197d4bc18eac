/*
 * runtimes.h - the loaders of the runtimes other than Claude Code (private
 * to render/; Claude Code's is memory.c).
 *
 * clawmd_memory_load() resolves the working directory (out->cwd, a realpath
 * in the view: a container path with mounts) and makes o->home and
 * o->managed_dir absolute, then calls the runtime's loader, which fills
 * out->files in the order the runtime puts them in its prompt (its global
 * file as CLAWMD_MEM_USER, project files as CLAWMD_MEM_PROJECT, contents
 * exactly as sent) and out->imports where it follows imports, reading
 * every file through `v` (load.h).  clawmd_memory_text() calls its text
 * function: the exact string the runtime sends.  Each runtime is one file,
 * render/<name>.c, its measured rules in doc/runtime-<name>.md.
 */
#ifndef CLAWMD_RENDER_RUNTIMES_H
#define CLAWMD_RENDER_RUNTIMES_H

#include "clawmd.h"
#include "render/load.h"

#define CLAWMD_RUNTIME_LOADER(rt)                                                              \
	int clawmd_##rt##_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,  \
			       struct clawmd_load_view *v, struct clawmd_err *err);             \
	void clawmd_##rt##_text(struct clawmd_buf *out, const struct clawmd_memory *m,         \
				const struct clawmd_memory_opts *o)

CLAWMD_RUNTIME_LOADER(codex);
CLAWMD_RUNTIME_LOADER(gemini);
CLAWMD_RUNTIME_LOADER(opencode);
/* measured.c: pi, Copilot CLI, Cursor, Qwen Code, and nanoclaw's mock */
CLAWMD_RUNTIME_LOADER(pi);
CLAWMD_RUNTIME_LOADER(copilot);
CLAWMD_RUNTIME_LOADER(cursor);
CLAWMD_RUNTIME_LOADER(qwen);
CLAWMD_RUNTIME_LOADER(mock);
/* the seed's own loaders: caliban.c, chimera.c */
CLAWMD_RUNTIME_LOADER(caliban);
CLAWMD_RUNTIME_LOADER(chimera);

/* caliban's memory prefix of a load (render/caliban.c); false where caliban
 * panics cutting it to its budget (the memory's `failed` says so). */
bool clawmd_caliban_prefix(struct clawmd_buf *out, const struct clawmd_memory *m);
/* Dispatch on o->runtime (never CLAWMD_RUNTIME_CLAUDE). */
int clawmd_runtime_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
			struct clawmd_load_view *v, struct clawmd_err *err);
void clawmd_runtime_text(struct clawmd_buf *out, const struct clawmd_memory *m,
			 const struct clawmd_memory_opts *o);

#endif
