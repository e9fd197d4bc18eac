/* runtime.c - the built-in contracts of the agent runtimes (nanoclaw's
 * providers): what each reads, where, how much (clawmd/runtime.h).  How
 * each one loads, in detail, is render/<name>.c; where each fact was
 * measured or read is doc/runtimes.md. */
#include "clawmd.h"
#include "base/util.h"

#include <strings.h>

#define GROUP_CT "/workspace/agent/"
#define FOUR_MIB (4u * 1024 * 1024)

/*
 * Each row as measured against the runtime's own CLI or SDK
 * (doc/runtime-*.md; pi, Copilot, Cursor and Qwen Code: doc/runtimes.md
 * from the measured runs), with nanoclaw's contract where it has one
 * (nanocoai/nanoclaw src/provider-contracts/<name>.ts).
 */
static const struct clawmd_contract contracts[CLAWMD_RUNTIME_N] = {
	/* Loads a CLAUDE.md of up to 4 MiB whole and skips a larger one;
	 * CLAUDE.local.md by itself when the "local" setting source is on. */
	[CLAWMD_RUNTIME_CLAUDE] = {
		.rt = CLAWMD_RUNTIME_CLAUDE,
		.name = "claude", .title = "Claude Code", .entry = "CLAUDE.md",
		.container_path = GROUP_CT "CLAUDE.md", .cap = FOUR_MIB, .imports = true,
		.reads = "CLAUDE.local.md", .like = CLAWMD_RUNTIME_CLAUDE,
		.source = "measured (doc/render.md); nanoclaw src/provider-contracts/claude.ts"},
	/* project_doc_max_bytes, 32 KiB by default (and in nanoclaw's
	 * container config.toml); AGENTS.override.md takes AGENTS.md's place. */
	[CLAWMD_RUNTIME_CODEX] = {
		.rt = CLAWMD_RUNTIME_CODEX,
		.name = "codex", .title = "Codex", .entry = "AGENTS.md",
		.container_path = GROUP_CT "AGENTS.md", .cap = 32768,
		.overrides = "AGENTS.local.md,AGENTS.override.md", .reads = "AGENTS.override.md",
		.skills_discovery = GROUP_CT ".agents/skills", .skills_source = "/app/skills",
		.skills_home = "~/.codex/skills", .skills_roots = "~/.codex,~/.agents",
		.skills_inlined = true, .like = CLAWMD_RUNTIME_CODEX,
		.source = "measured (doc/runtime-codex.md); nanoclaw src/provider-contracts/codex.ts"},
	/* An import leaving the directory is "Path traversal attempt". */
	[CLAWMD_RUNTIME_GEMINI] = {
		.rt = CLAWMD_RUNTIME_GEMINI,
		.name = "gemini", .title = "Gemini CLI", .entry = "GEMINI.md",
		.container_path = GROUP_CT "GEMINI.md", .imports = true, .inside = true,
		.like = CLAWMD_RUNTIME_GEMINI,
		.source = "measured (doc/runtime-gemini.md); no nanoclaw contract"},
	[CLAWMD_RUNTIME_OPENCODE] = {
		.rt = CLAWMD_RUNTIME_OPENCODE,
		.name = "opencode", .title = "OpenCode", .entry = "AGENTS.md",
		.container_path = GROUP_CT "AGENTS.md", .like = CLAWMD_RUNTIME_OPENCODE,
		.source = "measured (doc/runtime-opencode.md); nanoclaw src/provider-contracts/opencode.ts"},
	/* @cursor/sdk 1.0.32: .cursorrules, AGENTS.md, CLAUDE.md and
	 * CLAUDE.local.md, all as plain text (no import expanded client-side),
	 * only when settingSources includes "project"; nanoclaw's contract
	 * (pull request 3356) writes AGENTS.md and names the other three as
	 * override files. */
	[CLAWMD_RUNTIME_CURSOR] = {
		.rt = CLAWMD_RUNTIME_CURSOR,
		.name = "cursor", .title = "Cursor", .entry = "AGENTS.md",
		.container_path = GROUP_CT "AGENTS.md",
		.overrides = ".cursorrules,CLAUDE.md,CLAUDE.local.md",
		.reads = ".cursorrules,CLAUDE.md,CLAUDE.local.md,.claude/CLAUDE.md",
		.skills_discovery = GROUP_CT ".cursor/skills", .skills_source = "/app/skills",
		.skills_home = "~/.cursor/skills", .skills_roots = "~/.cursor",
		.skills_inlined = true, .like = CLAWMD_RUNTIME_CURSOR,
		.source = "client measured (@cursor/sdk 1.0.32; the model's prompt is built on "
			  "Cursor's servers); nanoclaw src/provider-contracts/cursor.ts"},
	/* @github/copilot 1.0.102: AGENTS.md and CLAUDE.md, each with its
	 * imports inside the git root (no git: the working directory), and
	 * GEMINI.md without; not CLAUDE.local.md.  nanoclaw gives it Claude's
	 * surfaces. */
	[CLAWMD_RUNTIME_COPILOT] = {
		.rt = CLAWMD_RUNTIME_COPILOT,
		.name = "copilot", .title = "Copilot CLI", .entry = "CLAUDE.md",
		.container_path = GROUP_CT "CLAUDE.md", .cap = FOUR_MIB, .imports = true,
		.inside = true, .reads = "AGENTS.md,GEMINI.md", .like = CLAWMD_RUNTIME_COPILOT,
		.source = "measured (@github/copilot 1.0.102); nanoclaw add-copilot contract"},
	/* Claude Code pointed at an Ollama endpoint: Claude's surfaces. */
	[CLAWMD_RUNTIME_OLLAMA] = {
		.rt = CLAWMD_RUNTIME_OLLAMA,
		.name = "ollama", .title = "Ollama (Claude Code)", .entry = "CLAUDE.md",
		.container_path = GROUP_CT "CLAUDE.md", .cap = FOUR_MIB, .imports = true,
		.reads = "CLAUDE.local.md", .like = CLAWMD_RUNTIME_CLAUDE,
		.source = "nanoclaw src/provider-contracts/ollama.ts (Claude surfaces verbatim)"},
	/* @earendil-works/pi-coding-agent 1.6.0 (as 1.5.2; its loader did not
	 * change): in each directory the first of AGENTS.override.md,
	 * AGENTS.md, CLAUDE.md; no import expanded, no cap; a nested linked
	 * worktree's file shadows the main checkout's of the same name.  No
	 * nanoclaw contract yet (pull request 3857). */
	[CLAWMD_RUNTIME_PI] = {
		.rt = CLAWMD_RUNTIME_PI,
		.name = "pi", .title = "pi", .entry = "AGENTS.md",
		.container_path = GROUP_CT "AGENTS.md", .overrides = "AGENTS.override.md",
		.reads = "AGENTS.override.md", .like = CLAWMD_RUNTIME_PI,
		.source = "measured (@earendil-works/pi-coding-agent 1.6.0); nanoclaw pull request 3857"},
	/* @qwen-code/qwen-code 0.24.4: QWEN.md then AGENTS.md, imports
	 * expanded in place but none leaving the git root (no git: the
	 * working directory). */
	[CLAWMD_RUNTIME_QWEN] = {
		.rt = CLAWMD_RUNTIME_QWEN,
		.name = "qwen", .title = "Qwen Code", .entry = "QWEN.md",
		.container_path = GROUP_CT "QWEN.md", .imports = true, .inside = true,
		.reads = "AGENTS.md", .like = CLAWMD_RUNTIME_QWEN,
		.source = "measured (@qwen-code/qwen-code 0.24.4); no nanoclaw contract"},
	[CLAWMD_RUNTIME_MOCK] = {
		.rt = CLAWMD_RUNTIME_MOCK,
		.name = "mock", .title = "mock (reads no instructions)", .like = CLAWMD_RUNTIME_MOCK,
		.source = "nanoclaw's test provider"},
	/* caliban-memory (caliban-ai/caliban f33a2d05): .caliban.md, CLAUDE.md,
	 * AGENTS.md up to the git root; never CLAUDE.local.md, so the memory
	 * reaches it by an @ line of the entry (compose).  It follows an @ only
	 * at the start of a line, denies every import outside the walk's root,
	 * and cuts its prefix at 32,000 tokens (about 128,000 characters). */
	[CLAWMD_RUNTIME_CALIBAN] = {
		.rt = CLAWMD_RUNTIME_CALIBAN,
		.name = "caliban", .title = "caliban", .entry = "CLAUDE.md",
		.container_path = GROUP_CT "CLAUDE.md", .imports = true,
		.inside = true, .reads = "AGENTS.md,.caliban.md", .like = CLAWMD_RUNTIME_CALIBAN,
		.source = "measured (caliban-ai/caliban f33a2d05, crate caliban-memory; "
			  "doc/runtimes.md); no nanoclaw contract"},
	/* chimera's mink loader (0bserver07/chimera 040a307f,
	 * chimera/context/agent_memory.py): CLAUDE.md, CLAUDE.local.md and
	 * .claude/CLAUDE.md from / down, ~/.claude/CLAUDE.md, the nearest
	 * .claude/rules; every @ token that follows white space is inlined,
	 * from any directory. */
	[CLAWMD_RUNTIME_CHIMERA] = {
		.rt = CLAWMD_RUNTIME_CHIMERA,
		.name = "chimera", .title = "chimera", .entry = "CLAUDE.md",
		.container_path = GROUP_CT "CLAUDE.md", .imports = true,
		.reads = "CLAUDE.local.md", .like = CLAWMD_RUNTIME_CHIMERA,
		.source = "measured (0bserver07/chimera 040a307f, chimera/context/agent_memory.py; "
			  "doc/runtimes.md); no nanoclaw contract"},
};

const struct clawmd_contract *clawmd_runtime_contract(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N ? &contracts[rt] : NULL;
}

const struct clawmd_contract *clawmd_runtime_find(const char *name)
{
	for (int i = 0; i < CLAWMD_RUNTIME_N; i++)
		if (!strcasecmp(name, contracts[i].name))
			return &contracts[i];
	return NULL;
}

const char *clawmd_runtime_name(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N ? contracts[rt].name : "?";
}

const char *clawmd_runtime_title(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N ? contracts[rt].title : "?";
}

const char *clawmd_runtime_entry(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N ? contracts[rt].entry : NULL;
}

const char *clawmd_runtime_container_path(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N ? contracts[rt].container_path : NULL;
}

bool clawmd_runtime_imports(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N && contracts[rt].imports;
}

bool clawmd_runtime_imports_inside(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N && contracts[rt].inside;
}

size_t clawmd_runtime_limit(enum clawmd_runtime rt)
{
	return (unsigned)rt < CLAWMD_RUNTIME_N ? contracts[rt].cap : 0;
}

/* Codex's cap is its own setting (project_doc_max_bytes, which a
 * spec's maxBytes mirrors), past which it cuts the end; any other
 * runtime's limit is fixed (Claude Code skips a CLAUDE.md past 4 MiB
 * whole), and a smaller cap given for it is the host's budget. */
size_t clawmd_contract_load_limit(const struct clawmd_contract *c)
{
	return c->like == CLAWMD_RUNTIME_CODEX ? c->cap : clawmd_runtime_limit(c->like);
}

bool clawmd_runtime_entry_name(const char *name)
{
	for (int i = 0; i < CLAWMD_RUNTIME_N; i++)
		if (contracts[i].entry && !strcmp(name, contracts[i].entry))
			return true;
	return false;
}

int clawmd_runtime_parse(enum clawmd_runtime *out, const char *name)
{
	const struct clawmd_contract *c = clawmd_runtime_find(name);
	if (!c)
		return -1;
	*out = (enum clawmd_runtime)(c - contracts);
	return 0;
}

const char *clawmd_runtime_suggest(const char *name)
{
	const char *names[CLAWMD_RUNTIME_N];
	for (int i = 0; i < CLAWMD_RUNTIME_N; i++)
		names[i] = contracts[i].name;
	return clawmd_spell_nearest(name, names, CLAWMD_RUNTIME_N);
}

bool clawmd_runtime_list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && !strncmp(p, name, n))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}
