#!/bin/sh
# render --runtime caliban|chimera: the seed documents' own loaders
# (doc/runtimes.md, "caliban and chimera").
#
# 1. Every case of tests/seed/ (its README): the walk, the files per level,
#    the import syntax, depth, cycles and duplicates, the gate, comments,
#    encodings, sizes and rules, each loader's text byte for byte.
# 2. The command: --format files and json, a loader that fails, the flags.
# 3. A group: its container.json's provider, the container's paths.
. "$CLAWMD_TESTS/lib.sh"
TP=$(cd "$T" && pwd -P)

# --- 1. the cases -------------------------------------------------------------
for dir in "$CLAWMD_TESTS"/seed/*/; do
	c=${dir%/}
	c=${c##*/}
	root=$TP/seed/$c
	mkdir -p "$root"
	(cd "$root" && sh -e "$dir/setup.sh") >"$T/setup.out" 2>&1 ||
		{ _report 1 "$c: setup" "$(cat "$T/setup.out")"; continue; }
	args=$(cat "$dir/args" 2>/dev/null || true)
	for rt in caliban chimera; do
		exp=$dir/expected.$rt
		[ -f "$exp" ] || continue
		# shellcheck disable=SC2086
		"$CLAWMD" render --runtime $rt --cwd "$root/ws" --home "$root/home" $args \
			>"$T/got" 2>"$T/err"
		st=$?
		sed "s|$root|@ROOT@|g" "$T/got" >"$T/got.sub"
		sed "s|$root|@ROOT@|g" "$T/err" >"$T/err.sub"
		ok=0
		[ "$st" = 0 ] || ok=1
		cmp -s "$T/got.sub" "$exp" || ok=1
		if [ -f "$exp.err" ]; then
			cmp -s "$T/err.sub" "$exp.err" || ok=1
		else
			[ ! -s "$T/err" ] || ok=1
		fi
		_report $ok "$c: $rt's text" "exit $st; stderr: $(head -c 300 "$T/err")
$(diff "$exp" "$T/got.sub" 2>&1 | head -30)"
	done
done

# caliban's budget: past 32,000 tokens (characters / 4) the project tier is
# cut at the last newline before byte 4 * 32000 - 128 of it, and a marker
# says how many bytes went (the tier as caliban built it, less what is kept).
S=$TP/seed/truncated
"$CLAWMD" render --runtime caliban --cwd "$S/ws" >"$T/got" 2>"$T/err"
tag="<project-claude-md path=\"$S/ws/CLAUDE.md\">"
tail -n 3 "$T/got" >"$T/tail"
n=$(sed -n 's/^\[truncated: \([0-9]*\) bytes over budget; raise CALIBAN_MEMORY_BUDGET_TOKENS or trim\]$/\1/p' "$T/tail")
check "truncated: the marker, then the outer tag closes" test -n "$n" -a "$(sed -n 2p "$T/tail")" = "</project-claude-md>"
# what is kept: between the outer tag's line and the marker's blank line
kept=$(($(wc -c <"$T/got") - ${#tag} - 1 - $(tail -n 4 "$T/got" | wc -c)))
inner1="<project-claude-md path=\"$S/ws/CLAUDE.md\" source=\"walk\">"
inner2="<project-claude-md path=\"$S/ws/AGENTS.md\" source=\"walk\">"
whole=$((${#inner1} + 1 + $(wc -c <"$S/ws/CLAUDE.md") + 22 + ${#inner2} + 1 + 6 + 22))
check "truncated: cut at a line's end at or before byte 127,872" \
	test "$kept" -le 127872 -a "$(head -n -4 "$T/got" | tail -c 1 | od -An -c | tr -d ' ')" = '\n'
expect_eq "truncated: the marker counts the bytes cut" "$n" "$((whole - kept))"

# --- 2. the command -------------------------------------------------------------
S=$TP/seed/cycles
expect_ok "--format files: caliban's walked files, each import after its importer" \
	"$CLAWMD" render --runtime caliban --cwd "$S/ws" --home "$S/home" --format files
expect_eq "--format files: caliban lists what it read" "$(cat "$T/out")" "Project	$S/ws/CLAUDE.md	-
Project	$S/ws/a.md	$S/ws/CLAUDE.md
Project	$S/ws/b.md	$S/ws/a.md
Project	$S/ws/AGENTS.md	$S/ws/CLAUDE.md
Project	$S/ws/CLAUDE.local.md	$S/ws/CLAUDE.md
Project	$S/ws/AGENTS.md	-"
expect_ok "--format files for chimera" \
	"$CLAWMD" render --runtime chimera --cwd "$S/ws" --home "$S/home" --format files
expect_eq "--format files: chimera's files, the local one as Local, imports once per file" \
	"$(cat "$T/out")" "Project	$S/ws/CLAUDE.md	-
Project	$S/ws/a.md	$S/ws/CLAUDE.md
Project	$S/ws/b.md	$S/ws/a.md
Project	$S/ws/CLAUDE.md	$S/ws/CLAUDE.md
Project	$S/ws/AGENTS.md	$S/ws/CLAUDE.md
Project	$S/ws/CLAUDE.local.md	$S/ws/CLAUDE.md
Local	$S/ws/CLAUDE.local.md	-
Project	$S/ws/a.md	$S/ws/CLAUDE.local.md
Project	$S/ws/b.md	$S/ws/a.md"
expect_ok "--json for caliban" "$CLAWMD" render --runtime caliban --cwd "$S/ws" --home "$S/home" --json
json_strict "$T/out" &&
	expect_grep "json: each part names caliban's source" '"source":[[:space:]]*"import"' "$T/out"
expect_grep "json: a cycle is an import's status" '"status":[[:space:]]*"cycle"' "$T/out"
expect_grep "json: a second import is a duplicate" '"status":[[:space:]]*"duplicate"' "$T/out"
S=$TP/seed/gate
expect_ok "--json: a denied import" "$CLAWMD" render --runtime caliban --cwd "$S/ws" --home "$S/home" --json
expect_grep "json: a denied import is external and not approved" \
	'"status":[[:space:]]*"external and not approved"' "$T/out"
S=$TP/seed/not-utf8
expect_ok "chimera failing: exit 0 (render worked)" "$CLAWMD" render --runtime chimera --cwd "$S/ws" --json
json_strict "$T/out" &&
	expect_grep "json: failed says why chimera sends nothing" '"failed":[[:space:]]*"chimera raises UnicodeDecodeError' "$T/out"
expect_ok "caliban --format files: the global file is User" \
	"$CLAWMD" render --runtime caliban --cwd "$TP/seed/walk/ws" --home "$TP/seed/walk/home" --format files
expect_grep "the global file first, as User" "^User	$TP/seed/walk/home/.config/caliban/CLAUDE.md	-\$" "$T/out"
expect_fail 2 "a misspelt runtime is a usage error" "$CLAWMD" render --runtime calban
expect_grep "it names the nearest runtime and lists both" "did you mean 'caliban'.*caliban or chimera" "$T/err"
expect_fail 2 "a Codex flag with caliban is a usage error" "$CLAWMD" render --runtime caliban --codex-max-bytes 1
expect_ok "--help lists both runtimes" "$CLAWMD" render --help
expect_grep "--help: caliban" 'mock, caliban' "$T/out"
expect_grep "--help: --approve-external is CALIBAN_APPROVE_IMPORTS=1" 'CALIBAN_APPROVE_IMPORTS=1' "$T/out"

# The agent writes its rules: a pattern that takes a backtracking matcher
# exponential time ("*a" 40 times, "**" 40 times over a deep tree) is
# matched in linear steps (bounded in CPU time, not in wall time).
H=$TP/hostile
mkdir -p "$H/ws/.claude/rules" "$H/ws/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d"
p=$(printf '*a%.0s' $(seq 40))b
q=$(printf '**/%.0s' $(seq 40))x
printf -- '---\npaths: ["%s", "%s"]\n---\nnever\n' "$p" "$q" >"$H/ws/.claude/rules/r.md"
: >"$H/ws/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/$(printf 'a%.0s' $(seq 200))"
expect_ok "chimera: hostile rule patterns end" sh -c "ulimit -t 60; exec \"\$0\" render --runtime chimera --cwd '$H/ws'" "$CLAWMD"
expect_eq "chimera: the rule matches nothing" "$(cat "$T/out")" ""

# --- 3. a group -----------------------------------------------------------------
R=$TP/root
make_root "$R"
G=$R/groups/main
mkdir -p "$G"
printf '{"provider": "caliban"}\n' >"$G/container.json"
printf 'Memory.\n' >"$G/CLAUDE.local.md"
printf 'Line one.\n@./notes.md\n' >"$G/AGENTS.md"
printf 'Notes.\n' >"$G/notes.md"
expect_ok "--group: a caliban group renders by caliban's rules" "$CLAWMD" render -C "$R" --group main
expect_file "--group: container paths, AGENTS.md walked, the import spliced" "$T/out" \
'<project-claude-md path="/workspace/agent/AGENTS.md">
<project-claude-md path="/workspace/agent/AGENTS.md" source="walk">
Line one.

Notes.

</project-claude-md>

</project-claude-md>
'
printf '@../../etc/passwd\n@/app/CLAUDE.md\n' >"$G/.caliban.md"
expect_ok "--group: imports leaving the group" "$CLAWMD" render -C "$R" --group main
expect_grep "--group: /app is outside the walk's root: denied" '^\[@-import skipped \(denied\): /app/CLAUDE.md\]$' "$T/out"
expect_grep "--group: a path no mount shows is denied before it is looked for" \
	'^\[@-import skipped \(denied\): \.\./\.\./etc/passwd\]$' "$T/out"
expect_ok "--group --approve-external" "$CLAWMD" render -C "$R" --group main --approve-external
expect_grep "--group: approved, /app's file is read through the mount" '^# Shared base$' "$T/out"
expect_grep "--group: approved, a path no mount shows is not found" \
	'^\[@-import skipped \(not-found\): \.\./\.\./etc/passwd\]$' "$T/out"
rm "$G/.caliban.md"
printf '{"provider": "chimera"}\n' >"$G/container.json"
expect_ok "--group: a chimera group" "$CLAWMD" render -C "$R" --group main
expect_file "--group: chimera reads CLAUDE.local.md, never AGENTS.md" "$T/out" \
'<memory source="CLAUDE.md">
<!-- source: /workspace/agent/CLAUDE.local.md -->
Memory.
</memory>'
done_testing
