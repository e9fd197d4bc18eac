#!/bin/sh
# Devices planted where the agent's files belong are never opened (issue 18
# item 2, DESIGN §8): every command and migrate open an agent-controlled
# name O_PATH first, and reopen only a regular file through /proc/self/fd,
# so the name itself is never opened for reading, not even O_NONBLOCK
# (opening a device is already an action for some drivers).  Proved with
# strace: no open of a planted name without O_PATH.  The device is the
# harmless 1:3 (/dev/null's numbers); mknod needs root (skipped otherwise).
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
G=$R/groups
make_root "$R"
make_skill "$R" alpha
mkdir -p "$G/cfg" "$G/mem" "$G/rules/.claude/rules"

skip() { # N REASON
	for _k in $(seq "$1"); do _report 0 "# SKIP $2"; done
}

NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
cmds="compose:compose -C $R --all
compose-dry:compose -C $R --dry-run --all
check:check -C $R
status:status -C $R
render:render -C $R --group mem
check-cwd:check --cwd $R
migrate:migrate -C $R"
ncmds=7

if ! mknod "$G/cfg/container.json" c 1 3 2>/dev/null; then
	skip $((ncmds * 2)) "mknod failed (not root)"
	done_testing
	exit 0
fi
if ! strace -f -o /dev/null true 2>/dev/null; then
	skip $((ncmds * 2)) "strace unavailable"
	done_testing
	exit 0
fi
printf '{"skills": ["alpha"]}' >"$G/mem/container.json"
for n in CLAUDE.local.md .claude-shared.md CLAUDE.md .gitignore; do
	mknod "$G/mem/$n" c 1 3
done
mknod "$G/rules/.claude/rules/x.md" c 1 3
mknod "$G/rules/CLAUDE.local.md" c 1 3
printf '{}' >"$G/rules/container.json"
# migrate's legacy layout: a global group, a legacy CLAUDE.md that is a device
mkdir -p "$G/global" "$G/legacy"
printf '# Global\n' >"$G/global/CLAUDE.md"
mknod "$G/legacy/CLAUDE.md" c 1 3
mknod "$G/legacy/CLAUDE.local.md" c 1 3
ln -s /workspace/global/CLAUDE.md "$G/legacy/.claude-global.md"

pat='(container\.json|CLAUDE\.local\.md|CLAUDE\.md|\.claude-shared\.md|\.gitignore|x\.md)"'
while IFS=: read -r tag cmd; do
	# every command finishes (a refusal is fine), never hangs or crashes
	timeout -s KILL 60 env "$NOLEAK" strace -f -qq -o "$T/trace.$tag" \
		-e trace=open,openat,openat2 $CLAWMD $cmd >"$T/out" 2>"$T/err"
	st=$?
	if [ "$st" -le 6 ]; then _report 0 "$tag finishes (exit $st)"
	else _report 1 "$tag finishes" "exit $st: $(head -c 500 "$T/err")"; fi
	# the planted names (paths under $G) opened without O_PATH
	grep -E "\"$G/[^\"]*$pat|, \"[^\"/]*$pat" "$T/trace.$tag" | grep -v O_PATH |
		grep -v O_DIRECTORY | grep -v 'O_WRONLY\|O_RDWR' | grep -v ENOENT >"$T/hits"
	if [ -s "$T/hits" ]; then
		_report 1 "$tag opens no planted device for reading" "$(head -5 "$T/hits")"
	else
		_report 0 "$tag opens no planted device for reading"
	fi
done <<EOF
$cmds
EOF

# ---- the attack on the safe open itself -----------------------------------
# The agent swaps a device (and then a symlink to a host secret) in for
# CLAUDE.local.md at the moment clawmd opens it for reading: clawmd is
# stopped (strace injects SIGSTOP) at the open that follows the O_PATH open
# of the name, the name is replaced, and clawmd goes on.  What it reads is
# the inode it checked, never the device or the link's target.
# A sanitized build proves neither: its runtime makes opens of its own
# (so the open to stop at moves between two runs), and without /proc it
# cannot read its options, so LeakSanitizer turns the exit into its own.
# The plain build of the same suite runs both.
san=
nm "${CLAWMD_BUILD:-}/libexec/clawmd/clawmd" 2>/dev/null | grep -q __asan_init && san=1
A=$T/atk
make_root "$A"
mkdir -p "$A/groups/g" "$T/host"
printf 'HOSTSECRET\n' >"$T/host/secret.md"
printf '{}' >"$A/groups/g/container.json"
printf 'AGENTLOCAL\n' >"$A/groups/g/CLAUDE.local.md"
$CLAWMD compose -C "$A" g >/dev/null 2>&1
for planted in device symlink; do
	if [ -n "$san" ]; then
		_report 0 "# SKIP $planted swapped in at the open: the plain build's to prove"
		continue
	fi
	printf 'AGENTLOCAL\n' >"$A/groups/g/CLAUDE.local.md"
	strace -o "$T/count" -e trace=openat,open $CLAWMD render -C "$A" --group g >/dev/null 2>&1
	# the index of the first open after the O_PATH open of the name (or, on
	# a build without it, of the read open of the name itself)
	k=$(awk '/"CLAUDE.local.md"/ { if (/O_PATH/) { want = NR + 1 } else if (!want) { print NR; exit } }
		want && NR == want { print NR; exit }' "$T/count")
	if [ -z "$k" ] || ! start_stopped "openat:$k" $CLAWMD render -C "$A" --group g; then
		_report 1 "$planted swapped in at the open: clawmd stopped there" "k=$k"
		resume_stopped
		continue
	fi
	_report 0 "$planted swapped in at the open: clawmd stopped there"
	rm -f "$A/groups/g/CLAUDE.local.md"
	if [ $planted = device ]; then
		mknod "$A/groups/g/CLAUDE.local.md" c 1 3
	else
		ln -s "$T/host/secret.md" "$A/groups/g/CLAUDE.local.md"
	fi
	resume_stopped
	check "$planted swapped in at the open: the host secret is never shown" \
		sh -c "! grep -q HOSTSECRET '$T/out'"
	check "$planted swapped in at the open: what was read is the inode checked" \
		grep -q AGENTLOCAL "$T/out"
	grep '"CLAUDE.local.md"' "$T/stop.trace" | grep -v O_PATH >"$T/hits"
	check "$planted swapped in at the open: the name is opened O_PATH only" test ! -s "$T/hits"
	rm -f "$A/groups/g/CLAUDE.local.md"
done

# ---- no /proc: refused, never opened by name ----------------------------------
# Without /proc the inode cannot be reopened: the safe open refuses, saying
# why, rather than fall back to opening the name (exit 3: container.json that
# cannot be read is invalid input, as one the agent made unreadable is).  The full program
# is run (the front needs /proc/self/exe to find it).
FULL=${CLAWMD_BUILD:-}/libexec/clawmd/clawmd
if [ -n "$san" ]; then
	_report 0 "# SKIP no /proc: the plain build's to prove"
elif [ -x "$FULL" ] && unshare -m true 2>/dev/null; then
	P=$T/noproc
	make_root "$P"
	mkdir -p "$P/groups/g"
	printf '{}' >"$P/groups/g/container.json"
	expect_fail 3 "no /proc: compose refuses" unshare -m sh -c \
		"umount -l /proc && exec '$FULL' compose -C '$P' g"
	expect_grep "no /proc: the message says why" '/proc is not mounted' "$T/err"
	check "no /proc: nothing was written" test ! -e "$P/groups/g/CLAUDE.md"
else
	for k in 1 2 3; do _report 0 "# SKIP unshare -m unavailable"; done
fi

check "the devices are still devices" test -c "$G/mem/CLAUDE.local.md" -a -c "$G/cfg/container.json"

done_testing
