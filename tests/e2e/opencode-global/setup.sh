mkdir -p sub home/.claude home/.config/opencode
echo "The root CONTEXT.md." >CONTEXT.md
echo "The global AGENTS.md." >home/.config/opencode/AGENTS.md
echo "The global AGENTS.local.md." >home/.config/opencode/AGENTS.local.md
echo "The home CLAUDE.md." >home/.claude/CLAUDE.md
