mkdir -p proj/.claude
git init -q proj
echo "Project CLAUDE.md." >proj/CLAUDE.md
echo "Project AGENTS.md." >proj/AGENTS.md
echo "Project .claude/AGENTS.md." >proj/.claude/AGENTS.md
