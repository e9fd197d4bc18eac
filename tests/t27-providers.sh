#!/bin/sh
# Providers as data: every built-in provider composes (exit 0) and renders
# what its runtime loads; an unknown one warns (CM306) and composes the
# default surfaces; clawmd.json's "providers" adds or overrides a contract,
# its mistakes named by key; Cursor's AGENTS.md leaves out the memory it
# reads by itself; a group handing a runtime the same text twice is warned
# about (CM605); status names every runtime.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" web
G=$R/groups/main
mkdir -p "$G"
printf 'Remember: tea.\n' >"$G/CLAUDE.local.md"
cj() { printf '%s\n' "$1" >"$G/container.json"; }

# Each provider: exit 0, no warning but where one is due, its entry file.
for p in claude codex opencode cursor copilot ollama pi gemini qwen mock; do
	cj "{\"provider\": \"$p\"}"
	expect_ok "$p: compose exits 0" $CLAWMD compose -C "$R" main
	case $p in
	copilot) expect_grep "copilot: warns that it does not read CLAUDE.local.md" \
		"Copilot CLI does not read CLAUDE.local.md by itself" "$T/err" ;;
	*) expect_eq "$p: no warning" "$(cat "$T/err")" "" ;;
	esac
	expect_ok "$p: render --group exits 0" $CLAWMD render -C "$R" --group main
	case $p in
	codex | opencode | cursor | pi) entry=AGENTS.md ;;
	gemini) entry=GEMINI.md ;;
	qwen) entry=QWEN.md ;;
	*) entry= ;;
	esac
	if [ -n "$entry" ]; then
		check "$p: writes $entry" test -f "$G/$entry"
		expect_grep "$p: render shows the shared base" '^Be helpful\.$' "$T/out"
	fi
	case $p in
	claude | ollama) expect_grep "$p: render shows Claude Code's loading" '^Contents of /workspace/agent/CLAUDE.md' "$T/out" ;;
	mock) expect_eq "mock: render shows nothing" "$(cat "$T/out")" "" ;;
	esac
	expect_ok "$p: check runs" sh -c "$CLAWMD check -C '$R' main >'$T/chk' 2>&1; grep -qv 'CM60[1-3]' '$T/chk' || true"
done

# What each runtime's render looks like (its measured format).
cj '{"provider": "pi"}'
$CLAWMD compose -C "$R" -q main
expect_ok "pi: render" $CLAWMD render -C "$R" --group main
expect_grep "pi: its project_context block" '^<project_instructions path="/workspace/agent/AGENTS.md">$' "$T/out"
expect_grep "pi: the memory is inlined (pi does not read CLAUDE.local.md)" '^Remember: tea\.$' "$T/out"
cj '{"provider": "copilot"}'
printf '{"import_local": true}\n' >"$R/clawmd.json"
expect_ok "copilot with import_local: no warning" $CLAWMD compose -C "$R" main
expect_eq "copilot: quiet" "$(cat "$T/err")" ""
expect_ok "copilot: render" $CLAWMD render -C "$R" --group main
expect_grep "copilot: each file a custom_instruction" '^<custom_instruction>$' "$T/out"
expect_grep "copilot: imports followed inside the group" '^<imported_custom_instruction source="/workspace/agent/.claude-shared.md">$' "$T/out"
expect_grep "copilot: the memory through the entry's import" '^Remember: tea\.$' "$T/out"
rm "$R/clawmd.json"
cj '{"provider": "qwen"}'
$CLAWMD compose -C "$R" -q main
expect_ok "qwen: render" $CLAWMD render -C "$R" --group main
expect_grep "qwen: its context block" '^--- Context from: QWEN.md ---$' "$T/out"
expect_grep "qwen: imports expanded in place" '^<!-- Imported from: ./.claude-shared.md -->$' "$T/out"

# Cursor reads CLAUDE.local.md by itself: its AGENTS.md leaves the memory
# out, so the agent reads it once.
cj '{"provider": "cursor"}'
$CLAWMD compose -C "$R" -q main
check "cursor: AGENTS.md without the memory" sh -c "! grep -q 'Remember: tea' '$G/AGENTS.md'"
expect_ok "cursor: render" $CLAWMD render -C "$R" --group main --format files
expect_grep "cursor: loads AGENTS.md" '/workspace/agent/AGENTS.md' "$T/out"
expect_grep "cursor: loads CLAUDE.local.md itself" '/workspace/agent/CLAUDE.local.md' "$T/out"
$CLAWMD render -C "$R" --group main >"$T/text"
expect_eq "cursor: the memory once" "$(grep -c 'Remember: tea' "$T/text")" 1
expect_ok "cursor: render --setting-sources user loads nothing (the SDK's default)" \
	$CLAWMD render -C "$R" --group main --setting-sources user
expect_eq "cursor: nothing without the project source" "$(cat "$T/out")" ""

# Twice: Copilot reads AGENTS.md and CLAUDE.md; a group running Codex too
# needs both.  Cursor beside Codex gets the memory in AGENTS.md and from
# CLAUDE.local.md.
cj '{"runtimes": ["copilot", "codex"]}'
printf '{"import_local": true}\n' >"$R/clawmd.json"
expect_ok "copilot + codex composes" $CLAWMD compose -C "$R" main
expect_grep "it warns: Copilot gets the text twice" "Copilot CLI reads both CLAUDE.md and AGENTS.md.*twice" "$T/err"
$CLAWMD check -C "$R" main >"$T/chk" 2>&1
expect_grep "check: CM605" 'CM605' "$T/chk"
cj '{"runtimes": ["cursor", "codex"]}'
expect_ok "cursor + codex composes" $CLAWMD compose -C "$R" main
expect_grep "it warns: Cursor gets the memory twice" "Cursor reads both AGENTS.md and CLAUDE.local.md" "$T/err"
cj '{"provider": "cursor"}'
expect_ok "cursor alone: no such warning" $CLAWMD compose -C "$R" main
expect_eq "cursor alone: quiet" "$(cat "$T/err")" ""
rm "$R/clawmd.json"

# An unknown provider: the default surfaces, a warning naming it, CM306.
cj '{"provider": "manifest"}'
expect_ok "unknown provider: exit 0" $CLAWMD compose -C "$R" main
expect_grep "it names the provider" "provider: unknown provider 'manifest'; composing the default \\(Claude Code\\) surfaces" "$T/err"
check "the stale AGENTS.md (clawmd's) is gone, CLAUDE.md stays" sh -c "test ! -e '$G/AGENTS.md' && test -f '$G/CLAUDE.md'"
$CLAWMD check -C "$R" main >"$T/chk" 2>&1
expect_grep "check: CM306 at the provider key" 'container.json:1:3: warning: provider: unknown provider .*\[CM306\]' "$T/chk"
$CLAWMD check -C "$R" --format sarif main >"$T/chk.sarif" 2>/dev/null
expect_grep "check --format sarif: the rule, named" '"ProviderUnknown"' "$T/chk.sarif"
expect_grep "doc/check.md has the rule's anchor" '<a id="cm306"></a>' "$CLAWMD_SRC/doc/check.md"
cj "{\"provider\": \"a\\u001b[31mb\"}"
expect_ok "a hostile name composes" $CLAWMD compose -C "$R" main
expect_grep "and is escaped in the warning" "unknown provider 'a\\\\x1b\\[31mb'" "$T/err"

# clawmd.json's providers: add one (like Codex, its own cap), override one.
awk 'BEGIN { for (i = 0; i < 20; i++) print "Use the web, line", i, "of twenty." }' >"$R/skills/web/instructions.md"
cat >"$R/clawmd.json" <<'EOF'
{"providers": {
  "manifest": {"like": "codex", "title": "Manifest", "cap": 600,
               "skills": {"discovery": "/workspace/agent/.manifest/skills", "inlined": true}},
  "cursor": {"reads": [".cursorrules", "CLAUDE.md"]}
}}
EOF
cj '{"provider": "manifest"}'
expect_ok "a provider clawmd.json adds composes" $CLAWMD compose -C "$R" main
check "manifest: AGENTS.md, as Codex" test -f "$G/AGENTS.md"
expect_grep "its cap of 600 bytes: the skill is left out" "AGENTS.md: past the 600 bytes Manifest loads, left out /app/skills/web/instructions.md" "$T/err"
check "manifest: within 600 bytes" test "$(wc -c <"$G/AGENTS.md")" -le 600
expect_grep "manifest: the memory stays" '^Remember: tea\.$' "$G/AGENTS.md"
$CLAWMD check -C "$R" main >"$T/chk" 2>&1
expect_grep "check: CM604 names what was left out" 'left out to fit the size its runtime loads: /app/skills/web/instructions.md \[CM604\]' "$T/chk"
expect_ok "render --group follows its 'like' (Codex)" $CLAWMD render -C "$R" --group main
expect_grep "render: Codex's loading of AGENTS.md" '^Remember: tea\.$' "$T/out"
expect_ok "status names it" $CLAWMD status -C "$R"
expect_grep "status: RUNTIMES manifest" '^main .*manifest' "$T/out"
cj '{"provider": "cursor"}'
expect_ok "cursor overridden: it no longer reads CLAUDE.local.md" $CLAWMD compose -C "$R" main
expect_grep "so its AGENTS.md inlines the memory" '^Remember: tea\.$' "$G/AGENTS.md"
printf '{"runtimes": ["manifest"], "providers": {"manifest": {"like": "pi"}}}\n' >"$R/clawmd.json"
printf '{}\n' >"$G/container.json"
expect_ok "clawmd.json runtimes may name a provider it adds" $CLAWMD compose -C "$R" main
check "manifest like pi: AGENTS.md" test -f "$G/AGENTS.md"

# clawmd mounts: an entry whose contract names another container path is
# mounted there too, read-only, and stays read-only in the group.
printf '{"providers": {"codex": {"container_path": "/home/node/AGENTS.md"}}}\n' >"$R/clawmd.json"
printf '{"provider": "codex"}\n' >"$G/container.json"
$CLAWMD compose -C "$R" -q main
expect_ok "mounts with a contract's container path" $CLAWMD mounts -C "$R" main
expect_grep "mounted where the contract says, read-only" "groups/main/AGENTS.md:/home/node/AGENTS.md:ro\$" "$T/out"
expect_grep "and read-only in the group" "groups/main/AGENTS.md:/workspace/agent/AGENTS.md:ro\$" "$T/out"

# Its mistakes are the host's: exit 3, naming the key and what it expects.
bad() { # NAME JSON PATTERN
	printf '%s\n' "$2" >"$R/clawmd.json"
	expect_fail 3 "providers: $1" $CLAWMD compose -C "$R" main
	expect_grep "providers: $1: named" "$3" "$T/err"
}
bad "not an object" '{"providers": []}' "clawmd.json: providers: expected an object"
bad "a bad name" '{"providers": {"../x": {}}}' "providers: '../x' is not a provider name"
bad "an unknown field" '{"providers": {"x": {"capp": 1}}}' "providers.x.capp: unknown key"
bad "a negative cap" '{"providers": {"x": {"cap": -1}}}' "providers.x.cap: expected a whole number of bytes"
bad "an entry clawmd does not own" '{"providers": {"x": {"entry": "README.md"}}}' "providers.x.entry: expected one of the entry files"
bad "like: not a built-in" '{"providers": {"x": {"like": "y"}}}' "providers.x.like: expected a built-in provider"
bad "reads: a way out" '{"providers": {"x": {"reads": ["../../etc/passwd"]}}}' "providers.x.reads: expected an array of paths inside the group"
bad "a relative container path" '{"providers": {"x": {"container_path": "AGENTS.md"}}}' "providers.x.container_path: expected an absolute path"
bad "document" '{"providers": {"x": {"document": "html"}}}' 'providers.x.document: expected "flat" or "imports"'
bad "Claude's entry" '{"providers": {"claude": {"entry": "AGENTS.md"}}}' "providers.claude.entry: expected CLAUDE.md"
rm "$R/clawmd.json"

done_testing
