ln -s AGENTS.md w/CTX.md
echo "gitdir: /nowhere" >.git
