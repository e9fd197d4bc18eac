set -e
cd main
git init -q . && git -c user.email=t@t -c user.name=t add -A && git -c user.email=t@t -c user.name=t commit -qm init
git worktree add -q wt 2>/dev/null
printf 'wt\n' > wt/CLAUDE.md
mkdir -p wt/sub && printf 'wt sub local\n' > wt/sub/CLAUDE.local.md
