/* runtime.c - the table of agent runtimes: names and entry files (see
 * clawmd/runtime.h; each runtime's loading rules are render/<name>.c). */
#include "clawmd.h"
#include "base/util.h"

#include <strings.h>

/* Each row as measured against the runtime's CLI (doc/runtime-*.md). */
static const struct {
	const char *name, *title;
	const char *entry;
	bool imports; /* follows @ imports from its entry file */
	bool inside;  /* ... only to files whose realpath is beneath the
			 working directory (or its git root) */
	size_t limit; /* bytes of the entry file it loads; 0: no limit */
} runtimes[CLAWMD_RUNTIME_N] = {
	[CLAWMD_RUNTIME_CLAUDE] = {"claude", "Claude Code", CLAWMD_ENTRY_NAME, true, false, 0},
	/* project_doc_max_bytes, 32 KiB by default */
	[CLAWMD_RUNTIME_CODEX] = {"codex", "Codex", "AGENTS.md", false, false, 32768},
	/* an import leaving the directory is "Path traversal attempt" */
	[CLAWMD_RUNTIME_GEMINI] = {"gemini", "Gemini CLI", "GEMINI.md", true, true, 0},
	[CLAWMD_RUNTIME_OPENCODE] = {"opencode", "OpenCode", "AGENTS.md", false, false, 0},
};

const char *clawmd_runtime_name(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N ? runtimes[rt].name : "?";
}

const char *clawmd_runtime_title(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N ? runtimes[rt].title : "?";
}

const char *clawmd_runtime_entry(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N ? runtimes[rt].entry : NULL;
}

bool clawmd_runtime_imports(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N && runtimes[rt].imports;
}

bool clawmd_runtime_imports_inside(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N && runtimes[rt].inside;
}

size_t clawmd_runtime_limit(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N ? runtimes[rt].limit : 0;
}

bool clawmd_runtime_entry_name(const char *name)
{
	for (int i = 0; i < CLAWMD_RUNTIME_N; i++)
		if (!strcmp(name, runtimes[i].entry))
			return true;
	return false;
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
