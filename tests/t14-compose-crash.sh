#!/bin/sh
# compose killed at every mutating syscall in turn (kill -9 via strace), then
# run again: it must reach the same state as an uninterrupted run, lose no
# content and leave no temp behind.
. "$CLAWMD_TESTS/lib.sh"

if ! command -v strace >/dev/null 2>&1 || ! strace -f -o /dev/null true 2>/dev/null; then
	echo "1..0 # SKIP strace unavailable"
	exit 0
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

R=$T/root
make_root "$R"
make_skill "$R" alpha
make_skill "$R" beta
mkdir -p "$R/start"
# The starting state: a legacy hand-written CLAUDE.md, a used CLAUDE.local.md
# (so the legacy file must be quarantined), no fragments yet.
printf '{"mcpServers": {"m": {"instructions": "mcp"}}}' >"$R/start/container.json"
echo "legacy instructions" >"$R/start/CLAUDE.md"
echo "local notes" >"$R/start/CLAUDE.local.md"

reset() { rm -rf "$R/groups/g" && cp -a "$R/start" "$R/groups/g"; }
# A listing with contents, the random part of quarantine names ignored
# (one find, one cksum, one sed: it runs after every kill).
state() {
	(cd "$R/groups/g" && find . -mindepth 1 \( -type l -printf '%p -> %l\n' \) \
		-o \( -type f -exec cksum {} + \) -o -printf '%p/\n') |
		sed 's/clawmd-preserved-[^/ ]*/clawmd-preserved-X/g' | sort
}
reset
$CLAWMD compose -C "$R" g 2>/dev/null
want=$(state)
check "reference run preserved the legacy file" grep -rq "legacy instructions" "$R/groups/g"

# Killed at every call that changes the disk (kill_points, tests/lib.sh).
reset
kill_points openat,write,fsync,symlinkat,mkdirat,renameat,renameat2,rename,unlinkat \
	$CLAWMD compose -C "$R" g >"$T/killpoints"
expect_eq "a traced run reaches the same state" "$(state)" "$want"
kills=0
bad=
while read -r sc n; do
	reset
	if ! kill_at "$sc" "$n" $CLAWMD compose -C "$R" g; then
		bad="$bad
$sc#$n: not killed there: the run ended first, or the call does not write"
		continue
	fi
	kills=$((kills + 1))
	if ! $CLAWMD compose -C "$R" g >/dev/null 2>"$T/err2" </dev/null; then
		bad="$bad
$sc#$n: rerun failed: $(cat "$T/err2")"
	elif [ "$(state)" != "$want" ]; then
		bad="$bad
$sc#$n: state differs:
$(state)"
	fi
done <"$T/killpoints"
check "killed at $kills mutating syscalls" test "$kills" -gt 10
expect_eq "every rerun after a kill converged to the uninterrupted state" "$bad" ""
# ---- issue 9, items 11 and 12: a swap the agent interferes with ------------
# compose stopped (SIGSTOP through strace) at chosen renameat2 calls, so the
# agent acts at an exact point; each case is the attack and the safe outcome.
S=$T/swap
make_root "$S"
make_skill "$S" alpha
mkdir -p "$S/start"
echo "hand written" >"$S/start/CLAUDE.md"
: >"$S/start/CLAUDE.local.md"
GS=$S/groups/g
sreset() { rm -rf "$GS" && cp -a "$S/start" "$GS"; }
# The index among compose's renameat2 calls of the first one matching ERE.
call_index() { # ERE
	sreset
	strace -o "$T/ref" -e trace=renameat2 $CLAWMD compose -C "$S" g >/dev/null 2>&1
	grep '^renameat2(' "$T/ref" | grep -n -E "$1" | head -n 1 | cut -d: -f1
}
# stop_run K: compose stopped (after the call: a signal injected at entry
# is delivered when the call returns) twice: after its first write (the
# staging, so compute has looked at the group; regenerable files are no
# longer fsynced, so a write is the first sure sign) and after its K-th
# renameat2.
# at_stop N waits (bounded) for the N-th stop; go_on resumes.
stop_run() {
	: >"$T/stops"
	strace -o "$T/stops" -e trace=write,renameat2 -e inject=write:signal=SIGSTOP:when=1 \
		-e inject="renameat2:signal=SIGSTOP:when=$1" \
		$CLAWMD compose -C "$S" g >"$T/out" 2>"$T/err" &
	_spid=$!
}
at_stop() {
	_i=0
	while [ $_i -lt 36000 ] && kill -0 $_spid 2>/dev/null &&
		[ "$(grep -c 'stopped by SIGSTOP' "$T/stops")" -lt "$1" ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	_child=$(pgrep -P $_spid | head -n 1)
	[ "$(grep -c 'stopped by SIGSTOP' "$T/stops")" -ge "$1" ]
}
go_on() { kill -CONT "$_child" 2>/dev/null; }
finish() { # the run's exit status; never leaves a stopped process behind
	_i=0
	while kill -0 $_spid 2>/dev/null && [ $_i -lt 36000 ]; do
		go_on
		sleep 0.05
		_i=$((_i + 1))
	done
	kill -9 $_spid $_child 2>/dev/null
	wait $_spid
}
# Every file in the group with this content (names normalized).
holding() { # TEXT
	(cd "$GS" && grep -l -x -F -- "$1" $(find . -maxdepth 1 -type f | sort) 2>/dev/null |
		sed 's/clawmd-preserved-.*/clawmd-preserved-X/' | tr '\n' ' ')
}

if command -v pgrep >/dev/null 2>&1; then
	# The hand edit is carried into the empty memory in place (issue 42):
	# compose first tries to rename its staged text into a missing
	# CLAUDE.local.md (RENAME_NOREPLACE, which fails: it is there), then
	# appends to it.  Stopped right after that rename, the agent acts.
	k=$(call_index 'CLAUDE\.local\.md", RENAME_NOREPLACE')
	check "the rename into a missing CLAUDE.local.md is found among compose's renames (#$k)" test -n "$k"
	k=${k:-1}

	# Item 11: the agent writes its memory after compute saw it empty: the
	# text is not carried into it (it is the agent's now); the hand-written
	# entry goes aside.
	sreset
	stop_run "$k"
	at_stop 1 && echo "agent notes" >"$GS/CLAUDE.local.md"
	go_on
	finish
	expect_eq "item 11: compose still succeeds" "$?" 0
	expect_eq "item 11: the agent's memory is CLAUDE.local.md, alone" "$(holding 'agent notes')" "./CLAUDE.local.md "
	expect_eq "item 11: the hand-written entry is kept aside" \
		"$(holding 'hand written')" "./CLAUDE.md.clawmd-preserved-X "
	check "item 11: no temp left" sh -c "! ls -A '$GS' | grep -q '\.tmp$'"

	# The agent renames its (empty) memory away once compose found it:
	# missing again, the carried text takes the name.
	sreset
	stop_run "$k"
	at_stop 1 && go_on
	at_stop 2 && mv "$GS/CLAUDE.local.md" "$GS/renamed.md"
	finish
	expect_eq "item 11, renamed away: compose succeeds" "$?" 0
	expect_eq "item 11, renamed away: the edit is the memory" \
		"$(holding 'hand written')" "./CLAUDE.local.md "
	check "item 11, renamed away: the agent's file is untouched" test -f "$GS/renamed.md" -a ! -s "$GS/renamed.md"
	check "item 11, renamed away: no temp left" sh -c "! ls -A '$GS' | grep -q '\.tmp$'"

	# The same, and the agent also made a new CLAUDE.local.md: that one is
	# the agent's memory; the entry goes aside, reported.
	sreset
	stop_run "$k"
	at_stop 1 && go_on
	at_stop 2 && mv "$GS/CLAUDE.local.md" "$GS/renamed.md" && echo "newer notes" >"$GS/CLAUDE.local.md"
	finish
	expect_eq "item 11, name taken again: compose succeeds" "$?" 0
	expect_eq "item 11, name taken again: the newer memory stays" \
		"$(holding 'newer notes')" "./CLAUDE.local.md "
	expect_eq "item 11, name taken again: the entry is preserved aside" \
		"$(holding 'hand written')" "./CLAUDE.md.clawmd-preserved-X "
	check "item 11, name taken again: no temp left" sh -c "! ls -A '$GS' | grep -q '\.tmp$'"
	expect_grep "item 11, name taken again: reported" "CLAUDE\.md was not written by clawmd; moved aside to groups/g/CLAUDE\.md\.clawmd-preserved-" "$T/err"

	# Item 12: compose killed (-9) right after it appended the edit to the
	# memory (at the fsync that follows: the third, after the staged text's
	# and the new fragments directory's), before it replaced the entry: the
	# next compose finds the memory in use and keeps the entry aside too.
	# Twice kept, never lost.
	sreset
	kill_at fsync 3 $CLAWMD compose -C "$S" g
	expect_eq "item 12: killed right after the append" "$?" 0
	check "item 12: the edit is in the memory" grep -qx 'hand written' "$GS/CLAUDE.local.md"
	check "item 12: and still in the entry" grep -qx 'hand written' "$GS/CLAUDE.md"
	expect_ok "item 12: the next compose succeeds" $CLAWMD compose -C "$S" g
	expect_eq "item 12: the edit is kept, in the memory and aside" \
		"$(holding 'hand written')" "./CLAUDE.local.md ./CLAUDE.md.clawmd-preserved-X "
	expect_grep "item 12: and reported" "was not written by clawmd; moved aside to groups/g/CLAUDE\.md\.clawmd-preserved-" "$T/err"
	check "item 12: no temp left" sh -c "! ls -A '$GS' | grep -q '\.tmp$'"

	# Item 12, commit_entry: an entry composed before, the agent editing it
	# just before compose swaps in the new one, compose killed right after.
	sreset
	rm -f "$GS/CLAUDE.md"
	$CLAWMD compose -C "$S" g 2>/dev/null
	make_skill "$S" beta # the entry changes: alpha and beta
	cp -a "$GS" "$T/composed"
	strace -o "$T/ref" -e trace=renameat2 $CLAWMD compose -C "$S" g >/dev/null 2>&1
	ke=$(grep '^renameat2(' "$T/ref" | grep -n 'CLAUDE\.md", RENAME_EXCHANGE' | head -n 1 | cut -d: -f1)
	rm -rf "$GS" && cp -a "$T/composed" "$GS"
	stop_run "${ke:-1}"
	at_stop 1 && echo "agent edit" >>"$GS/CLAUDE.md"
	go_on
	at_stop 2 && kill -9 "$_child"
	finish
	check "item 12 (entry): killed after the swap, the edit sits at a temp name" \
		sh -c "grep -l 'agent edit' '$GS'/.CLAUDE.md.*.tmp"
	expect_ok "item 12 (entry): the next compose succeeds" $CLAWMD compose -C "$S" g
	check "item 12 (entry): the edited entry is preserved with the edit" \
		sh -c "grep -q 'agent edit' '$GS'/CLAUDE.md.clawmd-preserved-*"
	check "item 12 (entry): no temp left" sh -c "! ls -A '$GS' | grep -q '\.tmp$'"
	expect_ok "item 12 (entry): converged" $CLAWMD compose -C "$S" --check g

	# The window between judging the swapped-out entry (exactly what
	# compute saw: clawmd's own) and unlinking it: the agent opens it there
	# for writing, through its temp name.  Its open waits on compose's
	# lease (/proc/locks shows the lease breaking), so compose keeps the
	# file rather than unlink it, and the write lands in what was kept.
	rm -rf "$GS" && cp -a "$T/composed" "$GS"
	strace -o "$T/ref" -e trace=newfstatat,unlinkat $CLAWMD compose -C "$S" g >/dev/null 2>&1
	kf=$(grep -E '^(newfstatat|unlinkat)\(' "$T/ref" |
		awk '/^unlinkat\(.*"\.CLAUDE\.md\./ { print n; exit } /^newfstatat/ { n++ }')
	rm -rf "$GS" && cp -a "$T/composed" "$GS"
	: >"$T/stops"
	strace -o "$T/stops" -e trace=newfstatat,unlinkat \
		-e inject="newfstatat:signal=SIGSTOP:when=${kf:-1}" \
		$CLAWMD compose -C "$S" g >"$T/out" 2>"$T/err" &
	_spid=$!
	at_stop 1 && for f in "$GS"/.CLAUDE.md.*.tmp; do echo "late write" >>"$f" & done
	_i=0
	while ! grep -q 'LEASE  *BREAKING' /proc/locks && [ $_i -lt 100 ]; do sleep 0.05; _i=$((_i + 1)); done
	check "window before the unlink: the agent's open waits on the lease" grep -q 'LEASE  *BREAKING' /proc/locks
	finish
	expect_eq "window before the unlink: compose succeeds" "$?" 0
	wait
	check "window before the unlink: the temp was kept, not unlinked" \
		sh -c "! sed -n '/stopped by SIGSTOP/,\$p' '$T/stops' | grep -q '^unlinkat(.*\"\.CLAUDE\.md\..*= 0'"
	check "window before the unlink: the late write is kept" \
		sh -c "grep -q 'late write' '$GS'/CLAUDE.md.clawmd-preserved-*"
	expect_grep "window before the unlink: reported" "CLAUDE\.md was edited while compose ran; moved aside to" "$T/err"
	check "window before the unlink: no temp left" sh -c "! ls -A '$GS' | grep -q '\.tmp$'"
	rm -rf "$S/skills/beta"
fi
done_testing
