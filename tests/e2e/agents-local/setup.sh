mkdir -p proj
git init -q proj
echo "Project CLAUDE.local.md." >proj/CLAUDE.local.md
echo "Project AGENTS.md." >proj/AGENTS.md
