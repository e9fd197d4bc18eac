mkdir -p sub/AGENTS.md
echo "The root CLAUDE.md." >CLAUDE.md
