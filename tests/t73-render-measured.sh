#!/bin/sh
# render --runtime pi, copilot, qwen and cursor against what the real
# CLIs (the Cursor SDK's client) sent in make e2e (doc/e2e.md, "pi, Copilot
# CLI, Qwen Code and the Cursor SDK"): their plain-tree cases are rebuilt
# on the host
# under $T/e2e/<case> (a mount of the case into /e2e becomes a file at the
# same place under $T), rendered, and compared byte for byte with the
# string the real release sent (tests/e2e/expected/<case>/<release>.txt).
# No CLI, no root, no network.  Then the crash the e2e found: a rules
# directory (Copilot's .github/instructions, Cursor's .cursor/rules) made
# render die before.
. "$CLAWMD_TESTS/lib.sh"
E2E=$CLAWMD_TESTS/e2e
TP=$(cd "$T" && pwd -P)

# pi walks up to /: a file of its names in a directory above $T would be
# read here and not in the container.
above=''
d=$TP
while [ "$d" != / ]; do
	d=$(dirname "$d")
	for f in AGENTS.override.md AGENTS.md AGENTS.MD CLAUDE.md CLAUDE.MD QWEN.md; do
		[ -e "$d/$f" ] && above="$d/$f"
	done
done

for c in pi-walk pi-edges pi-worktree copilot-imports qwen-walk cursor-walk cursor-no-project; do
	runtime='' cwd=. mounts='' desc='' render_args='' tree_of=''
	# shellcheck disable=SC1090
	. "$E2E/$c/case"
	root=$TP/e2e/$c
	mkdir -p "$root"
	(cd "$root" && ROOT=$root CT_ROOT=$root sh -e "$E2E/${tree_of:-$c}/setup.sh") >"$T/setup.out" 2>&1 ||
		{ _report 1 "$c: setup" "$(cat "$T/setup.out")"; continue; }
	copied=''
	for m in $mounts; do
		src=$(printf '%s' "${m%%:*}" | sed "s|@ROOT@|$root|")
		dst=${m#*:}
		case $dst in /e2e/*) cp "$src" "$TP$dst" && copied="$copied $TP$dst" ;; esac
	done
	# the container's paths, the host's: the home (bound at /e2e-home),
	# and the home as Qwen names it, relative to the cwd
	crel=$(realpath -m --relative-to="/e2e/$c/$cwd" /e2e-home)
	hrel=$(realpath -m --relative-to="$root/$cwd" "$root/home")
	for exp in "$E2E/expected/$c"/*.txt; do
		v=${exp##*/}
		v=${v%.txt}
		name="$c $v: $desc"
		if [ ! -f "$exp" ]; then
			_report 1 "$c: a string pinned by a real run" "no $E2E/expected/$c/*.txt"
			continue
		fi
		if [ "$runtime" = pi ] && [ -n "$above" ]; then
			_report 0 "# SKIP $name ($above is above the temp directory)"
			continue
		fi
		R=$root H=$root/home TE=$TP/e2e CR=$crel HR=$hrel perl -0pe '
			s/\Q$ENV{CR}\E/$ENV{HR}/g; s/\/e2e-home/$ENV{H}/g;
			s/\@ROOT\@/$ENV{R}/g; s/path="\/e2e\//path="$ENV{TE}\//g' "$exp" >"$T/want"
		# shellcheck disable=SC2086
		"$CLAWMD" render --runtime "$runtime" --cwd "$root/$cwd" --home "$root/home" \
			--format text $render_args >"$T/got" 2>"$T/err"
		st=$?
		if [ $st = 0 ] && cmp -s "$T/got" "$T/want"; then
			_report 0 "$name"
		else
			_report 1 "$name" "exit $st $(head -c 500 "$T/err")
$(diff "$T/want" "$T/got" | head -n 30)"
		fi
	done
	# what pi-walk bound at /e2e is no other case's
	# shellcheck disable=SC2086
	[ -z "$copied" ] || rm -f $copied
done

# ---- a rules directory (the crash make e2e's first qwen-walk found) ---------
R=$TP/rules
mkdir -p "$R/.git" "$R/.github/instructions" "$R/.cursor/rules"
printf -- '---\napplyTo: "**"\n---\nFor every file.\n' >"$R/.github/instructions/all.instructions.md"
printf -- '---\nalwaysApply: true\n---\nA cursor rule.\n' >"$R/.cursor/rules/r.mdc"
expect_ok "copilot: a .github/instructions directory renders" \
	"$CLAWMD" render --runtime copilot --cwd "$R" --format text
# bare, frontmatter kept, one more newline after the last (copilot-imports)
expect_file "copilot: its instructions file, bare, frontmatter kept" "$T/out" '---
applyTo: "**"
---
For every file.
'
expect_ok "cursor: a .cursor/rules directory renders" \
	"$CLAWMD" render --runtime cursor --cwd "$R" --format text
expect_file "cursor: the rule without its frontmatter" "$T/out" 'A cursor rule.'
# ---- pi: what its loader does past the e2e cases ---------------------------
# (its loadProjectContextFiles, the same in 1.5.2 and 1.6.0; pi-edges and
# pi-worktree above are the measured part)
P=$TP/pi
if [ -n "$above" ]; then
	_report 0 "# SKIP pi: $above is above the temp directory"
	_report 0 "# SKIP pi: a nested worktree with no file of its own"
	_report 0 "# SKIP pi: a relative gitdir"
	_report 0 "# SKIP pi: the worktree's git directory without HEAD"
else
	# the working directory is the agent directory: its file once (pi
	# keeps the paths it took and skips one it meets again)
	mkdir -p "$P/home/.pi/agent"
	echo "global" >"$P/home/.pi/agent/AGENTS.md"
	"$CLAWMD" render --runtime pi --cwd "$P/home/.pi/agent" --home "$P/home" --format text >"$T/out" 2>"$T/err"
	expect_file "pi: the agent directory as the working directory, its file once" "$T/out" \
"<project_context>
Project-specific instructions and guidelines:

<project_instructions path=\"$P/home/.pi/agent/AGENTS.md\">
global

</project_instructions>
</project_context>"
	# a nested worktree with no file of its own shadows nothing
	W=$P/wt0
	mkdir -p "$W/.git/worktrees/w" "$W/w"
	echo "ref: refs/heads/w" >"$W/.git/worktrees/w/HEAD"
	echo "ref: refs/heads/main" >"$W/.git/HEAD"
	echo "../.." >"$W/.git/worktrees/w/commondir"
	echo "gitdir: ../.git/worktrees/w" >"$W/w/.git"
	echo "main" >"$W/AGENTS.md"
	"$CLAWMD" render --runtime pi --cwd "$W/w" --format text >"$T/out" 2>"$T/err"
	expect_grep "pi: a nested worktree with no file of its own, the main checkout's read" \
		"path=\"$W/AGENTS.md\"" "$T/out"
	# with one, the main checkout's goes (a relative gitdir, as git
	# worktree add --relative-paths writes it)
	echo "wt" >"$W/w/AGENTS.md"
	"$CLAWMD" render --runtime pi --cwd "$W/w" --format text >"$T/out" 2>"$T/err"
	if grep -q "path=\"$W/AGENTS.md\"" "$T/out" || ! grep -q "path=\"$W/w/AGENTS.md\"" "$T/out"; then
		_report 1 "pi: a relative gitdir, the main checkout's file shadowed" "$(cat "$T/out")"
	else
		_report 0 "pi: a relative gitdir, the main checkout's file shadowed"
	fi
	# a .git directory without HEAD ends pi's search for the checkout:
	# nothing shadowed
	rm "$W/.git/worktrees/w/HEAD"
	"$CLAWMD" render --runtime pi --cwd "$W/w" --format text >"$T/out" 2>"$T/err"
	expect_grep "pi: the worktree's git directory without HEAD, nothing shadowed" \
		"path=\"$W/AGENTS.md\"" "$T/out"
fi
# no cap: a 5 MiB AGENTS.md is taken whole, not passed over for the
# CLAUDE.md beside it (make e2e's pi-big, not pinned for its size)
B=$P/big
mkdir -p "$B"
(cd "$B" && sh -e "$E2E/pi-big/setup.sh")
"$CLAWMD" render --runtime pi --cwd "$B" --format text >"$T/out" 2>"$T/err"
if grep -q "path=\"$B/CLAUDE.md\"" "$T/out" || ! grep -q "path=\"$B/AGENTS.md\"" "$T/out" ||
	[ "$(grep -c '^0\{64\}$' "$T/out")" != 1 ] || ! grep -qx '0\{59\}81999' "$T/out"; then
	_report 1 "pi: a 5 MiB AGENTS.md taken whole" "$(head -c 500 "$T/out")"
else
	_report 0 "pi: a 5 MiB AGENTS.md taken whole"
fi
done_testing
