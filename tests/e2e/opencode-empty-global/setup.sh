mkdir -p home/.config/opencode home/.claude
: >home/.config/opencode/AGENTS.md
echo "The home CLAUDE.md." >home/.claude/CLAUDE.md
echo "The project AGENTS.md." >AGENTS.md
