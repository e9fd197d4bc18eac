#!/bin/sh
# compose: copy mode and switching modes, the nanoclaw preset, clawmd.json,
# how ROOT is found, --all, --dry-run, --check and --json.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" alpha
make_skill "$R" beta
mkdir -p "$R/groups/g" "$R/groups/h" "$R/groups/.hidden" "$R/groups/global"
G=$R/groups/g
printf '{"mcpServers": {"m": {"instructions": "mcp text"}}}' >"$G/container.json"

expect_ok "compose in the default mode (copy)" $CLAWMD compose -C "$R" g
check "shared base is a regular file" test -f "$G/.claude-shared.md" -a ! -L "$G/.claude-shared.md"
expect_eq "shared base copy has the source's content" "$(cat "$G/.claude-shared.md")" "$(cat "$R/container/CLAUDE.md")"
check "skill fragment is a regular file" test -f "$G/.claude-fragments/skill-alpha.md" -a ! -L "$G/.claude-fragments/skill-alpha.md"
expect_eq "skill copy has the source's content" "$(cat "$G/.claude-fragments/skill-alpha.md")" "$(cat "$R/skills/alpha/instructions.md")"
expect_ok "copy mode is stable" $CLAWMD compose -C "$R" --mode copy --check g
echo "# Shared base v2" >"$R/container/CLAUDE.md"
expect_fail 1 "a changed source is drift in copy mode" $CLAWMD compose -C "$R" --mode copy --check g
expect_grep "drift shows a unified diff of the copy" '^\+# Shared base v2' "$T/out"
expect_ok "recompose picks the change up" $CLAWMD compose -C "$R" --mode copy g
expect_file "copy updated" "$G/.claude-shared.md" "# Shared base v2"

expect_fail 1 "switching to symlink mode is drift" $CLAWMD compose -C "$R" --mode symlink --check g
expect_grep "dry-run names the new symlink, in .claude-fragments" '^symlink add groups/g/.claude-fragments/shared.md -> /app/CLAUDE.md$' "$T/out"
expect_grep "... and the copy of the base going" '^remove groups/g/.claude-shared.md$' "$T/out"
expect_ok "switch copy -> symlink" $CLAWMD compose -C "$R" --mode symlink g
check "shared base is a symlink again, in .claude-fragments" test -L "$G/.claude-fragments/shared.md"
check "... and no copy of it left in the group" sh -c "test ! -e '$G/.claude-shared.md' && test ! -L '$G/.claude-shared.md'"
check "skill fragment is a symlink again" test -L "$G/.claude-fragments/skill-beta.md"
expect_ok "symlink mode converged" $CLAWMD compose -C "$R" --mode symlink --check g
expect_ok "switch symlink -> copy" $CLAWMD compose -C "$R" g
expect_ok "copy mode converged" $CLAWMD compose -C "$R" --check g
check "no preserved leftovers from switching" sh -c "! ls -A '$G' '$G/.claude-fragments' | grep -q preserved"
check "the link to the base went with symlink mode" sh -c "test ! -L '$G/.claude-fragments/shared.md' && test -f '$G/.claude-shared.md'"

# clawmd.json sets the mode and paths; flags override it.
printf '{"mode": "copy", "skills": "lib/skills"}\n' >"$R/clawmd.json"
mkdir -p "$R/lib"; mv "$R/skills" "$R/lib/skills"
expect_ok "clawmd.json mode and skills path" $CLAWMD compose -C "$R" --check g
expect_fail 1 "a flag overrides clawmd.json" $CLAWMD compose -C "$R" --mode symlink --check g
printf '{"mode": "hardlink"}' >"$R/clawmd.json"
expect_fail 3 "invalid clawmd.json value is invalid input" $CLAWMD compose -C "$R" g
expect_grep "the error names the file and key" "clawmd.json: mode: expected 'symlink' or 'copy'" "$T/err"
for k in preset mode; do
	printf '{"%s": {"x": 1}}' $k >"$R/clawmd.json"
	expect_fail 3 "clawmd.json: $k an object" $CLAWMD compose -C "$R" g
	expect_grep "... the error says what $k must be" \
		"clawmd.json: $k: expected a string, a number or a boolean" "$T/err"
done
printf '{"mode": ' >"$R/clawmd.json"
expect_fail 3 "malformed clawmd.json" $CLAWMD compose -C "$R" g
rm "$R/clawmd.json"; mv "$R/lib/skills" "$R/skills"

# ROOT: -C, else $CLAWMD_ROOT, else the git work tree, else an error.
expect_ok "CLAWMD_ROOT" env CLAWMD_ROOT="$R" $CLAWMD compose --mode copy --check g
mkdir -p "$T/nowhere"
( cd "$T/nowhere" && GIT_CEILING_DIRECTORIES="$T" $CLAWMD compose g ) >"$T/out" 2>"$T/err"
expect_eq "no root: usage error" "$?" 2
expect_grep "no root: says how to give one" "no root: pass -C DIR, set CLAWMD_ROOT" "$T/err"
if command -v git >/dev/null 2>&1; then
	git init -q "$R" && mkdir -p "$R/groups/g/deep"
	( cd "$R/groups/g/deep" && $CLAWMD compose --mode copy --check g ) >"$T/out" 2>"$T/err"
	expect_eq "root found from the git work tree" "$?" 0
	rmdir "$R/groups/g/deep"
fi

# --all: real directories only, never dot-directories or global.
mkdir -p "$T/elsewhere"
ln -s "$T/elsewhere" "$R/groups/linked"
expect_ok "--all" $CLAWMD compose -C "$R" --all
expect_grep "--all names the symlinked group it skipped" "skipped '.*/groups/linked': a symlinked group directory" "$T/err"
check "--all wrote nothing through it" test -z "$(ls -A "$T/elsewhere")"
rm "$R/groups/linked"
check "--all composed h" test -f "$R/groups/h/CLAUDE.md"
check "--all skipped .hidden" test ! -e "$R/groups/.hidden/CLAUDE.md"
check "--all skipped global" test ! -e "$R/groups/global/CLAUDE.md"
expect_fail 2 "GROUP and --all together" $CLAWMD compose -C "$R" --all g

# --dry-run and --json change nothing.
rm -rf "$R/groups/h/.claude-fragments" "$R/groups/h/CLAUDE.md"
before=$(cd "$R/groups/h" && ls -A)
expect_ok "--dry-run" $CLAWMD compose -C "$R" --dry-run h
expect_eq "--dry-run changed nothing" "$(cd "$R/groups/h" && ls -A)" "$before"
expect_grep "--dry-run: mkdir line" '^mkdir groups/h/.claude-fragments$' "$T/out"
expect_grep "--dry-run: diff of the new entry" '^\+\+\+ b/groups/h/CLAUDE.md$' "$T/out"
expect_fail 1 "--check --json" $CLAWMD compose -C "$R" --check --json h
expect_eq "--json changed nothing" "$(cd "$R/groups/h" && ls -A)" "$before"
if perl -MJSON::PP -e1 2>/dev/null; then
	expect_eq "--json is one JSON document with the changes" \
		"$(perl -MJSON::PP -0777 -ne '$d=decode_json($_); $g=$d->{groups}[0]; print join(",", $d->{changed}?1:0, $g->{group}, scalar(grep {$_->{action} eq "write"} @{$g->{changes}}), (grep {$_->{path} eq "groups/h/CLAUDE.md"} @{$g->{changes}})[0]{diff} =~ /^\+\@\.\/\.claude-shared\.md$/m ? "diff" : "nodiff")' "$T/out")" \
		"1,h,3,diff"
fi

# The mount table is configurable: container paths in clawmd.json become
# the fragments' targets, and render --group reads through every mount.
M=$T/mounted
make_root "$M"
make_skill "$M" alpha
mkdir -p "$M/groups/g" "$M/extra"
echo "extra notes" >"$M/extra/notes.md"
cat >"$M/clawmd.json" <<'J'
{"container": {"base": "/opt/base.md", "skills": "/opt/skills", "group": "/home/agent"},
 "mounts": [{"container": "/srv/extra", "host": "extra"}]}
J
echo "@/srv/extra/notes.md" >"$M/groups/g/CLAUDE.local.md"
expect_ok "compose with a configured mount table" $CLAWMD compose -C "$M" --mode symlink g
expect_eq "the base links to the configured container path" "$(readlink "$M/groups/g/.claude-fragments/shared.md")" /opt/base.md
expect_eq "skills link under the configured container path" \
	"$(readlink "$M/groups/g/.claude-fragments/skill-alpha.md")" /opt/skills/alpha/instructions.md
expect_ok "render --group through the configured mounts" \
	$CLAWMD render -C "$M" --group g --approve-external --format files --home "$T/nohome" --managed-dir "$T/nomanaged"
expect_grep "the group is seen at the configured path" "^Local	/home/agent/CLAUDE.local.md	-$" "$T/out"
expect_grep "the shared base loads through its mount" "^Project	/home/agent/.claude-fragments/shared.md	/home/agent/CLAUDE.md$" "$T/out"
expect_grep "an extra mount serves an import" "^Local	/srv/extra/notes.md	/home/agent/CLAUDE.local.md$" "$T/out"
printf '{"mounts": [{"container": "relative", "host": "x"}]}' >"$M/clawmd.json"
expect_fail 3 "a relative container path in mounts is invalid" $CLAWMD compose -C "$M" g
expect_grep "the error names mounts[0]" "clawmd.json: mounts\[0\]" "$T/err"

# The nanoclaw preset: skills in container/skills, modules in the agent runner.
N=$T/nano
mkdir -p "$N/container/skills/web" "$N/container/agent-runner/src/mcp-tools" "$N/groups/main"
echo base >"$N/container/CLAUDE.md"
echo web >"$N/container/skills/web/instructions.md"
echo cli >"$N/container/agent-runner/src/mcp-tools/cli.instructions.md"
expect_ok "nanoclaw preset" $CLAWMD compose -C "$N" --preset nanoclaw --mode symlink main
expect_eq "preset skill path" "$(readlink "$N/groups/main/.claude-fragments/skill-web.md")" /app/skills/web/instructions.md
expect_eq "preset module path" "$(readlink "$N/groups/main/.claude-fragments/module-cli.md")" /app/src/mcp-tools/cli.instructions.md
printf '{"preset": "nanoclaw", "mode": "symlink"}' >"$N/clawmd.json"
expect_ok "preset from clawmd.json" $CLAWMD compose -C "$N" --check main
rm "$N/container/CLAUDE.md"
expect_fail 3 "missing shared base is invalid input" $CLAWMD compose -C "$N" main
expect_grep "missing base named" "shared base '.*container/CLAUDE.md' is missing" "$T/err"
done_testing
