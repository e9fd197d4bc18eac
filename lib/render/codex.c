/* codex.c - what codex loads as instructions (a stub until its rules are
 * measured: doc/runtime-codex.md). */
#include "render/runtimes.h"

int clawmd_codex_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
		     struct clawmd_load_view *v, struct clawmd_err *err)
{
	(void)out, (void)o, (void)v;
	return clawmd_err_set(err, CLAWMD_EINPUT, "render for %s is not implemented yet",
			      clawmd_runtime_name(CLAWMD_RUNTIME_CODEX));
}

void clawmd_codex_text(struct clawmd_buf *out, const struct clawmd_memory *m,
		      const struct clawmd_memory_opts *o)
{
	(void)out, (void)m, (void)o;
}
