#!/bin/sh
# compose: carrying a hand-edited composed entry, leftovers that are and are
# not clawmd's, copy mode that never copies from outside a source mount,
# edits racing with apply, and bounded reads of planted files.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" alpha
mkdir -p "$R/groups/g"
G=$R/groups/g
expect_ok "baseline" $CLAWMD compose -C "$R" g

# A composed entry edited by hand carries only the added text.
printf 'remember: the deploy key is in the vault\n' >>"$G/CLAUDE.md"
expect_ok "compose after editing the composed entry" $CLAWMD compose -C "$R" g
expect_file "only the added line is carried into CLAUDE.local.md" "$G/CLAUDE.local.md" \
	"remember: the deploy key is in the vault"
# An edit that only touches clawmd's own lines carries nothing.
: >"$G/CLAUDE.local.md"
sed -i '/skill-alpha/d' "$G/CLAUDE.md"
expect_ok "compose after removing an import line" $CLAWMD compose -C "$R" g
check "nothing carried, nothing quarantined" sh -c "test ! -s '$G/CLAUDE.local.md' && ! ls -A '$G' | grep -q preserved"
expect_ok "converged" $CLAWMD compose -C "$R" --check g

# Leftovers: clawmd's own temps (holding what they were staged with, the
# digest in their names) go, anybody else's stay.
echo stale >"$T/stale"
tc=$(staged_temp CLAUDE.md "$T/stale")
ts=$(staged_temp skill-alpha.md "$T/stale")
cp "$T/stale" "$G/$tc"
cp "$T/stale" "$G/.claude-fragments/$ts"
echo precious >"$G/.notes.0123456789abcdef.tmp"
echo precious >"$G/.claude-fragments/.mine.0123456789abcdef.tmp"
expect_fail 1 "clawmd's leftover temps are drift" $CLAWMD compose -C "$R" --check g
expect_grep "reported as removals" "^remove groups/g/$tc\$" "$T/out"
expect_ok "compose removes them" $CLAWMD compose -C "$R" g
check "own temps removed" test ! -e "$G/$tc" -a ! -e "$G/.claude-fragments/$ts"
check "foreign temp-like files kept" test -f "$G/.notes.0123456789abcdef.tmp" -a -f "$G/.claude-fragments/.mine.0123456789abcdef.tmp"
mkdir "$G/..claude-fragments.00000000000000aa.tmp"
echo frag >"$G/..claude-fragments.00000000000000aa.tmp/skill-alpha.md"
echo other >"$G/..claude-fragments.00000000000000aa.tmp/keep.txt"
expect_ok "a staging directory with foreign content" $CLAWMD compose -C "$R" g
check "it is moved aside with its content" sh -c "cat '$G'/..claude-fragments.00000000000000aa.tmp.clawmd-preserved-*/keep.txt | grep -q other"
expect_ok "and is not drift forever" $CLAWMD compose -C "$R" --check g

# Stale fragments are removed without reading them: 300 hard links to a
# 4 MiB file cost nothing (a read would be 1.2 GB).
head -c 4194304 /dev/zero >"$T/big"
i=0
while [ $i -lt 300 ]; do ln "$T/big" "$G/.claude-fragments/mcp-x$i.md" 2>/dev/null || cp "$T/big" "$G/.claude-fragments/mcp-x$i.md"; i=$((i + 1)); done
expect_ok "compose removes many large stale fragments" $CLAWMD compose -C "$R" g
check "all removed" sh -c "! ls '$G/.claude-fragments' | grep -q mcp-x"
check "the target survives" test -s "$T/big"

# Copy mode never copies a file from outside a source directory.
echo "host secret" >"$T/secret"
mkdir -p "$R/skills/evil"
ln -s "$T/secret" "$R/skills/evil/instructions.md"
expect_fail 3 "copy mode refuses a source leading outside its directory" $CLAWMD compose -C "$R" --mode copy g
expect_grep "the refusal names the source" "source '.*skills/evil/instructions.md' leads outside" "$T/err"
check "the secret was not copied" sh -c "! grep -rq 'host secret' '$G'"
rm -r "$R/skills/evil"
mkdir -p "$R/skills/inner"
echo "inner text" >"$R/skills/alpha/shared.txt"
ln -s ../alpha/shared.txt "$R/skills/inner/instructions.md"
expect_ok "a symlink staying inside the skills directory is fine" $CLAWMD compose -C "$R" --mode copy g
expect_file "copied through the inner link" "$G/.claude-fragments/skill-inner.md" "inner text"
rm -r "$R/skills/inner"
expect_ok "back to symlinks" $CLAWMD compose -C "$R" g

# Planted names and link targets are printed escaped, never raw.
ln -s "$(printf '/x\n\033[2Jall clean')" "$G/.claude-fragments/skill-zz.md"
expect_fail 1 "drift with a hostile link target" $CLAWMD compose -C "$R" --check g
expect_grep "the target is escaped" 'symlink remove groups/g/.claude-fragments/skill-zz.md -> /x\\x0a\\x1b\[2Jall clean' "$T/out"
check "no raw escape byte in the output" sh -c "! grep -q \"$(printf '\033')\" '$T/out'"
$CLAWMD compose -C "$R" g

# Races with apply: edits made while compose works are never lost.
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null &&
	command -v pgrep >/dev/null 2>&1; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	printf '{"mcpServers": {"m": {"instructions": "new"}}}' >"$G/container.json"
	# compose is stopped at its first write (staging, after it compared);
	# meanwhile the agent edits CLAUDE.md, which compose saw as its own,
	# stale output.
	start_stopped write $CLAWMD compose -C "$R" g
	echo "agent wrote this meanwhile" >>"$G/CLAUDE.md"
	resume_stopped
	expect_eq "racing compose succeeded" "$?" 0
	check "the racing edit was preserved" sh -c "grep -rlq 'agent wrote this meanwhile' '$G' && ! grep -q 'agent wrote' '$G/CLAUDE.md'"
	expect_grep "and the warning says where" "moved aside to groups/g/CLAUDE.md.clawmd-preserved-" "$T/err"

	# A legacy CLAUDE.md is to be carried into the empty CLAUDE.local.md,
	# but the agent writes CLAUDE.local.md meanwhile.
	rm -f "$G"/CLAUDE.md.clawmd-preserved-*
	: >"$G/CLAUDE.local.md"
	echo "legacy text" >"$G/CLAUDE.md"
	start_stopped fsync $CLAWMD compose -C "$R" g
	echo "fresh memory" >"$G/CLAUDE.local.md"
	resume_stopped
	expect_eq "that compose succeeded too" "$?" 0
	expect_file "the agent's new memory survives" "$G/CLAUDE.local.md" "fresh memory"
	check "the legacy text survives elsewhere" sh -c "grep -rlq 'legacy text' '$G'"
	unset ASAN_OPTIONS
fi
done_testing
