#!/bin/sh
# render for a nanoclaw host (issue 32 item 5): the Claude Code release its
# container/cli-tools.json pins is render's default (a flag, or clawmd.json,
# overrides), the setting sources of an agent runner with the memory hook
# are project,user,local, and the memory that SessionStart hook injects
# (memory/index.md and memory/system/definition.md, 16,000 characters each)
# is shown; each with a line saying where it came from.
. "$CLAWMD_TESTS/lib.sh"

R=$T/nano
mkdir -p "$R/container/skills" "$R/container/agent-runner/src/memory" \
	"$R/container/agent-runner/src/mcp-tools" "$R/groups/main/memory/system" "$R/groups/cx"
printf '# NanoClaw\n\nBe helpful.\n' >"$R/container/CLAUDE.md"
printf '// the runner registers it as SessionStart\n' >"$R/container/agent-runner/src/memory/hook.ts"
cat >"$R/container/cli-tools.json" <<'EOF'
[
  { "name": "agent-browser", "version": "0.27.1", "onlyBuilt": true },
  { "name": "@anthropic-ai/claude-code", "version": "2.1.257", "onlyBuilt": true },
  { "name": "@openai/codex", "version": "0.154.0" }
]
EOF
printf '{\n  "preset": "nanoclaw",\n  "document": "flat"\n}\n' >"$R/clawmd.json"
printf '\n\n# Memory index\n\nThe owner prefers French.\n\n' >"$R/groups/main/memory/index.md"
perl -e 'print "# Definition\n", "d" x 20000, "\n"' >"$R/groups/main/memory/system/definition.md"
printf 'Local notes.\n' >"$R/groups/main/CLAUDE.local.md"
printf '{"provider": "codex"}\n' >"$R/groups/cx/container.json"
expect_ok "compose --all" "$CLAWMD" -C "$R" compose -q --all

# ---- the text: stdout is Claude Code's string, the lines go to stderr ----
expect_ok "render --group main" "$CLAWMD" -C "$R" render --group main
cp "$T/out" "$T/text"
expect_grep "the release the host pins, and where it came from" \
	'^clawmd: render: Claude Code 2\.1\.257, pinned by container/cli-tools\.json$' "$T/err"
expect_grep "the runner's setting sources, and where they came from" \
	"^clawmd: render: setting sources project,user,local, nanoclaw's agent runner with its memory hook \(/app/src/memory/hook\.ts\)$" "$T/err"
expect_grep "the hook's index.md, its length" \
	'^clawmd: render:   /workspace/agent/memory/index\.md: 41 characters$' "$T/err"
expect_grep "the hook's definition.md, truncated at 16000" \
	'^clawmd: render:   /workspace/agent/memory/system/definition\.md: 20013 characters, truncated to 16000$' "$T/err"
check "stdout holds no memory file (it is the hook's, not Claude Code's)" sh -c "! grep -q 'prefers French' '$T/text'"
check "the local source loads CLAUDE.local.md natively" grep -q '^Local notes\.$' "$T/text"
expect_ok "render -q" "$CLAWMD" -C "$R" render -q --group main
expect_eq "-q: no lines" "$(cat "$T/err")" ""
check "-q: the same string" cmp -s "$T/out" "$T/text"

# ---- files: Hook rows after the startup memory ----
expect_ok "render --format files" "$CLAWMD" -C "$R" render -q --group main --format files
expect_eq "the rows" "$(cat "$T/out")" "Project	/workspace/agent/CLAUDE.md	-
Local	/workspace/agent/CLAUDE.local.md	-
Hook	/workspace/agent/memory/index.md	/app/src/memory/hook.ts
Hook	/workspace/agent/memory/system/definition.md	/app/src/memory/hook.ts"

# ---- json: the release, the sources, what the hook injects ----
expect_ok "render --json" "$CLAWMD" -C "$R" render --group main --json
cp "$T/out" "$T/json"
expect_eq "nothing on stderr with --json" "$(cat "$T/err")" ""
jq_() { perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); print eval($ARGV[0]), "\n"' "$1" <"$T/json"; }
expect_eq "claude_version" "$(jq_ '$d->{claude_version}')" "2.1.257"
expect_eq "claude_version_from" "$(jq_ '$d->{claude_version_from}')" "pinned by container/cli-tools.json"
expect_eq "the pinned release's rules: no AGENTS.md loading before 2.1.281" \
	"$(jq_ 'defined $d->{instruction_files} ? "set" : "null"')" "null"
expect_eq "setting_sources" "$(jq_ 'join ",", @{$d->{setting_sources}}')" "project,user,local"
expect_eq "the hook's script" "$(jq_ '$d->{session_start}{hook}')" "/app/src/memory/hook.ts"
expect_eq "its cap" "$(jq_ '$d->{session_start}{max_chars}')" "16000"
expect_eq "index.md as the hook injects it: trimmed" "$(jq_ '$d->{session_start}{files}[0]{text}')" \
	"# Memory index

The owner prefers French."
expect_eq "definition.md: truncated" "$(jq_ '$d->{session_start}{files}[1]{truncated} ? "yes" : "no"')" "yes"
expect_eq "... to 16000 characters, then the notice" \
	"$(jq_ 'my $t = $d->{session_start}{files}[1]{text}; length($t) . " " . (split /\n/, $t)[-1]')" \
	"16069 [truncated: slim this file and move detail into linked memory files]"

# the agent's file may hold anything: a NUL byte, quotes, an escape
printf 'before\000after "q" \\ \033[31m\n' >"$R/groups/main/memory/index.md"
expect_ok "render --json over a NUL byte" "$CLAWMD" -C "$R" render --group main --json
cp "$T/out" "$T/json"
check "the JSON is strict" json_strict "$T/json"
expect_eq "the text whole, the NUL in it" \
	"$(jq_ 'join ",", map { ord } split //, $d->{session_start}{files}[0]{text}')" \
	"$(printf 'before\000after "q" \\ \033[31m' | perl -e 'local $/; print join ",", map { ord } split //, <STDIN>')"
printf '\n\n# Memory index\n\nThe owner prefers French.\n\n' >"$R/groups/main/memory/index.md"

# ---- a flag, or clawmd.json, overrides the pin ----
expect_ok "--claude-version overrides the pin" "$CLAWMD" -C "$R" render --group main --claude-version 2.1.330
expect_grep "... and says so" '^clawmd: render: Claude Code 2\.1\.330, --claude-version$' "$T/err"
expect_ok "--json with the flag" "$CLAWMD" -C "$R" render --group main --claude-version 2.1.330 --json
cp "$T/out" "$T/json"
expect_eq "the flag's release's rules: AGENTS.md loading on" "$(jq_ '$d->{instruction_files}')" "claude-md-or-agents-md"
printf '{\n  "preset": "nanoclaw",\n  "document": "flat",\n  "claude_version": "2.1.330"\n}\n' >"$R/clawmd.json"
expect_ok "clawmd.json's claude_version" "$CLAWMD" -C "$R" render --group main
expect_grep "... wins, and the line names the pin" \
	'^clawmd: render: Claude Code 2\.1\.330, claude_version in clawmd\.json \(container/cli-tools\.json pins 2\.1\.257\)$' "$T/err"
printf '{\n  "preset": "nanoclaw",\n  "document": "flat",\n  "setting_sources": "project,user"\n}\n' >"$R/clawmd.json"
expect_ok "clawmd.json's setting_sources" "$CLAWMD" -C "$R" render --group main --format files
expect_grep "... win" '^clawmd: render: setting sources project,user, setting_sources in clawmd\.json$' "$T/err"
check "... CLAUDE.local.md is not loaded" sh -c "! grep -q '^Local' '$T/out'"
expect_ok "--setting-sources" "$CLAWMD" -C "$R" render --group main --setting-sources project
expect_grep "... wins too" '^clawmd: render: setting sources project, --setting-sources$' "$T/err"
printf '{\n  "preset": "nanoclaw",\n  "document": "flat"\n}\n' >"$R/clawmd.json"

# ---- the cli-tools.json the host wrote ----
cp "$R/container/cli-tools.json" "$T/pin"
printf '[{"name": "@anthropic-ai/claude-code", "version": "^2.1"}]\n' >"$R/container/cli-tools.json"
expect_fail 3 "a version that is no release: exit 3" "$CLAWMD" -C "$R" render --group main
expect_grep "... naming the file, the entry and what was expected" \
	"container/cli-tools.json': @anthropic-ai/claude-code's version: expected a release such as 2.1.330, not '\^2.1'" "$T/err"
printf '{"name": "@anthropic-ai/claude-code"}\n' >"$R/container/cli-tools.json"
expect_fail 3 "not an array: exit 3" "$CLAWMD" -C "$R" render --group main
expect_grep "... naming the file and the shape expected" "container/cli-tools.json': expected a JSON array" "$T/err"
expect_ok "a flag needs no pin (the file is not read)" "$CLAWMD" -C "$R" render -q --group main --claude-version 2.1.330
printf '{\n  "preset": "nanoclaw",\n  "claude_version": "2.1.330"\n}\n' >"$R/clawmd.json"
expect_ok "nor does clawmd.json's claude_version" "$CLAWMD" -C "$R" render --group main
expect_grep "... which stands" '^clawmd: render: Claude Code 2\.1\.330, claude_version in clawmd\.json$' "$T/err"
printf '{\n  "preset": "nanoclaw",\n  "document": "flat"\n}\n' >"$R/clawmd.json"
printf '[{"name": "@openai/codex", "version": "0.154.0"}]\n' >"$R/container/cli-tools.json"
expect_ok "no claude-code entry" "$CLAWMD" -C "$R" render --group main
expect_grep "... clawmd's default, and says so" \
	"^clawmd: render: Claude Code 2\.1\.330, clawmd's default \(container/cli-tools\.json pins none\)$" "$T/err"
rm "$R/container/cli-tools.json"
expect_ok "no cli-tools.json" "$CLAWMD" -C "$R" render --group main
expect_grep "... the same" "^clawmd: render: Claude Code 2\.1\.330, clawmd's default" "$T/err"
cp "$T/pin" "$R/container/cli-tools.json"

# ---- the agent's memory files are read in the container's view ----
rm "$R/groups/main/memory/index.md"
ln -s /etc/passwd "$R/groups/main/memory/index.md"
expect_ok "index.md a symlink to a host file" "$CLAWMD" -C "$R" render --group main --json
cp "$T/out" "$T/json"
expect_eq "... unavailable (the container has no /etc/passwd of the host's through the mounts)" \
	"$(jq_ '$d->{session_start}{files}[0]{available} ? "yes" : "no"')" "no"
check "... nothing of the host file shown" sh -c "! grep -q 'root:' '$T/json'"
rm "$R/groups/main/memory/index.md"
mkfifo "$R/groups/main/memory/index.md"
expect_ok "index.md a FIFO: never opened" "$CLAWMD" -C "$R" render --group main --format files
expect_grep "... unavailable" '^clawmd: render:   /workspace/agent/memory/index\.md: unavailable' "$T/err"
check "... no Hook row for it" sh -c "! grep -q 'memory/index.md' '$T/out'"

# ---- Codex: the hook is the runner's for Codex too; the sources are Claude Code's ----
expect_ok "render a Codex group" "$CLAWMD" -C "$R" render --group cx
expect_grep "the hook's memory for Codex" '^clawmd: render: its SessionStart hook adds' "$T/err"
check "no setting sources line, no Claude Code release line" sh -c "! grep -Eq 'setting sources|Claude Code' '$T/err'"

# ---- an agent runner without the hook: the preset's sources, no hook ----
rm "$R/container/agent-runner/src/memory/hook.ts"
expect_ok "no hook script" "$CLAWMD" -C "$R" render --group main --format files
expect_grep "the preset's sources" "^clawmd: render: setting sources project,user, the nanoclaw preset" "$T/err"
check "no Hook row, no Local row" sh -c "! grep -Eq '^(Hook|Local)' '$T/out'"
expect_ok "--json" "$CLAWMD" -C "$R" render --group main --json
cp "$T/out" "$T/json"
expect_eq "session_start is null" "$(jq_ 'defined $d->{session_start} ? "set" : "null"')" "null"

# ---- outside the preset nothing changes ----
D=$T/plain
make_root "$D"
mkdir -p "$D/groups/g"
expect_ok "compose (default preset)" "$CLAWMD" -C "$D" compose -q --all
expect_ok "render --group (default preset)" "$CLAWMD" -C "$D" render --group g --json
expect_eq "no stderr" "$(cat "$T/err")" ""
check "no nanoclaw keys" sh -c "! grep -Eq 'claude_version|session_start' '$T/out'"

done_testing
