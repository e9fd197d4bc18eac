#!/bin/sh
# compose against hostile input: container.json values, planted symlinks and
# wrong-typed entries.  Every refusal names the file and key, exits with the
# documented status, and changes nothing.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
# These cases are about the symlink layout; copy mode (the default) is in t13.
printf '{"mode": "symlink"}\n' >"$R/clawmd.json"
make_skill "$R" alpha
mkdir -p "$R/groups/g"
G=$R/groups/g
expect_ok "baseline compose" $CLAWMD compose -C "$R" g
snap() { (cd "$G" && find . -mindepth 1 -printf '%p %y %i %T@ %s %l\n' | grep -v container.json | sort); }
before=$(snap)

bad() { # NAME JSON PATTERN
	printf '%s' "$2" >"$G/container.json"
	expect_fail 3 "$1: exit 3" $CLAWMD compose -C "$R" g
	expect_grep "$1: message names file and key" "$3" "$T/err"
	expect_eq "$1: nothing changed" "$(snap)" "$before"
}
bad "path traversal skill" '{"skills": ["../../etc"]}' "container.json: skills\[0\]: invalid name '\.\./\.\./etc'"
bad "dot-dot skill" '{"skills": ["ok", ".."]}' "skills\[1\]: invalid name"
bad "slash in skill" '{"skills": ["a/b"]}' "skills\[0\]: invalid name 'a/b'"
bad "newline in skill" '{"skills": ["a\nb"]}' "skills\[0\]: invalid name 'a\\\\x0ab'"
bad "empty skill" '{"skills": [""]}' "skills\[0\]: invalid name ''"
bad "leading dot skill" '{"skills": [".hidden"]}' "skills\[0\]: invalid name"
bad "too long skill" "{\"skills\": [\"$(printf 'a%.0s' $(seq 65))\"]}" "skills\[0\]: invalid name"
bad "non-string skill" '{"skills": ["a", 7]}' "skills\[1\]: expected a string"
bad "skills wrong type" '{"skills": {"a": 1}}' "skills: expected \"all\" or an array"
bad "skills other string" '{"skills": "some"}' "skills: expected \"all\""
bad "NUL escape" '{"skills": ["a\u0000b"]}' "groups/g/container.json:1:15: contains a NUL"
bad "traversal server" '{"mcpServers": {"../x": {"instructions": "x"}}}' "mcpServers: invalid server name '\.\./x'"
bad "server not object" '{"mcpServers": {"x": "y"}}' "mcpServers.x: expected an object"
bad "mcpServers not object" '{"mcpServers": []}' "mcpServers: expected an object"
bad "instructions not string" '{"mcpServers": {"x": {"instructions": 5}}}' "mcpServers.x.instructions: expected a string"
bad "instructions too big" "{\"mcpServers\": {\"x\": {\"instructions\": \"$(head -c 70000 /dev/zero | tr '\0' a)\"}}}" "mcpServers.x.instructions: .* more than"
bad "cli_scope not string" '{"cli_scope": false}' "cli_scope: expected a string"
bad "malformed JSON: what was expected, where, and what was found" '{"skills": [' "container.json:1:[0-9]+: expected a value or '\]' but found the end of the file"
bad "top-level array" '[1]' "expected a JSON object"
printf '{"skills": ["\377"]}' >"$G/container.json"
expect_fail 3 "invalid UTF-8 exits 3" $CLAWMD compose -C "$R" g
expect_grep "invalid UTF-8 named" "not valid UTF-8" "$T/err"
head -c 1100000 /dev/zero | tr '\0' ' ' >"$G/container.json"
expect_fail 3 "oversized container.json exits 3" $CLAWMD compose -C "$R" g
expect_grep "oversized named" "container.json.* larger than" "$T/err"
echo '{}' >"$T/elsewhere.json"
rm "$G/container.json"; ln -s "$T/elsewhere.json" "$G/container.json"
expect_fail 3 "symlinked container.json refused" $CLAWMD compose -C "$R" g
expect_grep "symlinked container.json named" "container.json' is a symlink" "$T/err"
rm "$G/container.json"; mkfifo "$G/container.json"
expect_fail 3 "FIFO container.json refused without hanging" $CLAWMD compose -C "$R" g
rm "$G/container.json"
expect_eq "all refusals left the group as it was" "$(snap)" "$before"
expect_fail 3 "invalid group name" $CLAWMD compose -C "$R" '../g'

# A symlinked group directory is refused (exit 4), its target untouched.
mkdir -p "$T/victim"
ln -s "$T/victim" "$R/groups/evil"
expect_fail 4 "symlinked group directory refused" $CLAWMD compose -C "$R" evil
expect_grep "refusal names the directory" "groups/evil' is a symlink" "$T/err"
check "nothing written through it" test -z "$(ls -A "$T/victim")"
expect_fail 4 "missing group" $CLAWMD compose -C "$R" nosuch
check "no lock file made for a missing group" test ! -e "$R/.clawmd/locks/nosuch"
check "no lock file made for a symlinked group" test ! -e "$R/.clawmd/locks/evil"

# Planted symlinks in clawmd-owned names are moved aside, never followed.
echo "precious" >"$T/target.md"
rm "$G/CLAUDE.md"; ln -s "$T/target.md" "$G/CLAUDE.md"
expect_ok "compose over a symlinked CLAUDE.md" $CLAWMD compose -C "$R" g
expect_file "link target untouched" "$T/target.md" "precious"
check "CLAUDE.md is a regular file again" test -f "$G/CLAUDE.md" -a ! -L "$G/CLAUDE.md"
check "planted link preserved aside" sh -c "ls -la '$G' | grep -q 'CLAUDE.md.clawmd-preserved-.* -> $T/target.md'"

mkdir -p "$T/outside"
rm -rf "$G/.claude-fragments"; ln -s "$T/outside" "$G/.claude-fragments"
expect_ok "compose over a symlinked .claude-fragments" $CLAWMD compose -C "$R" g
check "nothing written through the fragments link" test -z "$(ls -A "$T/outside")"
check ".claude-fragments is a real directory" test -d "$G/.claude-fragments" -a ! -L "$G/.claude-fragments"
check "planted fragments link preserved" sh -c "ls -A '$G' | grep -q '^.claude-fragments.clawmd-preserved-'"

rm -f "$G/CLAUDE.local.md"; ln -s "$T/target.md" "$G/CLAUDE.local.md"
expect_ok "compose with a symlinked CLAUDE.local.md" $CLAWMD compose -C "$R" g
check "CLAUDE.local.md link left as is" test -L "$G/CLAUDE.local.md"
expect_file "its target untouched" "$T/target.md" "precious"
echo "hand" >"$G/CLAUDE.md"
expect_ok "hand edit with a symlinked CLAUDE.local.md" $CLAWMD compose -C "$R" g
expect_file "never written through the CLAUDE.local.md link" "$T/target.md" "precious"
rm "$G/CLAUDE.local.md"

# Symlink mode links the base from .claude-fragments/shared.md: a
# directory planted there goes aside; .claude-shared.md is no name of its.
rm "$G/.claude-fragments/shared.md"; mkdir -p "$G/.claude-fragments/shared.md/sub"
echo keep >"$G/.claude-fragments/shared.md/sub/f"
expect_ok "compose over a directory at .claude-fragments/shared.md" $CLAWMD compose -C "$R" g
check "the link to the base is a symlink again" test -L "$G/.claude-fragments/shared.md"
check "the directory and its content preserved" \
	sh -c "cat '$G'/.claude-fragments/shared.md.clawmd-preserved-*/sub/f | grep -q keep"
mkdir -p "$G/.claude-shared.md/sub"; echo keep >"$G/.claude-shared.md/sub/f"
expect_ok "compose over a directory at .claude-shared.md" $CLAWMD compose -C "$R" g
check "... which symlink mode leaves alone (nothing imports it)" test -f "$G/.claude-shared.md/sub/f"
rm -r "$G/.claude-shared.md"

rm "$G/.claude-fragments/skill-alpha.md"; mkfifo "$G/.claude-fragments/skill-alpha.md"
expect_ok "compose over a FIFO fragment" $CLAWMD compose -C "$R" g
check "fragment is a symlink again" test -L "$G/.claude-fragments/skill-alpha.md"
rm "$G/CLAUDE.md"; mkdir "$G/CLAUDE.md"; echo x >"$G/CLAUDE.md/y"
expect_ok "compose over a directory at CLAUDE.md" $CLAWMD compose -C "$R" g
check "directory CLAUDE.md preserved with content" sh -c "cat '$G'/CLAUDE.md.clawmd-preserved-*/y | grep -q x"
expect_ok "converged" $CLAWMD compose -C "$R" --check g

# Temp names are never followed: pre-planting links at many names changes nothing.
echo '{"mcpServers": {"m": {"instructions": "hi @./x.md there"}}}' >"$G/container.json"
expect_ok "compose with an @ directive in MCP instructions" $CLAWMD compose -C "$R" g
expect_file "directive defused into a code span" "$G/.claude-fragments/mcp-m.md" 'hi `@./x.md` there'
done_testing
