set -e
git init -q main
git -C main -c user.email=a@b -c user.name=n commit -q --allow-empty -m init
git -C main worktree add -q wt 2>/dev/null
mkdir -p main/wt/sub
printf "WT\n" > main/wt/CLAUDE.md
printf "WTL\n" > main/wt/CLAUDE.local.md
printf "WTS\n" > main/wt/sub/CLAUDE.md
