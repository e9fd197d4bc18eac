mkdir -p .hg a/.git a/b
echo "Root AGENTS.md (the .hg root)." >AGENTS.md
echo "A AGENTS.md (a .git, not a marker here)." >a/AGENTS.md
echo "B AGENTS.md." >a/b/AGENTS.md
