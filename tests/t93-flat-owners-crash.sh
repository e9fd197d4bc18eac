#!/bin/sh
# A flat compose killed at every call that changes the disk (kill -9 via
# strace, tests/lib.sh), then run again, from three starts: clawmd's entry
# with its digest in the lock file, a hand-edited entry, and a root an older
# clawmd left (the digests in STATE/flat/<group>).  The region of the lock
# file that says whose the entries are is written before the entry (both
# digests) and after it (the new one alone), so a kill at any point leaves
# clawmd's entry recognised: the rerun moves nothing aside, and a hand edit
# is kept aside exactly once, whatever the point.
. "$CLAWMD_TESTS/lib.sh"

if ! command -v strace >/dev/null 2>&1 || ! strace -f -o /dev/null true 2>/dev/null; then
	echo "1..0 # SKIP strace unavailable"
	exit 0
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

R=$T/root
S=$R/.clawmd
G=$R/groups/main
W=$R/container/skills/web/instructions.md
make_flat_root "$R"
$CLAWMD compose -q -C "$R" main
# clawmd.json settled: the copy of its parse (ROOT/.clawmd/layout) is kept
# once, not by some of the runs below
age_out
$CLAWMD compose -q -C "$R" main
cp -a "$G" "$T/g0"
cp "$S/locks/main" "$T/lock0"

# start: NAME - the group as it was before the compose that is killed
start() {
	rm -rf "$G" "$S/flat"
	cp -a "$T/g0" "$G"
	cp "$T/lock0" "$S/locks/main"
	case $1 in
	edited) printf 'my edit\n' >>"$G/CLAUDE.md" ;;
	older) # the lines where an older clawmd kept them, its record at 0
		mkdir -p "$S/flat"
		head -c 4096 "$T/lock0" | tr -d '\000' | grep '^CLAUDE.md ' >"$S/flat/main"
		printf 'clawmd\006\nan old record' >"$S/locks/main" ;;
	esac
	printf 'Web prose, changed.\n' >"$W"
}
aside() { cat "$G"/CLAUDE.md.clawmd-preserved-* 2>/dev/null; }

for case in clean edited older; do
	start $case
	kept=
	[ $case = edited ] && kept=$(cat "$G/CLAUDE.md")
	kill_points openat,write,pwrite64,renameat,renameat2,unlink,unlinkat,rmdir,mkdir,mkdirat \
		$CLAWMD compose -C "$R" main >"$T/killpoints"
	want=$(cat "$G/CLAUDE.md")
	expect_eq "$case: the traced run keeps aside what it should" "$(aside)" "$kept"
	check "$case: the traced run leaves no STATE/flat" test ! -e "$S/flat"
	kills=0 bad=
	while read -r sc n; do
		start $case
		if ! kill_at "$sc" "$n" $CLAWMD compose -C "$R" main; then
			bad="$bad
$sc#$n: not killed there"
			continue
		fi
		kills=$((kills + 1))
		if ! $CLAWMD compose -q -C "$R" main 2>"$T/err2"; then
			bad="$bad
$sc#$n: rerun failed: $(cat "$T/err2")"
		elif [ "$(cat "$G/CLAUDE.md")" != "$want" ]; then
			bad="$bad
$sc#$n: another entry"
		elif [ "$(aside)" != "$kept" ]; then
			bad="$bad
$sc#$n: aside: '$(aside)', not '$kept'"
		elif [ -e "$S/flat/main" ]; then
			bad="$bad
$sc#$n: STATE/flat/main left"
		fi
		# and the compose after: nothing more to move
		$CLAWMD compose -q -C "$R" main 2>/dev/null
		[ "$(ls -A "$G" | grep -c preserved)" -le 1 ] || bad="$bad
$sc#$n: a second compose moved more aside"
	done <"$T/killpoints"
	check "$case: killed at $kills calls" test "$kills" -ge 3
	expect_eq "$case: every rerun after a kill: clawmd's entry, nothing lost, nothing moved twice" "$bad" ""
done

done_testing
