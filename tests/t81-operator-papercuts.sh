#!/bin/sh
# What an operator meets first with a wrong clawmd.json: every error names
# the file as the operator would open it and the key; a container path
# that leaves where it says (/app/../etc) is refused as a relative one is.
. "$CLAWMD_TESTS/lib.sh"
R=$T/root
make_root "$R"
mkdir -p "$R/groups/main"

# 1. A container path with a '.' or '..' component: exit 3, the key named.
bad() { # NAME JSON PATTERN
	printf '%s\n' "$2" >"$R/clawmd.json"
	expect_fail 3 "$1: exit 3" "$CLAWMD" -C "$R" compose main
	expect_grep "$1: named" "$3" "$T/err"
	expect_fail 3 "$1: mounts refuses it too" "$CLAWMD" -C "$R" mounts main
}
bad "container_path with .." '{"providers": {"cursor": {"container_path": "/workspace/../etc/AGENTS.md"}}}' \
	"^clawmd: clawmd.json: providers.cursor.container_path: expected an absolute path in the container with no '.' or '..' component, not '/workspace/../etc/AGENTS.md'$"
bad "container_path with ." '{"providers": {"x": {"like": "codex", "container_path": "/w/./AGENTS.md"}}}' \
	"providers.x.container_path: expected an absolute path in the container with no '.' or '..' component"
bad "container_path ending in .." '{"providers": {"codex": {"container_path": "/w/.."}}}' \
	"providers.codex.container_path: expected an absolute path in the container with no '.' or '..' component"
bad "container.base with .." '{"container": {"base": "/app/../CLAUDE.md"}}' \
	"clawmd.json: container.base: expected an absolute path with no '.' or '..' component, not '/app/../CLAUDE.md'"
bad "container.group with .." '{"container": {"group": "/workspace/agent/.."}}' \
	"clawmd.json: container.group: expected an absolute path with no '.' or '..' component"
bad "a mount's container path with .." '{"mounts": [{"container": "/a/../etc", "host": "x"}]}' \
	"clawmd.json: mounts\\[0\\].container: expected an absolute path with no '.' or '..' component, not '/a/../etc'"
# A name that only starts with dots is a name.
printf '{"providers": {"cursor": {"container_path": "/w/..x/.y/AGENTS.md"}}}\n' >"$R/clawmd.json"
expect_ok "a component '..x' is a name, not a way up" "$CLAWMD" -C "$R" compose main
expect_ok "... and mounts there" "$CLAWMD" -C "$R" mounts --format json main

# 2. clawmd.json is named as the other files are: relative to where the
# command runs (or to -C ROOT, as git -C), absolute only from outside.
printf '{"mode": "mirror"}\n' >"$R/clawmd.json"
expect_fail 3 "-C ROOT: exit 3" "$CLAWMD" -C "$R" status
expect_grep "... named from ROOT" "^clawmd: clawmd.json: mode: expected 'symlink' or 'copy', not 'mirror'$" "$T/err"
(cd "$R/groups/main" && "$CLAWMD" status) >"$T/out" 2>"$T/err"
expect_grep "from inside a group: ../../clawmd.json" "^clawmd: \\.\\./\\.\\./clawmd.json: mode: expected" "$T/err"
(cd "$T" && CLAWMD_ROOT=$R "$CLAWMD" status) >"$T/out" 2>"$T/err"
expect_grep "from outside ROOT: absolute" "^clawmd: $R/clawmd.json: mode: expected" "$T/err"
printf '{"mode": "copy",}\n' >"$R/clawmd.json"
(cd "$R/groups/main" && "$CLAWMD" status) >"$T/out" 2>"$T/err"
expect_grep "a syntax error: relative, with line:col" \
	"^clawmd: \\.\\./\\.\\./clawmd.json:1:17: expected a key \\(a string in double quotes\\) after ',' but found '}'$" "$T/err"
rm "$R/clawmd.json"

# 3. Each finding's hint fits its cause.
G=$R/groups/main
hint() { # NAME CONTAINER.JSON PATTERN
	printf '%s\n' "$2" >"$G/container.json"
	expect_fail 1 "$1: CM302" "$CLAWMD" -C "$R" check --hints main
	expect_grep "$1: its hint" "^    hint: $3" "$T/out"
}
hint "a syntax error" '{"skills": ["a",]}' \
	"fix the JSON at this position \\(a comma, quote or bracket, or a byte that is not UTF-8 text\\); compose refuses the group until then$"
hint "not an object" '[1]' "fix the JSON at this position"
hint "a bad name" '{"skills": ["../x"]}' \
	"rename it to match \\[A-Za-z0-9\\]\\[A-Za-z0-9._-\\]\\{0,63\\}; compose refuses the group until then$"
hint "a bad server name" '{"mcpServers": {"a b": {}}}' "rename it to match"
hint "a bad type" '{"skills": 5}' "give this key what the message expects; compose refuses the group until then$"
# a server given twice is no error since issue 39: read as the runner's
# JSON.parse reads it, the last one (t139)
printf '{"runtimes": ["claude", "gemini"]}\n' >"$G/container.json"
expect_ok "a Gemini group composes" "$CLAWMD" -C "$R" compose main
printf 'Memory.\n\n@nosuch.md\n' >"$G/CLAUDE.local.md"
expect_fail 1 "a missing import: CM603" "$CLAWMD" -C "$R" check --hints main
expect_grep "... its hint is about the path, not copy mode" \
	"^    hint: fix the path \\(a text file inside the group\\), or remove the import$" "$T/out"
rm "$G/CLAUDE.local.md" "$G/container.json"
printf '{"grups": "g", "zzqqxx": 1}\n' >"$R/clawmd.json"
"$CLAWMD" -C "$R" check --hints main >"$T/out" 2>"$T/err"
expect_grep "CM305 with a near key: spell it as suggested" \
	"^    hint: spell the key as suggested, or remove it" "$T/out"
expect_grep "CM305 with none near: no suggestion promised" \
	"^    hint: remove it, or write one of the keys of doc/layout.md; as it is, clawmd ignores it$" "$T/out"
rm "$R/clawmd.json"

# 4. status names the skills in words: no cryptic "-".
S=$T/fleet
"$CLAWMD" init "$S" >/dev/null 2>&1
mkdir -p "$S/groups/ex" "$S/groups/bare" "$S/groups/mixed"
printf '{"skills": []}\n' >"$S/groups/bare/container.json"
expect_ok "status" "$CLAWMD" -C "$S" status ex
expect_grep "only on-demand skills: 'all, on demand: example'" '^ex .* all, on demand: example$' "$T/out"
make_skill "$S" web
printf '{"skills": ["web", "example"]}\n' >"$S/groups/mixed/container.json"
expect_ok "status" "$CLAWMD" -C "$S" status
expect_grep "... and with one composed: 'all: web; on demand: example'" '^ex .* all: web; on demand: example$' "$T/out"
expect_grep "no skill: 'none'" '^bare .*  none$' "$T/out"
expect_grep "both: unchanged" '^mixed .*  web; on demand: example$' "$T/out"
rm -r "$S/skills/example" "$S/skills/web"
expect_ok "status over an empty skills directory" "$CLAWMD" -C "$S" status ex
expect_grep "every skill of none: 'all: none'" '^ex .* all: none$' "$T/out"
expect_ok "status --json" "$CLAWMD" -C "$S" status --json ex
expect_grep "... the JSON keeps its keys" '"on_demand":' "$T/out"

# 5. Two runtimes of a group sharing one entry file at two container paths:
# the one file, composed for both, is mounted at each (one was left out).
M=$T/shared
make_root "$M"
mkdir -p "$M/groups/g"
printf '{"providers": {"a": {"like": "opencode", "container_path": "/home/a/AGENTS.md"},
 "b": {"like": "opencode", "container_path": "/home/a/AGENTS.md", "cap": 1000}}}\n' >"$M/clawmd.json"
printf '{"runtimes": ["codex", "a", "b"]}\n' >"$M/groups/g/container.json"
expect_ok "compose" "$CLAWMD" -C "$M" compose g
expect_ok "mounts" "$CLAWMD" -C "$M" mounts --format docker g
expect_grep "AGENTS.md where codex reads it" "^$M/groups/g/AGENTS.md:/workspace/agent/AGENTS.md:ro\$" "$T/out"
expect_grep "... and where a and b read it" "^$M/groups/g/AGENTS.md:/home/a/AGENTS.md:ro\$" "$T/out"
expect_eq "... once" "$(grep -c ':/home/a/AGENTS.md:ro' "$T/out")" 1
check "the file is within the least cap of the three" test "$(wc -c <"$M/groups/g/AGENTS.md")" -le 1000

# A groups directory is never ROOT or "/": that would make ROOT's own
# directories, or every directory of the machine, groups.  One above ROOT
# (nanoclaw's tests keep their groups beside the project) is taken for
# groups it is given by name: its other directories are ROOT's neighbours,
# never listed, and the one holding ROOT is never a group.
G=$T/gtop
mkdir -p "$G/groups" "$G/container"
echo base >"$G/container/CLAUDE.md"
for g in / . "$G"; do
	expect_fail 2 "--groups '$g' refused" "$CLAWMD" -C "$G" compose --groups "$g" tmp
	expect_grep "... naming the flag and what was expected" \
		"^clawmd: --groups: expected a directory of group directories, not ROOT or /" "$T/err"
done
check "... nothing written above ROOT" sh -c "test ! -e '$T/CLAUDE.md' && test ! -e /tmp/CLAUDE.md"
expect_fail 2 "--groups '..' lists no group" "$CLAWMD" -C "$G" status --groups ..
expect_grep "... saying why and what to do" "groups: '.*' is above ROOT, so its directories are ROOT's neighbours: name the groups" "$T/err"
expect_fail 2 "... nor composes every one" "$CLAWMD" -C "$G" compose --groups ..
expect_fail 3 "... and the directory holding ROOT is no group" "$CLAWMD" -C "$G" compose --groups .. gtop
expect_grep "... saying so" "group 'gtop': its directory holds ROOT" "$T/err"
check "... nothing written in ROOT or beside it" sh -c "test ! -e '$G/CLAUDE.md' && test ! -e '$T/fleet/CLAUDE.md'"
mkdir -p "$T/nb"
expect_ok "... a group named there composes" "$CLAWMD" -C "$G" compose --groups .. nb
check "... into that group alone" test -f "$T/nb/CLAUDE.md"
rm -rf "$T/nb"
printf '{"groups": "/"}\n' >"$G/clawmd.json"
expect_fail 3 "clawmd.json groups '/' refused" "$CLAWMD" -C "$G" status
expect_grep "... naming the file and key" "clawmd.json: groups: expected a directory of group directories" "$T/err"
rm "$G/clawmd.json"
mkdir -p "$T/elsewhere"
expect_ok "a groups directory beside ROOT is fine" "$CLAWMD" -C "$G" status --groups "$T/elsewhere"

# 3. ROOT/groups a symlink: the host's own choice (its groups on another
# disk), followed; a group directory that is a symlink is the agent's
# reach, refused (doc/layout.md, exit status 4).
S=$T/linked
make_root "$S"
rmdir "$S/groups"
mkdir -p "$T/disk/main" "$T/away"
ln -s "$T/disk" "$S/groups"
expect_ok "a symlinked groups directory is followed" "$CLAWMD" compose -q -C "$S" main
check "... and the group composed there" test -f "$T/disk/main/CLAUDE.md"
ln -s "$T/away" "$T/disk/linked"
expect_fail 4 "a symlinked group directory is refused" "$CLAWMD" compose -q -C "$S" linked
check "... and nothing written where it leads" sh -c "[ -z \"\$(ls -A '$T/away')\" ]"
done_testing
