#!/bin/sh
# render --cwd DIR, DIR in a group (or render run from inside one), is read
# as the group's container reads it, as render --group is (issue 28 item
# 5): the agent's CLAUDE.local.md, AGENTS.md or GEMINI.md made a symlink to
# a host file (absolute, relative and escaping, a chain of links) shows
# nothing of that file, and the file is never opened, for every runtime;
# nor does a directory of the group that is a link to a host directory, or
# a clawmd.json the agent planted.  The same path as check --cwd
# (cmd_tree_root, clawmd_layout_group_of).
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
mkdir -p "$R/groups/main/sub"
printf '{}\n' >"$R/clawmd.json"
G=$R/groups/main
SECRET=$T/host-secret
printf 'HOST-SECRET-LINE\n' >"$SECRET"
chmod 600 "$SECRET"

has_strace=
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	has_strace=1
fi

# never_opens [-4] NAME CMD...: CMD succeeds (with -4: exits 4, the
# working directory is nowhere in the container), prints nothing of the
# secret, and (under strace) opens no path naming it.
never_opens() {
	_want=0
	if [ "$1" = -4 ]; then
		_want=4
		shift
	fi
	_name=$1
	shift
	if [ -n "$has_strace" ]; then
		# (LeakSanitizer cannot run under ptrace: off for the traced run)
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -f -qq -o "$T/trace" -e trace=open,openat,openat2 "$@" >"$T/out" 2>"$T/err"
	else
		"$@" >"$T/out" 2>"$T/err"
	fi
	_rc=$?
	check "$_name: exits $_want" test "$_rc" = "$_want"
	if [ "$_want" = 4 ]; then
		expect_grep "... saying the directory is not there in the container" \
			"could not open the working directory '/workspace/agent/sub" "$T/err"
	fi
	check "... prints nothing of the host file" sh -c "! grep -q HOST-SECRET '$T/out'"
	if [ -n "$has_strace" ]; then
		check "... never opens it" sh -c "! grep -q -e 'host-secret' -e 'hostdir' '$T/trace'"
	fi
}

for rt in claude codex gemini opencode; do
	case $rt in
	claude) files="CLAUDE.local.md CLAUDE.md" ;;
	codex | opencode) files="AGENTS.md" ;;
	gemini) files="GEMINI.md" ;;
	esac
	for f in $files; do
		for form in absolute relative chain; do
			rm -f "$G/$f" "$G/.hop" "$G/sub/$f"
			case $form in
			absolute) ln -s "$SECRET" "$G/$f" ;;
			relative) ln -s ../../../host-secret "$G/$f" ;;
			chain) ln -s "$SECRET" "$G/.hop" && ln -s .hop "$G/$f" ;;
			esac
			never_opens "render --cwd groups/main --runtime $rt, $f a $form link" \
				sh -c "cd '$R' && '$CLAWMD' render --cwd groups/main --runtime $rt"
			never_opens "... from elsewhere, --cwd absolute" \
				sh -c "cd / && '$CLAWMD' render --cwd '$G' --runtime $rt --format json"
			never_opens "... render run in the group's subdirectory, no --cwd" \
				sh -c "cd '$G/sub' && '$CLAWMD' render --runtime $rt --format files"
			rm -f "$G/$f" "$G/.hop"
		done
	done
done

# The directory itself a link the agent made (groups/main/sub -> a host
# directory), the way out through it and back (sub/..), and a clawmd.json
# the agent planted to make its group a root of its own: still the group,
# in its container view, for render and check alike.
HOSTDIR=$T/hostdir
mkdir -p "$HOSTDIR/.claude/rules"
printf 'HOST-SECRET-LINE\n' >"$HOSTDIR/CLAUDE.md"
printf -- '---\npaths: ["HOST-SECRET-GLOB/**"]\n---\nHOST-SECRET-RULE\n' >"$HOSTDIR/.claude/rules/r.md"
rmdir "$G/sub" && ln -s "$HOSTDIR" "$G/sub"
for rt in claude codex gemini opencode; do
	for d in groups/main/sub groups/main/sub/.. groups/main/sub/.claude; do
		case $d in */..) st= ;; *) st=-4 ;; esac
		never_opens $st "render --cwd $d (sub: a link to a host directory), --runtime $rt" \
			sh -c "cd '$R' && '$CLAWMD' render --cwd $d --runtime $rt"
	done
done
expect_fail 4 "check --cwd groups/main/sub (the link): not in the container" sh -c "cd '$R' && '$CLAWMD' check --json --cwd groups/main/sub"
check "... reports nothing of the host directory" sh -c "! grep -q HOST-SECRET '$T/out'"
printf '{"groups": "%s"}\n' "$T/elsewhere" >"$G/clawmd.json"
never_opens -4 "render --cwd groups/main/sub with a clawmd.json planted in the group" \
	sh -c "cd / && '$CLAWMD' render --cwd '$G/sub'"
expect_fail 4 "check --cwd the same" sh -c "cd / && '$CLAWMD' check --json --cwd '$G/sub'"
check "... reports nothing of the host directory" sh -c "! grep -q HOST-SECRET '$T/out'"
rm -f "$G/clawmd.json" "$G/sub" && mkdir "$G/sub"

# The group's own memory still loads, as the container sees it.
printf 'agent notes\n' >"$G/CLAUDE.local.md"
expect_ok "render --cwd groups/main: the group's memory" sh -c "cd '$R' && '$CLAWMD' render --cwd groups/main --format files"
expect_grep "... CLAUDE.local.md at its container path" "^Local	/workspace/agent/CLAUDE.local.md	" "$T/out"
expect_ok "render --cwd groups/main/sub" sh -c "cd '$R' && '$CLAWMD' render --cwd groups/main/sub --format json"
expect_grep "... its cwd is the container's" '"cwd":[[:space:]]*"/workspace/agent/sub"' "$T/out"
# The same as --group.
"$CLAWMD" -C "$R" render --group main >"$T/group.txt" 2>/dev/null
expect_ok "render --cwd groups/main prints what render --group main prints" \
	sh -c "cd '$R' && '$CLAWMD' render --cwd groups/main"
check "... byte for byte" cmp -s "$T/out" "$T/group.txt"
expect_fail 2 "--home in a group is a container path" \
	sh -c "cd '$R' && '$CLAWMD' render --cwd groups/main --home rel"
# A directory outside every group is read as before: the host's tree.
mkdir -p "$T/plain"
printf 'plain project\n' >"$T/plain/CLAUDE.md"
expect_ok "render --cwd a directory in no group" "$CLAWMD" render --cwd "$T/plain" --home "$T/nohome"
expect_grep "... reads its CLAUDE.md on the host" "plain project" "$T/out"

done_testing
