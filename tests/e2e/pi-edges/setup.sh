# the main checkout, with a commit for a worktree to check out
git init -q .
git -c user.name=e2e -c user.email=e2e@example.invalid commit -q --allow-empty -m init
git worktree add -q wt
# the worktree's .git names its git directory where the run sees the tree
printf 'gitdir: %s/.git/worktrees/wt\n' "$CT_ROOT" >wt/.git
mkdir -p home/.pi/agent wt/a/b
printf '\357\273\277The agent directory'"'"'s CLAUDE.md (no AGENTS file there), its BOM dropped.\n' \
	>home/.pi/agent/CLAUDE.md
echo "The main checkout's AGENTS.md: shadowed by the worktree's, never read." >AGENTS.md
echo "The main checkout's CLAUDE.md: never read (pi takes nothing else where it skipped)." >CLAUDE.md
printf '\357\273\277The worktree'"'"'s AGENTS.md, its BOM dropped.\n' >wt/AGENTS.md
echo "Read through the link wt/a/CLAUDE.md." >outside.md
mkdir wt/a/AGENTS.override.md
ln -s missing.md wt/a/AGENTS.md
mkfifo wt/a/AGENTS.MD
ln -s ../../outside.md wt/a/CLAUDE.md
printf 'Bad bytes: \377 \300\200 \360\237\230x \355\240\200 end.\r\nA CRLF line.\r\n' >wt/a/b/AGENTS.md
