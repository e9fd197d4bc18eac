#!/bin/sh
# compose: the record of the last verified no-op (lib/compose/record.c).  A no-op
# compose trusts it only while every recorded identity still matches, so:
# the record is written and used (no source, copy or container.json read),
# and every kind of change made after it, by the host or by the agent, is
# still seen and converged by the next compose.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" alpha
make_skill "$R" beta
make_skill "$R" gamma no
mkdir -p "$R/modules"
printf 'cli module\n' >"$R/modules/cli.instructions.md"
printf 'web module\n' >"$R/modules/web.instructions.md"
mkdir -p "$R/groups/g" "$R/groups/c" "$R/groups/h" "$R/groups/d"
# d: copy mode, a skill whose fragment imports files beside it (a copied
# fragment directory), one of them missing.
make_skill "$R" rel no
mkdir -p "$R/skills/rel/docs"
printf 'Rel.\n@./docs/a.md\n@./docs/missing.md\n' >"$R/skills/rel/instructions.md"
printf 'doc a\n' >"$R/skills/rel/docs/a.md"
printf '{"skills": ["rel"]}' >"$R/groups/d/container.json"
printf '{"mcpServers": {"m": {"instructions": "mcp text"}}}' >"$R/groups/g/container.json"
cp "$R/groups/g/container.json" "$R/groups/c/container.json"
printf '{"skills": ["alpha", "nope"]}' >"$R/groups/h/container.json"
G=$R/groups/g
C=$R/groups/c
F=.claude-fragments

# mode_of GROUP: the mode each test group is composed in.
mode_of() { case $1 in c | d) echo copy ;; *) echo symlink ;; esac; }
compose() { $CLAWMD compose -C "$R" --modules modules --mode "$(mode_of "$1")" "$1"; }
compose_cmd() { echo "$CLAWMD compose -C $R --modules modules --mode $(mode_of "$1") $1"; }
has_record() { [ "$(tail -c +4097 "$R/.clawmd/locks/$1" 2>/dev/null | head -c 6)" = clawmd ]; }

# Compose until the record is written: a record is only written by a
# no-op whose inputs were last changed clearly before it began.
settle() { # GROUP
	_i=0
	compose "$1" 2>/dev/null
	while ! has_record "$1" && [ $_i -lt 5 ]; do
		age_out
		compose "$1" 2>/dev/null
		_i=$((_i + 1))
	done
	has_record "$1"
}

# snapshot GROUP: every name, type and content (link targets) in the group
# (one find and one cksum: it runs twice in each of the 25 convergences).
snapshot() {
	(cd "$R/groups/$1" && find . -mindepth 1 ! -name container.json \( \( -type l -printf '%p -> %l\n' \) \
		-o \( -type f -exec cksum {} + \) -o -printf '%p/\n' \)) | sort
}

# converged NAME GROUP: compose, then the group equals a fresh composition
# of the same inputs in a scratch group (no record there).
converged() {
	expect_ok "$1: compose" compose "$2"
	rm -rf "$R/groups/zz"
	mkdir "$R/groups/zz"
	cp "$R/groups/$2/container.json" "$R/groups/zz/"
	[ -f "$R/groups/$2/CLAUDE.role.md" ] && cp "$R/groups/$2/CLAUDE.role.md" "$R/groups/zz/"
	$CLAWMD compose -C "$R" --modules modules --mode "$(mode_of "$2")" zz 2>/dev/null
	expect_eq "$1: converged" "$(snapshot "$2" | grep -v clawmd-preserved)" \
		"$(snapshot zz | grep -v clawmd-preserved)"
	expect_eq "$1: nothing preserved" "$(ls -a "$R/groups/$2" | grep clawmd-preserved)" ""
}

# --- the record is written, then used -----------------------------------
check "symlink mode: a no-op writes the record" settle g
check "copy mode: a no-op writes the record" settle c
check "copied fragment directory: a no-op writes the record" settle d

if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	strace -f -o "$T/trace" -e trace=open,openat,openat2,read,readlink,readlinkat $(compose_cmd c)
	expect_eq "copy mode no-op: no source, copy or container.json opened" \
		"$(grep -E 'instructions\.md|container\.json|CLAUDE\.md|skill-|module-|mcp-' "$T/trace" | grep -E 'open|read')" ""
	strace -f -o "$T/trace" -e trace=open,openat,openat2,read $(compose_cmd d)
	expect_eq "copied fragment directory no-op: nothing of it opened" \
		"$(grep -E 'skills/rel|skill-rel|docs' "$T/trace")" ""
	strace -f -o "$T/trace" -e trace=readlinkat $(compose_cmd g)
	expect_eq "symlink mode no-op: no symlink read" "$(grep -c readlinkat "$T/trace")" "0"
	strace -f -o "$T/trace" -e trace=%file,%desc $(compose_cmd g)
	check "no-op: libcjson and libmd4c are not loaded" \
		sh -c "! grep -qE 'libcjson|libmd4c|libyaml' '$T/trace'"
	unset ASAN_OPTIONS
else
	for i in 1 2 3 4; do _report 0 "# SKIP strace unavailable"; done
fi

# compose --all: the sources are looked at once for the whole pass.
mkdir -p "$T/fleet/groups"
cp -a "$R/container" "$R/skills" "$R/modules" "$T/fleet/"
for g in a b c d; do mkdir "$T/fleet/groups/$g"; done
$CLAWMD compose -C "$T/fleet" --modules modules --mode copy --all
i=0
while [ "$(tail -c +4097 "$T/fleet/.clawmd/locks/d" 2>/dev/null | head -c 6)" != clawmd ] && [ $i -lt 5 ]; do
	age_out; $CLAWMD compose -C "$T/fleet" --modules modules --mode copy --all; i=$((i + 1))
done
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o "$T/trace" \
		-e trace=stat,newfstatat,statx $CLAWMD compose -C "$T/fleet" --modules modules --mode copy --all
	expect_eq "--all no-op: each source stat'ed once for 4 groups" \
		"$(grep -c 'skills/alpha/instructions.md' "$T/trace")" "1"
else
	_report 0 "# SKIP strace unavailable"
fi
printf 'Use alpha, fleet-wide.\n' >"$T/fleet/skills/alpha/instructions.md"
expect_ok "--all after a source changed" $CLAWMD compose -C "$T/fleet" --modules modules --mode copy --all
for g in a b c d; do
	expect_file "--all: group $g sees the change" "$T/fleet/groups/$g/$F/skill-alpha.md" \
		"Use alpha, fleet-wide."
done

# Warnings come back from the record as from a full compose.
expect_ok "unknown skill: full compose" $CLAWMD compose -C "$R" --modules modules h
expect_grep "unknown skill: warned" "unknown skill 'nope'" "$T/err"
i=0
while ! has_record h && [ $i -lt 5 ]; do age_out; $CLAWMD compose -C "$R" --modules modules -q h; i=$((i + 1)); done
expect_ok "unknown skill: compose from the record" $CLAWMD compose -C "$R" --modules modules h
expect_grep "unknown skill: still warned" "unknown skill 'nope'" "$T/err"

# --- every change after the record is seen -------------------------------
# The host edits a source in place, keeping its size.
settle c
printf 'Use ALPHA well.\n' >"$R/skills/alpha/instructions.md"
converged "source edited in place (same size)" c
expect_file "copy has the new text" "$C/$F/skill-alpha.md" "Use ALPHA well."

settle c
printf 'Use alpha, renamed in.\n' >"$T/new" && mv "$T/new" "$R/skills/alpha/instructions.md"
converged "source replaced by rename" c

settle c
printf '# Shared base, edited\n' >>"$R/container/CLAUDE.md"
converged "shared base edited" c

# The agent edits a copy in place (same size), or swaps it for a symlink.
settle c
printf 'Use BETA well.\n' >"$C/$F/skill-beta.md"
converged "copy edited in place by the agent" c
settle c
rm "$C/$F/skill-beta.md" && ln -s /etc/passwd "$C/$F/skill-beta.md"
converged "copy swapped for a symlink" c
settle c
printf 'stale\n' >"$C/$F/skill-old.md"
converged "stale fragment planted" c

# A copied fragment directory: every file it rests on, in the host's tree
# and in the group.
D=$R/groups/d
settle d
printf 'DOC A\n' >"$R/skills/rel/docs/a.md"
converged "imported file edited in place (same size)" d
expect_file "its copy has the new text" "$D/$F/skill-rel/docs/a.md" "DOC A"
settle d
printf 'now here\n' >"$R/skills/rel/docs/missing.md"
converged "a missing import appears" d
expect_file "... and is copied" "$D/$F/skill-rel/docs/missing.md" "now here"
settle d
printf 'doc A\n' >"$D/$F/skill-rel/docs/a.md"
converged "a copy in the directory edited in place by the agent" d
settle d
rm "$D/$F/skill-rel/docs/missing.md"
converged "a copy in the directory removed" d
settle d
printf 'agent notes\n' >"$D/$F/skill-rel/docs/notes.md"
expect_ok "a file planted in the directory: compose" compose d
check "... it is no longer in the fragment directory" test ! -e "$D/$F/skill-rel/docs/notes.md"
check "... and was kept aside, not lost" sh -c "cat '$D/$F'/skill-rel.clawmd-preserved-*/docs/notes.md | grep -q 'agent notes'"
# Copy mode reads a source beneath the skills directory (no absolute
# symlink, none leading out), so a stat that follows symlinks cannot vouch
# for it: the same file behind a directory made an absolute symlink is no
# longer copied.  Found by the red team: the record said no-op.
rm -rf "$D/$F"/skill-rel.clawmd-preserved-*
settle d
mv "$R/skills/rel/docs" "$R/skills/rel/docs2" && ln -s "$R/skills/rel/docs2" "$R/skills/rel/docs"
converged "an imported file's directory made an absolute symlink to itself" d
{ compose d; age_out; compose d; } >/dev/null 2>&1
check "... no record while a source is reached through a symlink" sh -c "! tail -c +4097 '$R/.clawmd/locks/d' | head -c 6 | grep -q clawmd"
rm "$R/skills/rel/docs" && mv "$R/skills/rel/docs2" "$R/skills/rel/docs"
converged "... and back" d
settle d

# Symlink mode: a fragment symlink retargeted, an MCP fragment edited.
settle g
ln -s /elsewhere "$G/$F/x" && mv "$G/$F/x" "$G/$F/skill-alpha.md"
converged "fragment symlink retargeted" g
settle g
printf 'mcp TEXT\n' >"$G/$F/mcp-m.md"
converged "MCP fragment edited in place" g
settle g
rm "$G/.claude-shared.md" && ln -s /app/other.md "$G/.claude-shared.md"
converged "shared symlink retargeted" g

# The inputs of the plan.
settle g
printf '{"mcpServers": {"m": {"instructions": "mcp text"}, "n": {"instructions": "more"}}}' \
	>"$G/container.json"
converged "container.json changed" g
check "new MCP fragment" test -f "$G/$F/mcp-n.md"
settle g
printf 'role\n' >"$G/CLAUDE.role.md"
converged "CLAUDE.role.md created" g
expect_grep "entry imports the role" '^@\./CLAUDE\.role\.md$' "$G/CLAUDE.md"
settle g
rm "$G/CLAUDE.local.md"
converged "CLAUDE.local.md removed" g
check "CLAUDE.local.md back" test -f "$G/CLAUDE.local.md"
settle g
printf 'Use gamma well.\n' >"$R/skills/gamma/instructions.md"
converged "a skill gains instructions.md" g
check "gamma fragment" test -L "$G/$F/skill-gamma.md"
settle g
make_skill "$R" delta
converged "a new skill" g
settle g
rm "$R/skills/beta/instructions.md"
converged "a skill loses instructions.md" g
check "beta fragment removed" test ! -e "$G/$F/skill-beta.md"
settle g
printf 'sched\n' >"$R/modules/scheduling.instructions.md"
converged "a new module" g

# The entry: edited by hand (preserved, as always), or emptied and torn.
settle g
printf 'hand edit\n' >>"$G/CLAUDE.md"
expect_ok "hand edit after the record: compose" compose g
expect_grep "hand edit carried or preserved" "was not written by clawmd" "$T/err"

# The record itself: torn, or made under another layout, proves nothing.
settle c
head -c 4196 "$R/.clawmd/locks/c" >"$T/torn" && cat "$T/torn" >"$R/.clawmd/locks/c"
printf 'Use ALPHA again.\n' >"$R/skills/alpha/instructions.md"
converged "torn record" c
settle g
expect_ok "mode switched: compose" $CLAWMD compose -C "$R" --modules modules --mode copy g
check "mode switched: fragments are copies" test -f "$G/$F/skill-alpha.md" -a ! -L "$G/$F/skill-alpha.md"

done_testing
