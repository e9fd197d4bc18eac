/* runtimes.c - render's dispatch to the loader of each runtime other than
 * Claude Code (runtimes.h). */
#include "render/runtimes.h"

static const struct {
	int (*load)(struct clawmd_memory *, const struct clawmd_memory_opts *,
		    struct clawmd_load_view *, struct clawmd_err *);
	void (*text)(struct clawmd_buf *, const struct clawmd_memory *,
		     const struct clawmd_memory_opts *);
} loaders[CLAWMD_RUNTIME_N] = {
	[CLAWMD_RUNTIME_CODEX] = {clawmd_codex_load, clawmd_codex_text},
	[CLAWMD_RUNTIME_GEMINI] = {clawmd_gemini_load, clawmd_gemini_text},
	[CLAWMD_RUNTIME_OPENCODE] = {clawmd_opencode_load, clawmd_opencode_text},
	[CLAWMD_RUNTIME_CURSOR] = {clawmd_cursor_load, clawmd_cursor_text},
	[CLAWMD_RUNTIME_COPILOT] = {clawmd_copilot_load, clawmd_copilot_text},
	[CLAWMD_RUNTIME_PI] = {clawmd_pi_load, clawmd_pi_text},
	[CLAWMD_RUNTIME_QWEN] = {clawmd_qwen_load, clawmd_qwen_text},
	[CLAWMD_RUNTIME_MOCK] = {clawmd_mock_load, clawmd_mock_text},
	[CLAWMD_RUNTIME_CALIBAN] = {clawmd_caliban_load, clawmd_caliban_text},
	[CLAWMD_RUNTIME_CHIMERA] = {clawmd_chimera_load, clawmd_chimera_text},
};

int clawmd_runtime_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
			struct clawmd_load_view *v, struct clawmd_err *err)
{
	if ((unsigned)o->runtime >= CLAWMD_RUNTIME_N || !loaders[o->runtime].load)
		return clawmd_err_set(err, CLAWMD_EINPUT, "no loader for runtime %d", (int)o->runtime);
	return loaders[o->runtime].load(out, o, v, err);
}

void clawmd_runtime_text(struct clawmd_buf *out, const struct clawmd_memory *m,
			 const struct clawmd_memory_opts *o)
{
	if ((unsigned)o->runtime < CLAWMD_RUNTIME_N && loaders[o->runtime].text)
		loaders[o->runtime].text(out, m, o);
}
