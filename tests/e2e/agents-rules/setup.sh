mkdir -p top/.claude/rules top/proj/.claude/rules home/.claude
git init -q top/proj
echo "User CLAUDE.md." >home/.claude/CLAUDE.md
echo "Top rule." >top/.claude/rules/t.md
echo "Top AGENTS.md." >top/AGENTS.md
echo "Project rule." >top/proj/.claude/rules/p.md
echo "Project AGENTS.md." >top/proj/AGENTS.md
echo "Project rule." >top/proj/.claude/AGENTS.md
