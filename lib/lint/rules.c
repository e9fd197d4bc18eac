/* rules.c - the rule table: every code check reports, what it means and what to do (SARIF shows the same). */
#include "clawmd.h"
#include "lint/lint.h"
#include "base/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the rules ---------------------------------------------------------- */

/*
 * Sorted by code.  A code never changes meaning; retired codes stay listed.
 * Each rule carries what SARIF consumers (code scanning) show: a one-line
 * summary, a full description, and what to do about it.
 */
static const struct clawmd_lint_rule lint_rules[] = {
	{"CM101", "import-missing", CLAWMD_SEV_ERROR,
	 "An @ import names a file that does not exist.",
	 "An @ import in a memory file names a file that does not exist or is not a readable "
	 "regular file. For a group the path is resolved as the container sees it, through the "
	 "mount table, so a file that exists only on the host is missing too. Claude Code "
	 "silently loads nothing for it.",
	 "Create the file or fix the path. For a group, add a mount for it (\"mounts\" in "
	 "clawmd.json) when it lives outside the mounted directories."},
	{"CM102", "import-cycle", CLAWMD_SEV_WARNING,
	 "An @ import leads back to a file already being loaded.",
	 "An @ import leads back to a file that is already being loaded. Claude Code loads each "
	 "file once, so the cycle loads nothing more and only hides the order in which files "
	 "appear.",
	 "Remove one of the imports that form the cycle."},
	{"CM103", "import-too-deep", CLAWMD_SEV_ERROR,
	 "An @ import is a fifth-level import, which Claude Code does not load.",
	 "Claude Code follows @ imports at most four hops below a top-level memory file (its "
	 "MAX_INCLUDE_DEPTH is 5, counting the top-level file as 0). An import at the fifth "
	 "level is not loaded, and its own imports are not followed.",
	 "Import the file from a shallower level, at most four hops below a top-level memory "
	 "file."},
	{"CM104", "import-not-text", CLAWMD_SEV_ERROR,
	 "An @ import names a file Claude Code does not load as text.",
	 "An @ import names a file whose extension is not on Claude Code's list of text "
	 "extensions (for example .png), so it is silently skipped.",
	 "Import a text file (.md, .txt, ...) or convert the content."},
	{"CM105", "import-external-dropped", CLAWMD_SEV_ERROR,
	 "An @ import leaves the working directory and a headless Claude Code drops it.",
	 "An @ import resolves, by its path or its real path, outside the working directory. "
	 "Claude Code 2.1.232 and later drop such an import in headless runs unless external "
	 "includes were approved for the project. In clawmd's symlink mode this is every "
	 "symlinked fragment.",
	 "Compose with --mode copy (\"mode\": \"copy\" in clawmd.json) so fragments are regular "
	 "files inside the agent's directory, or approve external includes for the project and "
	 "pass --approve-external."},
	{"CM201", "file-too-large", CLAWMD_SEV_WARNING,
	 "A memory file is over 40,000 characters.",
	 "A memory file is over 40,000 characters, Claude Code's size warning threshold. Large "
	 "memory files crowd the context of every session.",
	 "Split the file, or move rarely needed parts into path-scoped rules (.claude/rules with "
	 "paths: frontmatter)."},
	{"CM202", "memory-over-budget", CLAWMD_SEV_WARNING,
	 "The memory a group loads is over the token budget.",
	 "Everything a group loads at startup is over the token budget (characters / 4; "
	 "\"token_budget\" in clawmd.json, default 20000).",
	 "Drop skills the group does not use (\"skills\" in container.json), trim CLAUDE.local.md, "
	 "or raise \"token_budget\" in clawmd.json."},
	{"CM301", "mcp-import-directive", CLAWMD_SEV_WARNING,
	 "Inline MCP instructions contain an @ directive.",
	 "Inline MCP instructions in container.json contain an @ directive that Claude Code would "
	 "import from the MCP fragment. Compose defuses it into a code span, so the model reads "
	 "the text but nothing is imported; the finding says whether the fragment on disk is "
	 "defused or still live (written before defusing, or edited since).",
	 "Drop the '@' or write the path in backticks. A live directive disappears at the next "
	 "compose."},
	{"CM302", "config-invalid", CLAWMD_SEV_ERROR,
	 "container.json is invalid.",
	 "The group's container.json is malformed or has a bad name or type. Compose refuses "
	 "the group until it is fixed.",
	 "Fix the JSON at the position given, or give the key the message names what it expects: "
	 "names match [A-Za-z0-9][A-Za-z0-9._-]{0,63}, \"skills\" is \"all\" or an array of "
	 "names, instructions are strings."},
	{"CM303", "skill-unknown", CLAWMD_SEV_WARNING,
	 "container.json selects a skill that does not exist.",
	 "container.json selects a skill that has no directory under the skills directory, so the "
	 "group gets no fragment for it.",
	 "Remove the skill from \"skills\", or add the skill's directory."},
	{"CM304", "config-unknown-key", CLAWMD_SEV_WARNING,
	 "container.json has a misspelt key, which is ignored.",
	 "A top-level key of container.json looks like a misspelling of a key clawmd reads "
	 "(skills, modules, mcpServers, cli_scope). It is ignored, so for example a misspelt \"skills\" "
	 "means every skill. Keys far from clawmd's belong to other tools and pass silently.",
	 "Spell the key as suggested."},
	{"CM305", "layout-unknown-key", CLAWMD_SEV_WARNING,
	 "clawmd.json has a key clawmd does not know, which is ignored.",
	 "A key of clawmd.json is not one clawmd knows, so it is ignored and its default stands.",
	 "Spell the key as suggested, or remove it. The keys are listed in clawmd's doc/layout.md "
	 "under \"Every key of clawmd.json\"."},
	{"CM306", "provider-unknown", CLAWMD_SEV_WARNING,
	 "container.json names a provider no contract knows.",
	 "The group's provider (or a name of its runtimes) is none of the built-in providers and "
	 "none clawmd.json's \"providers\" adds. compose gives the group the default (Claude "
	 "Code) surfaces and warns, as nanoclaw spawns an unknown provider; the agent may run in "
	 "a runtime that reads none of them.",
	 "Name a provider of doc/runtimes.md, or give this one a contract under \"providers\" "
	 "in clawmd.json."},
	{"CM307", "pin-unreadable", CLAWMD_SEV_WARNING,
	 "container/cli-tools.json, which pins the Claude Code release of nanoclaw's image, "
	 "cannot be read.",
	 "On a nanoclaw host clawmd takes the Claude Code release the agents run from the pin in "
	 "container/cli-tools.json, unless clawmd.json says one (claude_version). The file is no "
	 "JSON array of {name, version} objects, or its Claude Code version is no X.Y.Z release: "
	 "render --group fails on it, and check, status and report load each group by clawmd's "
	 "default release meanwhile, whose loading rules may not be the image's.",
	 "Mend container/cli-tools.json (nanoclaw's image build reads it too), or set "
	 "claude_version in clawmd.json."},
	{"CM308", "persona-import-directive", CLAWMD_SEV_WARNING,
	 "A persona file (*.prepend.md) contains an @ directive.",
	 "The group's standing instructions are text the agent can write. An @ directive in them "
	 "would make Claude Code (or Gemini CLI) import the file it names into the agent's "
	 "instructions. Compose defuses it, in the import layout and in the flat document alike, "
	 "so the model reads the text and nothing is imported; nanoclaw's own composer would "
	 "leave it live.",
	 "Drop the '@' or write the path in backticks."},
	{"CM401", "entry-hand-edited", CLAWMD_SEV_ERROR,
	 "A composed entry file was edited by hand.",
	 "The group's CLAUDE.md, or another runtime's entry file clawmd composes (AGENTS.md, "
	 "GEMINI.md, ...), is not clawmd's output: it was edited by hand, or is a legacy "
	 "file. The next compose moves its content into CLAUDE.local.md (or aside) and rewrites "
	 "it.",
	 "Put per-group content in CLAUDE.local.md."},
	{"CM402", "entry-stale", CLAWMD_SEV_ERROR,
	 "Compose would change the group.",
	 "Compose would change the group: it was never composed, or a source, container.json or "
	 "the layout changed since. This is what compose --check fails on.",
	 "Run clawmd compose for the group; clawmd compose --dry-run shows the diff."},
	{"CM403", "local-not-ignored", CLAWMD_SEV_WARNING,
	 "CLAUDE.local.md is not ignored by git.",
	 "The group's CLAUDE.local.md is inside a git work tree and not ignored. It holds what "
	 "the agent writes; committing it publishes that.",
	 "Add CLAUDE.local.md to .gitignore (clawmd init writes that line)."},
	{"CM404", "preserved-leftover", CLAWMD_SEV_WARNING,
	 "Content compose moved aside is waiting for review.",
	 "Compose never deletes content it did not write: a hand-edited CLAUDE.md it could not "
	 "carry into CLAUDE.local.md, or anything of the wrong type where a fragment belongs, is "
	 "renamed to NAME.clawmd-preserved-TIME-RANDOM. Such a file stays until someone looks "
	 "at it.",
	 "Review the file, keep what matters (in CLAUDE.local.md), then delete it."},
	{"CM501", "frontmatter-invalid", CLAWMD_SEV_ERROR,
	 "A rule's frontmatter does not parse.",
	 "A rule's frontmatter does not parse even after Claude Code's quoting retry, so the rule "
	 "loads unconditionally, everywhere.",
	 "Fix the YAML between the '---' lines; quote values with special characters."},
	{"CM502", "paths-no-match", CLAWMD_SEV_WARNING,
	 "A rule's paths: globs match no file.",
	 "A rule's paths: globs (gitignore semantics, relative to the directory that holds "
	 ".claude) match no file in the tree, so the rule never loads.",
	 "Fix the globs, or delete the rule if its files are gone."},
	{"CM503", "paths-too-many", CLAWMD_SEV_WARNING,
	 "A rule's paths: expand to more than 256 patterns.",
	 "A rule's paths: globs expand, through brace groups, to more than 256 patterns (26 "
	 "groups of {a,b} would be 67 million). clawmd keeps the first 256 and matches nothing "
	 "past them; Claude Code would try to expand them all.",
	 "Write fewer brace groups, or split the rule."},
	{"CM601", "runtime-entry-not-loaded", CLAWMD_SEV_ERROR,
	 "A runtime the group runs does not load clawmd's entry file.",
	 "The group runs an agent runtime (container.json's provider or runtimes) that, as it "
	 "loads instructions, does not read the entry file compose writes for it: another file "
	 "takes its place (Codex reads AGENTS.override.md instead of AGENTS.md), so the agent "
	 "starts without its shared base, skills and tools.",
	 "Remove the file that takes its place, or move what it holds into CLAUDE.local.md."},
	{"CM602", "runtime-truncated", CLAWMD_SEV_ERROR,
	 "A runtime cuts the group's instructions short.",
	 "The runtime loads at most so many bytes of instructions (Codex: project_doc_max_bytes, "
	 "32 KiB) and silently cuts the rest off, usually the agent's memory at the end.",
	 "Trim the biggest parts: compose names them."},
	{"CM603", "runtime-import-dropped", CLAWMD_SEV_ERROR,
	 "A runtime does not follow an import in the group's instructions.",
	 "The runtime follows @ imports by rules of its own (Gemini CLI: none whose realpath "
	 "leaves the working directory) and drops this one, so its text never reaches the agent.",
	 "For an import that leaves the group, compose in copy mode (every import then names a "
	 "file inside the group); for a missing file, fix the path; or remove the import."},
	{"CM604", "runtime-sections-dropped", CLAWMD_SEV_WARNING,
	 "Compose left instruction sections out to fit a runtime's cap.",
	 "The group's inlined entry would be larger than its runtime loads (Codex: 32 KiB), so "
	 "compose dropped the largest skill, module and MCP instructions, named them in a last "
	 "section, and composed the rest (the cap ladder): the group still starts, and the "
	 "dropped tools still describe themselves, but their standing rules are gone.",
	 "Trim the biggest instructions, move the agent's memory into smaller files, or raise "
	 "the provider's cap (\"providers\" in clawmd.json) if the runtime loads more."},
	{"CM605", "runtime-reads-twice", CLAWMD_SEV_WARNING,
	 "A runtime gets the group's instructions twice.",
	 "The runtime reads, by itself, a second file of the group that carries the same text "
	 "(Copilot CLI reads AGENTS.md and CLAUDE.md in one directory; Cursor reads "
	 "CLAUDE.local.md beside an AGENTS.md that inlines it for Codex): the group's other "
	 "runtimes need that file, so compose cannot leave it out.",
	 "Run the provider in a group of its own."},
	{"CM606", "runtime-part-lost", CLAWMD_SEV_ERROR,
	 "caliban or chimera does not load a part of the group that Claude Code loads.",
	 "The group runs caliban or chimera, whose loaders differ from Claude Code's "
	 "(doc/runtimes.md): caliban never reads CLAUDE.local.md and follows an @ only at the "
	 "start of a line, so a part Claude Code loads (the agent's memory, a file a fragment "
	 "imports mid-line) never reaches the agent.",
	 "Compose again in copy mode: clawmd imports the memory for caliban and puts each "
	 "import it must follow on a line of its own; in your own files, put the @ on a line "
	 "of its own."},
	{"CM607", "runtime-text-garbled", CLAWMD_SEV_WARNING,
	 "caliban garbles every character past ASCII.",
	 "caliban's comment stripper pushes each byte of a file as a character of its own, so "
	 "every character past ASCII arrives garbled (an e with an acute accent as two "
	 "characters), once more for each level of import.",
	 "Write the instructions caliban reads in ASCII."},
	{"CM608", "runtime-memory-cut", CLAWMD_SEV_ERROR,
	 "caliban cuts the group's instructions at its token budget.",
	 "caliban caps its memory prefix at 32,000 tokens, counted as characters / 4 (about "
	 "128,000 characters): past it, the project tier is cut at a line and a marker says "
	 "how many bytes went, usually the agent's memory at the end.",
	 "Trim the biggest parts."},
	{"CM609", "runtime-load-fails", CLAWMD_SEV_ERROR,
	 "The runtime's loader fails on the group's files and sends no memory at all.",
	 "chimera reads every file as strict UTF-8: one file that is not, anywhere among the "
	 "files it reads and imports, raises and no memory at all is sent. caliban panics when "
	 "its cut to its budget falls inside a character.",
	 "Save the file as UTF-8, or trim the instructions."},
	{"CM610", "runtime-import-in-code", CLAWMD_SEV_WARNING,
	 "caliban or chimera imports a file from inside code.",
	 "Claude Code leaves an @ inside a code span, a fenced or an indented block as text; "
	 "caliban follows an @ line inside any code, chimera any @ after white space: an "
	 "example path in a fence loads that file for them.",
	 "Write an example path without its @, or with a backslash before it."},
	{"CM701", "agents-md-fallback", CLAWMD_SEV_NOTE,
	 "An AGENTS.md loads because no CLAUDE.md applies.",
	 "No CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md applies at the working directory, so "
	 "Claude Code 2.1.281 and later load AGENTS.md and .claude/AGENTS.md from every directory "
	 "up the walk (above the git root too), with their @ imports, as project instructions. "
	 "Releases before 2.1.281 load none of them, so the agent's instructions depend on the "
	 "release, and a file written for another agent (Codex reads AGENTS.md) reaches Claude "
	 "too.",
	 "To load it on every release, write a CLAUDE.md that imports it (@AGENTS.md); to keep "
	 "Claude from reading it, set instructionFiles to \"claude-md\" in the user's settings "
	 "(/config)."},
	{"CM702", "agents-md-turned-off", CLAWMD_SEV_WARNING,
	 "A CLAUDE.md elsewhere on the walk keeps an AGENTS.md from loading.",
	 "Claude Code 2.1.281 and later read AGENTS.md only while no CLAUDE.md, .claude/CLAUDE.md "
	 "or CLAUDE.local.md applies, and the switch is not per directory: one such file anywhere "
	 "from the working directory up (a CLAUDE.md in a subdirectory, one above the git root, "
	 "a private CLAUDE.local.md, even one the host's setting sources leave unloaded) turns "
	 "off every AGENTS.md. This AGENTS.md has no CLAUDE.md of its own beside it and is not "
	 "imported, so its text silently never reaches the agent.",
	 "Import it from the CLAUDE.md that applies (@AGENTS.md), or set instructionFiles to "
	 "\"claude-md-and-agents-md\" in the user's settings to load both."},
};

const struct clawmd_lint_rule *clawmd_lint_rules(size_t *n)
{
	*n = CLAWMD_ARRAY_SIZE(lint_rules);
	return lint_rules;
}

const struct clawmd_lint_rule *clawmd_lint_rule(const char *code)
{
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(lint_rules); i++)
		if (!strcmp(lint_rules[i].code, code))
			return &lint_rules[i];
	return NULL;
}

const char *clawmd_severity_name(enum clawmd_severity sev)
{
	static const char *const names[] = {"note", "warning", "error"};
	return (unsigned)sev < CLAWMD_ARRAY_SIZE(names) ? names[sev] : "error";
}

const char *clawmd_drift_name(enum clawmd_drift drift)
{
	static const char *const names[] = {"clean", "would change", "hand-edited",
					    "never composed", "invalid"};
	return (unsigned)drift < CLAWMD_ARRAY_SIZE(names) ? names[drift] : "invalid";
}
