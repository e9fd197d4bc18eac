/* clawmd/claude.h - Claude Code's own rules: its releases, its @-import syntax, its text files (part of clawmd.h, which includes every part). */
#ifndef CLAWMD_API_CLAUDE_H
#define CLAWMD_API_CLAUDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clawmd/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Claude Code releases --------------------------------------------- */

/*
 * The agents' Claude Code release decides how memory loads
 * (claude-code-memory.md section 15): releases up to 2.1.112 are JavaScript
 * builds that list .claude/rules sorted; 2.1.113 and later are native builds
 * that list them in raw readdir(3) order; 2.1.232 and later also drop an
 * import, or a rules entry, whose realpath leaves the project unless external
 * includes are approved (so symlinked fragments vanish).  The managed
 * description (2.1.136), the realpath dedup (2.1.142) and the AGENTS.md
 * fallback (2.1.281) were bisected by make e2e (tests/e2e/measured.md).
 */
struct clawmd_release {
	unsigned major, minor, patch;
};

/* The newest release whose rules clawmd knows: the default claude_version. */
extern const struct clawmd_release clawmd_release_default;
/* Parse "2.1.330" (or "latest"); EUSAGE naming claude_version otherwise. */
int clawmd_release_parse(struct clawmd_release *out, const char *text, struct clawmd_err *err);
int clawmd_release_cmp(const struct clawmd_release *a, const struct clawmd_release *b);
/* 2.1.113 and later: the native build (raw readdir order for rules). */
bool clawmd_release_native(const struct clawmd_release *r);
/* 2.1.136 and later: the managed tier has its own description,
 * "(organization-managed policy instructions)" (2.1.133 has the user one;
 * 2.1.134 and 2.1.135 were not published). */
bool clawmd_release_managed_policy(const struct clawmd_release *r);
/* 2.1.142 and later: a file whose realpath was already processed is not
 * loaded again (a second symlink to it); 2.1.141 loads it twice. */
bool clawmd_release_realpath_dedup(const struct clawmd_release *r);
/* 2.1.232 and later: imports and rules whose realpath leaves the project are
 * dropped unless external includes are approved. */
bool clawmd_release_realpath_gate(const struct clawmd_release *r);
/* 2.1.281 and later: AGENTS.md and .claude/AGENTS.md are read up the walk
 * where no CLAUDE.md applies, and the instructionFiles option is honoured
 * (its module, cc-plugin-agents-md, ships off by default up to 2.1.280). */
bool clawmd_release_agents_md(const struct clawmd_release *r);
/* 2.1.285 and later: the module's settings are under its new name,
 * pluginConfigs["cc-plugin-agents-md@builtin"] (which wins), as well as
 * under "agents-md@builtin", the only one 2.1.281 to 2.1.284 read. */
bool clawmd_release_agents_md_renamed(const struct clawmd_release *r);

/*
 * Call fn for each @-import token Claude Code would follow in `text`, in
 * document order, with the byte offset and length of the token in `text`
 * (from the '@' to the end of the raw path) and the post-processed path.
 * Return non-zero from fn to stop.  Returns 0, or fn's non-zero value.
 */
typedef int (*clawmd_import_fn)(size_t off, size_t len, const char *path, void *payload);
int clawmd_md_imports(const char *text, size_t len, clawmd_import_fn fn, void *payload);

/* True when the lower-cased extension of `path` is in Claude Code's list
 * of 107 text extensions, or when it has none. */
bool clawmd_text_extension(const char *path);

#ifdef __cplusplus
}
#endif
#endif
