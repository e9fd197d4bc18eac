mkdir -p .git outer/inner/c
echo "gitdir: /nowhere" >outer/inner/.git
echo "Top AGENTS.md, above the nearer root." >AGENTS.md
echo "Outer AGENTS.md, above the nearer root." >outer/AGENTS.md
echo "Inner AGENTS.md (the root)." >outer/inner/AGENTS.md
echo "C AGENTS.md." >outer/inner/c/AGENTS.md
