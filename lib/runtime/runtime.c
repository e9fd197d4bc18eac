/* runtime.c - the table of agent runtimes: names and entry files (see
 * clawmd/runtime.h; each runtime's loading rules are render/<name>.c). */
#include "clawmd.h"
#include "base/util.h"

#include <strings.h>

static const struct {
	const char *name;
	const char *entry;
} runtimes[CLAWMD_RUNTIME_N] = {
	[CLAWMD_RUNTIME_CLAUDE] = {"claude", CLAWMD_ENTRY_NAME},
	[CLAWMD_RUNTIME_CODEX] = {"codex", "AGENTS.md"},
	[CLAWMD_RUNTIME_GEMINI] = {"gemini", "GEMINI.md"},
	[CLAWMD_RUNTIME_OPENCODE] = {"opencode", "AGENTS.md"},
};

const char *clawmd_runtime_name(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N ? runtimes[rt].name : "?";
}

const char *clawmd_runtime_entry(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N ? runtimes[rt].entry : NULL;
}

int clawmd_runtime_parse(enum clawmd_runtime *out, const char *name)
{
	for (int i = 0; i < CLAWMD_RUNTIME_N; i++)
		if (!strcasecmp(name, runtimes[i].name)) {
			*out = (enum clawmd_runtime)i;
			return 0;
		}
	return -1;
}

const char *clawmd_runtime_suggest(const char *name)
{
	const char *names[CLAWMD_RUNTIME_N];
	for (int i = 0; i < CLAWMD_RUNTIME_N; i++)
		names[i] = runtimes[i].name;
	return clawmd_spell_nearest(name, names, CLAWMD_RUNTIME_N);
}
