mkdir -p managed/.claude/rules home/.claude/rules p
echo "Managed CLAUDE.md." >managed/CLAUDE.md
echo "Managed rule." >managed/.claude/rules/m.md
echo "User CLAUDE.md." >home/.claude/CLAUDE.md
echo "User rule." >home/.claude/rules/u.md
echo "Project CLAUDE.md." >p/CLAUDE.md
