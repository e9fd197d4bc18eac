# The same, but the worktree's gitdir file does not lead back to main/wt/.git:
# the link is not validated, so there is no nested worktree and main's
# project files load.
set -e
mkdir -p main/.git/worktrees/wt main/wt/sub
printf 'gitdir: %s/main/.git/worktrees/wt\n' "$ROOT" >main/wt/.git
printf '../..\n' >main/.git/worktrees/wt/commondir
printf '%s/elsewhere/.git\n' "$ROOT" >main/.git/worktrees/wt/gitdir
printf "WT\n" > main/wt/CLAUDE.md
printf "WTL\n" > main/wt/CLAUDE.local.md
printf "WTS\n" > main/wt/sub/CLAUDE.md
