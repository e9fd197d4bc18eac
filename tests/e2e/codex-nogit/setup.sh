mkdir -p a/b
echo "Root AGENTS.md, not read." >AGENTS.md
echo "A AGENTS.md, not read." >a/AGENTS.md
echo "B AGENTS.md." >a/b/AGENTS.md
