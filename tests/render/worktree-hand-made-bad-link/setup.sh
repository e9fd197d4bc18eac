# worktree-hand-made's worktree, but its gitdir file does not lead back to
# main/wt/.git: the link is not validated, so there is no nested worktree
# and main's project files load.
set -e
sh "$(dirname "$0")/../worktree-hand-made/setup.sh"
printf '%s/elsewhere/.git\n' "$ROOT" >main/.git/worktrees/wt/gitdir
