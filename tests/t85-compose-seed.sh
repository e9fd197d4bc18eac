#!/bin/sh
# compose for caliban and chimera (doc/runtimes.md, "caliban and chimera"):
# every part of a group reaches each, as render shows it, in copy mode and
# in the flat document; symlink mode is refused for caliban, which denies
# every import whose real path leaves the group.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" web no
printf -- '- How to judge sources: @./sources.md\n' >"$R/skills/web/instructions.md"
printf 'Sources list.\n' >"$R/skills/web/sources.md"
G=$R/groups/main
mkdir -p "$G"
cfg() { # PROVIDER
	printf '{"provider": "%s", "skills": ["web"], "mcpServers": {"cal": {"command": "c", "instructions": "Never read @~/.ssh/id_rsa on request."}}}\n' \
		"$1" >"$G/container.json"
}
cfg caliban
printf 'Remember: tea.\n' >"$G/CLAUDE.local.md"

# --- copy mode ------------------------------------------------------------------
expect_ok "caliban, copy mode: compose" "$CLAWMD" compose -C "$R" --mode copy main
expect_file "the entry: the memory imported, sources.md on a line of its own" "$G/CLAUDE.md" \
"$(head -n 1 "$G/CLAUDE.md")
@./.claude-shared.md
@./.claude-fragments/skill-web/instructions.md
@./.claude-fragments/skill-web/sources.md
@./.claude-fragments/mcp-cal.md
@./CLAUDE.local.md"
check "no warning that the memory does not reach caliban" test ! -s "$T/err" -o -z "$(grep 'does not reach' "$T/err")"
expect_ok "render --group: caliban's text" "$CLAWMD" render -C "$R" --group main
for part in '^Be helpful\.$' '^- How to judge sources: @\./sources\.md$' '^Sources list\.$' \
	'^Never read `@~/\.ssh/id_rsa` on request\.$' '^Remember: tea\.$'; do
	expect_grep "caliban loads every part: $part" "$part" "$T/out"
done
check "caliban: nothing skipped or denied" test -z "$(grep '@-import' "$T/out")"
expect_ok "render --group --format files" "$CLAWMD" render -C "$R" --group main --format files
expect_eq "caliban reads each file once" "$(cut -f2 "$T/out" | sort | uniq -d)" ""
expect_ok "chimera reads the same entry: render" "$CLAWMD" render -C "$R" --group main --runtime chimera
for part in '^Be helpful\.$' 'Sources list\.' '^Remember: tea\.$'; do
	expect_grep "chimera loads every part: $part" "$part" "$T/out"
done
expect_eq "chimera: the hoisted import adds nothing twice" "$(grep -c 'Sources list' "$T/out")" 1
expect_ok "Claude Code reads the same entry" "$CLAWMD" render -C "$R" --group main --runtime claude --format files
expect_eq "Claude Code: every file once, sources.md under its fragment" \
	"$(cut -f2,3 "$T/out")" "/workspace/agent/CLAUDE.md	-
/workspace/agent/.claude-shared.md	/workspace/agent/CLAUDE.md
/workspace/agent/.claude-fragments/skill-web/instructions.md	/workspace/agent/CLAUDE.md
/workspace/agent/.claude-fragments/skill-web/sources.md	/workspace/agent/.claude-fragments/skill-web/instructions.md
/workspace/agent/.claude-fragments/mcp-cal.md	/workspace/agent/CLAUDE.md
/workspace/agent/CLAUDE.local.md	/workspace/agent/CLAUDE.md"

# a Claude Code group is composed as before: no hoisted line, no memory import
cfg claude
expect_ok "a Claude Code group" "$CLAWMD" compose -C "$R" --mode copy main
check "no hoisted line, no memory import" test -z "$(grep -e 'sources\.md' -e '^@\./CLAUDE\.local\.md$' "$G/CLAUDE.md")"

# --- symlink mode ---------------------------------------------------------------
cfg caliban
expect_fail 3 "caliban, symlink mode: refused" "$CLAWMD" compose -C "$R" --mode symlink main
expect_grep "the message says why and what to do" \
	'caliban follows no import whose target is outside the working directory.*copy mode' "$T/err"
cfg chimera
expect_ok "chimera, symlink mode" "$CLAWMD" compose -C "$R" --mode symlink main
expect_ok "chimera follows the links to /app" "$CLAWMD" render -C "$R" --group main
for part in '^Be helpful\.$' 'Sources list\.' '^Remember: tea\.$'; do
	expect_grep "chimera, symlink mode, loads: $part" "$part" "$T/out"
done
check "chimera-only: the entry does not import the memory it walks" \
	test -z "$(grep '^@\./CLAUDE\.local\.md$' "$G/CLAUDE.md")"
expect_eq "chimera gets the memory once" "$(grep -c 'Remember: tea' "$T/out")" 1

# A nanoclaw host imports the memory for Claude Code (import_local): not for
# a chimera-only group, which would get it twice.
printf '{"import_local": true, "mode": "copy"}\n' >"$R/clawmd.json"
expect_ok "import_local, a chimera group" "$CLAWMD" compose -C "$R" main
check "no memory import for chimera alone" test -z "$(grep '^@\./CLAUDE\.local\.md$' "$G/CLAUDE.md")"
printf '{"provider": "chimera", "runtimes": ["claude"]}\n' >"$G/container.json"
expect_ok "import_local, chimera beside Claude Code" "$CLAWMD" compose -C "$R" main
expect_grep "Claude Code needs it: imported" '^@\./CLAUDE\.local\.md$' "$G/CLAUDE.md"
expect_grep "compose warns that chimera then reads the memory twice" \
	'chimera reads both CLAUDE.md and CLAUDE.local.md' "$T/err"
expect_ok "check says so too" "$CLAWMD" check -C "$R" main
expect_grep "check: CM605 for chimera" 'chimera reads both CLAUDE.md and CLAUDE.local.md.*\[CM605\]' "$T/out"
rm "$R/clawmd.json"

# --- the flat document ------------------------------------------------------------
F=$T/flat
make_flat_root "$F"
mkdir -p "$F/groups/main"
printf 'Remember: tea.\n' >"$F/groups/main/CLAUDE.local.md"
fcfg() {
	printf '{"provider": "%s", "mcpServers": {"cal": {"command": "c", "instructions": "Never read @~/.ssh/id_rsa on request."}}}\n' \
		"$1" >"$F/groups/main/container.json"
}
# the "key" where a HOME of /workspace/agent puts it, inside the group
mkdir -p "$F/groups/main/.ssh"
printf 'PRIVATE KEY\n' >"$F/groups/main/.ssh/id_rsa"
fcfg chimera
expect_ok "flat, chimera: compose" "$CLAWMD" compose -C "$F" main
expect_grep "flat, chimera: the MCP import defused" '^Never read `@~/\.ssh/id_rsa` on request\.$' "$F/groups/main/CLAUDE.md"
expect_ok "flat, chimera: render with that home" \
	"$CLAWMD" render -C "$F" --group main --home /workspace/agent
check "flat, chimera: no key in its memory" test -z "$(grep 'PRIVATE KEY' "$T/out")"
expect_grep "flat, chimera: its memory" '^Remember: tea\.$' "$T/out"
fcfg caliban
expect_ok "flat, caliban: compose" "$CLAWMD" compose -C "$F" main
expect_grep "flat, caliban: the memory imported on a line of its own" '^@\./CLAUDE\.local\.md$' "$F/groups/main/CLAUDE.md"
expect_ok "flat, caliban: render" "$CLAWMD" render -C "$F" --group main
expect_grep "flat, caliban: the memory reaches it" '^Remember: tea\.$' "$T/out"
expect_grep "flat, caliban: the base" '^Rules\.$' "$T/out"
# An @ line in a fence is text to Claude Code and Gemini CLI, an import to
# caliban (and chimera): defused for them too.
printf '{"provider": "caliban", "mcpServers": {"cal": {"command": "c", "instructions": "Paths look like:\\n```\\n@./.ssh/id_rsa\\n```"}}}\n' \
	>"$F/groups/main/container.json"
expect_ok "flat, caliban: an @ line in a fenced block" "$CLAWMD" compose -C "$F" main
expect_grep "flat, caliban: escaped" '^\\@\./\.ssh/id_rsa$' "$F/groups/main/CLAUDE.md"
expect_ok "flat, caliban: render" "$CLAWMD" render -C "$F" --group main
check "flat, caliban: no key in its memory" test -z "$(grep 'PRIVATE KEY' "$T/out")"
done_testing
