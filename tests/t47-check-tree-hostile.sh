#!/bin/sh
# check --cwd over a tree that holds groups (issue 18 item 1, DESIGN §8): a
# group directory the walk reaches is the agent's and is linted as a group
# check lints it (its container view), and no walk opens a symlink target
# outside the tree.  Host files live in $H, outside the tree; their globs
# must never be read, let alone printed in a CM502 message.
. "$CLAWMD_TESTS/lib.sh"
[ -n "${KEEP:-}" ] && trap - EXIT

R=$T/root
H=$T/host
M=$R/groups/main
make_root "$R"
printf '{}\n' >"$R/clawmd.json"
mkdir -p "$H/rules" "$M/.claude/rules" "$M/sub/.claude" "$R/docs/.claude/rules" "$R/out/.claude"
printf -- '---\npaths: "HOSTSECRETGLOB/**"\n---\nsecret\n' >"$H/secret.md"
chmod 600 "$H/secret.md"
printf -- '---\npaths: "HOSTDIRGLOB/**"\n---\nrule\n' >"$H/rules/r.md"
printf -- '---\npaths: "PRIVATEGLOB/**"\n---\nprivate\n' >"$R/private.md"
printf '{}' >"$M/container.json"
# the agent's links: a rule to a root-only host file, a rules directory to
# a host directory, a rule to a host file inside the tree but outside what
# its container sees
ln -s "$H/secret.md" "$M/.claude/rules/x.md"
ln -s "$H/rules" "$M/sub/.claude/rules"
ln -s ../../../../private.md "$M/.claude/rules/y.md"
# the agent's own rule, which the group check reports
printf -- '---\npaths: "agentglob/**"\n---\nmine\n' >"$M/.claude/rules/ok.md"
# the tree's own rule, and a tree link that leads out of the tree
printf -- '---\npaths: "treeglob/**"\n---\ntree\n' >"$R/docs/.claude/rules/t.md"
ln -s "$H/rules" "$R/out/.claude/rules"

leaks='HOSTSECRETGLOB|HOSTDIRGLOB|PRIVATEGLOB'
for cwd in "$R" "$M"; do
	for fmt in text json; do
		"$CLAWMD" check --cwd "$cwd" --format $fmt >"$T/out" 2>"$T/err"
		st=$?
		expect_eq "check --cwd ${cwd#$T/} --format $fmt: exit 0 or 1" "$([ $st -le 1 ] && echo yes)" yes
		check "check --cwd ${cwd#$T/} --format $fmt: no host file's globs shown" \
			sh -c "! grep -Eq '$leaks' '$T/out' '$T/err'"
		expect_grep "check --cwd ${cwd#$T/} --format $fmt: the group's own rule is linted" \
			'agentglob' "$T/out"
	done
done
"$CLAWMD" check --cwd "$R" >"$T/out" 2>&1
expect_grep "the tree's own rule is linted" 'treeglob' "$T/out"
expect_grep "the group's rule is shown where it is" 'groups/main/\.claude/rules/ok\.md' "$T/out"
# without a clawmd.json the root comes from -C
rm "$R/clawmd.json"
"$CLAWMD" -C "$R" check --cwd "$R" >"$T/out" 2>&1
check "-C ROOT check --cwd ROOT: no host file's globs shown" sh -c "! grep -Eq '$leaks' '$T/out'"
expect_grep "-C ROOT check --cwd ROOT: the group's rule is linted" 'agentglob' "$T/out"
# and with no root known at all, the tree is still confined to itself
(cd / && env -u CLAWMD_ROOT "$CLAWMD" check --cwd "$R" >"$T/out" 2>&1)
check "no root known: no host file's globs shown" sh -c "! grep -Eq 'HOSTSECRETGLOB|HOSTDIRGLOB' '$T/out'"
printf '{}\n' >"$R/clawmd.json"

if strace -f -o /dev/null true 2>/dev/null; then
	for cwd in "$R" "$M"; do
		env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -f -qq -o "$T/trace" -e trace=open,openat,openat2 \
			"$CLAWMD" check --cwd "$cwd" >/dev/null 2>&1
		# the names of the files behind the links: never opened at all
		grep -E 'secret\.md|r\.md"|private\.md' "$T/trace" >"$T/hits"
		check "traced check --cwd ${cwd#$T/}: no file outside what is allowed is opened" \
			test ! -s "$T/hits"
	done
else
	for k in 1 2; do _report 0 "# SKIP strace unavailable"; done
fi

# ---- the rules directory swapped for a host symlink mid-walk -----------------
# check --cwd ROOT is stopped (strace SIGSTOP) at its read open of the
# group's ok.md; the agent then swaps .claude/rules for a symlink to a host
# directory; the walk goes on with x.md, y.md, ... and must read nothing
# of the host's.
if strace -f -o /dev/null true 2>/dev/null; then
	NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	printf -- '---\npaths: "HOSTDIRGLOB/**"\n---\nrule\n' >"$H/rules/x.md"
	env "$NOLEAK" strace -o "$T/count" -e trace=openat "$CLAWMD" check --cwd "$R" >/dev/null 2>&1
	k=$(grep -n '"ok\.md", .*O_PATH' "$T/count" | head -n 1 | cut -d: -f1)
	k=$((${k:-0} + 1))
	if start_stopped "openat:$k" env "$NOLEAK" "$CLAWMD" check --cwd "$R"; then
		_report 0 "check --cwd stopped at its open of ok.md"
		mv "$M/.claude/rules" "$M/.claude/rules.real"
		ln -s "$H/rules" "$M/.claude/rules"
		resume_stopped
		check "rules swapped for a host symlink mid-walk: no host globs shown" \
			sh -c "! grep -Eq '$leaks' '$T/out' '$T/err'"
		rm "$M/.claude/rules"
		mv "$M/.claude/rules.real" "$M/.claude/rules"
	else
		_report 1 "check --cwd stopped at its open of ok.md" "k=$k"
		resume_stopped
		_report 1 "rules swapped for a host symlink mid-walk: no host globs shown"
	fi
else
	for k in 1 2; do _report 0 "# SKIP strace unavailable"; done
fi

done_testing
