mkdir -p top/.claude top/proj/sub
git init -q top/proj
echo "Above the root: .claude/CLAUDE.md." >top/.claude/CLAUDE.md
echo "Root AGENTS.md." >top/proj/AGENTS.md
