#!/bin/sh
# What the agent can and cannot change in its container, run inside it as
# the agent (uid 1000) in its working directory, the group:
#
#   probe.sh RO_PATH...
#
# Each RO_PATH (a container path `clawmd mounts` binds read-only: the
# composed entry, copy mode's .claude-shared.md, .claude-fragments, the
# base, the skills) must resist every change: a write, an append, a
# removal, a rename, a new file inside a directory; its content stays the
# same.  A symlink inside such a directory (symlink mode's links to the
# base and the sources) must resist being replaced, and a write through it
# must fail.  The memory, CLAUDE.local.md, must take a write, and the group
# a new file.  One line per check, "ok - WHAT" or "not ok - WHAT".
# Exit status: the number of failed checks (at most 100).
failed=0
ok() { echo "ok - $*"; }
no() { echo "not ok - $*"; failed=$((failed + 1)); }
sum() { cat "$1" 2>/dev/null | cksum; }

[ "$(id -u)" = 1000 ] && ok "runs as uid 1000" || no "runs as uid 1000 (is $(id -u))"

# resist FILE: nothing changes it
resist() {
	f=$1
	before=$(sum "$f")
	if (printf 'agent was here\n' >>"$f") 2>/dev/null; then no "append to $f"; else ok "append to $f refused"; fi
	if (printf 'agent was here\n' >"$f") 2>/dev/null; then no "overwrite $f"; else ok "overwrite $f refused"; fi
	if mv "$f" "$f.moved" 2>/dev/null; then no "rename $f"; mv "$f.moved" "$f" 2>/dev/null; else ok "rename $f refused"; fi
	if rm -f "$f" 2>/dev/null && [ ! -e "$f" ]; then no "remove $f"; else ok "remove $f refused"; fi
	[ "$(sum "$f")" = "$before" ] && ok "$f unchanged" || no "$f changed"
}

# resist_link LINK: neither replaced nor written through
resist_link() {
	l=$1 t=$(readlink "$1")
	before=$(sum "$l")
	if ln -sfn /tmp/elsewhere.md "$l" 2>/dev/null && [ "$(readlink "$l")" != "$t" ]; then
		no "replace the link $l"
		ln -sfn "$t" "$l" 2>/dev/null
	else
		ok "replace the link $l refused"
	fi
	if (printf 'agent was here\n' >>"$l") 2>/dev/null; then no "write through $l ($t)"
	else ok "write through $l to $t refused"; fi
	[ "$(sum "$l")" = "$before" ] && ok "$l unchanged" || no "$l changed"
}

for p in "$@"; do
	if [ -d "$p" ]; then
		if (: >"$p/agent-planted.md") 2>/dev/null; then no "new file in $p"; else ok "new file in $p refused"; fi
		if mv "$p" "$p.moved" 2>/dev/null; then no "rename $p"; mv "$p.moved" "$p"; else ok "rename $p refused"; fi
		for f in "$p"/* "$p"/*/*; do
			[ -f "$f" ] && [ ! -L "$f" ] && resist "$f"
			[ -L "$f" ] && resist_link "$f"
		done
	elif [ -f "$p" ]; then
		resist "$p"
	else
		no "$p is there"
	fi
done

# What the agent may change.
if printf '\nThe agent remembers this.\n' >>CLAUDE.local.md 2>/dev/null; then ok "CLAUDE.local.md (memory) writable"
else no "CLAUDE.local.md (memory) writable"; fi
if : >agent-notes.txt 2>/dev/null && rm agent-notes.txt; then ok "a new file in the group"
else no "a new file in the group"; fi
[ $failed -le 100 ] || failed=100
exit $failed
