#!/bin/sh
# compose under failure and contention: a full disk, failing fsync and
# rename, a held lock, 200 overlapping composes, and the no-op guarantee
# checked at the syscall level.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
# These cases are about the symlink layout; copy mode (the default) is in t13.
printf '{"mode": "symlink"}\n' >"$R/clawmd.json"
make_skill "$R" alpha
make_skill "$R" beta
mkdir -p "$R/groups/g"
G=$R/groups/g
printf '{"skills": ["alpha"], "mcpServers": {"m": {"instructions": "first"}}}' >"$G/container.json"
expect_ok "baseline compose" $CLAWMD compose -C "$R" g
# Directory mtimes are left out: a staged temp that was removed again
# still touches its directory.
snap() { (cd "$G" && find . -mindepth 1 \( -type d -printf '%p %y %i\n' \) -o -printf '%p %y %i %T@ %s %l\n' | grep -v container.json | sort); }
printf '{"skills": "all", "mcpServers": {"m": {"instructions": "second"}, "n": {"instructions": "new"}}}' >"$G/container.json"
before=$(snap)

if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	# LeakSanitizer cannot run under ptrace.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	inject() { # NAME SPEC STATUS
		expect_fail "$3" "$1: exit $3" strace -f -o /dev/null -e inject="$2" $CLAWMD compose -C "$R" g
		expect_grep "$1: message names the file" "groups/g/" "$T/err"
		expect_eq "$1: group exactly as it was, no temp left" "$(snap)" "$before"
	}
	inject "full disk on write" write:error=ENOSPC:when=1 4
	inject "full disk on the second write" write:error=ENOSPC:when=2 4
	inject "failing symlink creation" symlinkat:error=EDQUOT:when=1 4
	inject "failing first rename" rename,renameat,renameat2:error=ENOSPC:when=1 4
	expect_grep "full disk reported as such" "No space left on device|Input/output|quota|Disk" "$T/err"
	expect_ok "compose succeeds once the disk has room" $CLAWMD compose -C "$R" g
	expect_file "new content in place" "$G/.claude-fragments/mcp-m.md" "second"
	# fsync only guards what exists nowhere else (clawmd_changes_apply):
	# here, a hand-written CLAUDE.md carried into CLAUDE.local.md.
	printf 'hand written\n' >"$G/CLAUDE.md"
	: >"$G/CLAUDE.local.md"
	before=$(snap)
	inject "EIO on fsync of the carried text" fsync:error=EIO:when=1 4
	expect_ok "compose succeeds once fsync works" $CLAWMD compose -C "$R" g
	expect_file "the hand-written text is carried" "$G/CLAUDE.local.md" "hand written"

	# No-op: not a single mutating syscall.
	strace -f -o "$T/trace" -e trace=%file,%desc,flock $CLAWMD compose -q -C "$R" g
	expect_eq "no-op compose: no mutating syscall" \
		"$(grep -E '^[0-9]+ +(write|rename|renameat2?|unlink|unlinkat|symlink|symlinkat|mkdir|mkdirat|fsync|fdatasync|ftruncate|fchmod|utimensat|link|linkat|rmdir)\(|O_CREAT|O_WRONLY|O_RDWR' "$T/trace" | grep -v -E 'locks/g|/dev/(null|tty)' )" ""
	check "no-op compose still took the lock" grep -q 'flock(.*LOCK_EX' "$T/trace"

	# One directory for every step (lib/compose.h): a group swapped for
	# another while compose holds its lock is not planned from one and
	# written into the other.  Stopped at its flock (the group is open by
	# then), the full program resumes to find a decoy at the group's path.
	printf '{"skills": ["beta"]}' >"$G/container.json"
	start_stopped flock "$CLAWMD_BUILD/libexec/clawmd/clawmd" compose -q -C "$R" g
	expect_eq "group swapped mid-compose: stopped at its flock" "$?" 0
	mv "$G" "$R/groups/g.away"
	mkdir "$G"
	printf '{"skills": ["alpha"]}' >"$G/container.json"
	resume_stopped
	expect_eq "group swapped mid-compose: it finishes" "$?" 0
	expect_eq "... the decoy at the group's path untouched" "$(ls -A "$G")" container.json
	check "... the directory it opened, composed from its own container.json" \
		test -L "$R/groups/g.away/.claude-fragments/skill-beta.md"
	check "... not from the decoy's" test ! -L "$R/groups/g.away/.claude-fragments/skill-alpha.md"
	rm -rf "$G"
	mv "$R/groups/g.away" "$G"
	unset ASAN_OPTIONS
else
	echo "# strace unavailable: skipping fault injection"
	for i in $(seq 26); do _report 0 "# SKIP strace"; done
	$CLAWMD compose -C "$R" g
fi

# A held lock makes compose wait, then give up with exit 5.
if command -v flock >/dev/null 2>&1; then
	# Held by this shell, so it is held for as long as the test needs,
	# however slowly the machine runs (no holder that sleeps a guess).
	mkdir -p "$R/.clawmd/locks"
	exec 9>>"$R/.clawmd/locks/g"
	flock -x 9
	expect_fail 5 "held lock: exit 5 after the timeout" $CLAWMD compose -C "$R" --lock-timeout 0.3 g
	expect_grep "lock timeout message" "timed out .* lock" "$T/err"
	expect_ok "dry-run does not need the lock" $CLAWMD compose -C "$R" --dry-run g
	exec 9>&-
fi

# 200 overlapping composes of one group, alternating modes so that each one
# rewrites the fragments: all succeed, and the result is one whole state.
# They queue for one lock, so the last waits for all the others: a lock
# timeout past any load (the default 30 s is not, under ASan on a busy
# machine); the timeout itself is tested above.
i=0
while [ $i -lt 200 ]; do
	if [ $((i % 2)) = 0 ]; then m=copy; else m=symlink; fi
	( $CLAWMD compose -C "$R" --mode $m --lock-timeout 1800 g >/dev/null 2>"$T/err.$i"
		echo $? >"$T/st.$i" ) &
	i=$((i + 1))
done
wait
expect_eq "all 200 overlapping composes succeeded" "$(cat "$T"/st.* | sort -u)" "0"
expect_eq "no temp files left" "$(ls -A "$G" "$G/.claude-fragments" | grep -c '\.tmp$')" "0"
if $CLAWMD compose -C "$R" --mode copy --check g >/dev/null 2>&1 ||
   $CLAWMD compose -C "$R" --mode symlink --check g >/dev/null 2>&1; then
	_report 0 "final state is exactly one mode's composition"
else
	_report 1 "final state is exactly one mode's composition"
fi
done_testing
