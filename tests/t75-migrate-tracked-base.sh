#!/bin/sh
# Adoption without surprises (issue 32 item 5): migrate runs at host start,
# unattended, so it changes no file git tracks.  The text of
# groups/global/CLAUDE.md that a git-tracked shared base lacks goes to the
# untracked review file beside the base, and a warning says where; a tree
# that is no git checkout appends to the base as before.  nanoclaw's own
# earlier outputs (its import-era entry and its flat document) are
# recognised as nanoclaw's and never carried into memory.
. "$CLAWMD_TESTS/lib.sh"

command -v git >/dev/null || { echo "1..0 # skip: no git"; exit 0; }
export GIT_CONFIG_NOSYSTEM=1 HOME=$T/home GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
mkdir -p "$HOME"

# nanoclaw_root DIR: a nanoclaw checkout before the cutover: the base and
# the runner tracked, groups/ not (nanoclaw's .gitignore), a global memory
# file holding one block the base has and two it lacks.
nanoclaw_root() {
	mkdir -p "$1/container/skills" "$1/groups/global" "$1/groups/main"
	printf '# NanoClaw\n\nBe helpful.\n\nShared rule.\n' >"$1/container/CLAUDE.md"
	printf 'groups/\n.clawmd/\n' >"$1/.gitignore"
	printf 'Shared rule.\n\n## Owner\nAnswers in French.\n\nSigns with -- bot.\n' >"$1/groups/global/CLAUDE.md"
	printf '@./.claude-global.md\n\nMain sells.\n' >"$1/groups/main/CLAUDE.md"
	ln -s ../global/CLAUDE.md "$1/groups/main/.claude-global.md"
}

R=$T/nano
nanoclaw_root "$R"
git -C "$R" init -q
git -C "$R" add .gitignore container
git -C "$R" commit -qm checkout
cp "$R/container/CLAUDE.md" "$T/base.before"
cp "$R/groups/global/CLAUDE.md" "$T/global.before"
REVIEW=$R/container/CLAUDE.md.clawmd-review

# ---- --dry-run: says it, writes nothing ----
expect_ok "migrate --dry-run" "$CLAWMD" -C "$R" --preset nanoclaw migrate --dry-run
expect_grep "--dry-run: the global text would go to the review file" \
	'^review-base +groups/global/CLAUDE\.md -> container/CLAUDE\.md\.clawmd-review \([0-9]+ bytes\)' "$T/out"
expect_grep "--dry-run: the warning says the base would be left unchanged" \
	"^clawmd: warning: container/CLAUDE.md is tracked by git, so migrate would leave it unchanged: .* would go in container/CLAUDE.md.clawmd-review" "$T/err"
check "--dry-run wrote no review file" test ! -e "$REVIEW"

# ---- the cutover ----
expect_ok "migrate" "$CLAWMD" -C "$R" --preset nanoclaw migrate
expect_grep "the global text went to the review file" \
	'^review-base +groups/global/CLAUDE\.md -> container/CLAUDE\.md\.clawmd-review \(48 bytes\)' "$T/out"
check "no append-base" sh -c "! grep -q '^append-base' '$T/out'"
expect_grep "a warning names the tracked base and the review file" \
	"^clawmd: warning: container/CLAUDE.md is tracked by git, so migrate left it unchanged: the 48 bytes of groups/global/CLAUDE.md it lacks are in container/CLAUDE.md.clawmd-review, which git does not track; review them, move what the agents should read into container/CLAUDE.md, commit it, and remove container/CLAUDE.md.clawmd-review$" "$T/err"
check "the tracked base is byte for byte what git has" cmp -s "$T/base.before" "$R/container/CLAUDE.md"
expect_eq "git status: no tracked file modified, nothing staged" \
	"$(git -C "$R" status --porcelain --untracked-files=no)" ""
expect_eq "git status lists the review file, untracked" \
	"$(git -C "$R" status --porcelain)" "?? container/CLAUDE.md.clawmd-review"
expect_grep "the review file starts with the marker" \
	'^<!-- clawmd migrate: carried from groups/global/CLAUDE\.md \(fnv1a64=[0-9a-f]{16}\) -->$' "$REVIEW"
expect_eq "... then the blocks the base lacks" "$(tail -n +2 "$REVIEW")" "## Owner
Answers in French.

Signs with -- bot."
# no text lost: every line of the global file is in the base or the review
# file, and the whole file is in the archive
lost=$(grep -v '^$' "$T/global.before" | while IFS= read -r l; do
	grep -qxF -- "$l" "$R/container/CLAUDE.md" || grep -qxF -- "$l" "$REVIEW" || echo "$l"; done)
expect_eq "no line of the global file is lost" "$lost" ""
check "the archive holds the global file as it was" \
	sh -c "cmp -s '$T/global.before' \"\$(ls -d '$R'/.clawmd/archive/global-*)/CLAUDE.md\""
check "the review file has the base's mode" \
	test "$(stat -c %a "$REVIEW")" = "$(stat -c %a "$R/container/CLAUDE.md")"
check "the group's memory was carried as before" grep -qx 'Main sells.' "$R/groups/main/CLAUDE.local.md"

# ---- a rerun (the global directory back, --force) appends nothing ----
cp "$REVIEW" "$T/review.before"
mkdir -p "$R/groups/global"
cp "$T/global.before" "$R/groups/global/CLAUDE.md"
expect_ok "migrate --force with the same global file" "$CLAWMD" -C "$R" --preset nanoclaw migrate --force
expect_grep "reported as already in the review file" \
	'^base-has +groups/global/CLAUDE\.md -> container/CLAUDE\.md\.clawmd-review .*already in the review file' "$T/out"
check "the review file is unchanged" cmp -s "$T/review.before" "$REVIEW"
check "the base is unchanged" cmp -s "$T/base.before" "$R/container/CLAUDE.md"

# ... new global text is appended to the review file, under its own marker
mkdir -p "$R/groups/global"
printf 'Signs with -- bot.\n\nNew rule.\n' >"$R/groups/global/CLAUDE.md"
expect_ok "migrate --force with new global text" "$CLAWMD" -C "$R" --preset nanoclaw migrate --force
expect_grep "only the new block" '^review-base +groups/global/CLAUDE\.md -> container/CLAUDE\.md\.clawmd-review \(10 bytes\)' "$T/out"
check "the earlier review text is kept" sh -c "head -c $(wc -c <"$T/review.before") '$REVIEW' | cmp -s - '$T/review.before'"
check "the new block follows its marker" sh -c "tail -n 2 '$REVIEW' | head -n 1 | grep -q '^<!-- clawmd migrate: carried from groups/global/CLAUDE.md' && tail -n 1 '$REVIEW' | grep -qx 'New rule.'"
expect_eq "still no tracked file modified" "$(git -C "$R" status --porcelain --untracked-files=no)" ""

# ---- something planted at the review name: global fails, nothing changes ----
P=$T/planted
nanoclaw_root "$P"
git -C "$P" init -q && git -C "$P" add .gitignore container && git -C "$P" commit -qm checkout
ln -s /etc/passwd "$P/container/CLAUDE.md.clawmd-review"
expect_fail 6 "a symlink at the review name: global fails (exit 6)" "$CLAWMD" -C "$P" --preset nanoclaw migrate
expect_grep "the error names the review file" "container/CLAUDE.md.clawmd-review' is not a regular file" "$T/err"
check "the global directory stays" test -f "$P/groups/global/CLAUDE.md"
check "the symlink is left as it is" test -L "$P/container/CLAUDE.md.clawmd-review"
expect_eq "... and the base unchanged" "$(git -C "$P" status --porcelain --untracked-files=no)" ""

# ---- an untracked base in a checkout, and no checkout at all: as before ----
U=$T/untracked
nanoclaw_root "$U"
git -C "$U" init -q
expect_ok "migrate, base untracked" "$CLAWMD" -C "$U" --preset nanoclaw migrate
expect_grep "appended to the base" '^append-base +groups/global/CLAUDE\.md -> container/CLAUDE\.md' "$T/out"
check "... which holds the text" grep -qx 'Answers in French.' "$U/container/CLAUDE.md"
check "no review file" test ! -e "$U/container/CLAUDE.md.clawmd-review"
N=$T/nogit
nanoclaw_root "$N"
expect_ok "migrate, no git checkout" "$CLAWMD" -C "$N" --preset nanoclaw migrate
expect_grep "appended to the base" '^append-base +groups/global/CLAUDE\.md -> container/CLAUDE\.md' "$T/out"
check "no review file" test ! -e "$N/container/CLAUDE.md.clawmd-review"
check "no warning about git" sh -c "! grep -q 'tracked by git' '$T/err'"

# ---- nanoclaw's own earlier outputs are nanoclaw's, never memory ----
H=$T/headers
mkdir -p "$H/container/skills" "$H/groups/v20" "$H/groups/flat" "$H/groups/edited"
printf '# Base\n' >"$H/container/CLAUDE.md"
# nanoclaw 2.0's import-era entry (src/claude-md-compose.ts)
printf '%s\n@./.claude-shared.md\n@./.claude-fragments/skill-browser.md\n' \
	'<!-- Composed at spawn — do not edit. Edit CLAUDE.local.md for per-group content. -->' \
	>"$H/groups/v20/CLAUDE.md"
# upstream's flat document (src/project-doc-compose.ts, pull request 3536)
printf '%s\n\n# NanoClaw Runtime Contract\n\nBase.\n' \
	'<!-- Composed at spawn - do not edit. Standing instructions: instructions.prepend.md. Memory: memory/. -->' \
	>"$H/groups/flat/CLAUDE.md"
# the 2.0 header over a hand-added line: the owner's text
printf '%s\n@./.claude-shared.md\nAnswer in French.\n' \
	'<!-- Composed at spawn — do not edit. Edit CLAUDE.local.md for per-group content. -->' \
	>"$H/groups/edited/CLAUDE.md"
expect_ok "migrate over nanoclaw's outputs" "$CLAWMD" -C "$H" --preset nanoclaw migrate
check "2.0's import header: nothing carried into memory" test ! -e "$H/groups/v20/CLAUDE.local.md"
check "the flat header: nothing carried into memory" test ! -e "$H/groups/flat/CLAUDE.local.md"
expect_grep "the edited one is carried" '^move +groups/edited/CLAUDE\.md -> groups/edited/CLAUDE\.local\.md' "$T/out"
expect_ok "compose --all" "$CLAWMD" -C "$H" --preset nanoclaw compose -q --all
check "2.0's entry replaced by clawmd's" grep -q 'clawmd:fnv1a64=' "$H/groups/v20/CLAUDE.md"
check "the flat document replaced by clawmd's" grep -q 'clawmd:fnv1a64=' "$H/groups/flat/CLAUDE.md"
check "nothing of either went aside" sh -c "! ls '$H/groups/v20' '$H/groups/flat' | grep -q clawmd-preserved"
# (the import layout's compose makes an empty CLAUDE.local.md for the agent)
check "their memory holds nothing of them" sh -c "test ! -s '$H/groups/v20/CLAUDE.local.md' && test ! -s '$H/groups/flat/CLAUDE.local.md'"

done_testing
