#!/bin/sh
# The flat document ("document": "flat"): each provider's entry as one
# document, as nanoclaw's composer writes it since its pull request 3536.
# The cases of nanoclaw's own composer tests, restated; the exact bytes of
# a small tree (checked against a transcription of that composer on
# generated trees, doc/compose.md); what clawmd adds: its own record of
# what it wrote (a hand edit goes aside), going between the layouts
# removing only what clawmd or nanoclaw wrote, tolerance of what the agent
# writes.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
G=$R/groups/main
M=$R/container/agent-runner/src/mcp-tools
mkdir -p "$G/memory" "$M" "$R/container/skills/welcome" "$R/container/skills/web"
printf '# Base\n\nRules.\n\n## Memory\n\nKeep notes in memory/.\n\n{{provider-memory-note}}\n\nDone.\n' >"$R/container/CLAUDE.md"
for m in agents cli core scheduling; do printf 'Module %s text.\n' "$m" >"$M/$m.instructions.md"; done
printf 'not instructions\n' >"$M/core.ts"
printf '  Welcome prose.\n\n' >"$R/container/skills/welcome/instructions.md"
printf 'Web prose.\n' >"$R/container/skills/web/instructions.md"
printf -- '---\nname: web\n---\nload on demand\n' >"$R/container/skills/web/SKILL.md"
printf '{"preset": "nanoclaw", "document": "flat"}\n' >"$R/clawmd.json"
printf '{"mcpServers": {"tooling": {"command": "t", "instructions": "Use tooling."}}}\n' >"$G/container.json"
printf 'Agent notes: SECRET-MEMORY\n' >"$G/memory/index.md"
printf 'SECRET-LOCAL\n' >"$G/CLAUDE.local.md"
D=$G/CLAUDE.md
c() { $CLAWMD compose -C "$R" main >"$T/out" 2>"$T/err"; }

expect_ok "compose a flat CLAUDE.md" $CLAWMD compose -C "$R" main
expect_eq "no line is an @ import" "$(grep -c '^@' "$D")" 0
check "no .claude-fragments, no .claude-shared.md" sh -c "test ! -e '$G/.claude-fragments' && test ! -e '$G/.claude-shared.md'"
expect_grep "the base is inlined" '^Keep notes in memory/\.$' "$D"
expect_grep "the placeholder paragraph is gone without a trace (no facts)" '^Done\.$' "$D"
check "no placeholder left" sh -c "! grep -q 'provider-memory-note' '$D'"
expect_grep "module instructions are inlined" '^Module core text\.$' "$D"
expect_grep "skill prose is inlined, trimmed" '^Welcome prose\.$' "$D"
check "SKILL.md is not inlined" sh -c "! grep -q 'load on demand' '$D'"
expect_grep "MCP instructions from the config" '^# MCP Server: tooling$' "$D"
expect_eq "the first line is the composed-at-spawn marker" "$(head -n1 "$D")" \
	"<!-- Composed at spawn - do not edit. Standing instructions: instructions.prepend.md. Memory: memory/. -->"
check "no heading repeats the marker" sh -c "! grep -q '^# Composed at spawn' '$D'"
check "the agent's memory files are never read" sh -c "! grep -q 'SECRET' '$D'"
expect_eq "only the entry and the agent's own files in the group" "$(ls -A "$G" | tr '\n' ' ')" \
	"CLAUDE.local.md CLAUDE.md container.json memory "

# The exact bytes, section order and separators (nanoclaw's composer
# gives the same on this tree).
expect_file "the whole document" "$D" "<!-- Composed at spawn - do not edit. Standing instructions: instructions.prepend.md. Memory: memory/. -->

# NanoClaw Runtime Contract

# Base

Rules.

## Memory

Keep notes in memory/.

Done.

# NanoClaw Module: agents

Module agents text.

# NanoClaw Module: cli

Module cli text.

# NanoClaw Module: core

Module core text.

# NanoClaw Module: scheduling

Module scheduling text.

# NanoClaw Skill: web

Web prose.

# NanoClaw Skill: welcome

Welcome prose.

# MCP Server: tooling

Use tooling."

# The persona leads, and a compose after it changed rewrites it.
printf '\n  Be terse.  \n' >"$G/instructions.prepend.md"
c
expect_eq "# Persona comes first, trimmed" "$(sed -n '3,5p' "$D")" "# Persona

Be terse."
expect_eq "# Persona before the contract" "$(grep -n '^# ' "$D" | head -n2 | cut -d: -f2 | tr '\n' '|')" \
	"# Persona|# NanoClaw Runtime Contract|"
printf 'Be verbose.\n' >"$G/instructions.prepend.md"
c
expect_grep "a second compose takes the new persona" '^Be verbose\.$' "$D"
rm "$G/instructions.prepend.md"
c
check "no persona: no # Persona" sh -c "! grep -q '^# Persona' '$D'"
ln -s /etc/passwd "$G/instructions.prepend.md"
expect_ok "a symlinked persona composes" $CLAWMD compose -C "$R" main
check "it is not followed" sh -c "! grep -q '^root:' '$D'"
expect_grep "a warning says it was left out" "instructions.prepend.md: could not read the standing instructions" "$T/err"
rm "$G/instructions.prepend.md"

# Skill selection: a list keeps only its skills (modules stay); a corrupt
# one widens to every skill with a warning, never a substring match.
printf '{"skills": ["welcome"]}\n' >"$G/container.json"
c
check "['welcome']: no other skill" sh -c "! grep -q '^# NanoClaw Skill: web' '$D'"
expect_grep "['welcome']: its skill" '^# NanoClaw Skill: welcome$' "$D"
expect_grep "['welcome']: the modules stay" '^# NanoClaw Module: core$' "$D"
for bad in 'null' '7' '{"welcome": true}' '"welcome"' '["welcome", 3]'; do
	printf '{"skills": %s}\n' "$bad" >"$G/container.json"
	expect_ok "skills $bad: composes" $CLAWMD compose -C "$R" main
	expect_grep "skills $bad: a warning names the skill selection" "skill selection is not \"all\" or a list of names; inlining every skill" "$T/err"
	check "skills $bad: every skill" sh -c "grep -q '^# NanoClaw Skill: web' '$D' && grep -q '^# NanoClaw Skill: welcome' '$D'"
done
printf '{"skills": ["wel"]}\n' >"$G/container.json"
c
check "no substring match" sh -c "! grep -q '^# NanoClaw Skill:' '$D'"

# cli_scope: disabled drops cli and scheduling, keeps core.
printf '{}\n' >"$G/container.json"
c
check "default: cli and scheduling" sh -c "grep -q '^# NanoClaw Module: cli' '$D' && grep -q '^# NanoClaw Module: scheduling' '$D'"
printf '{"cli_scope": "disabled"}\n' >"$G/container.json"
c
check "disabled: neither cli nor scheduling" sh -c "! grep -q '^# NanoClaw Module: \\(cli\\|scheduling\\)$' '$D'"
expect_grep "disabled: core stays" '^# NanoClaw Module: core$' "$D"

# An invalid MCP server is dropped with a warning; the others stay, in
# JavaScript's key order (indexes first).
printf '{"mcpServers": {"z": {"command": "z", "instructions": "Zed."}, "10": {"command": "a", "instructions": "Ten."}, "2": {"command": "b", "instructions": "Two."}, "bad name": {"command": "c", "instructions": "Bad."}, "web": {"url": "http://example.com", "instructions": "Plain http."}, "n": 7}}\n' >"$G/container.json"
expect_ok "invalid MCP servers: composes" $CLAWMD compose -C "$R" main
expect_eq "the valid servers, indexes first" "$(grep '^# MCP Server' "$D" | tr '\n' '|')" \
	"# MCP Server: 2|# MCP Server: 10|# MCP Server: z|"
expect_grep "a warning names each invalid one" "mcpServers.bad name: dropping an invalid MCP server" "$T/err"
expect_grep "plain http to a host not local" "mcpServers.web: dropping an invalid MCP server \\(url must use HTTPS\\)" "$T/err"
printf '{"mcpServers": [1]}\n' >"$G/container.json"
expect_ok "mcpServers not an object: composes" $CLAWMD compose -C "$R" main
printf '{not json\n' >"$G/container.json"
expect_ok "a container.json that is not JSON: composes" $CLAWMD compose -C "$R" main
expect_grep "with a warning" "container.json: not a JSON object; composed with every default" "$T/err"
printf '{}\n' >"$G/container.json"

# Codex: AGENTS.md with its facts (memory note, native skills), in order.
printf '{"provider": "codex"}\n' >"$G/container.json"
expect_ok "a codex group" $CLAWMD compose -C "$R" main
A=$G/AGENTS.md
check "CLAUDE.md (clawmd's, unedited) is gone: Codex reads AGENTS.md" test ! -e "$D"
expect_grep "the memory note from the contract" '^Do not use `AGENTS.local.md` or `AGENTS.override.md` for memory\.$' "$A"
expect_grep "the discovery path" 'skills at `/workspace/agent/.agents/skills`\.$' "$A"
expect_grep "the agent's own skills" '`~/.codex/skills/<name>/SKILL.md`' "$A"
expect_grep "rule-bearing skills inlined" 'arrive inlined as `NanoClaw Skill:` sections of this document\.$' "$A"
expect_eq "Contract < Native Runtime Skills < Module: agents" "$(grep '^# \(NanoClaw\|Native\)' "$A" | head -n3 | tr '\n' '|')" \
	"# NanoClaw Runtime Contract|# Native Runtime Skills|# NanoClaw Module: agents|"
mv "$R/container/CLAUDE.md" "$R/container/CLAUDE.md.off"
expect_ok "without the base: composes" $CLAWMD compose -C "$R" main
check "no contract section" sh -c "! grep -q '^# NanoClaw Runtime Contract' '$A'"
expect_grep "the modules are there" '^# NanoClaw Module: core$' "$A"
expect_grep "a warning names the file" "groups/main/AGENTS.md: composed without its base document" "$T/err"
mv "$R/container/CLAUDE.md.off" "$R/container/CLAUDE.md"

# The cap ladder: 4 x 9000 bytes of MCP instructions under 24 KiB.
awk 'BEGIN { printf "{\"provider\": \"capped\", \"mcpServers\": {"; for (i = 0; i < 4; i++) { printf "%s\"bloated%d\": {\"command\": \"c\", \"instructions\": \"", i ? ", " : "", i; for (k = 0; k < 900; k++) printf "0123456789"; printf "\"}" } print "}}" }' >"$G/container.json"
printf 'Be terse.\n' >"$G/instructions.prepend.md"
printf '{"preset": "nanoclaw", "document": "flat", "providers": {"capped": {"like": "claude", "cap": 24576}}}\n' >"$R/clawmd.json"
expect_ok "past its cap: composes (exit 0)" $CLAWMD compose -C "$R" main
check "within 24576 bytes" test "$(wc -c <"$D")" -le 24576
expect_grep "the note, last" '^# Omitted for size$' "$D"
expect_eq "the note is the last section" "$(grep '^# ' "$D" | tail -n1)" "# Omitted for size"
expect_grep "it names what went, in drop order" '^These instruction sections were omitted to fit the project-document size cap: MCP Server: bloated0, MCP Server: bloated1\. Their tools still work; consult each tool.s own description\.$' "$D"
check "persona and contract kept" sh -c "grep -q '^# Persona' '$D' && grep -q '^# NanoClaw Runtime Contract' '$D'"
expect_grep "a warning says what was dropped" "groups/main/CLAUDE.md: [0-9]* bytes against its cap of 24576: dropped the largest instruction sections: MCP Server: bloated0, MCP Server: bloated1" "$T/err"
$CLAWMD check -C "$R" main >"$T/chk" 2>&1
awk 'BEGIN { for (i = 0; i < 4000; i++) printf "persona text "; print "" }' >"$G/instructions.prepend.md"
printf '{"provider": "capped"}\n' >"$G/container.json"
printf '{"preset": "nanoclaw", "document": "flat", "providers": {"capped": {"like": "claude", "cap": 20480}}}\n' >"$R/clawmd.json"
# A cap below what the runtime loads is a budget: past it with nothing
# left to drop, the document is written whole and said, as nanoclaw
# writes it (Claude Code loads up to 4 MiB); a cap the runtime itself
# applies (Codex's project_doc_max_bytes) cuts the persona to fit.
expect_ok "a 52 kB persona under a budget of 20 KiB: composes" $CLAWMD compose -C "$R" main
check "like claude: written whole, past the budget" test "$(wc -c <"$D")" -gt 52000
check "like claude: nothing cut" sh -c "! grep -q 'bytes of this section were cut' '$D'"
expect_grep "like claude: a warning says it is past the budget" "groups/main/CLAUDE.md: [0-9]* bytes with nothing left to drop, past its cap of 20480: written whole" "$T/err"
$CLAWMD check -C "$R" main >"$T/chk" 2>&1
expect_grep "like claude: check names what was dropped (CM604)" "left out to fit the size its runtime loads: .*\[CM604\]" "$T/chk"
check "like claude: and claims no cut Claude Code does not make (CM602)" sh -c "! grep -q CM602 '$T/chk'"
printf '{"preset": "nanoclaw", "document": "flat", "providers": {"capped": {"like": "codex", "cap": 20480, "entry": "CLAUDE.md", "container_path": "/workspace/agent/CLAUDE.md"}}}\n' >"$R/clawmd.json"
expect_ok "like codex, the same persona: composes" $CLAWMD compose -C "$R" main
check "like codex: the persona cut to what Codex loads" test "$(wc -c <"$D")" -le 20480
check "like codex: not a dark group, the contract kept" grep -q '^# NanoClaw Runtime Contract' "$D"
expect_grep "like codex: a warning says what was cut" "past its cap of 20480 with nothing left to drop: cut the last [0-9]* of the 51999 bytes of 'Persona'" "$T/err"
python3 -c 'print("persona line\n" * 340000)' >"$G/instructions.prepend.md"
printf '{"preset": "nanoclaw", "document": "flat", "providers": {"capped": {"like": "claude", "cap": 20480}}}\n' >"$R/clawmd.json"
expect_ok "like claude, a 4.4 MB persona under a budget of 20 KiB: composes" $CLAWMD compose -C "$R" main
check "like claude: cut to the 4 MiB Claude Code loads, not to the budget" sh -c "n=\$(wc -c <'$D'); [ \$n -le 4194304 ] && [ \$n -gt 4000000 ]"
expect_grep "like claude: the warning names the load limit" "past its cap of 4194304 with nothing left to drop: cut the last [0-9]* of the [0-9]* bytes of 'Persona'" "$T/err"
check "like claude: one warning for the size, not two" test "$(grep -c 'written whole' "$T/err")" = 0
awk 'BEGIN { for (i = 0; i < 4000; i++) printf "persona text "; print "" }' >"$G/instructions.prepend.md"
printf '{"preset": "nanoclaw", "document": "flat", "providers": {"capped": {"like": "claude", "cap": 0}}}\n' >"$R/clawmd.json"
expect_ok "no cap: composes" $CLAWMD compose -C "$R" main
check "no cap: past 32 KiB" test "$(wc -c <"$D")" -gt 32768
check "no cap: no note" sh -c "! grep -q '^# Omitted for size' '$D'"
expect_eq "no cap: no warning" "$(cat "$T/err")" ""
n=$(wc -c <"$D")
printf '{"preset": "nanoclaw", "document": "flat", "providers": {"capped": {"like": "claude", "cap": %d}}}\n' $((n + n / 20)) >"$R/clawmd.json"
expect_ok "a cap of 1.05 x the size: composes" $CLAWMD compose -C "$R" main
expect_grep "near the cap: a warning" "groups/main/CLAUDE.md: [0-9]* bytes, near its cap of" "$T/err"
check "nothing dropped" sh -c "! grep -q '^# Omitted for size' '$D'"
rm "$G/instructions.prepend.md"
printf '{"preset": "nanoclaw", "document": "flat"}\n' >"$R/clawmd.json"
printf '{}\n' >"$G/container.json"

# The install tree may be symlinked.
mv "$R/container/skills" "$T/skills-elsewhere"
ln -s "$T/skills-elsewhere" "$R/container/skills"
expect_ok "a symlinked skills directory" $CLAWMD compose -C "$R" main
expect_grep "its skills are inlined" '^# NanoClaw Skill: web$' "$D"

# Whose file it is: clawmd's record, not the header (nanoclaw's, byte for
# byte).  An edit goes aside, then the document is written again.
expect_ok "a second compose is a no-op" $CLAWMD compose -C "$R" --check main
printf 'my edit\n' >>"$D"
expect_ok "compose over an edited flat entry" $CLAWMD compose -C "$R" main
expect_grep "the edit is moved aside, and said" "CLAUDE.md was not written by clawmd; moved aside to" "$T/err"
check "kept aside" sh -c "grep -l 'my edit' '$G'/CLAUDE.md.clawmd-preserved-* >/dev/null"
check "not carried into CLAUDE.local.md" sh -c "! grep -q 'my edit' '$G/CLAUDE.local.md'"
check "the entry is clawmd's again" sh -c "! grep -q 'my edit' '$D'"
rm -f "$G"/CLAUDE.md.clawmd-preserved-*
# nanoclaw's own output (no record of clawmd's) is replaced silently.
rm -f "$R/.clawmd/locks/main"
{ head -n1 "$D"; printf '\n# NanoClaw Runtime Contract\n\nold text\n'; } >"$T/nano" && cp "$T/nano" "$D"
expect_ok "compose over nanoclaw's flat output" $CLAWMD compose -C "$R" main
check "replaced, nothing preserved" sh -c "! ls -A '$G' | grep -q preserved && ! grep -q 'old text' '$D'"

# From the import layout to the flat one and back: only what clawmd or
# nanoclaw wrote goes; an agent's file in .claude-fragments is kept.
printf '{"preset": "nanoclaw"}\n' >"$R/clawmd.json"
expect_ok "to the import layout" $CLAWMD compose -C "$R" main
check "the import layout's files" sh -c "test -d '$G/.claude-fragments' && test -e '$G/.claude-shared.md'"
expect_grep "its header is clawmd's" 'clawmd:fnv1a64=' "$D"
check "nothing preserved going there" sh -c "! ls -A '$G' | grep -q preserved"
printf 'agent file\n' >"$G/.claude-fragments/agent-notes.txt"
printf '{"preset": "nanoclaw", "document": "flat"}\n' >"$R/clawmd.json"
expect_ok "back to the flat layout" $CLAWMD compose -C "$R" main
check "no .claude-shared.md" test ! -e "$G/.claude-shared.md"
check "no .claude-fragments" test ! -e "$G/.claude-fragments"
check "the agent's file is kept aside" sh -c "ls -d '$G'/.claude-fragments.clawmd-preserved-* >/dev/null && grep -rq 'agent file' '$G'/.claude-fragments.clawmd-preserved-*"
check "nothing of the entry preserved" sh -c "! ls -A '$G' | grep -q '^CLAUDE.md.clawmd-preserved'"
expect_eq "the memory is untouched" "$(cat "$G/CLAUDE.local.md")" "SECRET-LOCAL"
rm -rf "$G"/.claude-fragments.clawmd-preserved-*

# The no-op record holds what the flat document read: any source changed
# after a no-op is composed, by the front and by the full program.
printf '{"preset": "nanoclaw", "document": "flat"}\n' >"$R/clawmd.json"
printf '{}\n' >"$G/container.json"
rm -f "$G/AGENTS.md"
for run in "$FRONT" "$CLAWMD"; do
	$run compose -C "$R" -q main
	$run compose -C "$R" -q main
	age_out
	$run compose -C "$R" -q main
	printf 'Web prose, changed.\n' >"$T/skills-elsewhere/web/instructions.md"
	expect_ok "no-op, then a skill's text changed: compose" $run compose -C "$R" main
	expect_grep "the new text is there" '^Web prose, changed\.$' "$D"
	printf 'Brand new module.\n' >"$M/zeta.instructions.md"
	expect_ok "a module added: compose" $run compose -C "$R" main
	expect_grep "its section is there" '^# NanoClaw Module: zeta$' "$D"
	rm "$M/zeta.instructions.md"
	printf 'Be brief.\n' >"$G/instructions.prepend.md"
	expect_ok "a persona written: compose" $run compose -C "$R" main
	expect_grep "the persona is there" '^Be brief\.$' "$D"
	rm "$G/instructions.prepend.md"
	printf '{"skills": 7}\n' >"$G/container.json"
	$run compose -C "$R" -q main 2>/dev/null
	expect_ok "a no-op replays the warnings" $run compose -C "$R" main
	expect_grep "the corrupt selection, said again" "skill selection is not" "$T/err"
	printf '{}\n' >"$G/container.json"
	printf 'Web prose.\n' >"$T/skills-elsewhere/web/instructions.md"
	$run compose -C "$R" -q main
done

# nanoclaw's flat output met by the import layout, and by migrate: it is
# nanoclaw's, replaced, never carried into the memory.
printf '{"preset": "nanoclaw"}\n' >"$R/clawmd.json"
rm -f "$R/.clawmd/locks/main" "$G/AGENTS.md"
cp "$T/nano" "$D"
expect_ok "migrate over nanoclaw's flat CLAUDE.md" $CLAWMD migrate -C "$R"
check "migrate carried nothing into the memory" sh -c "! grep -q 'old text' '$G/CLAUDE.local.md'"
cp "$T/nano" "$D"
expect_ok "the import layout over nanoclaw's flat CLAUDE.md" $CLAWMD compose -C "$R" main
check "replaced, nothing carried, nothing preserved" sh -c "! grep -q 'old text' '$G/CLAUDE.local.md' '$D' && ! ls -A '$G' | grep -q preserved"

# Copilot CLI beside Codex in the flat layout: a flat CLAUDE.md and a flat
# AGENTS.md, both read by Copilot: said (CM605), as in the import layout.
printf '{"preset": "nanoclaw", "document": "flat"}\n' >"$R/clawmd.json"
printf '{"runtimes": ["copilot", "codex"]}\n' >"$G/container.json"
expect_ok "flat: copilot + codex composes" $CLAWMD compose -C "$R" main
expect_grep "flat: Copilot gets the text twice, said" "Copilot CLI reads both CLAUDE.md and AGENTS.md" "$T/err"
check "flat: both files" sh -c "test -f '$D' && test -f '$G/AGENTS.md'"
$CLAWMD check -C "$R" main >"$T/chk" 2>&1
expect_grep "flat: check reports CM605" 'CM605' "$T/chk"
printf '{}\n' >"$G/container.json"

# A provider's contract may ask for the flat layout on its own.
printf '{"preset": "nanoclaw", "providers": {"codex": {"document": "flat"}}}\n' >"$R/clawmd.json"
printf '{"provider": "codex"}\n' >"$G/container.json"
expect_ok "codex flat by its contract" $CLAWMD compose -C "$R" main
expect_eq "AGENTS.md is flat" "$(head -c 30 "$G/AGENTS.md")" "<!-- Composed at spawn - do no"
printf '{"document": "html"}\n' >"$R/clawmd.json"
expect_fail 3 "document: a bad value is the host's error" $CLAWMD compose -C "$R" main
expect_grep "naming the key" "document: expected 'flat' or 'imports', not 'html'" "$T/err"

done_testing
