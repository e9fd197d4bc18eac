#!/bin/sh
# Adopting a tree git tracks keeps git whole: when migrate or compose moves a
# tracked CLAUDE.md into CLAUDE.local.md (which init's .gitignore ignores) or
# aside, the move is staged in ROOT's repository, so the text stays in git;
# when the index cannot be written, the warning names the commands to run.
# init's closing lines read the tree it adopted.
. "$CLAWMD_TESTS/lib.sh"

command -v git >/dev/null || { echo "1..0 # skip: no git"; exit 0; }
export GIT_CONFIG_NOSYSTEM=1 HOME=$T/home GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
mkdir -p "$HOME"

# ---- a legacy nanoclaw tree, committed ----
R=$T/legacy
mkdir -p "$R/container" "$R/groups/alpha" "$R/groups/beta" "$R/groups/gamma" "$R/groups/global" \
	"$R/skills/web"
printf '# Base\n' >"$R/container/CLAUDE.md"
printf 'Use the web.\n' >"$R/skills/web/instructions.md"
printf 'Global rules.\n' >"$R/groups/global/CLAUDE.md"
printf '@./.claude-global.md\n\nAlpha sells.\n' >"$R/groups/alpha/CLAUDE.md"
ln -s ../global/CLAUDE.md "$R/groups/alpha/.claude-global.md"
printf 'Beta supports.\n' >"$R/groups/beta/CLAUDE.md"
printf 'Gamma, untracked.\n' >"$R/groups/gamma/CLAUDE.md"
git -C "$R" init -q
git -C "$R" add container skills groups/global groups/alpha groups/beta
git -C "$R" commit -qm legacy
# beta's agent already keeps memory there: migrate appends to it.
printf 'What beta learnt.\n' >"$R/groups/beta/CLAUDE.local.md"

expect_ok "init adopts the tree" "$CLAWMD" init "$R"
expect_grep "init lists the skills it found" '^skills: found 1 in skills/ \(web\)$' "$T/out"
expect_grep "init names migrate for a legacy tree" "^next: this tree has a legacy layout.*'clawmd -C .* migrate --dry-run'" "$T/out"
check "init made no example skill beside the existing ones" test ! -e "$R/skills/example"
check "clawmd.json has no tab" sh -c "! grep -q '	' '$R/clawmd.json'"
expect_grep "clawmd.json is two-space JSON" '^  "mode": "copy",$' "$R/clawmd.json"

expect_ok "migrate --dry-run" "$CLAWMD" -C "$R" migrate --dry-run
expect_grep "--dry-run says the move would be staged" \
	"warning: groups/alpha/CLAUDE.md is tracked by git: its move to groups/alpha/CLAUDE.local.md would be staged" "$T/err"
expect_eq "--dry-run stages nothing" "$(git -C "$R" diff --cached --name-only)" ""
expect_grep "--dry-run: the tracked global CLAUDE.md would show deleted, its text in the review file (the base is tracked: t75)" \
	"warning: groups/global/CLAUDE.md is tracked by git: its text would go into container/CLAUDE.md.clawmd-review .*'git status' would show it deleted" "$T/err"

expect_ok "migrate" "$CLAWMD" -C "$R" migrate
expect_grep "migrate says it staged alpha's move" \
	"warning: groups/alpha/CLAUDE.md is tracked by git: its move to groups/alpha/CLAUDE.local.md is staged" "$T/err"
expect_grep "... and beta's (appended to its memory)" "groups/beta/CLAUDE.md is tracked by git: its move" "$T/err"
check "nothing about gamma, which git never tracked" sh -c "! grep -q gamma '$T/err'"
expect_grep "migrate says the tracked global CLAUDE.md shows deleted and what to commit" \
	"warning: groups/global/CLAUDE.md is tracked by git: its text went into container/CLAUDE.md.clawmd-review .*'git status' shows it deleted; commit the deletion once what container/CLAUDE.md.clawmd-review holds is where it belongs" "$T/err"
git -C "$R" status --porcelain >"$T/status"
# (a rename when git finds them similar enough; alpha lost its import line)
expect_grep "git status: alpha's text staged under its new name" '^(R  groups/alpha/CLAUDE.md -> |A  )groups/alpha/CLAUDE.local.md$' "$T/status"
expect_grep "... the old name staged as gone" '^(R  groups/alpha/CLAUDE.md -> groups/alpha/CLAUDE.local.md|D  groups/alpha/CLAUDE.md)$' "$T/status"
expect_grep "git status: beta's CLAUDE.local.md added, CLAUDE.md removed" '^D  groups/beta/CLAUDE.md$' "$T/status"
expect_grep "... and the new file staged" '^A  groups/beta/CLAUDE.local.md$' "$T/status"
expect_eq "the staged text is what is on disk (alpha)" "$(git -C "$R" show :groups/alpha/CLAUDE.local.md)" \
	"$(cat "$R/groups/alpha/CLAUDE.local.md")"
expect_eq "the staged text is what is on disk (beta)" "$(git -C "$R" show :groups/beta/CLAUDE.local.md)" \
	"$(cat "$R/groups/beta/CLAUDE.local.md")"
check "the carried text is in it" sh -c "git -C '$R' show :groups/alpha/CLAUDE.local.md | grep -qx 'Alpha sells.'"
expect_eq "no unstaged change to the moved files" \
	"$(git -C "$R" diff --name-only -- groups/alpha/CLAUDE.local.md groups/beta/CLAUDE.local.md)" ""
git -C "$R" commit -qm cutover
git -C "$R" clean -fdXq
check "'git clean -fdX' keeps the text (it is tracked)" sh -c "grep -qx 'Alpha sells.' '$R/groups/alpha/CLAUDE.local.md'"
rm -rf "$T/clone"
git clone -q "$R" "$T/clone"
check "a new clone has it" sh -c "grep -qx 'Alpha sells.' '$T/clone/groups/alpha/CLAUDE.local.md'"
expect_ok "a second migrate is a no-op" "$CLAWMD" -C "$R" migrate
expect_eq "... and says nothing about git" "$(grep -c 'tracked by git' "$T/err")" 0

# ---- compose preserves a tracked hand-written CLAUDE.md ----
C=$T/compose
mkdir -p "$C/container" "$C/skills" "$C/groups/one" "$C/groups/two"
printf '# Base\n' >"$C/container/CLAUDE.md"
printf 'One, by hand.\n' >"$C/groups/one/CLAUDE.md"
printf 'Two, by hand.\n' >"$C/groups/two/CLAUDE.md"
printf 'two remembers\n' >"$C/groups/two/CLAUDE.local.md"
git -C "$C" init -q
git -C "$C" add -A
git -C "$C" commit -qm hand
expect_ok "init (a hand-written CLAUDE.md is legacy for init)" "$CLAWMD" init -q "$C"
expect_ok "compose --all" "$CLAWMD" -C "$C" compose --all
expect_grep "compose says it staged one's move into CLAUDE.local.md" \
	"groups/one/CLAUDE.md is tracked by git: its move to groups/one/CLAUDE.local.md is staged" "$T/err"
expect_grep "... and two's move aside" \
	"groups/two/CLAUDE.md is tracked by git: its move to groups/two/CLAUDE.md.clawmd-preserved-" "$T/err"
git -C "$C" status --porcelain >"$T/status"
expect_grep "git status: one's text renamed" '^R  groups/one/CLAUDE.md -> groups/one/CLAUDE.local.md$' "$T/status"
expect_grep "git status: two's text renamed to the preserved name" \
	'^R  groups/two/CLAUDE.md -> groups/two/CLAUDE.md.clawmd-preserved-' "$T/status"
expect_ok "a second compose" "$CLAWMD" -C "$C" compose --all
check "... says nothing about git" sh -c "! grep -q 'tracked by git' '$T/err'"

# ---- the index cannot be written: the warning says what to run ----
L=$T/locked
mkdir -p "$L/container" "$L/skills" "$L/groups/solo"
printf '# Base\n' >"$L/container/CLAUDE.md"
printf 'Solo, by hand.\n' >"$L/groups/solo/CLAUDE.md"
git -C "$L" init -q
git -C "$L" add -A
git -C "$L" commit -qm hand
: >"$L/.git/index.lock"
expect_ok "compose with the index locked still composes" "$CLAWMD" -C "$L" compose solo
expect_grep "the warning names the commands to run" \
	"could not stage the move .*run: git -C [^ ]+ add -f groups/solo/CLAUDE.local.md && git -C [^ ]+ rm --cached -q groups/solo/CLAUDE.md" \
	"$T/err"
check "the text is on disk" sh -c "grep -qx 'Solo, by hand.' '$L/groups/solo/CLAUDE.local.md'"
rm -f "$L/.git/index.lock"
cmds=$(sed -n 's/.*run: \(git -C .*\)$/\1/p' "$T/err" | head -n 1)
expect_ok "the commands it names work as written, from anywhere" sh -c "cd / && $cmds"
git -C "$L" status --porcelain >"$T/status"
expect_grep "... and stage the rename" '^R  groups/solo/CLAUDE.md -> groups/solo/CLAUDE.local.md$' "$T/status"

# ---- outside git: nothing said ----
N=$T/nogit
mkdir -p "$N/container" "$N/skills" "$N/groups/g"
printf '# Base\n' >"$N/container/CLAUDE.md"
printf 'G by hand.\n' >"$N/groups/g/CLAUDE.md"
printf '{}\n' >"$N/clawmd.json"
expect_ok "compose outside git" "$CLAWMD" -C "$N" compose g
check "... says nothing about git" sh -c "! grep -q 'git' '$T/err'"

# ---- init on a new tree ----
expect_ok "init a new tree" "$CLAWMD" init "$T/new"
expect_grep "an example skill, on demand" '^skills: skills/example/SKILL.md is an example' "$T/out"
check "... SKILL.md alone (nothing composed from it)" \
	sh -c "test -f '$T/new/skills/example/SKILL.md' && test ! -e '$T/new/skills/example/instructions.md'"
expect_grep "next: make a group first (groups/ is empty)" \
	"^next: make a group, 'mkdir .*/new/groups/main', then 'clawmd -C .*/new compose main'" "$T/out"
: >"$T/new/groups/not-a-group"
expect_ok "init again, a file in groups/" "$CLAWMD" init "$T/new"
expect_grep "... a file is no group" "^next: make a group" "$T/out"
mkdir "$T/new/groups/main"
expect_ok "init again, with a group" "$CLAWMD" init "$T/new"
expect_grep "next: compose" "^next: 'clawmd -C .*/new compose --all'" "$T/out"
expect_grep "clawmd.json is plain JSON" '^  "claude_version": "[0-9.]+"$' "$T/new/clawmd.json"
expect_ok "init --preset nanoclaw on a new tree" "$CLAWMD" init -q --preset nanoclaw "$T/nano"
check "the nanoclaw preset's example is under container/skills" test -f "$T/nano/container/skills/example/SKILL.md"
expect_grep "--preset is in clawmd.json" '^  "preset": "nanoclaw",$' "$T/nano/clawmd.json"

done_testing
