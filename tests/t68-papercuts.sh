#!/bin/sh
# The papercuts of issue 30: compose's diff in colour when asked (and never
# into a file), a SKILL.md-only skill named in status as on demand, and
# per-command --help pages short enough to read, pointing at the man page.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" web
mkdir -p "$R/skills/ondemand" "$R/groups/g" "$R/groups/listed"
printf -- '---\nname: ondemand\ndescription: d\n---\nBody.\n' >"$R/skills/ondemand/SKILL.md"
printf '{ "skills": ["web"] }\n' >"$R/groups/listed/container.json"
printf '{}\n' >"$R/clawmd.json"
expect_ok "compose" "$CLAWMD" -C "$R" compose --all
printf 'More.\n' >>"$R/container/CLAUDE.md"

esc=$(printf '\033')
expect_fail 1 "compose --check --color always" "$CLAWMD" -C "$R" compose --check --color always g
expect_grep "added lines green" "^$esc\\[32m\\+More\\.$esc\\[0m$" "$T/out"
expect_grep "hunk headers cyan" "^$esc\\[36m@@ " "$T/out"
expect_grep "file headers bold" "^$esc\\[1mdiff --git " "$T/out"
expect_fail 1 "clawmd --color always before the command" "$CLAWMD" --color always -C "$R" compose --check g
expect_grep "... colours too" "^$esc\\[32m\\+More" "$T/out"
expect_fail 1 "compose --check into a file" "$CLAWMD" -C "$R" compose --check g
check "... no colour (not a terminal)" sh -c "! grep -q '$esc' '$T/out'"
expect_fail 1 "--color never" "$CLAWMD" -C "$R" compose --check --color never g
check "... no colour" sh -c "! grep -q '$esc' '$T/out'"
if command -v script >/dev/null; then
	env -u NO_COLOR script -qec "'$CLAWMD' -C '$R' compose --dry-run g" /dev/null >"$T/tty" 2>&1
	expect_grep "on a terminal by default" "$esc\\[32m\\+More" "$T/tty"
	NO_COLOR=1 script -qec "'$CLAWMD' -C '$R' compose --dry-run g" /dev/null >"$T/tty" 2>&1
	check "NO_COLOR on a terminal: none" sh -c "! grep -q '$esc\\[3' '$T/tty'"
fi
# The agent's text cannot close or open a colour: escaped before colouring.
printf 'evil \033[31m red\n' >>"$R/container/CLAUDE.md"
"$CLAWMD" -C "$R" compose --check --color always g >"$T/out" 2>/dev/null
expect_grep "the agent's escape is shown as \\x1b" '\+evil \\x1[bB]\[31m red' "$T/out"

expect_ok "status" "$CLAWMD" -C "$R" status
expect_grep "an 'all' group: the SKILL.md-only skill, on demand" '^g .* all: web; on demand: ondemand$' "$T/out"
expect_grep "a group that lists skills: only those" '^listed .* web$' "$T/out"
expect_ok "status --json" "$CLAWMD" -C "$R" status --json g
cp "$T/out" "$T/json"
expect_ok "... on_demand in JSON" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	join(",", @{$d->{groups}[0]{on_demand}}) eq "ondemand" or die' <"$T/json"
check "compose made no fragment of it" test ! -e "$R/groups/g/.claude-fragments/skill-ondemand.md"

for c in compose migrate check status init report; do
	"$CLAWMD" $c --help >"$T/help"
	check "$c --help is at most 40 lines" test "$(wc -l <"$T/help")" -le 40
	expect_grep "$c --help points at its man page" "^See 'man clawmd-$c' for the details\\.$" "$T/help"
done
"$CLAWMD" compose --help >"$T/help"
expect_grep "a command's --help names the layout options in a line or two" \
	"^  -C DIR, --preset NAME, --base FILE" "$T/help"
"$CLAWMD" --help >"$T/help"
expect_grep "clawmd --help describes them" '^      --preset NAME     ' "$T/help"
done_testing
