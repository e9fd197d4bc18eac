#!/bin/sh
# A file the agent renames onto a name compose is removing, at the moment it
# removes it, is not lost (lib/fs/aside.c, clawmd_fs_remove_own, step 3).
# compose removes a stale entry (AGENTS.md once the group stops running
# Codex) only when it is its own; no system call unlinks only a given
# inode, so between the check and the unlink the name could come to hold
# the agent's file.  The window is held open: strace delays the entry of
# every unlinkat and renameat2 (the calls that take a name away) by
# seconds, and the agent renames its notes onto AGENTS.md a second after
# compose first opened it (tests/on-inotify.c), inside that delay.  The
# notes must be in the group after compose, with a warning saying where.
# (A slow machine can only move the rename before compose's check, where
# it was always caught: the test then passes without the race, never fails
# with the fix.)
. "$CLAWMD_TESTS/lib.sh"

if ! strace -f -o /dev/null true 2>/dev/null || [ ! -x "${CLAWMD_BUILD:-}/tests/on-inotify" ]; then
	for _k in 1 2 3 4 5 6 7; do _report 0 "# SKIP strace or tests/on-inotify unavailable"; done
	done_testing
	exit 0
fi

# LeakSanitizer cannot run under ptrace.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

R=$T/root
G=$R/groups/main
make_root "$R"
make_skill "$R" alpha
printf '{}' >"$R/clawmd.json"
mkdir -p "$G"

# a stale entry, removed
printf '{"runtimes": ["claude", "codex"]}' >"$G/container.json"
expect_ok "composed for Claude Code and Codex" $CLAWMD -C "$R" compose main
check "AGENTS.md composed" test -f "$G/AGENTS.md"
printf '{"runtimes": ["claude"]}' >"$G/container.json"
printf 'precious notes\n' >"$G/notes.md"
ON=${CLAWMD_BUILD:-}/tests/on-inotify
rm -f "$T/ready"
"$ON" "$T/ready" "$G" open AGENTS.md sh -c "sleep 1; mv '$G/notes.md' '$G/AGENTS.md'" &
apid=$!
i=0
while [ ! -e "$T/ready" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
strace -f -qq -o /dev/null -e trace=unlinkat,renameat2 \
	-e inject=unlinkat,renameat2:delay_enter=4000000 $CLAWMD -C "$R" compose main >"$T/out" 2>"$T/err"
st=$?
kill $apid 2>/dev/null
wait $apid
expect_eq "the agent's rename ran while compose worked" "$?" 0
expect_eq "compose went on (exit 0)" "$st" 0
[ "$st" = 0 ] || sed 's/^/# /' "$T/err" | head -20
kept=$(grep -rl --include='AGENTS.md*' 'precious notes' "$G" | head -n 1)
check "the notes renamed onto AGENTS.md while it was removed are kept ($kept)" test -n "$kept"
expect_grep "a warning says where" "AGENTS.md.*moved aside to groups/main/AGENTS.md.clawmd-preserved-" "$T/err"
expect_eq "no temp left behind" "$(find "$G" -name '*.tmp')" ""
done_testing
