mkdir -p proj home/.claude/rules
git init -q proj
echo "User CLAUDE.md." >home/.claude/CLAUDE.md
echo "User rule." >home/.claude/rules/u.md
echo "User AGENTS.md, never read." >home/.claude/AGENTS.md
echo "Project AGENTS.md." >proj/AGENTS.md
echo "Project AGENTS.local.md, never read." >proj/AGENTS.local.md
