#!/bin/sh
# compose, copy mode: a fragment's relative imports keep working.  The
# fragment and the files it imports from inside its skill (or the modules)
# directory are copied to .claude-fragments/<kind>-<item>/ at the same
# relative paths, so the agent loads the same contents as through a symlink
# with external includes approved; check reports problems at the source.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
mkdir -p "$R/skills/foo/docs" "$R/skills/bar" "$R/mods" "$R/groups/g" "$R/groups/s"
printf 'Foo skill.\nSee @./details.md and @docs/more.md and @../bar/instructions.md or @./missing.md\n' \
	>"$R/skills/foo/instructions.md"
printf 'Details: @./docs/more.md and @./pic.png\n' >"$R/skills/foo/details.md"
printf 'More: @../deep.md\n' >"$R/skills/foo/docs/more.md"
printf 'Deep: @./deeper.md\n' >"$R/skills/foo/deep.md"
printf 'Deeper: @./deepest.md\n' >"$R/skills/foo/deeper.md"
printf 'Deepest, never loaded.\n' >"$R/skills/foo/deepest.md"
printf 'png' >"$R/skills/foo/pic.png"
printf 'unrelated\n' >"$R/skills/foo/unrelated.md"
printf 'Bar, no imports.\n' >"$R/skills/bar/instructions.md"
printf 'Web module: @./web-extra.md\n' >"$R/mods/web.instructions.md"
printf 'web extra\n' >"$R/mods/web-extra.md"
G=$R/groups/g
F=$G/.claude-fragments

expect_ok "compose a group whose skill imports files beside it" $CLAWMD compose -q -C "$R" --modules mods g
expect_eq "the entry imports the copied fragment inside its directory" "$(tail -n +2 "$G/CLAUDE.md")" \
"@./.claude-shared.md
@./.claude-fragments/skill-bar.md
@./.claude-fragments/skill-foo/instructions.md
@./.claude-fragments/module-web/web.instructions.md"
expect_eq "the closure is copied at the same relative paths (text, within the depth limit)" \
	"$(cd "$F/skill-foo" && find . -type f | sort)" "./deep.md
./deeper.md
./details.md
./docs/more.md
./instructions.md"
check "a fragment without relative imports stays one regular file" test -f "$F/skill-bar.md" -a ! -L "$F/skill-bar.md"
check "copies are regular files, not links" sh -c "! find '$F' -type l | grep -q ."
expect_eq "copied content is the source's, byte for byte" "$(cat "$F/skill-foo/docs/more.md")" "More: @../deep.md"
expect_eq "a module's imports come along from the modules directory" \
	"$(cd "$F/module-web" && find . -type f | sort)" "./web-extra.md
./web.instructions.md"
expect_ok "stable" $CLAWMD compose -C "$R" --modules mods --check g

# The agent loads the same contents as through the symlinks with approval
# (only the "Contents of PATH" lines and the entry's import lines differ:
# symlink mode links the base from .claude-fragments/shared.md).
expect_ok "compose the same group in symlink mode" $CLAWMD compose -q -C "$R" --modules mods --mode symlink s
$CLAWMD render -C "$R" --modules mods --group g --home "$T/nohome" --managed-dir "$T/nomanaged" |
	sed 's/^Contents of [^ ]*/Contents of P/; s|^@./.claude-fragments/\([a-z]*-[a-z]*\)/.*|@./.claude-fragments/\1.md|' >"$T/copy.txt"
$CLAWMD render -C "$R" --modules mods --mode symlink --group s --approve-external --home "$T/nohome" --managed-dir "$T/nomanaged" |
	sed 's/^Contents of [^ ]*/Contents of P/; s|^@./.claude-fragments/shared.md$|@./.claude-shared.md|' >"$T/sym.txt"
expect_eq "copy mode loads what symlink mode with approval loads" "$(cat "$T/copy.txt")" "$(cat "$T/sym.txt")"
check "and it is not empty" grep -q 'Deep: @./deeper.md' "$T/copy.txt"
check "the file past the depth limit loads in neither" sh -c "! grep -q 'Deeper:' '$T/copy.txt'"

# check points at the source, with its line and column.
$CLAWMD check --no-hints -C "$R" --modules mods g >"$T/out" 2>&1
expect_grep "a missing import in a copied fragment is reported at the source" \
	'^skills/foo/instructions\.md:2:68: error: @\./missing\.md: .* \[CM101\]$' "$T/out"
expect_grep "... naming the missing file where the user creates it, not its copy" \
	'^skills/foo/instructions\.md:2:68: error: @\./missing\.md: skills/foo/missing\.md does not exist' "$T/out"
expect_grep "a non-text import in a copied closure file, at its source" \
	'^skills/foo/details\.md:1:30: error: @\./pic\.png: .* \[CM104\]$' "$T/out"
check "nothing is reported at the copies" sh -c "! grep -q '^groups/' '$T/out'"
$CLAWMD check --hints -C "$R" --modules mods g >"$T/out" 2>&1
expect_grep "a file past the depth limit: CM103 at the source, as through the symlink" \
	'^skills/foo/deep\.md:1:7: error: @\./deeper\.md .* \[CM103\]$' "$T/out"
expect_grep "the hint says what copy mode copies" 'hint: the fragment is copied into the group' "$T/out"

# A changed source file in the closure is drift; compose rewrites the directory whole.
printf 'More v2: @../deep.md\n' >"$R/skills/foo/docs/more.md"
expect_fail 1 "a changed closure file is drift" $CLAWMD compose -C "$R" --modules mods --check g
expect_grep "dry-run names the directory" '^rewrite groups/g/.claude-fragments/skill-foo/ \(the fragment and 4 file\(s\) it imports\)$' "$T/out"
$CLAWMD compose -C "$R" --modules mods --json --dry-run g >"$T/out" 2>&1
expect_grep "--json lists the directory's files" '"files":' "$T/out"
expect_ok "recompose" $CLAWMD compose -q -C "$R" --modules mods g
expect_file "the new content is in place" "$F/skill-foo/docs/more.md" "More v2: @../deep.md"
check "no staging directory left" sh -c "! ls -A '$F' | grep -q tmp"

# The directory is compose's: what the agent plants there goes, never followed
# (moved aside with the old tree: see the end of this file).
mkdir -p "$T/outside"; echo keep >"$T/outside/secret.md"
echo planted >"$F/skill-foo/planted.md"
rm -rf "$F/skill-foo/docs"; ln -s "$T/outside" "$F/skill-foo/docs"
expect_fail 1 "planted entries are drift" $CLAWMD compose -C "$R" --modules mods --check g
expect_ok "compose over planted entries" $CLAWMD compose -q -C "$R" --modules mods g
check "the planted file is gone" test ! -e "$F/skill-foo/planted.md"
check "docs is a real directory again" test -d "$F/skill-foo/docs" -a ! -L "$F/skill-foo/docs"
expect_file "the symlink's target was not touched" "$T/outside/secret.md" "keep"
expect_ok "converged" $CLAWMD compose -C "$R" --modules mods --check g
rm -rf "$F/skill-foo"; ln -s "$T/outside" "$F/skill-foo"
expect_ok "compose over a symlink at the directory's name" $CLAWMD compose -q -C "$R" --modules mods g
check "the directory is real again" test -d "$F/skill-foo" -a ! -L "$F/skill-foo"
check "the planted link was moved aside, not followed" sh -c "ls -A '$F' | grep -q '^skill-foo.clawmd-preserved-'"
expect_file "its target untouched" "$T/outside/secret.md" "keep"
mkfifo "$F/skill-foo/details.md.fifo" 2>/dev/null && rm -f "$F/skill-foo/details.md" &&
	mkfifo "$F/skill-foo/details.md"
deep=$F/skill-foo/d; i=0
while [ $i -lt 20 ]; do deep=$deep/d; i=$((i + 1)); done
mkdir -p "$deep" && echo bottom >"$deep/f.md"
$HANG_GUARD $CLAWMD compose -q -C "$R" --modules mods g >"$T/out" 2>&1
expect_eq "compose over a FIFO and a planted tree deeper than the bounds" "$?" 0
check "the copy is a regular file again (the FIFO was never opened)" test -f "$F/skill-foo/details.md" -a ! -p "$F/skill-foo/details.md"
check "the planted tree is gone from the fragment directory" test ! -e "$F/skill-foo/d"
check "and kept aside under the fragment's name" sh -c "grep -rqx bottom '$F'/skill-foo.clawmd-preserved-*"
expect_ok "converged after it" $CLAWMD compose -C "$R" --modules mods --check g
mkdir -p "$F/.skill-foo.0123456789abcdef.tmp/x"
expect_ok "a killed run's staging directory" $CLAWMD compose -q -C "$R" --modules mods g
check "is removed" test ! -e "$F/.skill-foo.0123456789abcdef.tmp"

# No relative import any more, a dropped skill, or symlink mode: the directory goes.
printf 'Bar now imports @./b2.md\n' >"$R/skills/bar/instructions.md"
printf 'b2\n' >"$R/skills/bar/b2.md"
expect_ok "a skill gains an import" $CLAWMD compose -q -C "$R" --modules mods g
check "its single copy becomes a directory" sh -c "test -f '$F/skill-bar/b2.md' && test ! -e '$F/skill-bar.md'"
printf 'Bar, no imports.\n' >"$R/skills/bar/instructions.md"
expect_ok "and loses it" $CLAWMD compose -q -C "$R" --modules mods g
check "the directory becomes a single copy" sh -c "test -f '$F/skill-bar.md' && test ! -e '$F/skill-bar'"
expect_ok "switch to symlink mode" $CLAWMD compose -q -C "$R" --modules mods --mode symlink g
check "the fragment directories are gone" sh -c "test ! -e '$F/skill-foo' && test ! -e '$F/module-web'"
check "the fragment is a symlink" test -L "$F/skill-foo.md"
expect_ok "and back to copy" $CLAWMD compose -q -C "$R" --modules mods g
expect_ok "converged" $CLAWMD compose -C "$R" --modules mods --check g
expect_ok "status lists the imported fragment" $CLAWMD status -C "$R" --modules mods g
expect_grep "status names the skills" ' all: bar,foo$' "$T/out"
# What the agent puts inside a fragment directory is moved aside whole,
# never deleted: a directory where a copied file belongs, an extra file,
# a directory of a fragment's name that compose never wrote.
A=$T/agent
rm -rf "$A"
mkdir -p "$A/container" "$A/skills/s/sub" "$A/groups/g"
printf '# base\n' >"$A/container/CLAUDE.md"
printf 'Use s. @./details.md\n' >"$A/skills/s/instructions.md"
printf 'Details. @./sub/more.md\n' >"$A/skills/s/details.md"
printf 'More.\n' >"$A/skills/s/sub/more.md"
AF=$A/groups/g/.claude-fragments
expect_ok "agent content: first compose" $CLAWMD compose -q -C "$A" g
rm "$AF/skill-s/details.md"
mkdir "$AF/skill-s/details.md"
echo keep1 >"$AF/skill-s/details.md/agentfile"
expect_ok "a directory where a copied file belongs: compose" $CLAWMD compose -q -C "$A" g
check "... its content is kept aside" sh -c "grep -rqx keep1 '$AF'/skill-s.clawmd-preserved-*"
check "... and the fragment is whole again" test -f "$AF/skill-s/details.md"
echo keep2 >"$AF/skill-s/notes.txt"
expect_ok "an extra file in a fragment directory: compose" $CLAWMD compose -q -C "$A" g
check "... is kept aside" sh -c "grep -rqx keep2 '$AF'/skill-s.clawmd-preserved-*"
check "... and gone from the fragment" test ! -e "$AF/skill-s/notes.txt"
mkdir "$AF/skill-x"
echo keep3 >"$AF/skill-x/agentfile"
: >"$AF/skill-x/empty"
ln "$AF/skill-x/empty" "$AF/skill-x/hardlink"
expect_ok "a directory compose never wrote, with a hard link: compose" $CLAWMD compose -q -C "$A" g
check "... is kept aside" sh -c "grep -rqx keep3 '$AF'/skill-x.clawmd-preserved-*"
"$CLAWMD" check -C "$A" g >"$T/out" 2>&1
expect_grep "check reports what was kept (CM404)" 'CM404' "$T/out"
before=$(ls -d "$AF"/*.clawmd-preserved-* | wc -l)
printf 'Details, no import.\n' >"$A/skills/s/details.md"
expect_ok "a fragment that stops importing a file: compose" $CLAWMD compose -q -C "$A" g
check "... the copy it no longer needs goes" test ! -e "$AF/skill-s/sub"
expect_eq "... and nothing is kept aside for it (compose wrote it)" \
	"$(ls -d "$AF"/*.clawmd-preserved-* | wc -l)" "$before"
printf '{"skills": []}\n' >"$A/groups/g/container.json"
expect_ok "a stale fragment directory of compose's own: compose" $CLAWMD compose -q -C "$A" g
check "... is removed, not kept" sh -c "! ls -d '$AF'/skill-s 2>/dev/null"
done_testing
