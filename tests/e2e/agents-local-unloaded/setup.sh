mkdir -p proj
git init -q proj
echo "Project CLAUDE.local.md, not loaded." >proj/CLAUDE.local.md
echo "Project AGENTS.md." >proj/AGENTS.md
