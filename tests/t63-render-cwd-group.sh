#!/bin/sh
# render --cwd DIR, DIR in a group (or render run from inside one), is read
# as the group's container reads it, as render --group is (issue 28 item
# 5): the agent's CLAUDE.local.md, AGENTS.md or GEMINI.md made a symlink to
# a host file (absolute, relative and escaping, a chain of links) shows
# nothing of that file, and the file is never opened, for every runtime.
# The same path as check --cwd (clawmd_layout_group_of).
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

# never_opens NAME CMD...: CMD succeeds, prints nothing of the secret, and
# (under strace) opens no path naming it.
never_opens() {
	_name=$1
	shift
	if [ -n "$has_strace" ]; then
		strace -f -qq -o "$T/trace" -e trace=open,openat,openat2 "$@" >"$T/out" 2>"$T/err"
	else
		"$@" >"$T/out" 2>"$T/err"
	fi
	_rc=$?
	check "$_name: exits 0" test "$_rc" = 0
	check "... prints nothing of the host file" sh -c "! grep -q HOST-SECRET '$T/out'"
	if [ -n "$has_strace" ]; then
		check "... never opens it" sh -c "! grep -q 'host-secret' '$T/trace'"
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
