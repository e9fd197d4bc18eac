#!/bin/sh
# render --runtime opencode against what OpenCode really sent.  Every plain
# tree of tests/e2e/opencode-* whose string was pinned from a real run
# (tests/e2e/expected/<case>/<release>.txt, made by E2E_SAVE=1 make e2e) is
# built here on the host and rendered; the output must be the pinned string,
# byte for byte, with the case's container paths mapped to the host.  Then
# the rules a host tree cannot show as the container did (the walk past the
# tree, links to a mount), the knobs' errors, and the hostile group: a FIFO,
# a link to a host file, a huge sparse file.  doc/runtime-opencode.md.
. "$CLAWMD_TESTS/lib.sh"

E2E=$CLAWMD_SRC/tests/e2e
REL=1.18.33
# A .git above every tree: the walk of a tree without git of its own stops
# here, as in the container it stopped at an empty /e2e and /.
mkdir -p "$T/.git" "$T/w" "$T/emptyhome"

render_oc() { # CWD HOME ARGS...
	_cwd=$1 _home=$2
	shift 2
	"$CLAWMD" render --runtime opencode --cwd "$_cwd" --home "$_home" "$@"
}

# ---- the pinned cases ---------------------------------------------------
for d in "$E2E"/opencode-*/; do
	c=$(basename "$d")
	exp=$E2E/expected/$c/$REL.txt
	[ -f "$exp" ] || continue
	runtime='' kind='' cwd=. mounts='' render_args='' tree_of='' run_args='' pin=yes desc=''
	. "$d/case"
	home=$T/emptyhome
	other=no
	for m in $mounts; do
		case $m in
		@ROOT@/*:/e2e-home | @ROOT@/*:/e2e-home:ro) h=${m#@ROOT@/}; home=${h%%:*} ;;
		*) other=yes ;;
		esac
	done
	# a case that binds more than its home shows what only the container
	# shows (below, in a test of its own)
	[ "$other" = no ] || continue
	root=$T/w/$c
	src=$E2E/${tree_of:-$c}
	mkdir -p "$root"
	[ ! -d "$src/tree" ] || cp -R "$src/tree/." "$root/"
	if [ -f "$src/setup.sh" ]; then
		(cd "$root" && ROOT=$root CT_ROOT=$root sh -e "$src/setup.sh") >"$T/setup.log" 2>&1 ||
			{ _report 1 "$c: setup" "$(cat "$T/setup.log")"; continue; }
	fi
	case $home in /*) ;; *) home=$root/$home ;; esac
	# the glob order is the kernel's directory order, reversed: pinned
	# beside the directories as the kernel listed them in the real run
	same_order=yes
	if [ -f "$E2E/expected/$c/readdir.txt" ]; then
		while IFS= read -r line; do
			dir=${line%%:*}
			here=$(ls -f "$root/$dir" | grep -v '^\.\.\?$' | tr '\n' ' ')
			[ "$dir: $here" = "$line " ] || same_order=no
		done <"$E2E/expected/$c/readdir.txt"
	fi
	if [ "$same_order" = no ]; then
		_n=$((_n + 1))
		echo "ok $_n - $c: as OpenCode $REL sent it # SKIP this filesystem lists the directories in another order"
		continue
	fi
	args=$(printf '%s' "$render_args" | sed "s|/e2e/$c|$root|g")
	sed -e "s|@ROOT@|$root|g" -e "s|/e2e-home|$home|g" "$exp" >"$T/want"
	# sed ends the last line; the pinned string may not end in one
	if [ "$(tail -c1 "$exp" | od -An -c | tr -d ' ')" != '\n' ]; then
		head -c "$(($(wc -c <"$T/want") - 1))" "$T/want" >"$T/want2" && mv "$T/want2" "$T/want"
	fi
	set -f # the patterns are render's to glob, not the shell's
	# shellcheck disable=SC2086
	render_oc "$root/$cwd" "$home" $args >"$T/got" 2>"$T/err"
	set +f
	if cmp -s "$T/got" "$T/want"; then
		_report 0 "$c: as OpenCode $REL sent it"
	else
		_report 1 "$c: as OpenCode $REL sent it" "$(diff "$T/want" "$T/got" | head -20; cat "$T/err")"
	fi
done

# ---- the walk past the tree and the names (no pinned string) -------------
W=$T/walk
mkdir -p "$W/t/sub/deeper"
echo "tree" >"$W/t/AGENTS.md"
echo "deeper" >"$W/t/sub/deeper/AGENTS.md"
echo "above" >"$W/AGENTS.md"
echo "claude above" >"$W/CLAUDE.md"
render_oc "$W/t/sub/deeper" "$T/emptyhome" --format files >"$T/out" 2>"$T/err"
expect_file "without git the walk goes up past the tree, nearest first" "$T/out" \
"Project	$W/t/sub/deeper/AGENTS.md	-
Project	$W/t/AGENTS.md	-
Project	$W/AGENTS.md	-"
mkdir "$W/t/.git"
render_oc "$W/t/sub/deeper" "$T/emptyhome" --format files >"$T/out" 2>"$T/err"
expect_file "a .git stops the walk (a git root)" "$T/out" \
"Project	$W/t/sub/deeper/AGENTS.md	-
Project	$W/t/AGENTS.md	-"
rmdir "$W/t/.git" && : >"$W/t/.git" # a worktree's .git file counts the same
render_oc "$W/t/sub/deeper" "$T/emptyhome" --format files >"$T/out" 2>"$T/err"
expect_grep "a .git file stops it too" "^Project	$W/t/AGENTS.md" "$T/out"
check "and nothing above it loads" sh -c "! grep -q '$W/AGENTS.md' '$T/out'"

S=$T/links
mkdir -p "$S/sub" "$S/out"
echo "outside" >"$S/out/o.md"
ln -s "$S/out/o.md" "$S/AGENTS.md"
ln -s ../out/o.md "$S/sub/AGENTS.md"
mkdir "$S/.git"
render_oc "$S/sub" "$T/emptyhome" >"$T/out" 2>"$T/err"
expect_file "symlinks are followed, shown as the link's path" "$T/out" \
"Instructions from: $S/sub/AGENTS.md
outside

Instructions from: $S/AGENTS.md
outside"

O=$T/order
mkdir -p "$O/.git" "$O/n" "$O/d/x/y" "$O/d/p"
for f in m c q a z k .h; do echo "$f" >"$O/n/$f.md"; done
echo top >"$O/d/top.md"
echo x >"$O/d/x/x.md"
echo y >"$O/d/x/y/y.md"
echo p >"$O/d/p/p.md"
render_oc "$O" "$T/emptyhome" --opencode-instructions 'n/*.md' --format files >"$T/out" 2>"$T/err"
want=$(ls -f "$O/n" | grep -v '^\.\.\?$' | sed '1!G;h;$!d' | sed "s|^|Project	$O/n/|; s|$|	-|")
expect_file "a directory's matches come in the reverse of the kernel's order, dot files too" "$T/out" "$want"
render_oc "$O" "$T/emptyhome" --opencode-instructions "$O/n/*.md" --format files >"$T/out" 2>"$T/err"
check "an absolute pattern does not match dot files" sh -c "! grep -q '/n/.h.md' '$T/out' && grep -q '/n/a.md' '$T/out'"
render_oc "$O" "$T/emptyhome" --opencode-instructions 'd/**/*.md' --format files >"$T/out" 2>"$T/err"
subs=$(ls -f "$O/d" | grep -v -e '^\.\.\?$' -e '\.md$' | sed '1!G;h;$!d' | tr '\n' ' ')
want="top ${subs}y" # x's subdirectory y a level below
got=$(cut -f2 "$T/out" | sed 's|.*/||; s|\.md$||' | tr '\n' ' ')
expect_eq "** goes level by level, each in reverse kernel order" "$got" "$want "

D=$T/dirname
mkdir -p "$D/.git" "$D/sub/AGENTS.md"
echo "claude" >"$D/CLAUDE.md"
render_oc "$D/sub" "$T/emptyhome" >"$T/out" 2>"$T/err"
expect_file "a directory named AGENTS.md counts as found and sends nothing" "$T/out" ""

# ---- the knobs ------------------------------------------------------------
expect_fail 2 "--opencode-instructions without --runtime opencode" \
	"$CLAWMD" render --cwd "$W" --opencode-instructions x.md
expect_grep "the error names the flag and the runtime" "opencode-instructions.*claude" "$T/err"
expect_fail 2 "--opencode-no-claude with --runtime codex" \
	"$CLAWMD" render --runtime codex --cwd "$W" --opencode-no-claude
set --
i=0
while [ $i -lt 65 ]; do set -- "$@" --opencode-instructions x.md; i=$((i + 1)); done
expect_fail 2 "more than 64 patterns is a usage error" render_oc "$W" "$T/emptyhome" "$@"
expect_grep "saying the limit" "at most 64" "$T/err"
expect_ok "an http(s) instruction is skipped (OpenCode fetches it)" \
	render_oc "$D/sub" "$T/emptyhome" --opencode-instructions https://example.invalid/x.md \
	--opencode-instructions http://example.invalid/y.md
expect_file "and adds nothing" "$T/out" ""

# ---- a hostile group ------------------------------------------------------
R=$T/root
H=$T/host
G=$R/groups/g
make_root "$R"
mkdir -p "$G" "$H"
printf 'HOSTSECRET\n' >"$H/secret.md"
ln -s "$H/secret.md" "$G/AGENTS.md"
expect_ok "render --group, AGENTS.md a link to a host file" \
	"$CLAWMD" render -C "$R" --group g --runtime opencode
expect_file "the host file is not read (it is not in the container)" "$T/out" ""
rm "$G/AGENTS.md"
ln -s /app/CLAUDE.md "$G/AGENTS.md"
expect_ok "AGENTS.md a link to the shared base, through the mount" \
	"$CLAWMD" render -C "$R" --group g --runtime opencode
expect_file "read as the container reads it" "$T/out" \
"Instructions from: /workspace/agent/AGENTS.md
# Shared base

Be helpful.
"
rm "$G/AGENTS.md"
if mkfifo "$G/AGENTS.md" 2>/dev/null; then
	# opening a FIFO with no writer would block for ever: the guard ends a
	# hang, and a hang is a failure
	expect_ok "a FIFO named AGENTS.md is never opened" \
		$HANG_GUARD "$CLAWMD" render -C "$R" --group g --runtime opencode
	expect_file "and sends nothing" "$T/out" ""
	rm "$G/AGENTS.md"
fi
if truncate -s 100G "$G/AGENTS.md" 2>/dev/null; then
	expect_ok "a 100 GiB sparse AGENTS.md" \
		$HANG_GUARD sh -c 'ulimit -t 60 && exec "$@"' sh \
		"$CLAWMD" render -C "$R" --group g --runtime opencode
	expect_file "is skipped unread (past the load's bound)" "$T/out" ""
	rm -f "$G/AGENTS.md"
fi

done_testing
