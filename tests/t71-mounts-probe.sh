#!/bin/sh
# The mounts of `clawmd mounts`, made for real in a private mount namespace
# shaped like the container (scripts/e2e/container.sh, no engine needed),
# and the agent's probe run there as uid 1000 (scripts/e2e/probe.sh): in
# copy and in symlink mode it cannot change the composed entry, the shared
# base, the fragments or /app, even owning every file of its group, and it
# can still write its memory.  The same group without the read-only
# mounts fails the probe (the test can fail).  Needs root and unshare -m
# (make e2e runs the same probe in a real engine); skipped without them.
. "$CLAWMD_TESTS/lib.sh"
E2E=$CLAWMD_SRC/scripts/e2e
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null || ! command -v setpriv >/dev/null; then
	echo "1..0 # SKIP needs root, unshare -m and setpriv (make e2e runs the probe in an engine)"
	exit 0
fi

R=$T/root
make_root "$R"
make_skill "$R" alpha
printf 'Alpha details.\n' >"$R/skills/alpha/details.md"
printf 'Use alpha.\n@./details.md\n' >"$R/skills/alpha/instructions.md"
G=$R/groups/main
mkdir -p "$G" "$T/nr"
printf '{"mcpServers": {"cal": {"command": "c", "instructions": "Dates."}}}\n' >"$G/container.json"

# probe MODE [--bare]: compose in MODE, make the mounts (all of them, or
# with --bare the group and /app alone) and run the probe as uid 1000.
probe() {
	$CLAWMD compose -q -C "$R" --mode "$1" main || return 99
	$CLAWMD mounts -C "$R" --mode "$1" main >"$T/mounts" || return 98
	binds='' ro=''
	for m in $(grep -v '^-v$' "$T/mounts"); do
		case $m in
		*:/workspace/agent/*) [ "${2:-}" = --bare ] && continue ;;
		esac
		binds="$binds -m $m"
		case $m in *:ro) x=${m%:ro}; ro="$ro ${x##*:}" ;; esac
	done
	[ "${2:-}" != --bare ] || ro="$ro /workspace/agent/CLAUDE.md /workspace/agent/.claude-fragments"
	chown -R -h 1000:1000 "$G"
	# shellcheck disable=SC2086
	# The probe comes on stdin, opened here: inside, /tmp is a fresh tmpfs
	# and uid 1000 may not reach the clone (one under /tmp, or a 0700 directory).
	# For the same reason a sanitizer build's LD_PRELOAD (tests/run-test.sh)
	# is dropped: ld.so would complain in every process, into the probe's output.
	env -u LD_PRELOAD unshare -m sh "$E2E/container.sh" -r "$T/nr" $binds -C /workspace/agent -- \
		setpriv --reuid=1000 --regid=1000 --clear-groups -- sh -s -- $ro <"$E2E/probe.sh" >"$T/probe" 2>&1
}

probe copy
st=$?
check "copy mode: the probe passes" test "$st" = 0
expect_eq "copy mode: every check passed" "$(grep -v '^ok - ' "$T/probe")" ""
expect_grep "copy mode: .claude-shared.md resisted a rename" '^ok - rename /workspace/agent/.claude-shared.md refused$' "$T/probe"
expect_grep "copy mode: a fragment copied with its import resisted" '^ok - append to /workspace/agent/.claude-fragments/skill-alpha/details.md refused$' "$T/probe"
expect_grep "copy mode: the entry resisted removal" '^ok - remove /workspace/agent/CLAUDE.md refused$' "$T/probe"
expect_grep "copy mode: the base under /app resisted" '^ok - overwrite /app/CLAUDE.md refused$' "$T/probe"
expect_grep "copy mode: the memory took the write" '^ok - CLAUDE.local.md \(memory\) writable$' "$T/probe"
expect_grep "... and it is there on the host" '^The agent remembers this\.$' "$G/CLAUDE.local.md"
expect_ok "... and compose after the session changes nothing it guards" $CLAWMD compose -C "$R" --mode copy --check main

probe symlink
st=$?
check "symlink mode: the probe passes" test "$st" = 0
expect_eq "symlink mode: every check passed" "$(grep -v '^ok - ' "$T/probe")" ""
expect_grep "symlink mode: the link to the base, in .claude-fragments, cannot be replaced" \
	'^ok - replace the link /workspace/agent/.claude-fragments/shared.md refused$' "$T/probe"
expect_grep "symlink mode: a write through the link to /app is refused" \
	'^ok - write through /workspace/agent/.claude-fragments/shared.md to /app/CLAUDE.md refused$' "$T/probe"
expect_grep "symlink mode: a skill's link cannot be replaced either" \
	'^ok - replace the link /workspace/agent/.claude-fragments/skill-alpha.md refused$' "$T/probe"
expect_grep "symlink mode: the MCP fragment resisted" '^ok - overwrite /workspace/agent/.claude-fragments/mcp-cal.md refused$' "$T/probe"
check "symlink mode: the link is as compose made it" test "$(readlink "$G/.claude-fragments/shared.md")" = /app/CLAUDE.md

probe copy --bare
st=$?
check "without the read-only mounts over the group, the probe fails" test "$st" != 0
expect_grep "... the agent rewrote the entry" '^not ok - overwrite /workspace/agent/CLAUDE.md$' "$T/probe"
expect_grep "... and a fragment" '^not ok - append to /workspace/agent/.claude-fragments/mcp-cal.md$' "$T/probe"
done_testing
