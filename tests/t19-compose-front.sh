#!/bin/sh
# The static front (cmd/front.c): build/clawmd answers the per-spawn no-op
# compose alone, and hands every other run to the full program
# (libexec/clawmd/clawmd) before printing or writing anything, so that what
# a user sees is the full program's, byte for byte.
. "$CLAWMD_TESTS/lib.sh"
CLAWMD=$FRONT

FULL=$CLAWMD_BUILD/libexec/clawmd/clawmd
# The front finds the full program beside /proc/self/exe: symlinks resolved.
BIN=$(cd "$CLAWMD_BUILD/bin" && pwd -P)
R=$T/root
make_root "$R"
make_skill "$R" alpha
make_skill "$R" beta
mkdir -p "$R/groups/g" "$R/groups/h"
G=$R/groups/g
echo '{"skills": ["alpha", "nope"]}' >"$G/container.json"
echo '{"skills": ["beta"]}' >"$R/groups/h/container.json"
# An unknown key: a warning from clawmd.json, which the front must hold
# back until it knows it answers.
echo '{"mode": "copy", "colour": "blue"}' >"$R/clawmd.json"
touch -d '-1 minute' "$R/clawmd.json" "$G/container.json" "$R/groups/h/container.json"
$CLAWMD compose -C "$R" g h >/dev/null 2>&1
age_out # a no-op records only what is older than itself (lib/compose/record.c)
$CLAWMD compose -C "$R" g h >/dev/null 2>&1

if nm "$CLAWMD_BUILD/libclawmd.a" 2>/dev/null | grep -q __asan; then
	_report 0 "# SKIP the sanitizer build's front is dynamic"
else
	check "build/clawmd is statically linked (no program interpreter)" \
		sh -c "! readelf -l '$CLAWMD' | grep -q 'program interpreter'"
fi
check "the full program is built beside it" test -x "$FULL"

# A no-op says what the full program says about it, and nothing more.
for q in "" "-q"; do
	"$FULL" compose $q -C "$R" g >"$T/full.out" 2>"$T/full.err"
	expect_ok "no-op compose $q" $CLAWMD compose $q -C "$R" g
	expect_eq "... prints what the full program prints" "$(cat "$T/out" "$T/err")" \
		"$(cat "$T/full.out" "$T/full.err")"
	[ -z "$q" ] && cp "$T/err" "$T/warned"
done
expect_grep "... the clawmd.json warning included" "colour" "$T/warned"
expect_grep "... and the group's own" "nope" "$T/warned"
# The warning compose owes every run in symlink mode under a release that
# drops symlinked imports (DESIGN, fragment modes): the front's no-op says it.
$CLAWMD compose -q -C "$R" --mode symlink h >/dev/null 2>&1
age_out
$CLAWMD compose -q -C "$R" --mode symlink h >/dev/null 2>&1
"$FULL" compose -C "$R" --mode symlink h >"$T/full.out" 2>"$T/full.err"
expect_ok "no-op compose in symlink mode" $CLAWMD compose -C "$R" --mode symlink h
expect_eq "... prints what the full program prints" "$(cat "$T/out" "$T/err")" \
	"$(cat "$T/full.out" "$T/full.err")"
expect_eq "... the symlink-mode warning once" "$(grep -c 'warning: symlink mode: Claude Code' "$T/err")" 1

if ! command -v strace >/dev/null 2>&1; then
	for i in $(seq 1 49); do _report 0 "# SKIP strace"; done
	done_testing
fi
# LeakSanitizer cannot run under ptrace: no leak check in traced runs.
NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# traced CMD...: CMD under strace; $T/front is what ran before the hand-over
# (all of it when there was none), $T/execs how many programs ran.
traced() {
	env "$NOLEAK" strace -f -s 4096 -o "$T/trace" "$@" >"$T/out" 2>"$T/err"
	_st=$?
	grep -c ' execve(' "$T/trace" >"$T/execs"
	awk '/ execve\(/ && ++n == 2 { exit } { print }' "$T/trace" >"$T/front"
	return $_st
}
# What the front may never do before it hands over: print, or write,
# create, rename, remove or link anything.
front_wrote() {
	grep -E ' (write|pwrite64|writev|rename|renameat2?|unlink|unlinkat|mkdir|mkdirat|symlink|symlinkat|link|linkat|fchmod|fchmodat|ftruncate|fsync|fdatasync|syncfs)\(|O_CREAT|O_WRONLY|O_RDWR' \
		"$T/front" | grep -v '/dev/null'
}
execs() { cat "$T/execs"; }

traced $CLAWMD compose -C "$R" g
expect_eq "a no-op is answered by the front alone" "$(execs)" 1
expect_eq "... which writes nothing but its warnings" "$(front_wrote | grep -v ' write(2, ')" ""
traced $CLAWMD compose -C "$R" --mode symlink h
expect_eq "a symlink-mode no-op too" "$(execs)" 1

# Each run the front does not answer: one hand-over, to the full program,
# with the same arguments, after nothing was written; the output is the
# full program's own.
handed() { # NAME CMD-ARGS...
	_hname=$1
	shift
	"$FULL" "$@" >"$T/full.out" 2>"$T/full.err"
	_want=$?
	traced $CLAWMD "$@"
	_got=$?
	expect_eq "$_hname: handed over once" "$(execs)" 2
	check "$_hname: to libexec/clawmd/clawmd, same arguments" \
		grep -qF "execve(\"$BIN/../libexec/clawmd/clawmd\", [\"$CLAWMD\", \"$(echo "$@" | sed 's/ /", "/g')\"]" "$T/trace"
	expect_eq "$_hname: nothing written before" "$(front_wrote)" ""
	expect_eq "$_hname: the full program's output and status" \
		"$_got $(cat "$T/out" "$T/err")" "$_want $(cat "$T/full.out" "$T/full.err")"
}
handed "compose --check" compose --check -C "$R" g
handed "two groups" compose -C "$R" g h
handed "render" render -C "$R" --group g
handed "--all" compose --all -C "$R"
handed "--dry-run" compose --dry-run -C "$R" g
handed "--json" compose --json -C "$R" g
# An error is the full program's to say, after the clawmd.json warning it
# prints first.
handed "a missing group" compose -C "$R" nosuch
handed "an invalid group name" compose -C "$R" .hidden
handed "status" status -C "$R"

# A compose that must write: handed over before the front wrote anything.
echo '{"skills": ["alpha", "beta"]}' >"$G/container.json"
traced $CLAWMD compose -C "$R" g
expect_eq "a changed group: handed over" "$(execs)" 2
expect_eq "... nothing written by the front" "$(front_wrote)" ""
check "... and the full program composed it" test -f "$G/.claude-fragments/skill-beta.md"

# clawmd.json edited: the front would need the JSON parser, so it hands over.
echo '{"mode": "copy"}' >"$R/clawmd.json"
touch -d '-30 seconds' "$R/clawmd.json"
traced $CLAWMD compose -C "$R" g
expect_eq "clawmd.json changed: handed over" "$(execs)" 2
expect_eq "... nothing written by the front" "$(front_wrote)" ""

# Another compose of the group holds the lock: the front does not wait,
# the full program does (and times out here).
exec 9<"$R/.clawmd/locks/g"
flock -x 9
traced $CLAWMD compose -C "$R" --lock-timeout 0 g
expect_eq "a busy lock: handed over" "$(execs)" 2
expect_eq "... the full program timed out waiting (exit 5)" "$_st" 5
exec 9>&-

# Without the full program, the front still answers a no-op, and refuses
# the rest by naming what is missing (exit 4).
mkdir -p "$T/alone/bin"
cp "$CLAWMD_BUILD/bin/clawmd" "$T/alone/bin/clawmd"
# The run that records is the full program's: clawmd.json changed just
# above, and a run within the racy window of that change records nothing
# (on a fast machine the last full compose was such a run).
age_out
$CLAWMD compose -q -C "$R" g >/dev/null 2>&1
age_out
"$T/alone/bin/clawmd" compose -q -C "$R" g >/dev/null 2>&1
expect_ok "alone, the front answers a no-op" "$T/alone/bin/clawmd" compose -C "$R" g
expect_fail 4 "alone, it cannot render" "$T/alone/bin/clawmd" render -C "$R" --group g
expect_grep "... and names the full program it looked for" \
	"cannot run the full program '$(cd "$T/alone/bin" && pwd -P)/../libexec/clawmd/clawmd'" "$T/err"
done_testing
