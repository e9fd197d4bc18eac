mkdir -p sub home/.claude
echo "The root CLAUDE.md." >CLAUDE.md
echo "The sub CLAUDE.md." >sub/CLAUDE.md
echo "The root CONTEXT.md." >CONTEXT.md
echo "The home CLAUDE.md." >home/.claude/CLAUDE.md
echo "The home CLAUDE.local.md." >home/.claude/CLAUDE.local.md
