/* runtimes.c - render's dispatch to the loader of each runtime other than
 * Claude Code (runtimes.h). */
#include "render/runtimes.h"

int clawmd_runtime_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
			struct clawmd_load_view *v, struct clawmd_err *err)
{
	switch (o->runtime) {
	case CLAWMD_RUNTIME_CODEX:
		return clawmd_codex_load(out, o, v, err);
	case CLAWMD_RUNTIME_GEMINI:
		return clawmd_gemini_load(out, o, v, err);
	case CLAWMD_RUNTIME_OPENCODE:
		return clawmd_opencode_load(out, o, v, err);
	default:
		return clawmd_err_set(err, CLAWMD_EINPUT, "no loader for runtime %d", (int)o->runtime);
	}
}

void clawmd_runtime_text(struct clawmd_buf *out, const struct clawmd_memory *m,
			 const struct clawmd_memory_opts *o)
{
	switch (o->runtime) {
	case CLAWMD_RUNTIME_CODEX:
		clawmd_codex_text(out, m, o);
		break;
	case CLAWMD_RUNTIME_GEMINI:
		clawmd_gemini_text(out, m, o);
		break;
	case CLAWMD_RUNTIME_OPENCODE:
		clawmd_opencode_text(out, m, o);
		break;
	default:
		break;
	}
}
