git init -q .
git -c user.name=e2e -c user.email=e2e@example.invalid commit -q --allow-empty -m init
git worktree add -q wt
printf 'gitdir: %s/.git/worktrees/wt\n' "$CT_ROOT" >wt/.git
mkdir -p home
echo "The main checkout's AGENTS.override.md: read (the worktree has no such name)." >AGENTS.override.md
echo "The main checkout's AGENTS.md: unread (its override comes first)." >AGENTS.md
echo "The worktree's AGENTS.md." >wt/AGENTS.md
