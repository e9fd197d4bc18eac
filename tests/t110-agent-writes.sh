#!/bin/sh
# Nothing the agent writes is lost while compose works (issue 42): every
# path that takes one of the agent's files away keeps the writes that land
# on its inode afterwards.  Each case is a loss mechanism the soak found
# (scripts/soak), made deterministic: a descriptor the agent holds open
# across a compose (a shell's `exec 3>>`), written to after compose.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
G=$R/groups/g
make_root "$R"
make_skill "$R" alpha
printf '{}' >"$R/clawmd.json"
mkdir -p "$G"
printf '{"skills": ["alpha"]}' >"$G/container.json"
expect_ok "baseline compose" $CLAWMD -C "$R" compose g
check "CLAUDE.local.md created empty" test -f "$G/CLAUDE.local.md" -a ! -s "$G/CLAUDE.local.md"
ino() { stat -c %i "$1"; }
# Where a line is, anywhere in the group (moved aside or not).
found() { grep -rlF -- "$1" "$G" | sed "s|^$G/||" | sort | tr '\n' ' '; }

# 1. The deterministic case of the issue: the agent keeps its memory open
# for append; CLAUDE.md is hand-edited; compose carries the edit into the
# memory.  The memory's inode is never replaced: the agent's next line
# lands in CLAUDE.local.md, after the carried text.
before=$(ino "$G/CLAUDE.local.md")
exec 3>>"$G/CLAUDE.local.md"
echo "hand edit one" >>"$G/CLAUDE.md"
expect_ok "compose carries a hand edit into the open memory" $CLAWMD -C "$R" compose g
expect_grep "the edit is carried, with a warning" "its text is now the group.s memory" "$T/err"
echo "agent line one" >&3
exec 3>&-
expect_eq "the memory keeps its inode" "$(ino "$G/CLAUDE.local.md")" "$before"
expect_eq "the agent's line is in the memory" "$(found 'agent line one')" "CLAUDE.local.md "
expect_eq "the carried edit is in the memory" "$(found 'hand edit one')" "CLAUDE.local.md "
expect_eq "the memory: the edit, then the agent's line" "$(cat "$G/CLAUDE.local.md")" \
	"hand edit one
agent line one"
expect_ok "compose --check agrees" $CLAWMD -C "$R" compose --check g
expect_eq "nothing moved aside" "$(ls -A "$G" | grep -c preserved)" 0

# 2. The agent holds CLAUDE.md open for append (compose's own, unedited)
# when a source change makes compose replace it: the old inode is open for
# writing, so it is never unlinked but kept aside, where the next line lands.
exec 3>>"$G/CLAUDE.md"
printf '{"skills": ["alpha", "beta"]}' >"$G/container.json"
make_skill "$R" beta
expect_ok "compose replaces the CLAUDE.md the agent holds open" $CLAWMD -C "$R" compose g
echo "agent line two" >&3
exec 3>&-
kept=$(found 'agent line two')
check "the line written to the replaced CLAUDE.md is kept ($kept)" \
	sh -c "echo '$kept' | grep -q '^CLAUDE.md.clawmd-preserved-'"
expect_grep "a warning says where" "CLAUDE.md .*moved aside to groups/g/CLAUDE.md.clawmd-preserved-" "$T/err"
expect_ok "the new CLAUDE.md is composed" $CLAWMD -C "$R" compose --check g
rm -f "$G"/CLAUDE.md.clawmd-preserved-*

# 3. An empty file the agent left under the name of a killed run's temp
# is clawmd's to remove, unless somebody holds it open for writing.
: >"$G/.CLAUDE.local.md.0123456789abcdef.tmp"
exec 3>>"$G/.CLAUDE.local.md.0123456789abcdef.tmp"
expect_ok "compose with an open leftover" $CLAWMD -C "$R" compose g
echo "agent line three" >&3
exec 3>&-
kept=$(found 'agent line three')
check "the line written to the open leftover is kept ($kept)" \
	sh -c "echo '$kept' | grep -q '^CLAUDE.local.md.clawmd-preserved-'"
rm -f "$G"/CLAUDE.local.md.clawmd-preserved-*
: >"$G/.CLAUDE.local.md.0123456789abcdef.tmp"
expect_ok "compose with a closed empty leftover" $CLAWMD -C "$R" compose g
expect_eq "that one is removed, nothing kept" "$(ls -A "$G" | grep -c 'tmp$\|preserved')" 0

# 4. The race the soak found, held open: an open for writing that
# looked the file up before compose took it away, and a write after.
# strace delays every rename and unlink by seconds; the agent opens the
# leftover (by the name it had) a second after compose first opened it,
# inside that delay, and writes five seconds later, when compose would
# have unlinked it.  The lease holds that open until compose is done, and
# compose, seeing it wait, keeps the file: the line lands where it can be
# found.
if strace -f -o /dev/null true 2>/dev/null && [ -x "${CLAWMD_BUILD:-}/tests/on-inotify" ]; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	L=.CLAUDE.md.fedcba9876543210.tmp
	: >"$G/$L"
	rm -f "$T/ready"
	"$CLAWMD_BUILD/tests/on-inotify" "$T/ready" "$G" open "$L" \
		sh -c "sleep 1; exec 3>>'$G/$L'; sleep 5; echo 'agent line four' >&3" &
	apid=$!
	i=0
	while [ ! -e "$T/ready" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
	strace -f -qq -o /dev/null -e trace=unlinkat,renameat2 \
		-e inject=unlinkat,renameat2:delay_enter=2000000 $CLAWMD -C "$R" compose g >"$T/out" 2>"$T/err"
	expect_eq "compose went on (exit 0)" "$?" 0
	wait $apid
	expect_eq "the agent's write ran" "$?" 0
	kept=$(found 'agent line four')
	check "the line of an open that waited on compose is kept ($kept)" test -n "$kept"
	rm -f "$G"/CLAUDE.md.clawmd-preserved-* "$G/$L"
else
	for _k in 1 2 3; do _report 0 "# SKIP strace or tests/on-inotify unavailable"; done
fi

# 5. What the agent churns is bounded: the same name moved aside again
# and again stops at CLAWMD_PRESERVED_CAP (16) entries; the content of the
# next ones is appended to one overflow file, with a warning naming the
# cap.  Everything kept is the group directory's owner's (here uid 1000;
# compose runs as root), so it counts against the agent's quota.
if [ "$(id -u)" = 0 ]; then
	chown 1000:1000 "$G"
	echo "my memory" >"$G/CLAUDE.local.md"
	i=1
	while [ $i -le 20 ]; do
		echo "churn $i" >>"$G/CLAUDE.md"
		$CLAWMD -C "$R" compose g >"$T/out" 2>"$T/err$i" || echo "compose $i failed" >>"$T/fails"
		i=$((i + 1))
	done
	expect_eq "every compose of the churn succeeded" "$(cat "$T/fails" 2>/dev/null)" ""
	expect_eq "16 entries moved aside, then the overflow" \
		"$(ls -A "$G" | grep -c '^CLAUDE.md.clawmd-preserved-')" 17
	check "the overflow file is there" test -f "$G/CLAUDE.md.clawmd-preserved-overflow"
	lost=
	i=1
	while [ $i -le 20 ]; do
		[ -n "$(grep -rlx -- "churn $i" "$G")" ] || lost="$lost $i"
		i=$((i + 1))
	done
	expect_eq "no churned edit lost" "$lost" ""
	expect_eq "edits 17 to 20 are in the overflow" \
		"$(grep -cx 'churn 1[7-9]\|churn 20' "$G/CLAUDE.md.clawmd-preserved-overflow")" 4
	expect_grep "the warning names the cap" \
		"kept in groups/g/CLAUDE.md.clawmd-preserved-overflow: 16 entries moved aside as CLAUDE.md already wait for review \(the cap\)" "$T/err17"
	# Past the cap, a symlink is its target and an empty directory its
	# name: recorded in the overflow file, not kept one by one.
	rm -f "$G/CLAUDE.md"
	ln -s /etc/hostname "$G/CLAUDE.md"
	expect_ok "compose over a symlink past the cap" $CLAWMD -C "$R" compose g
	rm -f "$G/CLAUDE.md"
	mkdir "$G/CLAUDE.md"
	expect_ok "compose over an empty directory past the cap" $CLAWMD -C "$R" compose g
	expect_eq "still 16 entries and the overflow file" \
		"$(ls -A "$G" | grep -c '^CLAUDE.md.clawmd-preserved-')" 17
	expect_grep "the symlink's target is recorded" "a symlink to '/etc/hostname'" "$G/CLAUDE.md.clawmd-preserved-overflow"
	expect_grep "the directory is recorded" "an empty directory" "$G/CLAUDE.md.clawmd-preserved-overflow"
	# A file held open for writing cannot be appended and removed: past
	# the cap it is moved aside whole, where its writes land; once closed,
	# the next compose that moves something aside appends it too.
	rmdir "$G/CLAUDE.md" 2>/dev/null
	expect_ok "compose" $CLAWMD -C "$R" compose g
	echo "held one" >>"$G/CLAUDE.md"
	exec 3>>"$G/CLAUDE.md"
	expect_ok "compose past the cap over a file held open" $CLAWMD -C "$R" compose g
	echo "held two" >&3
	exec 3>&-
	held=$(ls -A "$G" | grep '^CLAUDE.md.clawmd-preserved-overflow-')
	check "it is moved aside past the cap ($held)" test -n "$held"
	expect_grep "with the warning" "moved aside past the cap to groups/g/CLAUDE.md.clawmd-preserved-overflow-" "$T/err"
	expect_grep "its later write is in it" "held two" "$G/$held"
	echo "churn 21" >>"$G/CLAUDE.md"
	expect_ok "the next compose that moves aside" $CLAWMD -C "$R" compose g
	expect_eq "appends what went past the cap once closed" \
		"$(ls -A "$G" | grep -c '^CLAUDE.md.clawmd-preserved-overflow-')" 0
	expect_eq "the held file's lines are in the overflow, once each" \
		"$(grep -c '^held one$\|^held two$' "$G/CLAUDE.md.clawmd-preserved-overflow")" 2
	expect_grep "and the new edit" "churn 21" "$G/CLAUDE.md.clawmd-preserved-overflow"
	expect_eq "all of it owned by the group directory's owner" \
		"$(cd "$G" && stat -c %u CLAUDE.md.clawmd-preserved-* | sort -u)" 1000
	# Root in a container with docker's default capabilities has no
	# CAP_LEASE, and these files are the agent's (uid 1000): compose asks
	# for the lease as their owner, so a held file is still told from a
	# closed one there (a fresh Debian container failed the two checks
	# above without it).
	if setpriv --bounding-set -lease -- true 2>/dev/null; then
		nolease="setpriv --bounding-set -lease --"
		echo "held three" >>"$G/CLAUDE.md"
		exec 3>>"$G/CLAUDE.md"
		expect_ok "without CAP_LEASE: compose past the cap over a file held open" \
			$nolease $CLAWMD -C "$R" compose g
		echo "held four" >&3
		exec 3>&-
		held=$(ls -A "$G" | grep '^CLAUDE.md.clawmd-preserved-overflow-')
		check "without CAP_LEASE: it is moved aside past the cap ($held)" test -n "$held"
		echo "churn 22" >>"$G/CLAUDE.md"
		expect_ok "without CAP_LEASE: the next compose that moves aside" \
			$nolease $CLAWMD -C "$R" compose g
		expect_eq "without CAP_LEASE: what was held is appended once closed, the edit too" \
			"$(ls -A "$G" | grep -c '^CLAUDE.md.clawmd-preserved-overflow-')" 0
		expect_eq "without CAP_LEASE: the held file's lines in the overflow, once each" \
			"$(grep -c '^held three$\|^held four$\|^churn 22$' "$G/CLAUDE.md.clawmd-preserved-overflow")" 3
		# A killed run's empty temp, the agent's, held open: not unlinked.
		L=.CLAUDE.local.md.0123456789abcdef.tmp
		: >"$G/$L"
		chown 1000:1000 "$G/$L"
		exec 3>>"$G/$L"
		expect_ok "without CAP_LEASE: compose with an open leftover of the agent's" \
			$nolease $CLAWMD -C "$R" compose g
		echo "held five" >&3
		exec 3>&-
		kept=$(found 'held five')
		check "without CAP_LEASE: the line written to it is kept ($kept)" \
			sh -c "echo '$kept' | grep -q '^CLAUDE.local.md.clawmd-preserved-'"
		rm -f "$G"/CLAUDE.local.md.clawmd-preserved-*
		: >"$G/$L"
		chown 1000:1000 "$G/$L"
		expect_ok "without CAP_LEASE: compose with a closed leftover of the agent's" \
			$nolease $CLAWMD -C "$R" compose g
		expect_eq "without CAP_LEASE: that one is removed" "$(ls -A "$G" | grep -c "^$L\$\|^CLAUDE.local.md.clawmd-preserved")" 0
	else
		for _k in $(seq 9); do _report 0 "# SKIP setpriv cannot drop CAP_LEASE"; done
	fi
	# The fast path does not list the group directory, however full.
	i=0
	while [ $i -lt 2000 ]; do : >"$G/notes-$i.clawmd-preserved-x"; i=$((i + 1)); done
	expect_ok "compose after the churn" $CLAWMD -C "$R" compose g
	if strace -f -o /dev/null true 2>/dev/null; then
		strace -f -o "$T/trace" -e trace=getdents64,getdents $CLAWMD -C "$R" compose -q g
		expect_eq "a no-op compose lists nothing in a full directory" \
			"$(grep -c getdents "$T/trace")" 0
	else
		_report 0 "# SKIP strace unavailable"
	fi
else
	for _k in $(seq 32); do _report 0 "# SKIP not root: the owner of what is kept"; done
fi

# 6. compose creates a missing CLAUDE.local.md and gives it the group
# directory's owner; the agent renames it away in between (strace delays
# the chown by seconds; the agent acts on the create).  The chown goes by
# descriptor to the file created, wherever it went: compose succeeds, and
# the file the agent renamed is its own.
if [ "$(id -u)" = 0 ] && strace -f -o /dev/null true 2>/dev/null && [ -x "${CLAWMD_BUILD:-}/tests/on-inotify" ]; then
	rm -f "$G/CLAUDE.local.md" "$G/away.md"
	rm -f "$T/ready"
	"$CLAWMD_BUILD/tests/on-inotify" "$T/ready" "$G" create CLAUDE.local.md \
		sh -c "sleep 0.5; mv '$G/CLAUDE.local.md' '$G/away.md'" &
	apid=$!
	i=0
	while [ ! -e "$T/ready" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
	strace -f -qq -o /dev/null -e trace=fchownat -e inject=fchownat:delay_enter=2000000 \
		$CLAWMD -C "$R" compose g >"$T/out" 2>"$T/err"
	expect_eq "compose succeeds though the memory was renamed away meanwhile" "$?" 0
	wait $apid
	expect_eq "the agent's rename ran" "$?" 0
	expect_eq "the file created is the owner's, where the agent put it" "$(stat -c %u "$G/away.md")" 1000
else
	for _k in 1 2 3; do _report 0 "# SKIP not root, or strace or tests/on-inotify unavailable"; done
fi

done_testing
