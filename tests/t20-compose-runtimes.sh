#!/bin/sh
# compose for other runtimes: container.json's "provider" (nanoclaw's) and
# "runtimes", clawmd.json's "runtimes"; the inlined AGENTS.md (Codex,
# OpenCode: no @ imports) and the import-only GEMINI.md; the same text in
# copy and symlink mode; hostile group files; the size limit; the no-op
# record; an entry edited in place, one written by hand, one gone stale.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" alpha
make_skill "$R" beta
printf 'Details of beta.\n' >"$R/skills/beta/details.md"
printf 'Use beta well.\n@./details.md\n' >"$R/skills/beta/instructions.md"
G=$R/groups/main
mkdir -p "$G"
printf '{"provider": "codex", "mcpServers": {"cal": {"command": "c", "instructions": "Dates.\\n@/etc/passwd"}}}\n' \
	>"$G/container.json"
printf 'Remember: tea.\n@/etc/shadow\n' >"$G/CLAUDE.local.md"
printf 'You review code.\n' >"$G/CLAUDE.role.md"

expect_ok "compose a codex group (copy mode)" $CLAWMD compose -C "$R" --mode copy main
check "AGENTS.md is written beside CLAUDE.md" test -f "$G/AGENTS.md" -a -f "$G/CLAUDE.md"
cp "$G/AGENTS.md" "$T/agents.copy"
# Every part, in CLAUDE.md's order, each after a comment naming where the
# container sees it; a fragment's imports follow it.
grep '^<!-- from ' "$G/AGENTS.md" >"$T/parts"
expect_file "the parts, in order" "$T/parts" "<!-- from /app/CLAUDE.md -->
<!-- from /app/skills/alpha/instructions.md -->
<!-- from /app/skills/beta/instructions.md -->
<!-- from /app/skills/beta/details.md -->
<!-- from /workspace/agent/container.json: mcpServers.cal.instructions -->
<!-- from /workspace/agent/CLAUDE.role.md -->
<!-- from /workspace/agent/CLAUDE.local.md -->"
expect_grep "the shared base's text is inlined" '^Be helpful\.$' "$G/AGENTS.md"
expect_grep "an imported file's text is inlined" '^Details of beta\.$' "$G/AGENTS.md"
expect_grep "the memory's text is inlined" '^Remember: tea\.$' "$G/AGENTS.md"
expect_grep "an import in the agent's memory is defused" '^`@/etc/shadow`$' "$G/AGENTS.md"
expect_grep "an import in MCP instructions is defused" '^`@/etc/passwd`$' "$G/AGENTS.md"
expect_grep "the header is clawmd's (digest at the end)" '^<!-- Composed at spawn.*clawmd:fnv1a64=[0-9a-f]{16} -->$' "$G/AGENTS.md"
check "no GEMINI.md for a codex group" test ! -e "$G/GEMINI.md"
expect_ok "compose --check: nothing to do" $CLAWMD compose -C "$R" --mode copy --check main

expect_ok "compose the same group in symlink mode" $CLAWMD compose -C "$R" --mode symlink main
check "the inlined text is the same in both modes" cmp -s "$G/AGENTS.md" "$T/agents.copy"
expect_ok "symlink mode: compose --check is clean" $CLAWMD compose -C "$R" --mode symlink --check main

# Sources change: the next compose sees it (the record vouches for the text).
printf 'Details of beta, v2.\n' >"$R/skills/beta/details.md"
expect_fail 1 "symlink mode: an imported file changed is drift" $CLAWMD compose -C "$R" --mode symlink --check main
expect_ok "compose again" $CLAWMD compose -C "$R" --mode symlink -q main
expect_grep "the imported file's new text" '^Details of beta, v2\.$' "$G/AGENTS.md"
printf 'Remember: coffee.\n' >"$G/CLAUDE.local.md"
expect_fail 1 "the agent's memory changed is drift" $CLAWMD compose -C "$R" --mode symlink --check main
expect_ok "compose after the memory changed" $CLAWMD compose -C "$R" --mode symlink -q main
expect_grep "the new memory is inlined" '^Remember: coffee\.$' "$G/AGENTS.md"
age_out
expect_ok "a no-op compose" $CLAWMD compose -C "$R" --mode symlink -q main
printf 'Remember: water.\n' >"$G/CLAUDE.local.md"
expect_ok "compose after a change made after the record" $CLAWMD compose -C "$R" --mode symlink -q main
expect_grep "the record did not hide the change" '^Remember: water\.$' "$G/AGENTS.md"

# Hostile memory: a symlink to a host file and a FIFO are left out with a
# warning, never followed or opened.
printf 'host secret\n' >"$T/secret"
mv "$G/CLAUDE.local.md" "$T/local.saved"
ln -s "$T/secret" "$G/CLAUDE.local.md"
expect_ok "compose with a symlinked CLAUDE.local.md" $CLAWMD compose -C "$R" --mode copy main
check "the symlink's target is not inlined" sh -c "! grep -q 'host secret' '$G/AGENTS.md'"
expect_grep "a warning names it" 'CLAUDE.local.md: left out of the inlined entry' "$T/err"
rm "$G/CLAUDE.local.md"
mkfifo "$G/CLAUDE.local.md"
expect_ok "compose with a FIFO for CLAUDE.local.md (does not hang)" timeout 20 $CLAWMD compose -C "$R" --mode copy main
expect_grep "a warning names the FIFO" 'CLAUDE.local.md: left out of the inlined entry' "$T/err"
rm "$G/CLAUDE.local.md"
mv "$T/local.saved" "$G/CLAUDE.local.md"

# Case does not matter (nanoclaw lowercases); nanoclaw's test provider
# "mock" adds nothing; a name no contract knows composes the default
# (Claude Code) surfaces with a warning naming it and the nearest name, as
# nanoclaw spawns an unknown provider: never a group that cannot start.
sed 's/"codex"/"Codex"/' "$G/container.json" >"$T/cj" && cp "$T/cj" "$G/container.json"
expect_ok "provider Codex (any case)" $CLAWMD compose -C "$R" --mode copy main
check "Codex: AGENTS.md still there" test -f "$G/AGENTS.md"
sed 's/"Codex"/"codx"/' "$G/container.json" >"$T/cj" && cp "$T/cj" "$G/container.json"
cp "$G/AGENTS.md" "$T/agents.before"
printf 'x\n' >>"$R/container/CLAUDE.md"
expect_ok "an unknown provider composes (exit 0)" $CLAWMD compose -C "$R" --mode copy main
expect_grep "it warns, naming the key and the nearest runtime" "warning: .*container.json: provider: unknown provider 'codx' \\(did you mean 'codex'\\?\\); composing the default \\(Claude Code\\) surfaces" "$T/err"
check "the default surfaces: CLAUDE.md, no AGENTS.md" sh -c "test -f '$G/CLAUDE.md' && test ! -e '$G/AGENTS.md'"
expect_ok "check: the unknown provider is CM306" sh -c "$CLAWMD check -C '$R' main >'$T/chk' 2>&1; grep -q 'CM306' '$T/chk'"
printf '{"provider": "mock"}\n' >"$G/container.json"
expect_ok "provider mock" $CLAWMD compose -C "$R" --mode copy main
check "mock: the stale AGENTS.md (clawmd's, unedited) is removed" test ! -e "$G/AGENTS.md"
printf '{"runtimes": ["claude", "Gemini", "opencode"]}\n' >"$G/container.json"
expect_ok "runtimes: claude, gemini, opencode" $CLAWMD compose -C "$R" --mode copy main
check "AGENTS.md for OpenCode" test -f "$G/AGENTS.md"
expect_file "GEMINI.md imports what CLAUDE.md does, and the memory" "$G/GEMINI.md" "$(head -n1 "$G/GEMINI.md")
$(sed 1d "$G/CLAUDE.md")
@./CLAUDE.local.md"
expect_fail 3 "gemini in symlink mode is refused" $CLAWMD compose -C "$R" --mode symlink main
expect_grep "saying why and what to do" "Gemini CLI follows no import whose target is outside the working directory.*copy mode" "$T/err"
check "nothing changed" test -f "$G/GEMINI.md" -a ! -L "$G/.claude-shared.md"
printf '{"runtimes": ["claude", "codexx"]}\n' >"$G/container.json"
expect_ok "an unknown name in runtimes composes" $CLAWMD compose -C "$R" --mode copy main
expect_grep "names runtimes[1]" "runtimes\[1\]: unknown provider 'codexx'" "$T/err"
printf '{"runtimes": []}\n' >"$G/container.json"
expect_fail 3 "an empty runtimes list" $CLAWMD compose -C "$R" --mode copy main

# clawmd.json's default for groups that name none.
printf '{}\n' >"$G/container.json"
printf '{"runtimes": ["codex"]}\n' >"$R/clawmd.json"
expect_ok "clawmd.json runtimes: codex" $CLAWMD compose -C "$R" --mode copy main
check "AGENTS.md from the layout's default" test -f "$G/AGENTS.md"
check "GEMINI.md, no longer run, is removed" test ! -e "$G/GEMINI.md"
printf '{"runtimes": 7}\n' >"$R/clawmd.json"
expect_fail 3 "clawmd.json runtimes: not a list of names" $CLAWMD compose -C "$R" --mode copy main
expect_grep "it says what it takes" "clawmd.json: runtimes: expected an array, each a runtime name" "$T/err"
printf '{"runtimes": ["claud"]}\n' >"$R/clawmd.json"
expect_fail 3 "clawmd.json runtimes: an unknown name" $CLAWMD compose -C "$R" --mode copy main
expect_grep "with the nearest name" "runtimes: unknown runtime 'claud'; did you mean 'claude'\\?" "$T/err"
printf '{"runtimes": ["codex"]}\n' >"$R/clawmd.json"

# An AGENTS.md edited in place goes aside; one written by hand is carried
# into CLAUDE.local.md, as a hand-written CLAUDE.md is.
printf 'my edit\n' >>"$G/AGENTS.md"
expect_ok "compose over an edited AGENTS.md" $CLAWMD compose -C "$R" --mode copy main
expect_grep "it is named as moved aside" "AGENTS.md was not written by clawmd; moved aside to" "$T/err"
check "the edit is kept aside" sh -c "grep -l 'my edit' '$G'/AGENTS.md.clawmd-preserved-* >/dev/null"
check "the memory is not touched" sh -c "! grep -q 'my edit' '$G/CLAUDE.local.md'"
rm -f "$G"/AGENTS.md.clawmd-preserved-*
: >"$G/CLAUDE.local.md"
printf 'Always answer in French.\n' >"$G/AGENTS.md"
expect_ok "compose over a hand-written AGENTS.md" $CLAWMD compose -C "$R" --mode copy main
expect_grep "its text is carried into the memory" '^Always answer in French\.$' "$G/CLAUDE.local.md"
expect_grep "and so reaches the inlined entry" '^Always answer in French\.$' "$G/AGENTS.md"

# Past Codex's 32 KiB: the cap ladder drops the largest skill fragment,
# names it in a last part and in a warning, and composes (exit 0).
awk 'BEGIN { for (i = 0; i < 800; i++) print "A long line of the beta skill, over and over." }' \
	>"$R/skills/beta/instructions.md"
expect_ok "an inlined entry past 32768 bytes composes" $CLAWMD compose -C "$R" --mode copy main
expect_grep "it warns, naming the file, the cap and what it left out" \
	"warning: groups/main/AGENTS.md: past the 32768 bytes Codex loads, left out /app/skills/beta/instructions.md" "$T/err"
check "AGENTS.md fits" test "$(wc -c <"$G/AGENTS.md")" -le 32768
check "the skill's text is not in it" sh -c "! grep -q 'over and over' '$G/AGENTS.md'"
expect_grep "the last part names it" "^<!-- omitted for size: /app/skills/beta/instructions.md -->" "$G/AGENTS.md"
expect_grep "the memory stays" '^Always answer in French\.$' "$G/AGENTS.md"
check "CLAUDE.md still imports the skill (Claude Code has no such cap)" grep -q 'skill-beta' "$G/CLAUDE.md"
expect_ok "a second compose is a no-op" $CLAWMD compose -C "$R" --mode copy --check main

# The inlined entry holds the memory: check wants it ignored as the memory is.
printf '{"runtimes": ["codex"]}\n' >"$R/clawmd.json"
printf 'Use beta well.\n' >"$R/skills/beta/instructions.md"
$CLAWMD compose -C "$R" -q main
git -C "$R" init -q
printf 'CLAUDE.local.md\n/.clawmd/\n' >"$R/.gitignore"
$CLAWMD check -C "$R" main >"$T/out" 2>&1
expect_grep "check: an AGENTS.md that is not ignored is CM403" '^groups/main/AGENTS.md:1:1: warning: groups/main/AGENTS.md is not ignored by git \[CM403\]' "$T/out"
printf 'CLAUDE.local.md\n/.clawmd/\n/groups/*/AGENTS.md\n' >"$R/.gitignore"
$CLAWMD check -C "$R" main >"$T/out" 2>&1
check "ignored: no CM403" sh -c "! grep -q CM403 '$T/out'"

# status shows the runtimes a group runs (the layout's default here).
expect_ok "status" $CLAWMD status -C "$R" -q
expect_grep "status: a RUNTIMES column" '^GROUP .* RUNTIMES +SKILL NAMES$' "$T/out"
expect_grep "status: the group runs codex" '^main .* codex +' "$T/out"
expect_ok "status --json" $CLAWMD status -C "$R" --format json
expect_grep "status --json: runtimes" '"runtimes":[[:space:]]*\["codex"\]' "$T/out"

done_testing
