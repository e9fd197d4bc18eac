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
done_testing
