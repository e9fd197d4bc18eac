# A worktree as Claude Code recognises it, by its files alone: main/.git
# holds only worktrees/wt/{gitdir,commondir} (no HEAD, no objects: not a
# repository libgit2 would open), and main/wt/.git points at it.
set -e
mkdir -p main/.git/worktrees/wt main/wt/sub
printf 'gitdir: %s/main/.git/worktrees/wt\n' "$ROOT" >main/wt/.git
printf '../..\n' >main/.git/worktrees/wt/commondir
printf '%s/main/wt/.git\n' "$ROOT" >main/.git/worktrees/wt/gitdir
printf "WT\n" > main/wt/CLAUDE.md
printf "WTL\n" > main/wt/CLAUDE.local.md
printf "WTS\n" > main/wt/sub/CLAUDE.md
