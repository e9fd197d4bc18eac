#!/bin/sh
# compose on a nanoclaw host: the preset as nanoclaw runs (modules through
# the runner's /app/src mount, import_local, setting sources project,user),
# cli_scope, the cutover from nanoclaw's own composer and legacy entries,
# the symlink-mode warning, clawmd.json read by every command, and the CI
# gates on a fresh clone.
. "$CLAWMD_TESTS/lib.sh"

# A tree shaped like nanoclaw's: container/skills, the agent runner's
# sources with their MCP tool modules, no skills/ at the top.
N=$T/nano
mkdir -p "$N/container/skills/web" "$N/container/skills/nofrag" \
	"$N/container/agent-runner/src/mcp-tools" "$N/groups/main" "$N/groups/ops"
printf 'You are a NanoClaw agent.\n' >"$N/container/CLAUDE.md"
printf 'Use the web skill.\n' >"$N/container/skills/web/instructions.md"
printf -- '---\nname: nofrag\n---\n' >"$N/container/skills/nofrag/SKILL.md"
for m in cli core scheduling; do
	printf 'module %s\n' "$m" >"$N/container/agent-runner/src/mcp-tools/$m.instructions.md"
done
printf 'runner notes\n' >"$N/container/agent-runner/src/NOTES.md"
printf '{"cli_scope": "disabled", "mcpServers": {"quiet": {"instructions": ""}, "loud": {"instructions": "Loud."}}}\n' \
	>"$N/groups/ops/container.json"

# Without the preset: a warning that names it, once per run.
expect_ok "a nanoclaw-shaped tree without the preset" $CLAWMD compose -C "$N" --all
expect_grep "the warning names --preset nanoclaw" "looks like a nanoclaw tree; compose with --preset nanoclaw" "$T/err"
expect_eq "said once for the whole run" "$(grep -c 'nanoclaw tree' "$T/err")" 1
rm -rf "$N/groups/main/"* "$N/groups/main/".claude* "$N/groups/ops/CLAUDE.md" "$N/groups/ops/.claude"* "$N/groups/ops/CLAUDE.local.md"

# The preset.
printf '{"preset": "nanoclaw"}\n' >"$N/clawmd.json"
expect_ok "compose with the preset" $CLAWMD compose -C "$N" --all
expect_eq "no warning in copy mode with the preset" "$(cat "$T/err")" ""
expect_eq "skills, modules, and CLAUDE.local.md imported (the runner leaves out the local source)" \
	"$(tail -n +2 "$N/groups/main/CLAUDE.md")" "@./.claude-shared.md
@./.claude-fragments/skill-web.md
@./.claude-fragments/module-cli.md
@./.claude-fragments/module-core.md
@./.claude-fragments/module-scheduling.md
@./CLAUDE.local.md"
expect_eq "cli_scope disabled drops the cli and scheduling modules; empty instructions get no fragment" \
	"$(tail -n +2 "$N/groups/ops/CLAUDE.md")" "@./.claude-shared.md
@./.claude-fragments/skill-web.md
@./.claude-fragments/module-core.md
@./.claude-fragments/mcp-loud.md
@./CLAUDE.local.md"
check "no fragment file for the empty instructions" test ! -e "$N/groups/ops/.claude-fragments/mcp-quiet.md"
echo "remember this" >"$N/groups/main/CLAUDE.local.md"
$CLAWMD render -C "$N" --group main --format files --home "$T/nohome" --managed-dir "$T/nomanaged" >"$T/out"
expect_grep "render: CLAUDE.local.md loads through the import" \
	'^Project	/workspace/agent/CLAUDE.local.md	/workspace/agent/CLAUDE.md$' "$T/out"
check "render: not natively (setting sources project,user)" sh -c "! grep -q '^Local' '$T/out'"
$CLAWMD render -C "$N" --group main --setting-sources user,project,local --format files --home "$T/nohome" --managed-dir "$T/nomanaged" >"$T/out"
expect_eq "a --setting-sources flag overrides; the imported file still loads once" \
	"$(grep -c 'CLAUDE.local.md' "$T/out")" 1
expect_ok "check is clean with the preset" $CLAWMD check -C "$N" --no-hints
# The runner mounts container/agent-runner/src at /app/src: a module's
# import of a runner file resolves through that mount (symlink mode).
printf 'See @../NOTES.md\n' >>"$N/container/agent-runner/src/mcp-tools/core.instructions.md"
expect_ok "symlink mode with the preset" $CLAWMD compose -q -C "$N" --mode symlink main
$CLAWMD render -C "$N" --mode symlink --approve-external --group main --format files --home "$T/nohome" --managed-dir "$T/nomanaged" >"$T/out"
expect_grep "the module loads at /app/src/mcp-tools" \
	'^Project	/workspace/agent/.claude-fragments/module-core.md	/workspace/agent/CLAUDE.md$' "$T/out"
expect_grep "its import loads through the /app/src mount" \
	'^Project	/app/src/NOTES.md	/workspace/agent/.claude-fragments/module-core.md$' "$T/out"
printf 'module core\n' >"$N/container/agent-runner/src/mcp-tools/core.instructions.md"
expect_ok "back to copy" $CLAWMD compose -q -C "$N" main
printf '{"preset": "nanoclaw", "setting_sources": ["project", "user", "local"], "import_local": false}\n' >"$N/clawmd.json"
expect_ok "recompose without the import" $CLAWMD compose -q -C "$N" main
$CLAWMD render -C "$N" --group main --format files --home "$T/nohome" --managed-dir "$T/nomanaged" >"$T/out"
expect_grep "setting_sources in clawmd.json (an array, as the SDK writes it)" '^Local	/workspace/agent/CLAUDE.local.md	-$' "$T/out"
printf '{"setting_sources": "project,bogus"}\n' >"$N/clawmd.json"
expect_fail 3 "an unknown setting source is invalid input" $CLAWMD compose -C "$N" main
expect_grep "named with the key" "clawmd.json: setting_sources: expected a list of user, project, local" "$T/err"

# Cutover from a live nanoclaw host: its composer's entry is a composed
# entry (replaced, nothing carried, nothing preserved), with or without a
# final newline; a legacy entry loses its .claude-global.md import.
printf '{"preset": "nanoclaw"}\n' >"$N/clawmd.json"
G=$N/groups/main
hdr='<!-- Composed at spawn — do not edit. Edit CLAUDE.local.md for per-group content. -->'
for nl in yes no; do
	: >"$G/CLAUDE.local.md"
	{ echo "$hdr"; echo "@./.claude-shared.md"; echo "@./.claude-fragments/mcp-x y.md" | tr ' ' _
	  printf '@./.claude-fragments/skill-web.md'; [ $nl = yes ] && echo; } >"$G/CLAUDE.md"
	$CLAWMD check -C "$N" --no-hints main >"$T/out"
	expect_grep "check: nanoclaw's entry is stale, not hand-edited (final newline: $nl)" '\[CM402\]$' "$T/out"
	check "no CM401 for it ($nl)" sh -c "! grep -q CM401 '$T/out'"
	expect_ok "compose over nanoclaw's entry ($nl)" $CLAWMD compose -C "$N" main
	expect_eq "nothing said about preserving ($nl)" "$(cat "$T/err")" ""
	expect_eq "CLAUDE.local.md still empty ($nl)" "$(cat "$G/CLAUDE.local.md")" ""
	check "nothing preserved ($nl)" sh -c "! ls -A '$G' | grep -q preserved"
	expect_grep "the entry is clawmd's now ($nl)" 'clawmd:fnv1a64=' "$G/CLAUDE.md"
done
# nanocoai/nanoclaw's header, its persona import first, and the group-file
# imports of qwibitai pull requests 2262 and 2345 at the end.
hdr2='<!-- Composed at spawn - do not edit. Standing instructions: instructions.prepend.md. Memory: memory/. -->'
{ echo "$hdr2"; echo "@./.claude-fragments/persona.md"; echo "@./.claude-shared.md"
  echo "@./.claude-fragments/skill-web.md"; echo "@./CLAUDE.role.md"; echo "@./CLAUDE.local.md"; } >"$G/CLAUDE.md"
expect_ok "compose over nanocoai's entry" $CLAWMD compose -C "$N" main
expect_eq "nanocoai's entry: nothing said about preserving" "$(cat "$T/err")" ""
expect_eq "nanocoai's entry: nothing carried" "$(cat "$G/CLAUDE.local.md")" ""
check "nanocoai's entry: nothing preserved" sh -c "! ls -A '$G' | grep -q preserved"
{ echo "$hdr2"; echo "@./.claude-shared.md"; echo "@./notes.md"; } >"$G/CLAUDE.md"
expect_ok "nanocoai's header over an import of another file" $CLAWMD compose -C "$N" main
expect_file "is carried as a hand edit" "$G/CLAUDE.local.md" "$hdr2
@./.claude-shared.md
@./notes.md"
: >"$G/CLAUDE.local.md"
{ echo "$hdr"; echo "@./.claude-shared.md"; echo "@./.claude-fragments/skill-web.md"; } >"$G/CLAUDE.md"
expect_ok "migrate leaves nanoclaw's entry to compose" $CLAWMD migrate -C "$N" --quiet
expect_eq "nothing carried by migrate" "$(cat "$G/CLAUDE.local.md")" ""
expect_ok "compose replaces it after migrate" $CLAWMD compose -C "$N" main
check "no preserved copy after migrate and compose" sh -c "! ls -A '$G' | grep -q preserved"
{ echo "$hdr"; echo "@./.claude-shared.md"; echo "Always answer in French."; } >"$G/CLAUDE.md"
expect_ok "a hand-edited nanoclaw entry" $CLAWMD compose -C "$N" main
expect_file "is carried, edit and all" "$G/CLAUDE.local.md" "$hdr
@./.claude-shared.md
Always answer in French."
: >"$G/CLAUDE.local.md"
printf '@./.claude-global.md\n\n# Main group\nKeep notes.\n' >"$G/CLAUDE.md"
expect_ok "a legacy entry" $CLAWMD compose -C "$N" main
expect_file "is carried without its .claude-global.md import" "$G/CLAUDE.local.md" "# Main group
Keep notes."
: >"$G/CLAUDE.local.md"
printf '@./.claude-global.md\n' >"$G/CLAUDE.md"
expect_ok "a legacy entry with only that import" $CLAWMD compose -C "$N" main
expect_eq "leaves CLAUDE.local.md empty" "$(cat "$G/CLAUDE.local.md")" ""
check "and preserves nothing" sh -c "! ls -A '$G' | grep -q preserved"

# Symlink mode warns once per run, naming the fix, when the configured
# release drops symlinked imports and the host did not approve them.
R=$T/root
make_root "$R"
make_skill "$R" alpha
mkdir -p "$R/groups/a" "$R/groups/b" "$R/groups/c"
printf '{"mode": "symlink"}\n' >"$R/clawmd.json"
expect_ok "compose --all in symlink mode" $CLAWMD compose -C "$R" --all
expect_eq "one warning for the run" "$(grep -c 'warning: symlink mode' "$T/err")" 1
expect_grep "it names the fix" '"mode": "copy" in clawmd.json \(or "approve_external": true' "$T/err"
expect_grep "and the release" 'Claude Code 2\.1\.330 \(claude_version\)' "$T/err"
expect_ok "--json keeps the warning per group" $CLAWMD compose -C "$R" --json --all
expect_eq "in each group's warnings" "$(grep -c 'symlink mode: Claude Code' "$T/out")" 3
printf '{"mode": "symlink", "claude_version": "2.1.128"}\n' >"$R/clawmd.json"
expect_ok "a release before the realpath gate" $CLAWMD compose -C "$R" --all
expect_eq "no warning" "$(cat "$T/err")" ""
printf '{"mode": "symlink", "approve_external": true}\n' >"$R/clawmd.json"
expect_ok "external includes approved" $CLAWMD compose -C "$R" --all
expect_eq "no warning either" "$(cat "$T/err")" ""

# compose, check and status agree with clawmd.json without repeating flags.
expect_ok "check reads approve_external from clawmd.json" $CLAWMD check -C "$R" --no-hints
check "no CM105" sh -c "! grep -q CM105 '$T/out'"
printf '{"mode": "symlink"}\n' >"$R/clawmd.json"
expect_fail 1 "without approval, check reports the symlinks" $CLAWMD check -C "$R" --no-hints a
expect_grep "as CM105" '\[CM105\]$' "$T/out"
check "and no drift: check read the mode from clawmd.json" sh -c "! grep -q CM402 '$T/out'"
expect_ok "status agrees" $CLAWMD status -C "$R"
expect_grep "clean in symlink mode" '^a +clean' "$T/out"
printf '{"mode": "copy"}\n' >"$R/clawmd.json"
expect_ok "switch the root to copy in clawmd.json" $CLAWMD compose -q -C "$R" --all
expect_ok "compose --check agrees" $CLAWMD compose -C "$R" --check --all
expect_ok "check agrees (no flag)" $CLAWMD check -C "$R" --no-hints
expect_eq "without a finding" "$(cat "$T/out")" ""
expect_ok "status agrees (no flag)" $CLAWMD status -C "$R"
expect_grep "clean in copy mode" '^a +clean' "$T/out"
rm "$R/clawmd.json"
expect_ok "copy is the default: nothing to do without clawmd.json" $CLAWMD compose -C "$R" --check --all

# CI on a fresh clone where CLAUDE.local.md is gitignored: the missing
# empty file is not drift; real drift still is.
rm "$R/groups/a/CLAUDE.local.md"
expect_ok "a missing CLAUDE.local.md is not drift for --check" $CLAWMD compose -C "$R" --check a
expect_grep "though --check lists its creation" '^create groups/a/CLAUDE.local.md \(empty\)$' "$T/out"
expect_ok "nor for check" $CLAWMD check -C "$R" --no-hints a
check "the gate created nothing" test ! -e "$R/groups/a/CLAUDE.local.md"
echo "v2" >>"$R/skills/alpha/instructions.md"
expect_fail 1 "real drift still fails the gate" $CLAWMD compose -C "$R" --check a
expect_ok "compose" $CLAWMD compose -q -C "$R" a
check "creates the missing CLAUDE.local.md" test -f "$R/groups/a/CLAUDE.local.md"

# The render snapshot recipe of doc/render.md, run as written there, on a
# repository that ignores CLAUDE.local.md (the agents' memory).
recipe() { # 1: the refresh part, 2: the CI part
	sed -n '/^\*\*In CI: a snapshot of what the agent sees/,/^```$/p' "$CLAWMD_SRC/doc/render.md" |
		sed -n '/^```sh$/,/^```$/p' | sed '1d;$d' >"$T/recipe.sh"
	if [ "$1" = 1 ]; then sed '/^# in CI/,$d' "$T/recipe.sh"; else sed -n '/^# in CI/,$p' "$T/recipe.sh"; fi
}
if command -v git >/dev/null 2>&1; then
	mkdir -p "$T/bin" && ln -s "$CLAWMD" "$T/bin/clawmd"
	recipe 1 >"$T/refresh.sh"; recipe 2 >"$T/ci.sh"
	check "the recipe has a refresh part and a CI part" test -s "$T/refresh.sh" -a -s "$T/ci.sh"
	U=$T/upstream
	make_root "$U"
	make_skill "$U" alpha
	# No tests/snapshots: the recipe makes it (a fresh repository has none).
	mkdir -p "$U/groups/main" "$U/groups/ops"
	printf 'CLAUDE.local.md\n.clawmd/\n' >"$U/.gitignore"
	cmt() { git -c user.name=t -c user.email=t@t commit -qm "$1"; }
	( cd "$U" && git init -q . && $CLAWMD compose -q -C . --all && git add -A && cmt tree ) >/dev/null 2>&1
	echo "ops notes, written by the agent" >"$U/groups/ops/CLAUDE.local.md"
	( cd "$U" && PATH=$T/bin:$PATH sh -e "$T/refresh.sh" && git add -A && cmt snapshots ) >"$T/out" 2>&1
	expect_eq "the recipe's refresh runs" "$?" 0
	check "it wrote the snapshots" test -s "$U/tests/snapshots/ops.md"
	git clone -q "$U" "$T/clone" 2>/dev/null
	check "the clone has no CLAUDE.local.md" test ! -e "$T/clone/groups/ops/CLAUDE.local.md"
	( cd "$T/clone" && PATH=$T/bin:$PATH sh "$T/ci.sh" ) >"$T/out" 2>&1
	expect_eq "the recipe's CI part passes on the fresh clone" "$?" 0
	expect_ok "so does the drift gate" $CLAWMD compose -C "$T/clone" --check --all
	echo "changed" >>"$T/clone/skills/alpha/instructions.md"
	( cd "$T/clone" && PATH=$T/bin:$PATH sh "$T/ci.sh" ) >"$T/out" 2>&1
	expect_eq "and fails on a change to what the agent loads" "$?" 1
fi
# make demo: both modes load under the default claude_version, and check is
# clean for the default mode (run on a copy of the tree it reads).
D=$T/demo-tree
mkdir -p "$D/scripts"
cp -R "$CLAWMD_SRC/container" "$CLAWMD_SRC/skills" "$D/"
cp "$CLAWMD_SRC/scripts/demo.sh" "$D/scripts/"
sh "$D/scripts/demo.sh" "$CLAWMD" >"$T/demo.out" 2>&1
expect_eq "the demo runs" "$?" 0
sed -n '/render --group assistant --format files/,/^$/p' "$T/demo.out" >"$T/copy.files"
sed -n '/--approve-external --format files/,/^$/p' "$T/demo.out" >"$T/sym.files"
expect_grep "copy mode loads the shared base" '^Project	/workspace/agent/.claude-shared.md	' "$T/copy.files"
expect_grep "copy mode loads a skill with its import" '/skill-web-research/sources.md	' "$T/copy.files"
expect_grep "symlink mode (approved) loads the shared base, linked from .claude-fragments" '^Project	/workspace/agent/.claude-fragments/shared.md	' "$T/sym.files"
expect_eq "both load the same number of files" "$(grep -c '^Project' "$T/copy.files")" "$(grep -c '^Project' "$T/sym.files")"
expect_grep "check is clean for the default mode" '^\(exit 0, and no finding at all\)$' "$T/demo.out"
expect_eq "the symlink warning is said once" "$(grep -c 'warning: symlink mode' "$T/demo.out")" 1
# The demo's report pages show each group in the mode it was composed in
# (issue 40 item 7): a page judging the symlink group by copy mode said
# "copy, would change".
row() { grep "<td class=provider>" "$D/demo/$1" | grep -o '<td class=layout>[a-z]*</td><td class="state [a-z-]*">[a-z ]*<'; }
expect_eq "the copy group's page: copy, clean" "$(row report.html)" '<td class=layout>copy</td><td class="state state-clean">clean<'
expect_eq "the symlink group's page: symlink, clean" "$(row report-symlink.html)" '<td class=layout>symlink</td><td class="state state-clean">clean<'
check "no page says a demo group would change" sh -c "! grep -q 'would change' '$D/demo/report.html' '$D/demo/report-symlink.html'"
# The README's quick start by hand, after make demo: each command as written,
# in the demo's tree, with the exit status it promises (compose --check
# exits 1 after the edit; everything else 0).
sed -n '/^The same commands by hand/,/^```$/p' "$CLAWMD_SRC/README.md" |
	sed -n '/^```sh$/,/^```$/p' | sed '1d;$d' >"$T/quick.sh"
check "the README has the quick start's commands" grep -q 'compose --check' "$T/quick.sh"
mkdir -p "$D/build" && ln -sf "$CLAWMD" "$D/build/clawmd"
st=
while IFS= read -r line; do
	( cd "$D" && eval "$line" ) >>"$T/quick.out" 2>&1
	st="$st$? "
done <"$T/quick.sh"
expect_eq "the quick start's commands exit as the README says" "$st" "0 0 0 1 0 0 "
expect_grep "status shows the group" '^assistant  *clean ' "$T/quick.out"
expect_grep "compose --check shows the diff" '^-@./.claude-fragments/skill-file-handoff.md$' "$T/quick.out"
expect_grep "check is clean after compose" '^clawmd: 0 errors, 0 warnings, 0 notes in 1 group$' "$T/quick.out"
done_testing
