#!/bin/sh
# The papercuts a new user met (issue 20, item 8): render GROUP, --home with
# --group, -q before the command, compose --all over no groups, paths in
# warnings, the preview of a move-aside, render's final newline on a
# terminal, the defused-@ warning, and cli_scope values.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" alpha
mkdir -p "$R/groups/g"
G=$R/groups/g
printf '{"skills": ["alpha", "nope"], "mcpServers": {"s": {"instructions": "See @./x.md."}}}\n' \
	>"$G/container.json"

# --- compose: warnings --------------------------------------------------
expect_ok "compose a group with an unknown skill and an @ in MCP instructions" \
	sh -c "cd '$R' && '$CLAWMD' -C . compose g"
expect_grep "the unknown skill is shown from the current directory, not absolute" \
	"^clawmd: warning: groups/g/container.json: skills: unknown skill 'nope' \\(no skills/nope\\) \\[CM303\\]$" "$T/err"
expect_grep "a plain compose says it defused the @" \
	"^clawmd: warning: groups/g: defused 1 @ directive\\(s\\) in inline MCP instructions" "$T/err"
expect_ok "compose again (nothing to write)" sh -c "cd '$R' && '$CLAWMD' -C . compose g"
expect_eq "... still says it, once" "$(grep -c 'defused' "$T/err")" "1"
expect_ok "clawmd -q compose: -q before the command" "$CLAWMD" -q -C "$R" compose g
expect_eq "... prints no warning" "$(cat "$T/err")" ""
expect_fail 1 "clawmd -q check --strict (the unknown skill is a warning)" "$CLAWMD" -q -C "$R" check --strict g
expect_eq "... prints no summary line" "$(grep -c '^clawmd: .* in 1 group' "$T/err")" "0"
expect_fail 2 "clawmd -x: an unknown option before the command is still refused" "$CLAWMD" -x compose g

# --- compose --all over no groups ------------------------------------------
E=$T/empty
make_root "$E"
expect_ok "compose --all over no groups" sh -c "cd '$E' && '$CLAWMD' -C . compose --all"
expect_grep "... says so" "^clawmd: no groups under groups/: nothing to compose" "$T/err"
expect_ok "... -q: silent" "$CLAWMD" -C "$E" compose -q --all
expect_eq "... nothing on stderr" "$(cat "$T/err")" ""

# --- the preview of a move-aside names the file -----------------------------
mkdir -p "$R/groups/h/.claude-shared.md"
expect_ok "compose -n over a directory planted at .claude-shared.md" \
	sh -c "cd '$R' && '$CLAWMD' -C . compose -n h"
expect_grep "... names where it would go" \
	'^preserve groups/h/\.claude-shared\.md \(directory\) -> groups/h/\.claude-shared\.md\.clawmd-preserved-<time>-<random>$' "$T/out"
check "... no literal <name>" sh -c "! grep -q '<name>' '$T/out'"
rm -r "$R/groups/h"

# --- cli_scope ---------------------------------------------------------------
mkdir -p "$R/groups/c"
printf '{"cli_scope": "off"}\n' >"$R/groups/c/container.json"
expect_fail 3 "cli_scope \"off\" is invalid input" "$CLAWMD" -C "$R" compose c
expect_grep "... naming the key, with what it probably meant" \
	"cli_scope: unknown value 'off' \\(did you mean 'disabled'\\? expected disabled, group or global\\)" "$T/err"
check "... and nothing is written" test ! -e "$R/groups/c/CLAUDE.md"
for v in disabled group global; do
	printf '{"cli_scope": "%s"}\n' $v >"$R/groups/c/container.json"
	expect_ok "cli_scope \"$v\" (nanoclaw's values)" "$CLAWMD" -C "$R" compose c
done

# --- render GROUP ----------------------------------------------------------
NO="--managed-dir $T/nomanaged"
expect_ok "render --group g" "$CLAWMD" -C "$R" render --group g $NO
cp "$T/out" "$T/by-flag"
expect_ok "render g (positional, as compose g)" "$CLAWMD" -C "$R" render g $NO
expect_eq "... the same output" "$(cat "$T/out")" "$(cat "$T/by-flag")"
expect_fail 2 "render g --group g" "$CLAWMD" -C "$R" render g --group g
expect_grep "... says not both" "give GROUP or --group GROUP, not both" "$T/err"
expect_fail 2 "render g h" "$CLAWMD" -C "$R" render g h
expect_fail 4 "render nosuch" "$CLAWMD" -C "$R" render nosuch

# --- render --group --home: the container's home, through the mount table --
mkdir -p "$R/sessions/g/.claude"
printf 'Session memory.\n' >"$R/sessions/g/.claude/CLAUDE.md"
printf '{"mounts": [{"container": "/home/node/.claude", "host": "sessions/g/.claude"}]}\n' \
	>"$R/clawmd.json"
expect_ok "render --group g --home /home/node" "$CLAWMD" -C "$R" render g --home /home/node $NO
expect_grep "... loads the user tier the container sees" '^Session memory\.$' "$T/out"
expect_ok "render --group g (no --home)" "$CLAWMD" -C "$R" render g $NO
check "... has no user tier" sh -c "! grep -q 'Session memory' '$T/out'"
expect_ok "render --group g --home /elsewhere (no mount there)" \
	"$CLAWMD" -C "$R" render g --home /elsewhere $NO
check "... loads nothing from the host's /elsewhere" sh -c "! grep -q 'Session memory' '$T/out'"
expect_fail 2 "render --group g --home relative" "$CLAWMD" -C "$R" render g --home sessions
expect_grep "... says it is a container path" "--home with --group is a container path" "$T/err"
rm "$R/clawmd.json"

# --- render's text: exact for a pipe, a final newline on a terminal --------
"$CLAWMD" -C "$R" render g $NO >"$T/piped"
check "a pipe gets Claude Code's string exactly (no final newline)" \
	sh -c "test -s '$T/piped' && test \"\$(tail -c 1 '$T/piped' | od -An -c | tr -d ' ')\" != '\\n'"
if command -v script >/dev/null 2>&1; then
	script -qec "'$CLAWMD' -C '$R' render g $NO" /dev/null >"$T/tty" 2>&1
	check "a terminal gets a final newline" \
		sh -c "test \"\$(tail -c 2 '$T/tty' | od -An -c | tr -d ' ')\" = '\\r\\n'"
else
	_report 0 "# SKIP no script(1) for a terminal"
fi

done_testing
