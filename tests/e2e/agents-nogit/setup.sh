mkdir -p top/proj/.claude
echo "Top AGENTS.md." >top/AGENTS.md
echo "Project .claude/AGENTS.md." >top/proj/.claude/AGENTS.md
