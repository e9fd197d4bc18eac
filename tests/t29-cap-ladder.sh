#!/bin/sh
# Nothing the agent grows darkens its group: past a provider's cap, in
# either layout, compose drops the largest droppable sections, writes the
# note, exits 0 and warns; check reports CM604.  Codex memory written into
# AGENTS.md by hand past 32 KiB (issue 28 item 7) stays where Codex reads it
# and nothing is half done.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" small
make_skill "$R" big
awk 'BEGIN { for (i = 0; i < 700; i++) print "The big skill, line", i, "of its long instructions." }' >"$R/skills/big/instructions.md"
G=$R/groups/main
mkdir -p "$G"
printf '{"provider": "codex"}\n' >"$G/container.json"
A=$G/AGENTS.md

# 1. The import layout: the agent's memory grows; the big skill goes.
awk 'BEGIN { for (i = 0; i < 200; i++) print "Memory line", i, "the agent keeps." }' >"$G/CLAUDE.local.md"
expect_ok "memory + skills past 32 KiB: exit 0" $CLAWMD compose -C "$R" main
check "AGENTS.md within 32768 bytes" test "$(wc -c <"$A")" -le 32768
expect_grep "the warning names what was left out" "groups/main/AGENTS.md: past the 32768 bytes Codex loads, left out /app/skills/big/instructions.md" "$T/err"
expect_grep "the memory is all there" '^Memory line 199 the agent keeps\.$' "$A"
expect_grep "the small skill stays" '^Use small well\.$' "$A"
expect_grep "the last part names it" '^<!-- omitted for size: /app/skills/big/instructions.md -->$' "$A"
expect_eq "it is the last part" "$(grep '^<!-- ' "$A" | tail -n1)" "<!-- omitted for size: /app/skills/big/instructions.md -->"
expect_ok "the next compose changes nothing" $CLAWMD compose -C "$R" --check main
$CLAWMD check -C "$R" main >"$T/chk" 2>&1
expect_grep "check: CM604, naming the skill" 'AGENTS.md:1:1: warning: left out to fit the size its runtime loads: /app/skills/big/instructions.md \[CM604\]' "$T/chk"
check "check: no CM602 (it fits)" sh -c "! grep -q CM602 '$T/chk'"

# 2. Issue 28 item 7: the agent writes its memory into AGENTS.md by hand,
# 40 KB of it.  It is carried into CLAUDE.local.md and comes back in the
# same compose's AGENTS.md: Codex still reads it; nothing is lost; the
# compose is not half done.
: >"$G/CLAUDE.local.md"
awk 'BEGIN { for (i = 0; i < 1000; i++) print "Hand memory line", i, "written straight into AGENTS.md." }' >"$T/hand"
cp "$T/hand" "$A"
expect_ok "hand-written AGENTS.md past 32 KiB: exit 0" $CLAWMD compose -C "$R" main
expect_grep "carried into CLAUDE.local.md" '^Hand memory line 999 written straight into AGENTS.md\.$' "$G/CLAUDE.local.md"
check "every line of it" sh -c "grep -c '^Hand memory line' '$G/CLAUDE.local.md' | grep -qx 1000"
expect_grep "and in AGENTS.md, where Codex reads it" '^Hand memory line 0 written straight into AGENTS.md\.$' "$A"
expect_grep "AGENTS.md is clawmd's" '^<!-- Composed at spawn.*clawmd:fnv1a64=' "$A"
expect_grep "the skills were dropped first" "left out /app/skills/big/instructions.md, /app/skills/small/instructions.md" "$T/err"
expect_grep "still past: written whole, and said" "nothing left to drop, past the 32768 that Codex loads" "$T/err"
check "nothing preserved aside, nothing lost" sh -c "! ls -A '$G' | grep -q preserved"
expect_ok "the next compose changes nothing" $CLAWMD compose -C "$R" --check main
$CLAWMD check -C "$R" main >"$T/chk" 2>&1
expect_grep "check: CM602 says Codex cuts it" 'CM602' "$T/chk"
expect_grep "check: CM604 names the skills" 'CM604' "$T/chk"
: >"$G/CLAUDE.local.md"
expect_ok "the memory trimmed: compose" $CLAWMD compose -C "$R" main
expect_grep "the small skill comes back" '^Use small well\.$' "$A"
expect_grep "only the big one is left out" '^<!-- omitted for size: /app/skills/big/instructions.md -->$' "$A"

# 3. The flat layout: Codex's AGENTS.md under its 32 KiB, nanoclaw's
# ladder and note.
printf '{"document": "flat"}\n' >"$R/clawmd.json"
awk 'BEGIN { for (i = 0; i < 300; i++) print "The big skill, line", i, "of its long instructions." }' >"$R/skills/big/instructions.md"
awk 'BEGIN { for (i = 0; i < 200; i++) print "Memory line", i }' >"$G/CLAUDE.local.md"
awk 'BEGIN { for (i = 0; i < 1500; i++) print "Small skill, grown, line", i }' >"$R/skills/small/instructions.md"
expect_ok "flat: past 32 KiB: exit 0" $CLAWMD compose -C "$R" main
check "flat: within 32768 bytes" test "$(wc -c <"$A")" -le 32768
expect_grep "flat: the note" '^These instruction sections were omitted to fit the project-document size cap: NanoClaw Skill: small\. ' "$A"
expect_grep "flat: a warning says what was dropped" "AGENTS.md: [0-9]* bytes against its cap of 32768: dropped the largest instruction sections: NanoClaw Skill: small" "$T/err"
expect_grep "flat: the big skill (smaller now) stays" '^# NanoClaw Skill: big$' "$A"
$CLAWMD check -C "$R" main >"$T/chk" 2>&1
expect_grep "flat: check reports CM604" 'left out to fit the size its runtime loads: NanoClaw Skill: small \[CM604\]' "$T/chk"
check "flat: the agent's memory is not in the document" sh -c "! grep -q 'Memory line' '$A'"

# 4. Only the host's own configuration fails a compose.
printf '{"document": "flat", "base": "container/missing.md"}\n' >"$R/clawmd.json"
expect_ok "flat: a missing base is a warning (nanoclaw tolerates it)" $CLAWMD compose -C "$R" main
printf '{}\n' >"$R/clawmd.json"
expect_fail 3 "imports: a missing base is the host's error" $CLAWMD compose -C "$R" --base container/missing.md main

done_testing
