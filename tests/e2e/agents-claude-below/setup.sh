mkdir -p proj/sub
git init -q proj
echo "Root AGENTS.md." >proj/AGENTS.md
echo "Sub CLAUDE.md." >proj/sub/CLAUDE.md
