#!/bin/sh
# Copy mode's sources attacked (issue 18 item 7): a skill file, a file it
# imports, and a module file swapped for a FIFO, a device, a symlink out of
# the tree, or edited with the same size and mtime, at a moment an inotify
# event gives (tests/on-inotify.c, no sleeping): when compose opens the
# group's container.json (before it reads the sources), and when it creates
# a temp in .claude-fragments (after it read them).  Nothing blocks (each
# compose runs under `timeout 10`), nothing outside is copied, a FIFO or
# device is never opened, and the copy catches up on the next compose.
# CLAWMD_ATTACK_LONG=1 repeats every attack 20 times.
. "$CLAWMD_TESTS/lib.sh"

ON=${CLAWMD_BUILD:-}/tests/on-inotify
R=$T/root
G=$R/groups/g
F=$G/.claude-fragments
make_root "$R"
mkdir -p "$R/skills/a" "$R/modules" "$G" "$T/host"
printf '{"modules": "modules"}\n' >"$R/clawmd.json"
printf 'HOSTSECRET\n' >"$T/host/secret.md"
printf 'A0\n@./more.md\n' >"$R/skills/a/instructions.md"
printf 'MORE0\n' >"$R/skills/a/more.md"
printf 'CLI0\n' >"$R/modules/cli.instructions.md"
printf '{"skills": ["a"]}\n' >"$G/container.json"
NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

have_mknod=yes
mknod "$T/probe" c 1 3 2>/dev/null || have_mknod=no
rm -f "$T/probe"
have_strace=no
strace -f -o /dev/null true 2>/dev/null && have_strace=yes

# the attacker: attack.sh KIND PATH swaps in a FIFO, a device, a symlink out
# of the tree, or new content of the same size with the old mtime
{
	echo '#!/bin/sh'
	echo 'case $1 in'
	echo 'fifo) rm -f "$2" && mkfifo "$2" ;;'
	echo 'device) rm -f "$2" && mknod "$2" c 1 3 ;;'
	echo "symlink) rm -f \"\$2\" && ln -s '$T/host/secret.md' \"\$2\" ;;"
	echo "same) cp -p \"\$2\" '$T/times' && c=\$(cat \"\$2\") &&"
	echo '	case $c in Z*) f=Y ;; *) f=Z ;; esac &&'
	echo '	printf "%s%s\n" "$f" "${c#?}" >"$2" &&'
	echo "	touch -m -r '$T/times' \"\$2\" ;;"
	echo 'esac'
} >"$T/attack.sh"
chmod +x "$T/attack.sh"

# composed NAME: compose ran within 10 s (its status in $st)
composed() {
	timeout -s KILL 10 env "$NOLEAK" "$CLAWMD" compose -C "$R" g >"$T/out" 2>"$T/err"
	st=$?
	if [ $st = 137 ]; then _report 1 "$1: compose finishes" "it blocked: killed after 10 s"
	else _report 0 "$1: compose finishes (exit $st)"; fi
}

# the copy of source PATH in the group
copy_of() {
	case $1 in
	*/skills/a/instructions.md) echo "$F/skill-a/instructions.md" ;;
	*/skills/a/more.md) echo "$F/skill-a/more.md" ;;
	*/modules/cli.instructions.md) echo "$F/module-cli.md" ;;
	esac
}

# caught_up NAME SRC: a compose after the attack brings the copy level
caught_up() {
	composed "$1, then once more"
	_c=$(copy_of "$2")
	if [ "$st" = 0 ] && cmp -s "$2" "$_c"; then _report 0 "$1: the copy caught up"
	else _report 1 "$1: the copy caught up" "exit $st; $(head -c 300 "$T/err"); copy $_c"; fi
}

# armed DIR EVENT NAME CMD...: on-inotify in the background, watching
armed() {
	rm -f "$T/ready"
	"$ON" "$T/ready" "$@" &
	_apid=$!
	_i=0
	while [ ! -e "$T/ready" ] && [ $_i -lt 600 ]; do sleep 0.05; _i=$((_i + 1)); done
}

# fired NAME: the attack ran (compose made the event happen); bounded
fired() {
	_i=0
	while kill -0 $_apid 2>/dev/null && [ $_i -lt 200 ]; do sleep 0.05; _i=$((_i + 1)); done
	kill $_apid 2>/dev/null
	wait $_apid
	_st=$?
	_report $_st "$1: the attack fired" "on-inotify: exit $_st"
}

if [ ! -x "$ON" ]; then
	_report 0 "# SKIP tests/on-inotify not built ($ON)"
	done_testing
	exit 0
fi

expect_ok "the baseline compose" "$CLAWMD" compose -C "$R" g
check "the baseline copy" cmp -s "$R/skills/a/more.md" "$F/skill-a/more.md"

rounds=1
[ -n "${CLAWMD_ATTACK_LONG:-}" ] && [ "$CLAWMD_ATTACK_LONG" != 0 ] && rounds=20
n=0
for round in $(seq $rounds); do
for src in "$R/skills/a/instructions.md" "$R/skills/a/more.md" "$R/modules/cli.instructions.md"; do
	base=$(basename "$src")
	for kind in fifo device symlink same; do
		[ $kind = device ] && [ $have_mknod = no ] && continue
		for when in config copy; do
			n=$((n + 1))
			name="$kind for ${src#$R/} at the $when"
			[ $rounds -gt 1 ] && name="$name (round $round)"
			cp -p "$src" "$T/keep"
			# a new MCP text: compose reads everything (no no-op from its
			# record) and stages a fragment in .claude-fragments
			printf '{"skills": ["a"], "mcpServers": {"s": {"command": "x", "instructions": "N%d"}}}\n' \
				$n >"$G/container.json"
			if [ $when = config ]; then
				armed "$G" open container.json "$T/attack.sh" $kind "$src"
			else
				armed "$F" create '*.tmp' "$T/attack.sh" $kind "$src"
			fi
			composed "$name"
			fired "$name"
			check "$name: nothing from outside the tree is in the group" \
				sh -c "! grep -rq HOSTSECRET '$G'"
			if [ $kind != same ]; then
				# what compose does with the planted file in place
				if [ $have_strace = yes ]; then
					timeout -s KILL 10 env "$NOLEAK" strace -f -qq -o "$T/trace" \
						-e trace=open,openat,openat2 "$CLAWMD" compose -C "$R" g \
						>"$T/out" 2>"$T/err"
					st=$?
					# left out (a missing import, a skill without text) or
					# refused: either is fine, blocking or crashing is not
					check "$name: with it in place, compose finishes (exit $st)" \
						test $st = 0 -o $st = 3 -o $st = 4
					grep -F "$base\"" "$T/trace" | grep -E "[\"/]$base\"" | grep -v O_PATH | grep -v ENOENT >"$T/hits"
					check "$name: the planted $kind is never opened for reading" \
						test ! -s "$T/hits"
				else
					composed "$name: with it in place"
					check "$name: with it in place, exit 0, 3 or 4 (exit $st)" \
						test $st = 0 -o $st = 3 -o $st = 4
				fi
				check "$name: nothing from outside the tree is in the group, still" \
					sh -c "! grep -rq HOSTSECRET '$G'"
				rm -f "$src"
				cp -p "$T/keep" "$src"
				printf 'NEW%d\n' $n >>"$src"
			fi
			caught_up "$name" "$src"
		done
	done
done
done

# ---- the swap at the very open ------------------------------------------------
# The imported more.md swapped for a device at the moment compose opens it:
# compose is stopped (strace injects SIGSTOP) at its openat2 of more.md, the
# device is put in its place, and compose goes on.  The device must not be
# opened for reading: only an O_PATH open, then a refusal or a skip.
if [ $have_strace = yes ] && [ $have_mknod = yes ]; then
	printf '{"skills": ["a"], "mcpServers": {"s": {"command": "x", "instructions": "STOP"}}}\n' \
		>"$G/container.json"
	cp -p "$R/skills/a/more.md" "$T/keep"
	env "$NOLEAK" strace -o "$T/count" -e trace=openat2 "$CLAWMD" compose -C "$R" --dry-run g \
		>/dev/null 2>&1
	k=$(grep -n '[/"]more\.md"' "$T/count" | head -n 1 | cut -d: -f1)
	if [ -n "$k" ] && start_stopped "openat2:$k" env "$NOLEAK" "$CLAWMD" compose -C "$R" g; then
		_report 0 "compose stopped at its open of more.md"
		rm -f "$R/skills/a/more.md"
		mknod "$R/skills/a/more.md" c 1 3
		resume_stopped
		st=$?
		check "the device swapped in at the open: compose finishes (exit $st)" \
			test $st = 0 -o $st = 3 -o $st = 4
		grep '[/"]more\.md"' "$T/stop.trace" | grep -v O_PATH | grep -v ENOENT >"$T/hits"
		check "the device swapped in at the open is never opened for reading" test ! -s "$T/hits"
	else
		_report 1 "compose stopped at its open of more.md" "k=$k"
		resume_stopped
		_report 1 "the device swapped in at the open: compose finishes"
		_report 1 "the device swapped in at the open is never opened for reading"
	fi
	rm -f "$R/skills/a/more.md"
	cp -p "$T/keep" "$R/skills/a/more.md"
	printf 'AFTER\n' >>"$R/skills/a/more.md"
	caught_up "the device swapped in at the open" "$R/skills/a/more.md"
else
	for k in 1 2 3 4 5 6; do _report 0 "# SKIP strace or mknod unavailable"; done
fi

done_testing
